import LifecycleEngine

/// A compound or parallel state that completes (a final state is entered) while no transition
/// handles its `done.state.<id>` event: the completion has no effect, which is usually a
/// forgotten transition. A region's completion counts toward its parallel state's, which is what
/// is reported when unhandled: a region's own done event is optional.
struct UnhandledDoneEventRule: SpecRule {
    static func check(_ context: RuleContext) -> [Finding] {
        let machine = context.machine
        func isHandled(_ event: String) -> Bool {
            machine.transitions.indices.contains { machine.transition($0, matches: event) }
        }
        var findings: [Finding] = []
        for state in machine.states {
            let feedsParallel =
                state.parent.flatMap(machine.state).map { $0.isParallel && machine.doneEvent(of: $0.id) != nil }
                ?? false
            guard let event = machine.doneEvent(of: state.id), let location = context.location(ofState: state.id),
                context.space.isReachable(state.id), !feedsParallel
            else { continue }
            // Only a completion some run reaches is worth a word.
            let completes =
                state.isParallel
                || state.children.contains { child in
                    machine.state(child)?.isFinal == true && context.space.isReachable(child)
                }
            guard completes else { continue }
            if !isHandled(event) {
                findings.append(
                    Finding(.unhandledDoneEvent, .completionUnhandled(state.id, doneEvent: event), at: location))
            }
        }
        return findings
    }
}

extension Finding.Message {
    static func completionUnhandled(_ state: String, doneEvent: String) -> Self {
        Self("state '\(state)' completes, but no transition handles '\(doneEvent)'")
    }
}
