import LifecycleEngine

/// Two transitions declared on the same state for the same trigger whose guards can hold at once.
struct NondeterminismRule: SpecRule {
    static func check(_ context: RuleContext) -> [Finding] {
        var findings: [Finding] = []
        var reported: Set<Int> = []
        for state in context.machine.states {
            let declared = context.machine.transitions(declaredOn: state.id)
            for (offset, first) in declared.enumerated() {
                for second in declared[(offset + 1)...] where !reported.contains(second.index) {
                    // Any event the two share, not only the first of each `on:` list.
                    let shared: Trigger? =
                        first.events.isEmpty
                        ? (second.events.isEmpty ? .always : nil)
                        : first.events.first(where: second.events.contains).map(Trigger.event)
                    guard let shared else { continue }
                    let guards = [first.guardExpression, second.guardExpression].compactMap { $0 }
                    guard let witness = GuardExpression.satisfyingAssignment(all: guards) else { continue }
                    reported.insert(second.index)
                    findings.append(
                        Finding(
                            .nondeterminism,
                            .nondeterministic(state: state.id, trigger: shared, witness: witness),
                            at: context.location(ofTransition: second.index),
                            notes: ["the other transition is at \(context.location(ofTransition: first.index))"]
                        ))
                }
            }
        }
        return findings
    }
}

extension Finding.Message {
    static func nondeterministic(state: String, trigger: Trigger, witness: [String: Bool]) -> Self {
        let trigger = trigger.eventID.map { "event '\($0)'" } ?? "eventless transitions"
        let when =
            witness.isEmpty
            ? ""
            : " (e.g. when "
                + witness.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        return Self(
            "nondeterministic: state '\(state)' has two transitions for \(trigger) whose guards can both hold\(when); make the guards exclusive"
        )
    }
}
