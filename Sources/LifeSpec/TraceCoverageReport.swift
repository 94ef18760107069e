import LifecycleEngine

/// `lifespec check-trace SPEC LOG… --coverage`: what the conforming logs exercised together, per
/// state, transition (as the conformance suite counts them: one per source of a `from:` list) and
/// scenario, with how many logs exercised each for certain (every explanation of the log did) and
/// how many only possibly (some did, not all). Failing logs are listed and count for nothing.
package struct TraceCoverageReport: Sendable {
    /// One log as judged.
    package struct Log: Sendable {
        package let path: String
        /// The summary for a conforming log, the diagnostic for a failing one.
        package let message: String
        package let conforms: Bool
        /// `nil` for a failing log (or when coverage was not tracked).
        package let exercised: TraceChecker.Exercised?

        package init(path: String, conforms: Bool, message: String, exercised: TraceChecker.Exercised?) {
            self.path = path
            self.conforms = conforms
            self.message = message
            self.exercised = exercised
        }
    }

    /// How many conforming logs exercised an item for certain, and how many only possibly.
    package struct Count: Sendable, Hashable {
        package var logs = 0
        package var possibleLogs = 0

        /// `exercised`, `possibly` or `never`: the item's standing over all logs.
        package var standing: String { logs > 0 ? "exercised" : possibleLogs > 0 ? "possibly" : "never" }
    }

    /// A state or a scenario: named by its id and title.
    package struct NamedRow: Sendable {
        package let id: String
        package let title: String?
        package let count: Count
    }

    package struct TransitionRow: Sendable {
        package let index: Int
        package let source: String
        package let event: String?
        package let targets: [String]
        package let guardText: String?
        /// What it counts for in the totals: one per target.
        package let weight: Int
        package let count: Count
    }

    /// The totals of one kind: items exercised for certain by some log, only possibly, all.
    package struct Total: Sendable, Hashable {
        package let exercised: Int
        package let possibly: Int
        package let total: Int
    }

    package let specID: String
    package let specTitle: String?
    package let logs: [Log]
    /// Every state but history pseudo-states, in document order.
    package let states: [NamedRow]
    package let transitions: [TransitionRow]
    package let scenarios: [NamedRow]

    package init(machine: Machine, document: SpecDocument, logs: [Log]) {
        specID = document.id
        specTitle = document.text(document.title)
        self.logs = logs
        let exercised = logs.filter(\.conforms).compactMap(\.exercised)
        func count(_ certain: (TraceChecker.Exercised) -> Bool, _ possible: (TraceChecker.Exercised) -> Bool)
            -> Count
        {
            var result = Count()
            for log in exercised {
                if certain(log) {
                    result.logs += 1
                } else if possible(log) {
                    result.possibleLogs += 1
                }
            }
            return result
        }
        states = machine.states.filter { !$0.isHistory }.map { state in
            NamedRow(
                id: state.id, title: document.text(document.state(state.id)?.title),
                count: count({ $0.states.contains(state.id) }, { $0.possibleStates.contains(state.id) }))
        }
        transitions = TraceChecker.coverageUnits(of: machine).map { unit in
            let transition = machine.transitions[unit.use.transition]
            return TransitionRow(
                index: unit.use.transition, source: unit.use.source, event: transition.trigger.eventID,
                targets: transition.targets, guardText: transition.guardExpression.map { "\($0)" },
                weight: unit.weight,
                count: count({ $0.transitions.contains(unit.use) }, { $0.possibleTransitions.contains(unit.use) }))
        }
        scenarios = document.scenarios.enumerated().map { position, scenario in
            NamedRow(
                id: scenario.id, title: document.text(scenario.title),
                count: count({ $0.scenarios.contains(position) }, { $0.possibleScenarios.contains(position) }))
        }
    }

    package var conformingLogs: Int { logs.filter(\.conforms).count }

    /// Regions some conforming log could not tell apart (their states and transitions are never
    /// claimed by that log), in first-seen order.
    package var untoldRegions: [String] {
        var result: [String] = []
        for region in logs.filter(\.conforms).compactMap(\.exercised).flatMap(\.untoldRegions)
        where !result.contains(region) {
            result.append(region)
        }
        return result
    }
    package var failingLogs: Int { logs.count - conformingLogs }

    package var stateTotal: Total { Self.total(states.map { ($0.count, 1) }) }
    /// Weighted as the suite's transition coverage: one per source state and target.
    package var transitionTotal: Total { Self.total(transitions.map { ($0.count, $0.weight) }) }
    package var scenarioTotal: Total { Self.total(scenarios.map { ($0.count, 1) }) }

    private static func total(_ items: [(count: Count, weight: Int)]) -> Total {
        Total(
            exercised: items.filter { $0.count.logs > 0 }.reduce(0) { $0 + $1.weight },
            possibly: items.filter { $0.count.logs == 0 && $0.count.possibleLogs > 0 }.reduce(0) { $0 + $1.weight },
            total: items.reduce(0) { $0 + $1.weight })
    }
}
