import LifecycleEngine
import Testing

@Suite("Runner: set, raise and eventless transitions")
struct RunToCompletionTests {
    /// `go` is guarded by `!busy` and sets `busy`; the target's eventless transition needs `busy`,
    /// and the raised `check` needs it too: both see the new value.
    @Test func setIsAppliedAfterActionsAndBeforeWhatFollows() throws {
        let machine = try makeMachine(
            [.leaf("idle"), .leaf("work"), .leaf("done"), .leaf("checked")],
            initial: "idle",
            flags: [LifecycleFlag(id: "busy")],
            transitions: [
                T(
                    "idle", on: "go", guard: "!busy", to: "work", do: [.callback("start")], set: ["busy": true],
                    raise: ["check"]),
                T("work", guard: "busy", to: "done", do: [.callback("finish")]),
                T("done", on: "check", guard: "busy", to: "checked", do: [.callback("verified")], set: ["busy": false]),
                T("checked", on: "go", to: "idle"),
            ]
        )
        var runner = try Runner(machine: machine)
        let steps = try runner.send("go")
        #expect(
            describe(steps) == [
                "go idle->work", "cb:start",
                "always work->done", "cb:finish",
                "check done->checked", "cb:verified",
            ])
        #expect(runner.state == "checked")
        #expect(runner.flags == ["busy": false])
    }

    @Test func setOnAnInternalTransitionChangesFlagsOnly() throws {
        let machine = try makeMachine(
            [.leaf("a")],
            initial: "a",
            flags: [LifecycleFlag(id: "x", defaultValue: true), LifecycleFlag(id: "y")],
            transitions: [T("a", on: "toggle", to: nil, set: ["x": false, "y": true])]
        )
        var runner = try Runner(machine: machine)
        #expect(runner.flags == ["x": true, "y": false])
        try runner.send("toggle")
        #expect(runner.state == "a")
        #expect(runner.flags == ["x": false, "y": true])
    }

    /// a ─e1 (raise r1, r2)→ b ─always→ c ─r1 (raise r3)→ d ─r2→ e ─r3→ f.
    /// Raised events wait for the eventless chain, run first-in first-out, and what a raised
    /// event raises goes to the back of the queue (r3 after r2).
    @Test func raisedEventsRunAfterEventlessSettleInFIFOOrder() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b"), .leaf("c"), .leaf("d"), .leaf("e"), .leaf("f", final: true)],
            initial: "a",
            events: ["e1", "r1", "r2", "r3"],
            transitions: [
                T("a", on: "e1", to: "b", do: [.callback("onE1")], raise: ["r1", "r2"]),
                T("b", to: "c", do: [.callback("onAlways")]),
                T("c", on: "r1", to: "d", do: [.callback("onR1")], raise: ["r3"]),
                T("d", on: "r2", to: "e", do: [.callback("onR2")]),
                T("e", on: "r3", to: "f", do: [.callback("onR3")]),
            ]
        )
        var runner = try Runner(machine: machine)
        let steps = try runner.send("e1")
        #expect(
            describe(steps) == [
                "e1 a->b", "cb:onE1",
                "always b->c", "cb:onAlways",
                "r1 c->d", "cb:onR1",
                "r2 d->e", "cb:onR2",
                "r3 e->f", "cb:onR3",
            ])
        #expect(runner.state == "f")
    }

    @Test func eventsRaisedByEventlessTransitionsAreProcessedAfterTheChainSettles() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b"), .leaf("c"), .leaf("d")],
            initial: "a",
            transitions: [
                T("a", on: "go", to: "b"),
                T("b", to: "c", raise: ["next"]),
                T("c", on: "next", to: "d"),
                T("d", on: "go", to: "a"),
            ]
        )
        var runner = try Runner(machine: machine)
        #expect(describe(try runner.send("go")) == ["go a->b", "always b->c", "next c->d"])
    }

    @Test func unhandledRaisedEventFailsTheWholeSend() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b")],
            initial: "a",
            flags: [LifecycleFlag(id: "x")],
            transitions: [
                T("a", on: "go", to: "b", set: ["x": true], raise: ["orphan"]),
                T("a", on: "orphan", to: "a"),
            ]
        )
        var runner = try Runner(machine: machine)
        let error = runError { () throws(RunError) in try runner.send("go") }
        #expect(error == .unhandledEvent(event: "orphan", state: "b", accepted: []))
        #expect(runner.state == "a")
        #expect(runner.flags == ["x": false])
    }

    @Test func eventlessChainRunsToQuiescence() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b"), .leaf("c"), .leaf("d")],
            initial: "a",
            flags: [LifecycleFlag(id: "far")],
            transitions: [
                T("a", on: "go", to: "b"),
                T("b", to: "c", do: [.callback("toC")]),
                T("c", guard: "far", to: "d", do: [.callback("toD")]),
                T("c", on: "back", to: "a"),
                T("d", on: "back", to: "a"),
            ]
        )
        var near = try Runner(machine: machine)
        #expect(describe(try near.send("go")) == ["go a->b", "always b->c", "cb:toC"])
        #expect(near.state == "c")
        #expect(near.enabledEventlessTransition == nil)

        var far = try Runner(machine: machine, flags: ["far": true])
        #expect(describe(try far.send("go")) == ["go a->b", "always b->c", "cb:toC", "always c->d", "cb:toD"])
        #expect(far.state == "d")
    }

    @Test func runnerStartedInAStateWaitsForAnEventOrSettle() throws {
        let machine = try makeMachine(
            [.leaf("b"), .leaf("c"), .leaf("d")],
            initial: "b",
            flags: [LifecycleFlag(id: "far", defaultValue: true)],
            transitions: [
                T("b", to: "c"),
                T("c", guard: "far", to: "d"),
                T("d", on: "reset", to: "b"),
            ]
        )
        var runner = try Runner(machine: machine, state: "b")
        #expect(runner.state == "b")
        #expect(runner.enabledEventlessTransition?.index == 0)

        var stepwise = runner
        #expect(describe(stepwise.takeEventlessTransition()) == ["always b->c"])
        #expect(stepwise.state == "c")

        #expect(describe(try runner.settle()) == ["always b->c", "always c->d"])
        #expect(runner.state == "d")
        #expect(try runner.settle().isEmpty)
        #expect(runner.takeEventlessTransition().isEmpty)

        // `reset` re-enters b, whose eventless chain runs again as part of the same send.
        #expect(describe(try runner.send("reset")) == ["reset d->b", "always b->c", "always c->d"])
    }

    @Test func eventlessTransitionOnAnAncestorAppliesInsideAndInnermostWins() throws {
        let machine = try makeMachine(
            [
                .compound("outer", initial: "inner", [.leaf("inner"), .leaf("other")]), .leaf("out"),
                .leaf("elsewhere"),
            ],
            initial: "out",
            flags: [LifecycleFlag(id: "leave"), LifecycleFlag(id: "stay")],
            transitions: [
                T("out", on: "enter", to: "outer"),
                T("outer", guard: "leave", to: "out", do: [.callback("outerAlways")]),
                T("inner", guard: "stay", to: "other", do: [.callback("innerAlways")]),
                T("other", on: "enter", to: "elsewhere"),
                T("elsewhere", on: "enter", to: "out"),
            ]
        )
        var both = try Runner(machine: machine, flags: ["leave": true, "stay": true])
        // Inner first: inner → other; then the ancestor's transition applies in `other` too.
        #expect(
            describe(try both.send("enter")) == [
                "enter out->inner", "always inner->other", "cb:innerAlways", "always other->out", "cb:outerAlways",
            ])
    }

    @Test func eventlessLoopIsATypedErrorAndChangesNothing() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b"), .leaf("c")],
            initial: "a",
            flags: [LifecycleFlag(id: "spin", defaultValue: true)],
            transitions: [
                T("a", on: "go", to: "b", set: ["spin": true]),
                T("b", to: "c"),
                T("c", guard: "spin", to: "b"),
                T("c", on: "stop", to: "a"),
            ]
        )
        var runner = try Runner(machine: machine, flags: ["spin": false])
        runner.eventlessLimit = 7
        let error = runError { () throws(RunError) in try runner.send("go") }
        guard case .eventlessLoop(_, let steps) = error else {
            Issue.record("expected an eventless loop, got \(String(describing: error))")
            return
        }
        #expect(steps == 7)
        #expect(runner.state == "a")
        #expect(runner.flags == ["spin": false])

        var parked = try Runner(machine: machine, state: "b")
        parked.eventlessLimit = 3
        let settleError = runError { () throws(RunError) in _ = try parked.settle() }
        // b→c, c→b, b→c, and the fourth step would exceed the budget: it stopped in c.
        #expect(settleError == .eventlessLoop(state: "c", steps: 3))
        #expect(parked.state == "b")

        // The guard breaks the loop when `spin` is false.
        var calm = try Runner(machine: machine, state: "b", flags: ["spin": false])
        #expect(describe(try calm.settle()) == ["always b->c"])
    }

    @Test func internalTransitionKeepsTheLeafAndRunsActions() throws {
        let machine = try makeMachine(
            [.compound("foreground", initial: "inactive", [.leaf("inactive"), .leaf("active")]), .leaf("gone")],
            initial: "foreground",
            callbacks: [LifecycleCallback(id: "memoryWarning", posts: PostedNotification(notification: "memoryNote"))],
            transitions: [
                T("inactive", on: "activate", to: "active"),
                T("foreground", on: "memory", to: nil, do: [.callback("memoryWarning")]),
                T("foreground", on: "quit", to: "gone"),
                T("gone", on: "activate", to: "foreground"),
            ]
        )
        var runner = try Runner(machine: machine, state: "active")
        let steps = try runner.send("memory")
        #expect(describe(steps) == ["memory active->active (internal)", "cb:memoryWarning", "n:memoryNote"])
        guard case .transition(let taken) = steps.first else {
            Issue.record("first step is not the transition")
            return
        }
        #expect(
            taken == TransitionStep(event: "memory", from: "active", to: "active", transitionIndex: 1, isInternal: true)
        )
        // Declared on the compound, yet the active leaf stays: an internal transition exits nothing.
        #expect(runner.state == "active")
        #expect(machine.transitions[1].isInternal)
        #expect(!machine.transitions[2].isInternal)
    }

    @Test func callbacksExpandWithTheirNotificationOnTheDeclaredSide() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("b")],
            initial: "a",
            callbacks: [
                LifecycleCallback(
                    id: "afterCallback", posts: PostedNotification(notification: "postedAfter", order: .after)),
                LifecycleCallback(
                    id: "beforeCallback", posts: PostedNotification(notification: "postedBefore", order: .before)),
                LifecycleCallback(id: "silent"),
            ],
            notifications: ["postedAfter", "postedBefore", "standalone"],
            transitions: [
                T(
                    "a", on: "go", to: "b",
                    do: [
                        .callback("afterCallback"), .callback("beforeCallback"), .callback("silent"),
                        .notify("standalone"),
                    ]),
                T("b", on: "go", to: "a"),
            ]
        )
        var runner = try Runner(machine: machine)
        let steps = try runner.send("go")
        #expect(
            describe(steps) == [
                "go a->b", "cb:afterCallback", "n:postedAfter", "n:postedBefore", "cb:beforeCallback", "cb:silent",
                "n:standalone",
            ])
        #expect(
            steps.compactMap(\.observation) == [
                .callback("afterCallback"), .notification("postedAfter"), .notification("postedBefore"),
                .callback("beforeCallback"), .callback("silent"), .notification("standalone"),
            ])
        #expect(
            steps.compactMap(\.observation).map(\.description) == [
                "afterCallback", "notify: postedAfter", "notify: postedBefore", "beforeCallback", "silent",
                "notify: standalone",
            ])
        #expect(
            machine.expand(.callback("beforeCallback")) == [.notification("postedBefore"), .callback("beforeCallback")])
        #expect(
            machine.expand(.callback("afterCallback")) == [.callback("afterCallback"), .notification("postedAfter")])
        #expect(machine.expand(.callback("silent")) == [.callback("silent")])
        #expect(machine.expand(.notify("standalone")) == [.notification("standalone")])
        #expect(PostedNotification(notification: "n").order == .after)
    }
}

@Suite("Runner: errors")
struct RunnerErrorTests {
    private static func model() throws -> Machine {
        try makeMachine(
            [.compound("on", initial: "idle", [.leaf("idle"), .leaf("busy")]), .leaf("off")],
            initial: "on",
            events: ["work", "rest", "power", "boost", "never"],
            flags: [LifecycleFlag(id: "turbo"), LifecycleFlag(id: "charged", defaultValue: true)],
            transitions: [
                T("idle", on: "work", to: "busy", set: ["charged": false]),
                T("busy", on: "rest", to: "idle"),
                T("idle", on: "boost", guard: "turbo", to: "busy"),
                T("on", on: "power", to: "off"),
                T("off", on: "power", to: "on"),
            ]
        )
    }

    @Test func unhandledEventIsTypedAndChangesNothing() throws {
        var runner = try Runner(machine: try Self.model())
        try runner.send("work")
        #expect(runner.state == "busy")
        let before = (runner.state, runner.flags)
        let error = runError { () throws(RunError) in try runner.send("work") }
        #expect(error == .unhandledEvent(event: "work", state: "busy", accepted: ["rest", "power"]))
        #expect(runner.state == before.0)
        #expect(runner.flags == before.1)
        #expect(error?.description == "event 'work' is not handled in state 'busy' (it accepts: rest, power)")
    }

    @Test func acceptedEventsFollowGuardsAndAncestors() throws {
        let machine = try Self.model()
        #expect(try Runner(machine: machine).acceptedEvents == ["work", "power"])
        #expect(try Runner(machine: machine, flags: ["turbo": true]).acceptedEvents == ["work", "power", "boost"])
        #expect(try Runner(machine: machine, state: "off").acceptedEvents == ["power"])

        var idle = try Runner(machine: machine)
        let error = runError { () throws(RunError) in try idle.send("boost") }
        #expect(error == .unhandledEvent(event: "boost", state: "idle", accepted: ["work", "power"]))
    }

    @Test func stateWithNothingToAcceptSaysNone() throws {
        let machine = try makeMachine(
            [.leaf("a"), .leaf("end", final: true)], initial: "a", events: ["go", "other"],
            transitions: [T("a", on: "go", to: "end")]
        )
        var runner = try Runner(machine: machine)
        try runner.send("go")
        let error = runError { () throws(RunError) in try runner.send("other") }
        #expect(error == .unhandledEvent(event: "other", state: "end", accepted: []))
        #expect(error?.description.hasSuffix("(it accepts: none)") == true)
    }

    @Test func unknownEventStateAndFlag() throws {
        let machine = try Self.model()
        var runner = try Runner(machine: machine)
        #expect(runError { () throws(RunError) in try runner.send("nope") } == .unknownEvent("nope"))
        #expect(runner.state == "idle")
        #expect(
            runError { () throws(RunError) in _ = try Runner(machine: machine, state: "nowhere") }
                == .unknownState("nowhere"))
        #expect(
            runError { () throws(RunError) in _ = try Runner(machine: machine, flags: ["turbo": true, "warp": true]) }
                == .unknownFlag("warp"))
        #expect(RunError.unknownFlag("warp").description == "unknown flag 'warp'")
    }

    @Test func sendingAListIsAtomic() throws {
        let machine = try Self.model()
        var runner = try Runner(machine: machine)
        // `work` succeeds (and sets `charged`), then `work` is unhandled in busy: nothing sticks.
        let failure = runError { () throws(RunError) in _ = try runner.send(["work", "rest", "work", "work"]) }
        #expect(failure == .unhandledEvent(event: "work", state: "busy", accepted: ["rest", "power"]))
        #expect(runner.state == "idle")
        #expect(runner.flags == ["turbo": false, "charged": true])

        let unknown = runError { () throws(RunError) in _ = try runner.send(["work", "nope"]) }
        #expect(unknown == .unknownEvent("nope"))
        #expect(runner.state == "idle")
        #expect(runner.flags["charged"] == true)

        let steps = try runner.send(["work", "rest", "power"])
        #expect(describe(steps) == ["work idle->busy", "rest busy->idle", "power idle->off"])
        #expect(runner.state == "off")
        #expect(runner.flags["charged"] == false)
    }

    @Test func startingFlagsOverrideDefaults() throws {
        let machine = try Self.model()
        #expect(machine.flagValues() == ["turbo": false, "charged": true])
        #expect(machine.flagValues(["charged": false]) == ["turbo": false, "charged": false])
        #expect(try Runner(machine: machine, flags: ["turbo": true]).flags == ["turbo": true, "charged": true])
    }
}
