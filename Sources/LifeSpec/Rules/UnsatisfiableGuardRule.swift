import LifecycleEngine

/// A guard no flag assignment makes true: the transition can never be taken.
struct UnsatisfiableGuardRule: RawSpecRule {
    static func check(_ raw: RawSpec) -> [Finding] {
        raw.transitions.indices.compactMap { index in
            guard let expression = raw.transitions[index].guardExpression, let text = raw.transitions[index].guardText,
                !expression.isSatisfiable()
            else { return nil }
            return Finding(.unsatisfiableGuard, .guardNeverHolds(expression), at: text.location)
        }
    }
}

extension Finding.Message {
    static func guardNeverHolds(_ expression: GuardExpression) -> Self {
        Self("guard '\(expression)' can never hold, so this transition is never taken")
    }
}
