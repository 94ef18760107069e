import LifeSpec
import LifecycleEngine
import Testing

/// One rule of the W3C SCXML algorithm per test, on small specs written in the YAML format (so the
/// format's constructs are exercised with the engine that runs them). Expected traces are worked
/// out by hand from the recommendation's pseudo-code (Appendix D).
@Suite("Statechart semantics (SCXML algorithm)")
struct StatechartSemanticsTests {
    /// A spec whose callbacks are declared from the ids used in `body` (every `cb_…` word).
    static func machine(_ body: String, unhandled: String = "error") throws -> Machine {
        let callbacks = Set(
            body.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).filter { $0.hasPrefix("cb_") })
        let text = """
            lifespec: 1
            id: chart
            unhandled: \(unhandled)
            callbacks:\(callbacks.isEmpty ? " {}" : "")
            \(callbacks.sorted().map { "  \($0): {}" }.joined(separator: "\n"))
            \(body)
            """
        let result = SpecLoader.load(text: text, path: "chart.yaml")
        // Dead ends and unreachable states are the graph rules' opinion of a chart, not loading.
        let errors = result.diagnostics.filter {
            $0.severity == .error && ![.deadEnd, .unreachableState].contains($0.code)
        }
        guard let loaded = result.spec, errors.isEmpty else {
            Issue.record("spec does not load: \(errors.map(\.description))")
            throw CancellationError()
        }
        return loaded.machine
    }

    /// Callbacks of a trace, and transitions as `event:from->to`.
    static func describe(_ steps: [Step]) -> [String] {
        steps.map { step in
            switch step {
            case .transition(let taken): "\(taken.event ?? "-"):\(taken.from)->\(taken.to)"
            case .callback(let id): id
            case .notification(let id): "notify:\(id)"
            }
        }
    }

    static let player = """
        events: {power: {}, play: {}, stop: {}, show: {}, quit: {}}
        initial: off
        states:
          off: {}
          on:
            parallel: true
            entry: [cb_on_in]
            exit: [cb_on_out]
            states:
              audio:
                initial: paused
                entry: [cb_audio_in]
                exit: [cb_audio_out]
                states:
                  paused: {entry: [cb_paused_in], exit: [cb_paused_out]}
                  playing: {entry: [cb_playing_in], exit: [cb_playing_out]}
              ui:
                initial: hidden
                entry: [cb_ui_in]
                exit: [cb_ui_out]
                states:
                  hidden: {entry: [cb_hidden_in], exit: [cb_hidden_out]}
                  shown: {entry: [cb_shown_in], exit: [cb_shown_out]}
        transitions:
          - {from: off, on: power, to: on, do: [cb_t_power]}
          - {from: on, on: power, to: off, do: [cb_t_off]}
          - {from: paused, on: play, to: playing}
          - {from: hidden, on: play, to: shown}
          - {from: playing, on: quit, to: off, do: [cb_t_quit_audio]}
          - {from: shown, on: quit, to: hidden, do: [cb_t_quit_ui]}
        """

    @Test func enteringAParallelStateEntersEveryRegionParentsFirstInDocumentOrder() throws {
        var runner = try Runner(machine: Self.machine(Self.player))
        #expect(
            Self.describe(try runner.send("power")) == [
                "power:off->paused", "cb_t_power",
                "cb_on_in", "cb_audio_in", "cb_paused_in", "cb_ui_in", "cb_hidden_in",
            ])
        #expect(runner.activeStates == ["on", "audio", "paused", "ui", "hidden"])
        #expect(runner.states == ["paused", "hidden"])
    }

    @Test func exitingRunsChildrenBeforeParentsInReverseDocumentOrderThenTheTransitionActions() throws {
        var runner = try Runner(machine: Self.machine(Self.player), states: ["paused", "hidden"])
        #expect(
            Self.describe(try runner.send("power")) == [
                "power:paused->off",
                "cb_hidden_out", "cb_ui_out", "cb_paused_out", "cb_audio_out", "cb_on_out",
                "cb_t_off",
            ])
        #expect(runner.activeStates == ["off"])
    }

    @Test func everyRegionTakesItsOwnTransitionInOneMicrostep() throws {
        var runner = try Runner(machine: Self.machine(Self.player), states: ["paused", "hidden"])
        #expect(
            Self.describe(try runner.send("play")) == [
                // Both exits first, in reverse document order, then entries in document order.
                "play:paused->playing", "cb_hidden_out", "cb_paused_out",
                "play:hidden->shown", "cb_playing_in", "cb_shown_in",
            ])
        #expect(runner.states == ["playing", "shown"])
    }

    @Test func aTransitionLeavingTheParallelStatePreemptsALaterRegionsTransition() throws {
        // audio's `quit` (first in document order) exits `on`; ui's `quit` would exit `shown`,
        // which `on`'s exit includes: the first one found wins.
        var runner = try Runner(machine: Self.machine(Self.player), states: ["playing", "shown"])
        let steps = Self.describe(try runner.send("quit"))
        #expect(steps.first == "quit:playing->off")
        #expect(steps.contains("cb_t_quit_audio") && !steps.contains("cb_t_quit_ui"))
        #expect(runner.activeStates == ["off"])
    }

    @Test func aDescendantsTransitionWinsOverItsAncestorsInTheSameConflict() throws {
        let machine = try Self.machine(
            """
            events: {e: {}, f: {}}
            initial: p
            states:
              p:
                parallel: true
                states:
                  r1: {initial: a, states: {a: {}, a2: {}}}
                  r2: {initial: b, states: {b: {}, b2: {}}}
              out: {}
            transitions:
              - {from: a, on: f, to: a2}
              - {from: out, on: f, to: p}
              - {from: b, on: e, to: b2, do: [cb_inner]}
              - {from: p, on: e, to: out, do: [cb_outer]}
            """)
        var runner = try Runner(machine: machine)
        // `a` finds p's transition (exits everything); `b` finds its own, which exits `b`: they
        // conflict, and b's source is a descendant of p, so b's wins.
        #expect(Self.describe(try runner.send("e")) == ["e:b->b2", "cb_inner"])
        #expect(runner.states == ["a", "b2"])
    }

    static let history = """
        events: {leave: {}, back: {}, backDeep: {}, next: {}, deeper: {}}
        initial: main
        states:
          main:
            initial: first
            states:
              first: {}
              second:
                initial: inner1
                states: {inner1: {}, inner2: {}}
              shallowH: {history: shallow, default: first}
              deepH: {history: deep, default: first}
          away: {}
        transitions:
          - {from: first, on: next, to: second}
          - {from: inner1, on: deeper, to: inner2}
          - {from: main, on: leave, to: away}
          - {from: away, on: back, to: shallowH}
          - {from: away, on: backDeep, to: deepH}
        """

    @Test func historyWithoutARecordTakesItsDefault() throws {
        var runner = try Runner(machine: Self.machine(Self.history), state: "away")
        try runner.send("back")
        #expect(runner.states == ["first"])
    }

    @Test func shallowHistoryRestoresTheChildWithItsDefaultEntryDeepRestoresTheAtomicStates() throws {
        let machine = try Self.machine(Self.history)
        var runner = try Runner(machine: machine)
        try runner.send(["next", "deeper", "leave"])
        #expect(
            runner.configuration.history == [
                .init(state: "shallowH", remembered: ["second"]),
                .init(state: "deepH", remembered: ["inner2"]),
            ])
        var shallow = runner
        try shallow.send("back")
        #expect(shallow.states == ["inner1"])
        try runner.send("backDeep")
        #expect(runner.states == ["inner2"])
    }

    @Test func finalChildRaisesDoneForItsParentAndAParallelStateIsDoneWhenEveryRegionIs() throws {
        let machine = try Self.machine(
            """
            events: {a: {}, b: {}}
            initial: p
            states:
              p:
                parallel: true
                states:
                  r1: {initial: x, states: {x: {}, xDone: {final: true}}}
                  r2: {initial: y, states: {y: {}, yDone: {final: true}}}
              end: {final: true}
            transitions:
              - {from: x, on: a, to: xDone}
              - {from: y, on: b, to: yDone}
              - {from: r1, on: done.state.r1, do: [cb_r1_done]}
              - {from: p, on: done.state.p, to: end, do: [cb_p_done]}
            """)
        #expect(machine.events.map(\.id).suffix(3) == ["done.state.p", "done.state.r1", "done.state.r2"])
        var runner = try Runner(machine: machine)
        #expect(Self.describe(try runner.send("a")) == ["a:x->xDone", "done.state.r1:xDone->xDone", "cb_r1_done"])
        // r2's done event has no taker: it is optional even when unhandled events are errors.
        #expect(Self.describe(try runner.send("b")) == ["b:y->yDone", "done.state.p:xDone->end", "cb_p_done"])
        #expect(runner.states == ["end"])
    }

    @Test func aTopLevelFinalStateHaltsTheMachineAfterItsExitActions() throws {
        let text = """
            events: {stop: {}, again: {}}
            initial: on
            states:
              on: {exit: [cb_on_out]}
              done: {final: true, entry: [cb_done_in], exit: [cb_done_out]}
            transitions:
              - {from: on, on: stop, to: done}
              - {from: done, on: again, to: on}
            """
        var runner = try Runner(machine: Self.machine(text))
        #expect(Self.describe(try runner.send("stop")) == ["stop:on->done", "cb_on_out", "cb_done_in", "cb_done_out"])
        #expect(!runner.isRunning)
        #expect(throws: RunError.self) { try runner.send("again") }
        var ignoring = try Runner(machine: Self.machine(text, unhandled: "ignore"))
        try ignoring.send("stop")
        #expect(try ignoring.send("again").isEmpty)
    }

    static let typed = """
        events: {ext: {}, int: {}, stay: {}, reset: {}}
        initial: parent
        states:
          parent:
            initial: a
            entry: [cb_parent_in]
            exit: [cb_parent_out]
            states:
              a: {exit: [cb_a_out]}
              b: {entry: [cb_b_in]}
        transitions:
          - {from: parent, on: ext, to: b}
          - {from: parent, on: int, to: b, type: internal}
          - {from: parent, on: stay, do: [cb_stay]}
          - {from: b, on: reset, to: a}
        """

    @Test func anExternalTransitionToADescendantExitsAndReentersItsSourceAnInternalOneDoesNot() throws {
        let machine = try Self.machine(Self.typed)
        var external = try Runner(machine: machine)
        #expect(
            Self.describe(try external.send("ext")) == [
                "ext:a->b", "cb_a_out", "cb_parent_out", "cb_parent_in", "cb_b_in",
            ])
        var internalRunner = try Runner(machine: machine)
        #expect(Self.describe(try internalRunner.send("int")) == ["int:a->b", "cb_a_out", "cb_b_in"])
    }

    @Test func aTargetlessTransitionExitsAndEntersNothing() throws {
        var runner = try Runner(machine: Self.machine(Self.typed))
        #expect(Self.describe(try runner.send("stay")) == ["stay:a->a", "cb_stay"])
        #expect(runner.states == ["a"])
    }

    @Test func inGuardsReadTheConfiguration() throws {
        let machine = try Self.machine(
            """
            events: {go: {}, flip: {}, reset: {}}
            initial: p
            states:
              p:
                parallel: true
                states:
                  left: {initial: l1, states: {l1: {}, l2: {}}}
                  right: {initial: r1, states: {r1: {}, r2: {}}}
            transitions:
              - {from: l1, on: flip, to: l2}
              - {from: r1, on: go, to: r2, guard: "in(l2) && !in(r2)"}
              - {from: p, on: reset, to: p}
            """)
        var runner = try Runner(machine: machine)
        #expect(throws: RunError.self) { try runner.send("go") }
        try runner.send(["flip", "go"])
        #expect(runner.states == ["l2", "r2"])
    }

    @Test func eventDescriptorsMatchByTokenPrefixAndOneTransitionCanNameSeveral() throws {
        let machine = try Self.machine(
            """
            events: {error: {}, error.io: {}, errorx: {}, ping: {}, pong: {}}
            initial: s
            states:
              s: {}
              failed: {}
              pinged: {}
            transitions:
              - {from: s, on: error, to: failed}
              - {from: s, on: [ping, pong], to: pinged}
              - {from: [failed, pinged], on: "*", to: s}
            """)
        var runner = try Runner(machine: machine)
        try runner.send("error.io")
        #expect(runner.state == "failed")
        try runner.send("errorx")
        #expect(runner.state == "s")
        #expect(throws: RunError.self) { try runner.send("errorx") }
        try runner.send("pong")
        #expect(runner.state == "pinged")
    }

    @Test func eventlessTransitionsRunBeforeRaisedEventsAndStartRunsTheFirstMacrostep() throws {
        let machine = try Self.machine(
            """
            events: {next: {}}
            flags: {ready: {}}
            initial: a
            states:
              a: {entry: [cb_a_in, {raise: next}, {set: {ready: true}}]}
              b: {entry: [cb_b_in]}
              c: {entry: [cb_c_in], final: true}
            transitions:
              - {from: a, always: true, guard: ready, to: b}
              - {from: b, on: next, to: c}
            """)
        let (runner, steps) = try Runner.start(machine: machine)
        #expect(Self.describe(steps) == ["cb_a_in", "-:a->b", "cb_b_in", "next:b->c", "cb_c_in"])
        #expect(runner.states == ["c"])
    }

    @Test func anIgnoringMachineDiscardsWhatNothingTakes() throws {
        var runner = try Runner(machine: Self.machine(Self.typed, unhandled: "ignore"))
        try runner.send("ext")
        #expect(try runner.send("unknown-to-the-spec").isEmpty)
        #expect(runner.states == ["b"])
    }

    @Test func theStateSpaceExploresConfigurationsAcrossRegionsWithHistory() throws {
        let space = StateSpace(machine: try Self.machine(Self.player))
        #expect(space.isExact)
        #expect(Set(space.configurations.map(\.description)) == ["off", "paused+hidden", "playing+shown"])
        // ui's `quit` never fires: `shown` is only active beside `playing`, whose `quit` pre-empts it.
        #expect(space.takenTransitions == Set(0..<5))
        let history = StateSpace(machine: try Self.machine(Self.history))
        #expect(history.reachableLeaves == ["first", "inner1", "inner2", "away"])
    }

    @Test func theREADMEsParallelExampleIsValidAndRunsAsDocumented() throws {
        let readme = try String(
            contentsOfFile: #filePath.replacingOccurrences(
                of: "Tests/LifeSpecTests/StatechartSemanticsTests.swift", with: "README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "A parallel machine with history, written out:"))
        let fence = try #require(readme.range(of: "```yaml\n", range: start.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: fence.upperBound..<readme.endIndex))
        let result = SpecLoader.load(text: String(readme[fence.upperBound..<end.lowerBound]), path: "README.md")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        var runner = try Runner(machine: try #require(result.spec).machine)
        let steps = try runner.send(["power", "play", "show", "finish"])
        #expect(
            steps.compactMap(\.observation) == [
                .callback("didPowerOn"), .callback("startAudio"), .callback("stopAudio"), .callback("willPowerOff"),
                .callback("allDone"),
            ])
        #expect(runner.activeStates == ["off"])
    }
}
