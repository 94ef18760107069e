import LifecycleEngine
import Testing

@Suite("StateSpace")
struct StateSpaceTests {
    /// off ─launch→ on{ idle ⇄ busy }; `secret` only when `unlocked`; `island` has no way in;
    /// `on` handles `poke`, but both of its children handle it first, so that transition is shadowed.
    private static func model() throws -> Machine {
        try makeMachine(
            [
                .leaf("off"),
                .compound("on", initial: "idle", [.leaf("idle"), .leaf("busy")]),
                .leaf("secret"),
                .leaf("island"),
            ],
            initial: "off",
            events: ["launch", "work", "rest", "poke", "open", "quit"],
            flags: [LifecycleFlag(id: "unlocked")],
            transitions: [
                T("off", on: "launch", to: "on"),  // 0
                T("idle", on: "work", to: "busy"),  // 1
                T("busy", on: "rest", to: "idle"),  // 2
                T("idle", "busy", on: "poke", to: nil),  // 3
                T("on", on: "poke", to: "off"),  // 4 shadowed
                T("idle", on: "open", guard: "unlocked", to: "secret"),  // 5
                T("secret", on: "quit", to: "off"),  // 6
                T("island", on: "quit", to: "off"),  // 7 unreachable source
            ]
        )
    }

    @Test func reachabilityRangesOverEveryStartingFlagAssignment() throws {
        let space = StateSpace(machine: try Self.model())
        #expect(space.isExact)
        #expect(space.reachableLeaves == ["off", "idle", "busy", "secret"])
        #expect(space.isReachable("on"))
        #expect(space.isReachable("secret"))
        #expect(!space.isReachable("island"))
        #expect(!space.isReachable("nowhere"))
        #expect(space.starts.count == 2)
        #expect(
            Set(space.starts) == [
                Configuration(state: "off", flagValues: [false]), Configuration(state: "off", flagValues: [true]),
            ])
    }

    @Test func takenTransitionsLeaveOutShadowedAndUnreachableOnes() throws {
        let space = StateSpace(machine: try Self.model())
        #expect(space.takenTransitions == [0, 1, 2, 3, 5, 6])
        #expect(space.eventlessLoops.isEmpty)
    }

    @Test func edgesAreTheEngineOwnMoves() throws {
        let space = StateSpace(machine: try Self.model())
        let launch = space.edges.filter { $0.event == "launch" }
        #expect(launch.count == 2)
        #expect(launch.allSatisfy { $0.from.state == "off" && $0.to.state == "idle" && $0.transitions == [0] })
        let open = space.edges.filter { $0.event == "open" }
        #expect(open.map(\.from) == [Configuration(state: "idle", flagValues: [true])])
        // Unhandled events make no edge: `rest` is only handled in busy.
        #expect(space.edges.filter { $0.event == "rest" }.allSatisfy { $0.from.state == "busy" })
        #expect(space.configurations.first?.state == "off")
        #expect(Set(space.configurations.map(\.state)) == space.reachableLeaves)
    }

    @Test func startsSettleTheirEventlessTransitionsAndRaisesCountAsTaken() throws {
        let machine = try makeMachine(
            [.leaf("boot"), .leaf("ready"), .leaf("done")],
            initial: "boot",
            events: ["go", "finish"],
            transitions: [
                T("boot", to: "ready"),  // 0, only while settling
                T("ready", on: "go", to: "ready", raise: ["finish"]),  // 1
                T("ready", on: "finish", to: "done"),  // 2, only as a raised event
                T("done", on: "go", to: "boot"),  // 3
            ]
        )
        let space = StateSpace(machine: machine)
        #expect(space.startTransitions == [0])
        #expect(space.starts == [Configuration(state: "ready", flagValues: [])])
        #expect(space.takenTransitions == [0, 1, 2, 3])
        // `boot` is the initial state: entered, then left at once, but reached all the same.
        #expect(space.isReachable("boot"))
        let go = space.edges.first { $0.from.state == "ready" && $0.event == "go" }
        #expect(go?.transitions == [1, 2])
        #expect(go?.to.state == "done")
    }

    @Test func eventlessLoopsAreReportedNotHung() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b"), .leaf("c")],
            initial: "a",
            flags: [LifecycleFlag(id: "spin")],
            transitions: [
                T("a", on: "go", to: "b"),
                T("b", guard: "spin", to: "c"),
                T("c", to: "b"),
            ]
        )
        let space = StateSpace(machine: machine)
        #expect(space.eventlessLoops == [Configuration(state: "a", flagValues: [true])])
    }

    @Test func tooManyFlagsFallsBackToGuardFreeReachability() throws {
        let machine = try Self.model()
        let space = StateSpace(machine: machine, maxFlags: 0)
        #expect(!space.isExact)
        #expect(space.edges.isEmpty)
        #expect(space.reachableLeaves == ["off", "idle", "busy", "secret"])
        // Ignoring priority, the shadowed transition counts as taken: an over-approximation.
        #expect(space.takenTransitions.isSuperset(of: [0, 1, 2, 3, 4, 5, 6]))
        #expect(!space.takenTransitions.contains(7))
    }

    @Test func configurationsOrderByStateThenFlags() throws {
        let falseFirst = Configuration(state: "a", flagValues: [false, true])
        let trueFirst = Configuration(state: "a", flagValues: [true, false])
        #expect(falseFirst < trueFirst)
        #expect(Configuration(state: "a", flagValues: [true]) < Configuration(state: "b", flagValues: [false]))
        let machine = try makeMachine(
            [.leaf("a")], initial: "a", flags: [LifecycleFlag(id: "x"), LifecycleFlag(id: "y")], transitions: [])
        #expect(falseFirst.flags(in: machine) == ["x": false, "y": true])
    }
}
