import LifeSpec
import LifecycleEngine

/// Each scenario replayed by the engine on both versions (`Runner.begin`, then `send` per event),
/// as lines to align: the events sent, what the app observes after each (callbacks and
/// notifications, with the object that receives them in a system), and where it ends, or the
/// engine's error where the replay stops.
enum ScenarioReplay {
    static func changes(old: LoadedSpec, new: LoadedSpec) -> [SpecDiff.ScenarioChange] {
        let before = Dictionary(
            old.document.scenarios.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Set(new.document.scenarios.map(\.id))
        var result: [SpecDiff.ScenarioChange] = []
        for scenario in new.document.scenarios {
            let title = new.document.text(scenario.title)
            let lines = replay(scenario, in: new)
            guard let previous = before[scenario.id] else {
                result.append(
                    .init(
                        id: scenario.id, title: title, change: .added, details: start(of: scenario),
                        trace: lines.map { .init(side: .after, text: $0) }))
                continue
            }
            let previousLines = replay(previous, in: old)
            var details: [String] = []
            if previous.from != scenario.from {
                details.append(
                    Words.change("from", previous.from ?? "the initial state", scenario.from ?? "the initial state"))
            }
            if previous.flags != scenario.flags {
                details.append(Words.change("flags", flags(previous.flags), flags(scenario.flags)))
            }
            guard previousLines != lines || !details.isEmpty else { continue }
            result.append(
                .init(
                    id: scenario.id, title: title, change: .changed, details: details,
                    trace: TraceAlignment.align(previousLines, lines)))
        }
        for scenario in old.document.scenarios where !after.contains(scenario.id) {
            result.append(
                .init(
                    id: scenario.id, title: old.document.text(scenario.title), change: .removed,
                    details: start(of: scenario),
                    trace: replay(scenario, in: old).map { .init(side: .before, text: $0) }))
        }
        return result
    }

    static func start(of scenario: SpecDocument.ScenarioInfo) -> [String] {
        var details: [String] = []
        if let from = scenario.from { details.append("from: \(from)") }
        if !scenario.flags.isEmpty { details.append("flags: \(flags(scenario.flags))") }
        return details
    }

    static func flags(_ flags: [String: Bool]) -> String {
        Words.list(flags.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" })
    }

    /// The scenario's run, one line per event sent, observation and end.
    static func replay(_ scenario: SpecDocument.ScenarioInfo, in spec: LoadedSpec) -> [String] {
        var lines: [String] = []
        func observe(_ steps: [Step]) {
            for step in steps {
                guard let observation = step.observation else { continue }
                lines.append(describe(observation, in: spec.document))
            }
        }
        do {
            var (runner, steps) = try Runner.begin(machine: spec.machine, from: scenario.from, flags: scenario.flags)
            observe(steps)
            for event in scenario.events {
                lines.append("event: \(event)")
                observe(try runner.send(event))
            }
            lines.append("end: \(runner.states.joined(separator: ", "))")
        } catch {
            lines.append("error: \(error)")
        }
        return lines
    }

    /// `didBecomeActive`, `notify: didBecomeActiveNotification`; in a system, the object that
    /// receives the callback or posts the notification when the id does not name it already
    /// (`S1.didBecomeActive (AppDelegate)`).
    static func describe(_ observation: Observation, in document: SpecDocument) -> String {
        let id: String
        switch observation {
        case .callback(let callback): id = callback
        case .notification(let notification): id = notification
        }
        var text = observation.description
        if let receiver = document.receiver(of: id), !id.hasPrefix(receiver + ".") { text += " (\(receiver))" }
        return text
    }
}

/// The longest common subsequence of two line lists, as a diff: lines on both sides in order,
/// with what only one side has where it has it (removed before added).
enum TraceAlignment {
    static func align(_ before: [String], _ after: [String]) -> [SpecDiff.TraceLine] {
        let (n, m) = (before.count, after.count)
        // suffix[i][j]: the length of the longest common subsequence of before[i...] and after[j...].
        var suffix = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                suffix[i][j] =
                    before[i] == after[j] ? suffix[i + 1][j + 1] + 1 : max(suffix[i + 1][j], suffix[i][j + 1])
            }
        }
        var lines: [SpecDiff.TraceLine] = []
        var (i, j) = (0, 0)
        while i < n || j < m {
            if i < n, j < m, before[i] == after[j] {
                lines.append(.init(side: .both, text: before[i]))
                i += 1
                j += 1
            } else if i < n, j == m || suffix[i + 1][j] >= suffix[i][j + 1] {
                lines.append(.init(side: .before, text: before[i]))
                i += 1
            } else {
                lines.append(.init(side: .after, text: after[j]))
                j += 1
            }
        }
        return lines
    }
}
