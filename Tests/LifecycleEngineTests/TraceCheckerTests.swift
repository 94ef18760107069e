import LifecycleEngine
import Testing

@Suite("TraceChecker: explaining a log of observations by events")
struct TraceCheckerTests {
    /// A lamp: `press` toggles it; `tap` from off dims it (two callbacks); `fade` dims it when on;
    /// `unplug` from off emits nothing.
    static func lamp() throws -> Machine {
        try makeMachine(
            [.leaf("off"), .leaf("on"), .leaf("dim"), .leaf("dead")],
            initial: "off",
            transitions: [
                T("off", on: "press", to: "on", do: [.callback("lightOn")]),
                T("off", on: "tap", to: "dim", do: [.callback("lightOn"), .callback("dimmed")]),
                T("on", on: "press", to: "off", do: [.callback("lightOff")]),
                T("dim", on: "press", to: "off", do: [.callback("lightOff")]),
                T("on", on: "fade", to: "dim", do: [.callback("dimmed")]),
                T("off", on: "unplug", to: "dead"),
            ]
        )
    }

    @Test func silentEventsCanHappenBeforeTheFirstLine() throws {
        let checker = try TraceChecker(machine: Self.lamp())
        #expect(checker.possibleStates == ["dead", "off"])
        #expect(checker.isAtEventBoundary)
        #expect(checker.explanationCount == 2)
        #expect(checker.inferredEvents.events == [])
        #expect(checker.inferredEvents.total == 0)
    }

    @Test func anObservationSharedByTwoEventsKeepsBothExplanations() throws {
        var checker = try TraceChecker(machine: Self.lamp())
        #expect(checker.feed(.callback("lightOn")) == nil)
        #expect(checker.observationCount == 1)
        #expect(checker.possibleStates == ["dim", "on"])
        #expect(checker.explanationCount == 2)
        // `press` is done; `tap` still owes `dimmed`.
        #expect(checker.isAtEventBoundary)
        #expect(checker.inferredEvents.events == ["press"])
        #expect(checker.allowedNext() == [.callback("dimmed"), .callback("lightOff")])
    }

    /// press → fade and tap both explain lightOn, dimmed and end in `dim`: one is kept, the first found.
    @Test func explanationsThatMeetInOneConfigurationMerge() throws {
        var checker = try TraceChecker(machine: Self.lamp())
        #expect(checker.feed(.callback("lightOn")) == nil)
        #expect(checker.feed(.callback("dimmed")) == nil)
        #expect(checker.explanationCount == 1)
        #expect(checker.possibleStates == ["dim"])
        #expect(checker.inferredEvents.events == ["press", "fade"])
        #expect(checker.inferredEvents.total == 2)
        #expect(checker.feed(.callback("lightOff")) == nil)
        // Back in `off`, where unplugging is possible again without a line.
        #expect(checker.possibleStates == ["dead", "off"])
        #expect(checker.inferredEvents.events == ["press", "fade", "press"])
    }

    @Test func aDeviationReportsTheStatesAndWhatIsAllowedAndChangesNothing() throws {
        var checker = try TraceChecker(machine: Self.lamp())
        #expect(checker.feed(.callback("lightOn")) == nil)
        let result = checker.feed(.callback("lightOn"))
        let deviation = try #require(result)
        #expect(deviation.observation == .callback("lightOn"))
        #expect(deviation.possibleStates == ["dim", "on"])
        #expect(deviation.allowedNext == [.callback("dimmed"), .callback("lightOff")])
        #expect(checker.observationCount == 1)
        #expect(checker.explanationCount == 2)
        #expect(checker.feed(.callback("lightOff")) == nil)
        #expect(checker.possibleStates == ["dead", "off"])
    }

    @Test func anObservationTheMachineNeverEmitsIsADeviation() throws {
        var checker = try TraceChecker(machine: Self.lamp())
        let result = checker.feed(.notification("lightOn"))
        let deviation = try #require(result)
        #expect(deviation.observation == .notification("lightOn"))
        #expect(deviation.possibleStates == ["dead", "off"])
        #expect(deviation.allowedNext == [.callback("lightOn")])
    }

    @Test func aLogCanEndInTheMiddleOfAnEvent() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b")],
            initial: "a",
            transitions: [T("a", on: "go", to: "b", do: [.callback("one"), .callback("two")])]
        )
        var checker = try TraceChecker(machine: machine)
        #expect(checker.feed(.callback("one")) == nil)
        #expect(!checker.isAtEventBoundary)
        #expect(checker.possibleStates == ["b"])
        #expect(checker.inferredEvents.events == ["go"])
        #expect(checker.allowedNext() == [.callback("two")])
        #expect(checker.feed(.callback("two")) == nil)
        #expect(checker.isAtEventBoundary)
        #expect(checker.allowedNext() == [])
    }

    @Test func onlyTheFirstEventsAreKeptButAllAreCounted() throws {
        var checker = try TraceChecker(machine: Self.lamp())
        checker.historyLimit = 3
        for _ in 0..<5 {
            #expect(checker.feed(.callback("lightOn")) == nil)
            #expect(checker.feed(.callback("lightOff")) == nil)
        }
        #expect(checker.observationCount == 10)
        #expect(checker.inferredEvents.events == ["press", "press", "press"])
        #expect(checker.inferredEvents.total == 10)
    }

    /// Both flag values are possible at the start, so both guarded outputs are allowed.
    @Test func theStartRangesOverEveryFlagAssignment() throws {
        let machine = try makeMachine(
            [.leaf("idle"), .leaf("busy")],
            initial: "idle",
            flags: [LifecycleFlag(id: "quiet")],
            transitions: [
                T("idle", on: "go", guard: "quiet", to: "busy", do: [.callback("softStart")]),
                T("idle", on: "go", guard: "!quiet", to: "busy", do: [.callback("loudStart")], set: ["quiet": true]),
                T("busy", on: "stop", to: "idle", do: [.callback("stopped")]),
            ]
        )
        var checker = try TraceChecker(machine: machine)
        #expect(checker.allowedNext() == [.callback("loudStart"), .callback("softStart")])
        #expect(checker.feed(.callback("loudStart")) == nil)
        #expect(checker.feed(.callback("stopped")) == nil)
        // `loudStart` set the flag: only the quiet start is possible now.
        let result = checker.feed(.callback("loudStart"))
        let deviation = try #require(result)
        #expect(deviation.allowedNext == [.callback("softStart")])
    }

    @Test func startsInAGivenState() throws {
        let lamp = try Self.lamp()
        var checker = try TraceChecker(machine: lamp, from: "on")
        #expect(checker.possibleStates == ["on"])
        #expect(checker.feed(.callback("lightOff")) == nil)
        #expect(checker.inferredEvents.events == ["press"])
        #expect(
            runError { () throws(RunError) in _ = try TraceChecker(machine: lamp, from: "nowhere") }
                == .unknownState("nowhere"))
    }

    /// A flag fixed at the start leaves only the outputs its value allows.
    @Test func aFixedFlagNarrowsTheStart() throws {
        let machine = try makeMachine(
            [.leaf("idle"), .leaf("busy")],
            initial: "idle",
            flags: [LifecycleFlag(id: "quiet"), LifecycleFlag(id: "other")],
            transitions: [
                T("idle", on: "go", guard: "quiet", to: "busy", do: [.callback("softStart")]),
                T("idle", on: "go", guard: "!quiet", to: "busy", do: [.callback("loudStart")]),
            ]
        )
        var checker = try TraceChecker(machine: machine, fixedFlags: ["quiet": true])
        #expect(checker.allowedNext() == [.callback("softStart")])
        let result = checker.feed(.callback("loudStart"))
        let deviation = try #require(result)
        #expect(deviation.allowedNext == [.callback("softStart")])
    }

    /// Seen through callbacks alone, an event's notifications are not expected, an event that
    /// emits only notifications is silent, and notifications are not even symbols.
    @Test func aProjectionJudgesOnlyWhatIsObserved() throws {
        let machine = try makeMachine(
            [.leaf("off"), .leaf("on")],
            initial: "off",
            transitions: [
                T("off", on: "press", to: "on", do: [.callback("lightOn"), .notify("didLight")]),
                T("on", on: "flicker", to: nil, do: [.notify("flickered")]),
                T("on", on: "press", to: "off", do: [.callback("lightOff")]),
            ]
        )
        let callbacks: Set<Observation> = [.callback("lightOn"), .callback("lightOff")]
        var checker = try TraceChecker(machine: machine, observing: callbacks)
        #expect(checker.symbol(for: .notification("didLight")) == nil)
        #expect(checker.feed(.callback("lightOn")) == nil)
        #expect(checker.isAtEventBoundary)
        #expect(checker.feed(.callback("lightOff")) == nil)
        #expect(checker.inferredEvents.events.last == "press")
        // A callback out of order is still a deviation, with what is allowed among the observed.
        let result = checker.feed(.callback("lightOff"))
        let deviation = try #require(result)
        #expect(deviation.allowedNext == [.callback("lightOn")])
        // Everything observed: the notification is expected right after the callback.
        var full = try TraceChecker(machine: machine)
        #expect(full.feed(.callback("lightOn")) == nil)
        #expect(!full.isAtEventBoundary)
        #expect(full.allowedNext() == [.notification("didLight")])
    }
}
