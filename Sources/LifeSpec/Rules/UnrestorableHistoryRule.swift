import LifecycleEngine

/// A history state that can never be restored: nothing targets it, or its parent is never exited
/// while active, so it never records anything and every entry through it takes its default.
struct UnrestorableHistoryRule: SpecRule {
    static func check(_ context: RuleContext) -> [Finding] {
        let machine = context.machine
        var findings: [Finding] = []
        for state in machine.states where state.isHistory {
            guard let location = context.location(ofState: state.id), let parent = state.parent else { continue }
            let targeted = machine.transitions.contains {
                $0.targets.contains(state.id) && !$0.sources.contains(state.id)
            }
            if !targeted {
                findings.append(Finding(.unrestorableHistory, .neverTargeted(history: state.id), at: location))
                continue
            }
            // Exact only when the engine explored every configuration; recorded history is part of it.
            guard context.space.isExact, context.space.eventlessLoops.isEmpty, context.space.isReachable(parent) else {
                continue
            }
            if !context.space.recordedHistory.contains(state.id) {
                findings.append(
                    Finding(.unrestorableHistory, .recordsNothing(history: state.id, parent: parent), at: location))
            }
        }
        return findings
    }
}

extension Finding.Message {
    static func neverTargeted(history: String) -> Self {
        Self("history state '\(history)' is never restored: no transition targets it")
    }

    static func recordsNothing(history: String, parent: String) -> Self {
        Self(
            "history state '\(history)' is never restored: '\(parent)' is never exited while active, so it records nothing and every entry through it takes its default"
        )
    }
}
