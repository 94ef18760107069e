import LifecycleEngine

/// A non-final leaf with no transition that leaves it: the lifecycle would be stuck there.
struct DeadEndRule: SpecRule {
    static func check(_ context: RuleContext) -> [Finding] {
        let machine = context.machine
        return machine.leafStates.compactMap { leaf in
            guard !leaf.isFinal else { return nil }
            let exits = machine.ancestry(of: leaf.id).contains { id in
                machine.transitions(declaredOn: id).contains { transition in
                    guard let target = transition.target else { return false }
                    return machine.leaf(entering: target) != leaf.id
                }
            }
            guard !exits, let location = context.location(ofState: leaf.id) else { return nil }
            return Finding(.deadEnd, .deadEnd(leaf.id), at: location)
        }
    }
}

extension Finding.Message {
    static func deadEnd(_ state: String) -> Self {
        Self("state '\(state)' is not final but no transition leaves it; add one or mark it 'final: true'")
    }
}
