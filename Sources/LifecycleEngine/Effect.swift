/// One thing executable content (a transition's, an entry's, an exit's, an initial transition's)
/// does, in the order the engine does it: what each action emits (a callback with the
/// notification it posts before or after it), then the flag assignments, then the raised events.
/// Every renderer that shows what a transition does words this one list its own way.
public enum Effect: Sendable, Hashable {
    case callback(String)
    /// `byCallback`: posted by the callback beside it (its `posts:`), not by a `notify` action.
    case notification(String, byCallback: Bool)
    case assignment(FlagAssignment)
    case raise(String)
}

extension Machine {
    public func effects(of transition: Transition) -> [Effect] {
        effects(actions: transition.actions, assignments: transition.assignments, raises: transition.raises)
    }

    public func effects(of block: ActionBlock) -> [Effect] {
        effects(actions: block.actions, assignments: block.assignments, raises: block.raises)
    }

    private func effects(actions: [Action], assignments: [FlagAssignment], raises: [String]) -> [Effect] {
        var effects: [Effect] = []
        for action in actions {
            let byCallback = if case .callback = action { true } else { false }
            for step in expand(action) {
                switch step {
                case .callback(let id): effects.append(.callback(id))
                case .notification(let id): effects.append(.notification(id, byCallback: byCallback))
                case .transition: break
                }
            }
        }
        effects += assignments.map(Effect.assignment)
        effects += raises.map(Effect.raise)
        return effects
    }
}
