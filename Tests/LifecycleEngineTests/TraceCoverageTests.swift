import LifecycleEngine
import Testing

@Suite("TraceChecker coverage: what the explanations of a log exercised")
struct TraceCoverageTests {
    typealias Use = TraceChecker.TransitionUse

    static func feed(_ checker: inout TraceChecker, _ callbacks: [String]) {
        for callback in callbacks { #expect(checker.feed(.callback(callback)) == nil, "\(callback)") }
    }

    @Test func aLogWithOneExplanationExercisesItsTransitionsForCertain() throws {
        let lamp = try TraceCheckerTests.lamp()
        var checker = try TraceChecker(machine: lamp, coverage: [])
        Self.feed(&checker, ["lightOn", "lightOff"])
        let exercised = try #require(checker.exercised)
        // press from off, press from on.
        #expect(exercised.transitions == [Use(transition: 0, source: "off"), Use(transition: 2, source: "on")])
        #expect(exercised.states == ["off", "on"])
        // Back in off, the app may have been unplugged since (a silent event): possible, not certain.
        #expect(exercised.possibleTransitions.subtracting(exercised.transitions) == [Use(transition: 5, source: "off")])
        #expect(exercised.possibleStates.subtracting(exercised.states) == ["dead"])
    }

    @Test func transitionsOnlySomeExplanationsTookAreOnlyPossible() throws {
        let lamp = try TraceCheckerTests.lamp()
        var checker = try TraceChecker(machine: lamp, coverage: [])
        // press then fade, or tap alone: both end in dim, one node whose explanations are merged.
        Self.feed(&checker, ["lightOn", "dimmed"])
        #expect(checker.explanationCount == 1)
        let exercised = try #require(checker.exercised)
        #expect(exercised.transitions.isEmpty)
        #expect(
            exercised.possibleTransitions == [
                Use(transition: 0, source: "off"), Use(transition: 1, source: "off"), Use(transition: 4, source: "on"),
            ])
        // Both end in dim; only one went through on.
        #expect(exercised.states == ["dim", "off"])
        #expect(exercised.possibleStates == ["dim", "off", "on"])
    }

    @Test func coverageDoesNotChangeWhatTheCheckerTellsApart() throws {
        let lamp = try TraceCheckerTests.lamp()
        var plain = try TraceChecker(machine: lamp)
        var covering = try TraceChecker(machine: lamp, coverage: [])
        #expect(plain.exercised == nil)
        for callback in ["lightOn", "dimmed", "lightOff", "lightOn"] {
            #expect(plain.feed(.callback(callback)) == covering.feed(.callback(callback)))
            #expect(plain.explanationCount == covering.explanationCount)
            #expect(plain.configurationCount == covering.configurationCount)
            #expect(plain.inferredEvents == covering.inferredEvents)
        }
    }

    @Test func aTransitionFromAListCountsPerSource() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b"), .leaf("c")], initial: "a",
            transitions: [
                T("a", on: "next", to: "b", do: [.callback("moved")]),
                T("a", "b", on: "go", to: "c", do: [.callback("went")]),
            ])
        var checker = try TraceChecker(machine: machine, coverage: [])
        Self.feed(&checker, ["went"])
        let exercised = try #require(checker.exercised)
        #expect(exercised.transitions == [Use(transition: 1, source: "a")])
        #expect(
            TraceChecker.coverageUnits(of: machine).map(\.use) == [
                Use(transition: 0, source: "a"), Use(transition: 1, source: "a"), Use(transition: 1, source: "b"),
            ])
    }

    static func start(_ machine: Machine, _ state: String) throws -> Configuration {
        try Runner.begin(machine: machine, from: state).runner.configuration
    }

    @Test func aScenarioIsExercisedWhenAnExplanationTakesItsEventsInARowFromItsStart() throws {
        let lamp = try TraceCheckerTests.lamp()
        let scenarios = [
            TraceChecker.ScenarioWatch(start: try Self.start(lamp, "off"), events: ["press", "press"]),
            TraceChecker.ScenarioWatch(start: try Self.start(lamp, "off"), events: ["tap"]),
            TraceChecker.ScenarioWatch(start: try Self.start(lamp, "on"), events: ["press"]),
            // Its events, but not from its start.
            TraceChecker.ScenarioWatch(start: try Self.start(lamp, "on"), events: ["press", "press"]),
            TraceChecker.ScenarioWatch(start: nil, events: ["press"]),
        ]
        var checker = try TraceChecker(machine: lamp, coverage: scenarios)
        Self.feed(&checker, ["lightOn", "lightOff"])
        let exercised = try #require(checker.exercised)
        #expect(exercised.scenarios == [0, 2])
        #expect(exercised.possibleScenarios == [0, 2])
    }

    @Test func aScenarioOnlySomeExplanationsRanThroughIsOnlyPossible() throws {
        let lamp = try TraceCheckerTests.lamp()
        let scenarios = [
            TraceChecker.ScenarioWatch(start: try Self.start(lamp, "off"), events: ["tap"]),
            TraceChecker.ScenarioWatch(start: try Self.start(lamp, "off"), events: ["press", "fade"]),
        ]
        var checker = try TraceChecker(machine: lamp, coverage: scenarios)
        Self.feed(&checker, ["lightOn", "dimmed"])
        let exercised = try #require(checker.exercised)
        #expect(exercised.scenarios.isEmpty)
        #expect(exercised.possibleScenarios == [0, 1])
    }

    @Test func aLongAmbiguousLogClaimsOnlyWhatEveryExplanationTook() throws {
        let lamp = try TraceCheckerTests.lamp()
        var checker = try TraceChecker(machine: lamp, coverage: [])
        for _ in 0..<3_000 { Self.feed(&checker, ["lightOn", "dimmed", "lightOff"]) }
        let exercised = try #require(checker.exercised)
        #expect(exercised.states == ["dim", "off"])
        #expect(exercised.transitions == [Use(transition: 3, source: "dim")])
    }
}
