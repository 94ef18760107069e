import LifecycleEngine
import Testing

/// off ─launch→ running{ foreground{ inactive, active }, background }
///
/// `kill` is handled by `running` (→ off) and, internally, by `active`; `home` by `foreground`
/// (guarded by `locked`) and by `running`; `reset` re-enters `foreground` from inside it.
private func appModel(initial: String = "off") throws -> Machine {
    try makeMachine(
        [
            .leaf("off"),
            .compound(
                "running", initial: "foreground",
                [
                    .compound("foreground", initial: "inactive", [.leaf("inactive"), .leaf("active")]),
                    .leaf("background"),
                ]),
        ],
        initial: initial,
        flags: [LifecycleFlag(id: "locked")],
        transitions: [
            T("off", on: "launch", to: "running", do: [.callback("launched")]),
            T("inactive", on: "activate", to: "active"),
            T("running", on: "kill", to: "off", do: [.callback("outerKill")]),
            T("active", on: "kill", to: nil, do: [.callback("innerKill")]),
            T("foreground", on: "home", guard: "locked", to: "background", do: [.callback("foregroundHome")]),
            T("running", on: "home", to: "off", do: [.callback("runningHome")]),
            T("background", on: "resume", to: "foreground"),
            T("foreground", on: "reset", to: "foreground"),
        ]
    )
}

@Suite("Compound states: innermost wins")
struct CompoundPriorityTests {
    @Test func innermostStateWins() throws {
        var runner = try Runner(machine: try appModel(), state: "active")
        let steps = try runner.send("kill")
        #expect(describe(steps) == ["kill active->active (internal)", "cb:innerKill"])
        #expect(runner.state == "active")
    }

    @Test func outerStateHandlesWhatTheInnerDoesNot() throws {
        let machine = try appModel()
        for leaf in ["inactive", "background"] {
            var runner = try Runner(machine: machine, state: leaf)
            let steps = try runner.send("kill")
            #expect(describe(steps) == ["kill \(leaf)->off", "cb:outerKill"])
            #expect(runner.state == "off")
        }
    }

    @Test func falseGuardAtTheInnerLevelFallsThroughToTheOuter() throws {
        let machine = try appModel()
        var unlocked = try Runner(machine: machine, state: "active", flags: ["locked": false])
        #expect(describe(try unlocked.send("home")) == ["home active->off", "cb:runningHome"])

        var locked = try Runner(machine: machine, state: "active", flags: ["locked": true])
        #expect(describe(try locked.send("home")) == ["home active->background", "cb:foregroundHome"])
        #expect(locked.state == "background")
    }

    @Test func transitionForEventReportsTheOneThatWouldBeTaken() throws {
        let machine = try appModel()
        let locked = try Runner(machine: machine, state: "inactive", flags: ["locked": true])
        #expect(locked.transition(for: "home")?.index == 4)
        let unlocked = try Runner(machine: machine, state: "inactive")
        #expect(unlocked.transition(for: "home")?.index == 5)
        #expect(unlocked.transition(for: "resume") == nil)
        #expect(!unlocked.accepts("resume"))
        #expect(unlocked.accepts("kill"))
    }

    @Test func firstTransitionInDocumentOrderWinsOnTheSameState() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b"), .leaf("c")],
            initial: "a",
            flags: [LifecycleFlag(id: "x"), LifecycleFlag(id: "y")],
            transitions: [
                T("a", on: "go", guard: "x", to: "b"),
                T("a", on: "go", guard: "y", to: "c"),
                T("b", on: "back", to: "a"),
                T("c", on: "back", to: "a"),
            ]
        )
        var both = try Runner(machine: machine, flags: ["x": true, "y": true])
        try both.send("go")
        #expect(both.state == "b")
        var onlyY = try Runner(machine: machine, flags: ["y": true])
        try onlyY.send("go")
        #expect(onlyY.state == "c")
    }
}

@Suite("Entering a compound state enters its initial leaf")
struct CompoundEntryTests {
    @Test func enteringNestedCompoundStatesReachesTheLeaf() throws {
        var runner = try Runner(machine: try appModel())
        #expect(runner.state == "off")
        let steps = try runner.send("launch")
        #expect(describe(steps) == ["launch off->inactive", "cb:launched"])
        #expect(runner.state == "inactive")
    }

    @Test func targetingAnIntermediateCompoundState() throws {
        var runner = try Runner(machine: try appModel(), state: "background")
        #expect(describe(try runner.send("resume")) == ["resume background->inactive"])
    }

    @Test func reenteringTheEnclosingCompoundResetsToItsInitialChild() throws {
        var runner = try Runner(machine: try appModel(), state: "active")
        #expect(describe(try runner.send("reset")) == ["reset active->inactive"])
    }

    @Test func compoundMachineInitialAndRunnerStartResolveToLeaves() throws {
        let machine = try appModel(initial: "running")
        #expect(machine.initialLeaf == "inactive")
        #expect(try Runner(machine: machine).state == "inactive")
        #expect(try Runner(machine: machine, state: "foreground").state == "inactive")
        #expect(try Runner(machine: machine, state: "active").state == "active")
    }

    @Test func ancestryAndLeafLookup() throws {
        let machine = try appModel()
        #expect(machine.ancestry(of: "active") == ["active", "foreground", "running"])
        #expect(machine.ancestry(of: "off") == ["off"])
        #expect(machine.leaf(entering: "running") == "inactive")
        #expect(machine.leaf(entering: "background") == "background")
        #expect(machine.leafStates.map(\.id) == ["off", "inactive", "active", "background"])
        #expect(machine.topLevelStates.map(\.id) == ["off", "running"])
        #expect(machine.states.map(\.id) == ["off", "running", "foreground", "inactive", "active", "background"])
        #expect(machine.state("foreground")?.isCompound == true)
        #expect(machine.state("foreground")?.children == ["inactive", "active"])
    }

    @Test func handledEventsIncludeAncestorsInEventOrder() throws {
        let machine = try appModel()
        #expect(machine.handledEvents(in: "active") == ["kill", "home", "reset"])
        #expect(machine.handledEvents(in: "inactive") == ["activate", "kill", "home", "reset"])
        #expect(machine.handledEvents(in: "background") == ["kill", "home", "resume"])
        #expect(machine.handledEvents(in: "off") == ["launch"])
    }
}
