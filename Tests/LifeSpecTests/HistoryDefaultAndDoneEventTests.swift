import LifeSpec
import LifecycleEngine
import Testing

/// A history state's default transition is a transition the machine takes (it shows in the trace
/// and counts for coverage), and `done.state.*` events are not offered as events to send.
@Suite("History defaults in traces, done events in accepted lists")
struct HistoryDefaultAndDoneEventTests {
    static let spec = """
        lifespec: 1
        id: resumable
        initial: idle
        states:
          idle: {}
          work:
            initial: first
            states:
              first: {}
              second: {}
              done: {final: true}
              back: {history: shallow, default: second}
        events: {go: {}, next: {}, finish: {}, leave: {}}
        callbacks: {completed: {}}
        transitions:
          - {from: idle, on: go, to: back}
          - {from: first, on: next, to: second}
          - {from: second, on: next, to: first}
          - {from: second, on: finish, to: done}
          - {from: work, on: leave, to: idle}
          - {from: work, on: done.state.work, to: idle, do: [completed]}
        """

    static func machine() throws -> Machine {
        let loaded = SpecLoader.load(text: spec, path: "resumable.yaml")
        return try #require(loaded.spec?.machine, "\(loaded.diagnostics)")
    }

    @Test func enteringAHistoryWithNothingRecordedReportsItsDefaultTransition() throws {
        let machine = try Self.machine()
        let fallback = try #require(machine.transitions.firstIndex { $0.sources == ["back"] })
        var runner = try Runner(machine: machine)
        let steps = try runner.send("go")
        // The event's own transition to the history, then the default: from the history state to
        // its target, eventless.
        #expect(
            steps == [
                .transition(
                    TransitionStep(event: "go", from: "idle", to: "second", transitionIndex: 0, isInternal: false)),
                .transition(
                    TransitionStep(event: nil, from: "back", to: "second", transitionIndex: fallback, isInternal: false)
                ),
            ])
        #expect(runner.states == ["second"])
        // Once recorded, the history restores without its default: no such step.
        try runner.send("next")
        try runner.send("leave")
        let restored = try runner.send("go")
        #expect(
            restored == [
                .transition(
                    TransitionStep(event: "go", from: "idle", to: "first", transitionIndex: 0, isInternal: false))
            ])
        #expect(runner.states == ["first"])
    }

    @Test func theDefaultTransitionCountsAsCovered() throws {
        let machine = try Self.machine()
        let fallback = try #require(machine.transitions.firstIndex { $0.sources == ["back"] })
        let plan = CoveragePlan(machine: machine)
        #expect(plan.covered.contains(fallback))
        #expect(!plan.uncoverable.contains { $0.transition == fallback })
        #expect(StateSpace(machine: machine).takenTransitions.contains(fallback))
    }

    @Test func acceptedEventsLeaveOutDoneEventsThatSendStillTakes() throws {
        var runner = try Runner(machine: Self.machine(), state: "second")
        // `work` handles done.state.work, but nobody sends a completion event.
        #expect(runner.acceptedEvents == ["next", "finish", "leave"])
        var probe = runner
        let outcome = Result(catching: { () throws(RunError) -> [Step] in try probe.send("go") })
        guard case .failure(.unhandledEvent(_, _, let accepted)) = outcome else {
            Issue.record("'go' is not handled in 'second': \(outcome)")
            return
        }
        #expect(accepted == ["next", "finish", "leave"])
        // Sent by hand (as SCXML's external queue allows), it is still taken.
        let steps = try runner.send("done.state.work")
        #expect(steps.contains(.callback("completed")))
        #expect(runner.states == ["idle"])
    }
}
