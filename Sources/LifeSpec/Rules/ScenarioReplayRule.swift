import LifecycleEngine

/// Every scenario replayed through the engine; the trace must match exactly.
struct ScenarioReplayRule: SpecRule {
    static func check(_ context: RuleContext) -> [Finding] {
        context.document.scenarios.enumerated().compactMap { index, scenario in
            replay(scenario, raw: context.raw.scenarios[index], machine: context.machine)
        }
    }

    static func replay(_ scenario: SpecDocument.ScenarioInfo, raw: RawSpec.Scenario, machine: Machine) -> Finding? {
        var runner: Runner
        var observed: [Observation] = []
        do {
            let begun = try Runner.begin(machine: machine, from: scenario.from, flags: scenario.flags)
            runner = begun.runner
            observed = begun.steps.compactMap(\.observation)
        } catch {
            return Finding(.scenarioFailed, .cannotStart(scenario.id, error), at: scenario.location)
        }
        for (offset, event) in scenario.events.enumerated() {
            do {
                observed += try runner.send(event).compactMap(\.observation)
            } catch {
                return Finding(
                    .scenarioFailed, .stepFails(scenario.id, step: offset + 1, error), at: raw.events[offset].location,
                    notes: [
                        "trace so far: "
                            + (observed.isEmpty ? "(nothing)" : observed.map(\.description).joined(separator: ", "))
                    ])
            }
        }
        var problems: [String] = []
        if raw.expectGiven, observed != scenario.expect {
            problems.append("the trace differs from 'expect'")
        }
        let active = runner.activeStates
        if !scenario.endStates.isEmpty, !scenario.endStates.allSatisfy(active.contains) {
            problems.append("it ends in '\(runner.configuration)', not '\(scenario.endStates.joined(separator: "+"))'")
        }
        guard !problems.isEmpty else { return nil }
        return Finding(
            .scenarioMismatch, .doesNotReplay(scenario.id, problems: problems),
            at: scenario.location, notes: sideBySide(expected: scenario.expect, actual: observed))
    }

    /// Expected and actual traces in two columns, the first differing row marked.
    static func sideBySide(expected: [Observation], actual: [Observation]) -> [String] {
        let width = max(8, (expected.map(\.description.count).max() ?? 0))
        var lines = ["   " + "expected".padding(toLength: width, withPad: " ", startingAt: 0) + "  actual"]
        var marked = false
        for row in 0..<max(expected.count, actual.count) {
            let left = row < expected.count ? expected[row].description : "—"
            let right = row < actual.count ? actual[row].description : "—"
            let differs = left != right
            let marker = differs && !marked ? "→ " : "  "
            if differs { marked = true }
            lines.append(marker + " " + left.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + right)
        }
        return lines
    }
}

extension Finding.Message {
    static func cannotStart(_ scenario: String, _ error: any Error) -> Self {
        Self("scenario '\(scenario)' cannot start: \(error)")
    }

    static func stepFails(_ scenario: String, step: Int, _ error: any Error) -> Self {
        Self("scenario '\(scenario)' step \(step): \(error)")
    }

    static func doesNotReplay(_ scenario: String, problems: [String]) -> Self {
        Self("scenario '\(scenario)' does not replay: " + problems.joined(separator: "; "))
    }
}
