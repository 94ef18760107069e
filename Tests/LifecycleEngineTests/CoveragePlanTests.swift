import LifecycleEngine
import Testing

@Suite("Coverage plan: paths that take every transition")
struct CoveragePlanTests {
    /// A player: a compound state, a guard that needs a non-default start, `set`, an eventless
    /// transition out of a compound, a raised internal event, an internal transition.
    static func player() throws -> Machine {
        try Machine(
            id: "player",
            states: [
                StateNode(id: "off"),
                StateNode(id: "on", children: ["idle", "playing"], initial: "idle"),
                StateNode(id: "idle", parent: "on"),
                StateNode(id: "playing", parent: "on"),
            ],
            initial: "off",
            events: [
                LifecycleEvent(id: "power", kind: .user), LifecycleEvent(id: "play", kind: .user),
                LifecycleEvent(id: "stop", kind: .user), LifecycleEvent(id: "tick", kind: .system),
                LifecycleEvent(id: "rewind", kind: .internal), LifecycleEvent(id: "vipOnly", kind: .user),
            ],
            flags: [LifecycleFlag(id: "charged", defaultValue: true), LifecycleFlag(id: "vip")],
            callbacks: [LifecycleCallback(id: "didPowerOn"), LifecycleCallback(id: "willPlay")],
            notifications: [LifecycleNotification(id: "rewound")],
            transitions: [
                Transition(
                    sources: ["off"], trigger: .event("power"), guardExpression: .flag("charged"), target: "on",
                    actions: [.callback("didPowerOn")]),
                Transition(sources: ["on"], trigger: .event("power"), target: "off"),
                Transition(
                    sources: ["idle"], trigger: .event("play"), target: "playing", actions: [.callback("willPlay")]),
                Transition(sources: ["playing"], trigger: .event("stop"), target: "idle", raises: ["rewind"]),
                Transition(sources: ["idle"], trigger: .event("rewind"), target: nil, actions: [.notify("rewound")]),
                Transition(
                    sources: ["playing"], trigger: .event("tick"), target: nil,
                    assignments: [FlagAssignment(flag: "charged", value: false)]),
                Transition(sources: ["on"], trigger: .always, guardExpression: .not(.flag("charged")), target: "off"),
                Transition(
                    sources: ["idle"], trigger: .event("vipOnly"), guardExpression: .flag("vip"), target: "playing"),
            ]
        )
    }

    /// Replays every path with a fresh `Runner` and returns the transitions taken.
    static func replay(_ plan: CoveragePlan, on machine: Machine) throws -> Set<Int> {
        var taken: Set<Int> = []
        for path in plan.paths {
            var runner = try Runner(machine: machine, state: path.start.state, flags: path.start.flags(in: machine))
            for step in path.steps {
                #expect(runner.state == step.from.state)
                let steps = try runner.send(step.event)
                let indices = steps.compactMap { step -> Int? in
                    if case .transition(let transition) = step { transition.transitionIndex } else { nil }
                }
                #expect(indices == step.transitions)
                #expect(runner.state == step.to.state)
                #expect(runner.flags == step.to.flags(in: machine))
                taken.formUnion(indices)
            }
        }
        return taken
    }

    @Test func replayingThePathsTakesEveryTransitionIncludingEventlessAndInternalOnes() throws {
        let machine = try Self.player()
        let plan = CoveragePlan(machine: machine)
        #expect(plan.isComplete)
        #expect(plan.covered == Array(machine.transitions.indices))
        #expect(try Self.replay(plan, on: machine) == Set(machine.transitions.indices))
        // Internal events are never sent: the internal transition is covered through `raise`.
        #expect(plan.paths.allSatisfy { $0.steps.allSatisfy { $0.event != "rewind" } })
    }

    @Test func aGuardNoTransitionSatisfiesNeedsARestartWithOtherFlags() throws {
        let machine = try Self.player()
        let plan = CoveragePlan(machine: machine)
        #expect(plan.paths.count == 2)
        #expect(plan.paths[0].start.flags(in: machine) == ["charged": true, "vip": false])
        #expect(plan.paths[1].start.flags(in: machine)["vip"] == true)
        #expect(plan.paths[1].newlyCovered == [7])
        #expect(plan.paths.allSatisfy { !$0.newlyCovered.isEmpty })
    }

    @Test func aCycleIsCoveredByOnePathOfMinimalLength() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b"), .leaf("c"), .leaf("d")],
            initial: "a",
            transitions: [
                T("a", on: "ab", to: "b"), T("b", on: "bc", to: "c"),
                T("c", on: "cd", to: "d"), T("d", on: "da", to: "a"),
            ]
        )
        let plan = CoveragePlan(machine: machine)
        #expect(plan.paths.count == 1)
        #expect(plan.paths[0].steps.map(\.event) == ["ab", "bc", "cd", "da"])
        #expect(plan.lowerBound == 4)
        #expect(plan.stepCount == plan.lowerBound)
    }

    @Test func aBranchIsCoveredByWalkingOnNotByOnePathPerTransition() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b"), .leaf("c"), .leaf("d")],
            initial: "a",
            events: ["go", "near", "back"],
            transitions: [
                T("a", on: "go", to: "b"), T("b", on: "go", to: "c"), T("c", on: "go", to: "d"),
                T("a", on: "near", to: nil), T("d", on: "back", to: "a"),
            ]
        )
        let plan = CoveragePlan(machine: machine)
        #expect(plan.isComplete)
        #expect(plan.paths.count == 1)
        #expect(plan.paths[0].steps.map(\.event) == ["go", "go", "go", "back", "near"])
        #expect(plan.stepCount == plan.lowerBound)
    }

    @Test func amongTheNearestTheEventTakingMoreNewTransitionsWins() throws {
        // From a, `plain` and `chain` are both one event away; `chain` also takes an eventless
        // transition and a raised one, so the walk sends it first.
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b"), .leaf("c")],
            initial: "a",
            events: ["plain", "chain", "ping", "back"],
            transitions: [
                T("a", on: "plain", to: nil),
                T("a", on: "chain", to: "b", raise: ["ping"]),
                T("b", to: "c"),
                T("c", on: "ping", to: nil),
                T("c", on: "back", to: "a"),
            ]
        )
        let plan = CoveragePlan(machine: machine)
        #expect(plan.paths.count == 1)
        #expect(plan.paths[0].steps.map(\.event) == ["chain", "back", "plain"])
        #expect(plan.paths[0].steps[0].transitions == [1, 2, 3])
    }

    @Test func theLowerBoundNeverExceedsTheEventsSentAndDiscountsRaisedEvents() throws {
        let machine = try Self.player()
        let plan = CoveragePlan(machine: machine)
        // Transitions on sent events: power ×2, play, stop, tick, vipOnly. `rewind` is raised and the
        // eventless one follows another transition, so neither needs an event of its own.
        #expect(plan.lowerBound == 6)
        #expect(plan.stepCount >= plan.lowerBound)
    }

    @Test func everyUncoverableTransitionIsNamedWithItsReason() throws {
        let machine = try Machine(
            id: "stuck",
            states: [
                StateNode(id: "boot"), StateNode(id: "main"), StateNode(id: "island"),
                StateNode(id: "outer", children: ["inner"], initial: "inner"), StateNode(id: "inner", parent: "outer"),
                StateNode(id: "armed"),
            ],
            initial: "boot",
            events: [
                LifecycleEvent(id: "go", kind: .user), LifecycleEvent(id: "fire", kind: .user),
                LifecycleEvent(id: "tick", kind: .internal),
            ],
            flags: [LifecycleFlag(id: "ready"), LifecycleFlag(id: "x")],
            transitions: [
                Transition(sources: ["boot"], trigger: .always, target: "main"),  // 0 only while starting
                Transition(sources: ["main"], trigger: .event("go"), target: "outer"),  // 1
                Transition(
                    sources: ["inner"], trigger: .event("go"), target: "armed",
                    assignments: [FlagAssignment(flag: "ready", value: false)]),  // 2
                Transition(sources: ["outer"], trigger: .event("go"), target: "main"),  // 3 preempted by 2
                Transition(sources: ["island"], trigger: .event("go"), target: "main"),  // 4 unreachable
                // 5 never enabled
                Transition(
                    sources: ["armed"], trigger: .event("fire"), guardExpression: .flag("ready"), target: "main"),
                Transition(
                    sources: ["armed"], trigger: .event("go"), guardExpression: .and(.flag("x"), .not(.flag("x"))),
                    target: "main"),  // 6
                Transition(sources: ["armed"], trigger: .event("tick"), target: "main"),  // 7 internal, never raised
                // 8
                Transition(
                    sources: ["armed"], trigger: .event("go"), guardExpression: .not(.flag("ready")), target: "main"),
            ]
        )
        let plan = CoveragePlan(machine: machine)
        #expect(plan.covered == [1, 2, 8])
        let reasons = Dictionary(uniqueKeysWithValues: plan.uncoverable.map { ($0.transition, $0.reason) })
        #expect(reasons[0] == .onlyWhileStarting)
        #expect(reasons[3] == .preempted(by: [2]))
        #expect(reasons[4] == .unreachableSource)
        #expect(reasons[5] == .neverEnabled)
        #expect(reasons[6] == .unsatisfiableGuard(.and(.flag("x"), .not(.flag("x")))))
        #expect(reasons[7] == .internalEventNeverRaised("tick"))
        #expect(plan.uncoverable.map(\.transition) == [0, 3, 4, 5, 6, 7])
        #expect(CoveragePlan.uncoverableTransitions(in: machine) == plan.uncoverable)
        #expect(reasons[3]?.description.contains("transition 2") == true)
        #expect(reasons[6]?.description.contains("x && !x") == true)
    }

    @Test func thePlanIsDeterministic() throws {
        let machine = try Self.player()
        #expect(CoveragePlan(machine: machine) == CoveragePlan(machine: machine))
    }

    @Test func aMachineWithoutTransitionsHasNothingToCover() throws {
        let machine = try makeMachine([.leaf("only")], initial: "only", transitions: [])
        let plan = CoveragePlan(machine: machine)
        #expect(plan.paths.isEmpty)
        #expect(plan.isComplete)
        #expect(plan.transitionCount == 0)
    }

    /// Every (transition, source state) pair the plan's paths take, replayed through a fresh runner.
    static func takenFromSources(_ plan: CoveragePlan, on machine: Machine) throws -> Set<[String]> {
        var taken: Set<[String]> = []
        for path in plan.paths {
            var runner = try Runner(machine: machine, state: path.start.state, flags: path.start.flags(in: machine))
            for step in path.steps {
                for case .transition(let transition) in try runner.send(step.event) {
                    taken.insert(["\(transition.transitionIndex)", transition.from])
                }
            }
        }
        return taken
    }

    @Test func aTransitionFromSeveralStatesIsCoveredFromEachOfThem() throws {
        // `fail` from `idle` is one step from the start; from `navigating` it takes a detour the old
        // plan, counting the transition once, never made.
        let machine = try makeMachine(
            [.leaf("idle"), .leaf("navigating"), .leaf("failed")], initial: "idle",
            transitions: [
                try T("idle", on: "go", to: "navigating"),
                try T("idle", "navigating", on: "fail", to: "failed"),
                try T("failed", on: "reset", to: "idle"),
            ])
        let plan = CoveragePlan(machine: machine)
        #expect(plan.transitionCount == 4)
        #expect(plan.coveredCount == 4)
        #expect(plan.covered == [0, 1, 2])
        #expect(plan.isComplete)
        let taken = try Self.takenFromSources(plan, on: machine)
        #expect(taken.isSuperset(of: [["1", "idle"], ["1", "navigating"]]))
        // Each source needs an event of its own.
        #expect(plan.lowerBound == 4)
    }

    @Test func aSourceNoPathTakesATransitionFromIsNamedAndNotCounted() throws {
        // `broken` is never entered: `fail` is covered from `idle` only.
        let machine = try makeMachine(
            [.leaf("idle"), .leaf("broken"), .leaf("failed")], initial: "idle",
            transitions: [
                try T("idle", "broken", on: "fail", to: "failed"),
                try T("failed", on: "reset", to: "idle"),
            ])
        let plan = CoveragePlan(machine: machine)
        #expect(plan.transitionCount == 3)
        #expect(plan.coveredCount == 2)
        #expect(plan.covered == [0, 1])
        #expect(
            plan.uncoverable.map(\.description) == [
                "transition 0 from 'broken': \(UncoverableReason.unreachableSource)"
            ])
    }

    @Test func eachTargetOfAMultiTargetTransitionCounts() throws {
        let machine = try Machine(
            id: "fork",
            states: [
                StateNode(id: "off"),
                StateNode(id: "on", children: ["audio", "video"], isParallel: true),
                StateNode(id: "audio", parent: "on", children: ["muted", "loud"], initial: "loud"),
                StateNode(id: "muted", parent: "audio"), StateNode(id: "loud", parent: "audio"),
                StateNode(id: "video", parent: "on", children: ["dark", "lit"], initial: "lit"),
                StateNode(id: "dark", parent: "video"), StateNode(id: "lit", parent: "video"),
            ],
            initial: "off",
            events: [LifecycleEvent(id: "quiet"), LifecycleEvent(id: "off")],
            transitions: [
                Transition(sources: ["off"], events: ["quiet"], targets: ["muted", "dark"]),
                Transition(sources: ["on"], events: ["off"], targets: ["off"]),
            ])
        let plan = CoveragePlan(machine: machine)
        #expect(plan.transitionCount == 3)
        #expect(plan.coveredCount == 3)
        #expect(plan.lowerBound == 2)
    }

    /// A transition the event selects but whose step always fails is not "preempted by itself".
    @Test func aTransitionWhoseStepAlwaysFailsSaysWhy() throws {
        let machine = try Machine(
            id: "raise",
            states: [StateNode(id: "a"), StateNode(id: "b")],
            initial: "a",
            events: [LifecycleEvent(id: "x", kind: .user), LifecycleEvent(id: "ping", kind: .internal)],
            transitions: [
                Transition(sources: ["a"], trigger: .event("x"), target: "b", raises: ["ping"]),  // 0
                Transition(sources: ["b"], trigger: .event("x"), target: "a"),  // 1
            ])
        let reasons = Dictionary(
            uniqueKeysWithValues: CoveragePlan(machine: machine).uncoverable.map { ($0.transition, $0.reason) })
        guard case .failsItsStep(let error) = reasons[0] else {
            Issue.record("transition 0: \(String(describing: reasons[0]))")
            return
        }
        #expect(error.contains("'ping'") && error.contains("'b'"), "\(error)")
    }

    /// In parallel regions a transition declared on both regions' states is selected once, from
    /// the first; it still preempts the second region's own transition, guard or no guard.
    @Test func aTransitionDeclaredOnTwoRegionsPreemptsEachRegionsOwn() throws {
        let machine = try Machine(
            id: "regions",
            states: [
                StateNode(id: "idle"),
                StateNode(id: "work", children: ["a", "b"], isParallel: true),
                StateNode(id: "a", parent: "work", children: ["a1", "a2"], initial: "a1"),
                StateNode(id: "a1", parent: "a"), StateNode(id: "a2", parent: "a"),
                StateNode(id: "b", parent: "work", children: ["b1", "b2"], initial: "b1"),
                StateNode(id: "b1", parent: "b"), StateNode(id: "b2", parent: "b"),
            ],
            initial: "idle",
            events: [LifecycleEvent(id: "go"), LifecycleEvent(id: "fin")],
            transitions: [
                Transition(sources: ["idle"], events: ["go"], targets: ["work"]),  // 0
                Transition(sources: ["a1", "b1"], events: ["fin"], targets: ["a2", "b2"]),  // 1
                Transition(sources: ["a1"], events: ["fin"], targets: ["a2"]),  // 2
                Transition(sources: ["b1"], events: ["fin"], targets: ["b2"]),  // 3
                Transition(sources: ["work"], events: ["go"], targets: ["idle"]),  // 4
            ])
        let reasons = Dictionary(
            uniqueKeysWithValues: CoveragePlan(machine: machine).uncoverable.map { ($0.transition, $0.reason) })
        #expect(reasons[2] == .preempted(by: [1]))
        #expect(reasons[3] == .preempted(by: [1]))
    }
}
