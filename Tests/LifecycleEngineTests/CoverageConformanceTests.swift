import LifecycleEngine
import Testing

/// The conformance plan built on the coverage plan, and the checker every generated test calls.
@Suite("Conformance cases: planning and checking")
struct CoverageConformanceTests {
    /// `on` posts `powered` after `didPowerOn`; `willPlay` has `willPlayNote` posted before it.
    static func machine() throws -> Machine {
        try Machine(
            id: "player",
            states: [StateNode(id: "off"), StateNode(id: "idle"), StateNode(id: "playing"), StateNode(id: "attic")],
            initial: "off",
            events: [
                LifecycleEvent(id: "power", kind: .user), LifecycleEvent(id: "play", kind: .user),
                LifecycleEvent(id: "stop", kind: .user), LifecycleEvent(id: "rewind", kind: .internal),
            ],
            flags: [LifecycleFlag(id: "charged", defaultValue: true)],
            callbacks: [
                LifecycleCallback(id: "didPowerOn", posts: PostedNotification(notification: "powered", order: .after)),
                LifecycleCallback(
                    id: "willPlay", posts: PostedNotification(notification: "willPlayNote", order: .before)),
                LifecycleCallback(id: "didStop"),
                LifecycleCallback(id: "neverCalled", posts: PostedNotification(notification: "ghost")),
            ],
            notifications: [
                LifecycleNotification(id: "powered"), LifecycleNotification(id: "willPlayNote"),
                LifecycleNotification(id: "ghost"), LifecycleNotification(id: "rewound"),
            ],
            transitions: [
                Transition(
                    sources: ["off"], trigger: .event("power"), guardExpression: .flag("charged"), target: "idle",
                    actions: [.callback("didPowerOn")]),
                Transition(
                    sources: ["idle"], trigger: .event("play"), target: "playing", actions: [.callback("willPlay")]),
                Transition(
                    sources: ["playing"], trigger: .event("stop"), target: "idle", actions: [.callback("didStop")],
                    raises: ["rewind"]),
                Transition(sources: ["idle"], trigger: .event("rewind"), target: nil, actions: [.notify("rewound")]),
                Transition(sources: ["idle", "playing"], trigger: .event("power"), target: "off"),
                Transition(
                    sources: ["attic"], trigger: .event("power"), target: "off", actions: [.callback("neverCalled")]),
            ]
        )
    }

    static func plan() throws -> ConformancePlan {
        try ConformancePlan(
            machine: machine(),
            scenarios: [
                ConformanceScenario(id: "listen", title: "Power on and listen", events: ["power", "play", "stop"]),
                ConformanceScenario(id: "from-idle", from: "idle", flags: ["charged": false], events: ["play"]),
            ])
    }

    static func runAll(_ cases: [ConformancePlan.Case], on system: some LifecycleSystem) -> [ConformanceFailure] {
        var failures: [ConformanceFailure] = []
        for item in cases {
            var copy = system
            failures += item.conformanceCase(summary: item.id).run(on: &copy)
        }
        return failures
    }

    // MARK: Planning

    @Test func scenarioCasesCarryTheEnginesTraceAndFinalState() throws {
        let plan = try Self.plan()
        let listen = try #require(plan.cases.first { $0.id == "scenario:listen" })
        #expect(listen.kind == .scenario)
        #expect(listen.origin == .scenario(id: "listen", title: "Power on and listen"))
        #expect(listen.name == "listen")
        #expect(listen.start == "off")
        #expect(listen.steps == [.send("power"), .send("play"), .send("stop")])
        #expect(
            listen.checks == [
                .trace([
                    .callback("didPowerOn"), .notification("powered"), .notification("willPlayNote"),
                    .callback("willPlay"),
                    .callback("didStop"), .notification("rewound"),
                ]),
                .state("idle"),
            ])
        let fromIdle = try #require(plan.cases.first { $0.id == "scenario:from-idle" })
        #expect(fromIdle.start == "idle")
        #expect(fromIdle.flags == ["charged": false])
    }

    @Test func coverageCasesCheckEveryStepAndTakeEveryCoverableTransition() throws {
        let plan = try Self.plan()
        let coverage = plan.cases.filter { $0.kind == .coverage }
        #expect(coverage.count == plan.coverage.paths.count)
        #expect(plan.coverage.uncoverable.map(\.transition) == [5])
        for item in coverage {
            for step in item.steps {
                guard case .handled(let observations, let state) = step.expectation else {
                    Issue.record("a coverage step expects a rejection")
                    continue
                }
                #expect(observations != nil && state != nil)
            }
        }
        #expect(Self.runAll(coverage, on: try EngineLifecycleSystem(machine: Self.machine())).isEmpty)
    }

    @Test func rejectionCasesListExactlyTheUnhandledExternalEventsThenProbeOne() throws {
        let plan = try Self.plan()
        let rejections = plan.cases.filter { $0.kind == .rejection }
        #expect(rejections.map(\.id) == ["rejection:off", "rejection:idle", "rejection:playing"])
        let idle = try #require(rejections.first { $0.id == "rejection:idle" })
        // `rewind` is internal: never sent by a test, so never listed.
        #expect(idle.steps == [.reject("stop"), .send("power", expect: [], state: "off")])
        #expect(plan.notes.contains(.neverAtRest(configuration: "attic")))
    }

    @Test func orderingCasesCheckTheDeclaredSideOfEveryPostingCallbackThatCanRun() throws {
        let plan = try Self.plan()
        let orderings = plan.cases.filter { $0.kind == .ordering }
        #expect(orderings.map(\.id) == ["ordering:didPowerOn", "ordering:willPlay"])
        #expect(orderings[1].checks == [.order(callback: "willPlay", notification: "willPlayNote", .before)])
        #expect(orderings[1].steps.map(\.event) == ["power", "play"])
        #expect(plan.notes.contains(.callbackNeverCalled(callback: "neverCalled")))
    }

    @Test func caseIDsAreUniqueAndThePlanIsDeterministic() throws {
        let plan = try Self.plan()
        #expect(Set(plan.cases.map(\.id)).count == plan.cases.count)
        #expect(try Self.plan().cases == plan.cases)
    }

    @Test func theEnginePassesEveryCaseAndSoDoesAClassWrappingIt() throws {
        let plan = try Self.plan()
        let engine = try EngineLifecycleSystem(machine: Self.machine())
        #expect(Self.runAll(plan.cases, on: engine).isEmpty)
        let harness = ClassHarness(engine)
        #expect(Self.runAll(plan.cases, on: harness).isEmpty)
        #expect(harness.sent > 0)
    }

    // MARK: The engine adapter

    @Test func theAdapterRejectsAnUnhandledEventAndChangesNothing() throws {
        var system = try EngineLifecycleSystem(machine: Self.machine())
        try system.reset(to: "playing", flags: ["charged": false])
        #expect(try system.send("play") == .rejected)
        #expect(system.currentState == "playing")
        #expect(system.flags == ["charged": false])
        #expect(try system.send("stop") == .handled([.callback("didStop"), .notification("rewound")]))
        #expect(system.currentState == "idle")
        #expect(throws: RunError.unknownEvent("nope")) { try system.send("nope") }
        #expect(throws: RunError.unknownState("nowhere")) { try system.reset(to: "nowhere", flags: [:]) }
    }

    // MARK: The checker

    static func single(_ steps: [ConformanceStep], start: String = "off", checks: [ConformanceCheck] = [])
        -> ConformanceCase
    {
        ConformanceCase(id: "t", kind: .coverage, summary: "t", start: start, steps: steps, checks: checks)
    }

    @Test func aWrongTraceIsReportedAtItsStepAndTheRunGoesOn() throws {
        var system = try EngineLifecycleSystem(machine: Self.machine())
        let failures = Self.single([
            .send("power", expect: [.notification("powered"), .callback("didPowerOn")], state: "idle"),
            .send("play", expect: [], state: "playing"),
        ]).run(on: &system)
        #expect(failures.map(\.step) == [1, 2])
        #expect(
            failures[0].message.contains(
                "was observed as [didPowerOn, notify: powered], expected [notify: powered, didPowerOn]"))
        #expect(failures[0].description.hasPrefix("[t] step 1:"))
    }

    @Test func aWrongStateEndsTheRun() throws {
        var system = try EngineLifecycleSystem(machine: Self.machine())
        let failures = Self.single([.send("power", state: "playing"), .send("stop")]).run(on: &system)
        #expect(failures.count == 1)
        #expect(failures[0].message.contains("is in 'idle', expected 'playing'"))
    }

    @Test func aRejectionWhereTheSpecHandlesTheEventIsAFailure() throws {
        var system = try EngineLifecycleSystem(machine: Self.machine())
        let failures = Self.single([.send("stop")]).run(on: &system)
        #expect(failures.map(\.message) == ["'stop' was rejected in 'off', but the spec handles it there"])
    }

    @Test func handlingAnEventTheSpecRejectsIsAFailure() throws {
        var system = try EngineLifecycleSystem(machine: Self.machine())
        let failures = Self.single([.reject("power")]).run(on: &system)
        #expect(failures.count == 1)
        #expect(failures[0].message.contains("was handled in 'off'"))
    }

    @Test func aRejectionThatMovesTheSystemIsAFailure() throws {
        var system = ScriptedSystem(state: "idle", outcome: .rejected, stateAfterSend: "off")
        let failures = Self.single([.reject("stop")], start: "idle").run(on: &system)
        #expect(failures.map(\.message) == ["rejecting 'stop' moved the system from 'idle' to 'off'"])
    }

    @Test func aResetThatFailsOrLandsElsewhereIsAFailure() throws {
        var throwing = ScriptedSystem(state: "idle", outcome: .rejected, resetFails: true)
        #expect(Self.single([.reject("x")], start: "idle").run(on: &throwing).map(\.step) == [nil])
        var elsewhere = ScriptedSystem(state: "off", outcome: .rejected, ignoresReset: true)
        let failures = Self.single([.reject("x")], start: "idle").run(on: &elsewhere)
        #expect(failures.map(\.message) == ["after reset to 'idle' the system is in 'off'"])
    }

    @Test func traceAndStateChecksCompareTheWholeRun() throws {
        var system = try EngineLifecycleSystem(machine: Self.machine())
        let failures = Self.single(
            [.send("power"), .send("play")],
            checks: [
                .trace([
                    .callback("didPowerOn"), .notification("powered"), .callback("willPlay"),
                    .notification("willPlayNote"),
                ]),
                .state("idle"),
            ]
        ).run(on: &system)
        #expect(failures.count == 2)
        #expect(failures[0].message.hasPrefix("the trace differs from entry 3 on"))
        #expect(failures[1].message == "the run ends in 'playing', expected 'idle'")
    }

    @Test func orderChecksNeedTheNotificationRightOnTheDeclaredSide() {
        let check = ConformanceCheck.order(callback: "cb", notification: "n", .after)
        var swapped = ScriptedSystem(state: "a", outcome: .handled([.notification("n"), .callback("cb")]))
        var right = ScriptedSystem(state: "a", outcome: .handled([.callback("cb"), .notification("n")]))
        var missing = ScriptedSystem(state: "a", outcome: .handled([.callback("other")]))
        let test = Self.single([.send("go")], start: "a", checks: [check])
        #expect(test.run(on: &right).isEmpty)
        #expect(
            test.run(on: &swapped).map(\.message) == [
                "'n' must be observed right after 'cb' (observed [notify: n, cb])"
            ])
        #expect(test.run(on: &missing).first?.message.contains("'cb' was never called") == true)
        let before = Self.single(
            [.send("go")], start: "a", checks: [.order(callback: "cb", notification: "n", .before)])
        #expect(before.run(on: &swapped).isEmpty)
        #expect(!before.run(on: &right).isEmpty)
    }

    @Test func aSystemThatThrowsOnSendFailsTheStep() {
        var system = ScriptedSystem(state: "a", outcome: .rejected, sendFails: true)
        let failures = Self.single([.send("go"), .send("go")], start: "a").run(on: &system)
        #expect(failures.count == 1)
        #expect(failures[0].step == 1)
        #expect(failures[0].message.contains("threw"))
    }
}

/// A reference-type system under test: a class satisfies the `mutating` requirements.
final class ClassHarness: LifecycleSystem {
    private var engine: EngineLifecycleSystem
    private(set) var sent = 0
    init(_ engine: EngineLifecycleSystem) { self.engine = engine }
    var currentState: String { engine.currentState }
    func reset(to state: String, flags: [String: Bool]) throws { try engine.reset(to: state, flags: flags) }
    func send(_ event: String) throws -> EventOutcome {
        sent += 1
        return try engine.send(event)
    }
}

/// A system whose answers are fixed, for checking the checker.
struct ScriptedSystem: LifecycleSystem {
    struct Failure: Error {}
    var state: String
    var outcome: EventOutcome
    var stateAfterSend: String?
    var resetFails = false
    var ignoresReset = false
    var sendFails = false

    var currentState: String { state }

    mutating func reset(to state: String, flags: [String: Bool]) throws {
        if resetFails { throw Failure() }
        if !ignoresReset { self.state = state }
    }

    mutating func send(_ event: String) throws -> EventOutcome {
        if sendFails { throw Failure() }
        if let stateAfterSend { state = stateAfterSend }
        return outcome
    }
}
