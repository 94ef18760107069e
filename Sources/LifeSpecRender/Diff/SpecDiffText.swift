import Foundation
import LifeSpec

/// `lifespec diff`'s three outputs: text for a terminal, Markdown for a pull-request comment (every
/// spec string escaped by `MarkdownText`), and JSON (sorted keys).
extension SpecDiff {
    /// What differs, in one line: the first line of the text and of the Markdown.
    package var headline: String {
        guard behaviourDiffers else {
            let words = textChanges.isEmpty ? "" : " (\(Words.count(textChanges.count, "text-only change")))"
            return
                "No change in behaviour: the machines, every scenario's trace and the generated test cases are the same\(words)."
        }
        var parts: [String] = []
        if !scenarios.isEmpty {
            parts.append("\(Words.count(scenarios.count, "scenario")) \(scenarios.count == 1 ? "changes" : "change")")
        }
        if !changes.isEmpty {
            parts.append("\(Words.count(changes.count, "element")) \(changes.count == 1 ? "changes" : "change")")
        }
        if !cases.isEmpty {
            parts.append(
                "\(Words.count(cases.count, "generated test case")) \(cases.count == 1 ? "changes" : "change")")
        }
        if !textChanges.isEmpty { parts.append(Words.count(textChanges.count, "text-only change")) }
        return "Behaviour differs: " + parts.joined(separator: ", ") + "."
    }

    private static func sign(_ change: Change) -> String {
        switch change {
        case .added: "+"
        case .removed: "-"
        case .changed: "~"
        }
    }

    private static func sign(_ side: TraceLine.Side) -> String {
        switch side {
        case .both: " "
        case .before: "-"
        case .after: "+"
        }
    }

    private var casesLine: String {
        let counts = [Change.changed, .added, .removed].compactMap { change -> String? in
            let count = cases.filter { $0.change == change }.count
            return count == 0 ? nil : "\(count) \(change.rawValue)"
        }
        return "\(counts.joined(separator: ", ")) (\(caseCounts[0]) → \(caseCounts[1]) cases)"
    }

    // MARK: Text

    package var text: String {
        var lines = ["lifespec diff \(old.name) \(new.name)", headline]
        if !scenarios.isEmpty {
            lines += ["", "Scenarios whose traces change:"]
            for scenario in scenarios {
                let title = scenario.title.map { ": \($0)" } ?? ""
                let added = scenario.change == .changed ? "" : " (\(scenario.change.rawValue))"
                lines.append("  \(Self.sign(scenario.change)) \(scenario.id)\(title)\(added)")
                lines += scenario.details.map { "      \($0)" }
                lines += scenario.trace.map { "      \(Self.sign($0.side)) \($0.text)" }
            }
        }
        if !changes.isEmpty {
            lines += ["", "Elements that change:"]
            lines += Self.textLines(changes)
        }
        if !cases.isEmpty {
            lines += ["", "Generated test cases: \(casesLine):"]
            lines += cases.map { "  \(Self.sign($0.change)) \($0.id): \($0.summary)" }
        }
        if !textChanges.isEmpty {
            lines += ["", "Text-only changes (no change in behaviour):"]
            lines += Self.textLines(textChanges)
        }
        return lines.map { Diagnostic.escaped($0, keepingNewlines: false) }.joined(separator: "\n") + "\n"
    }

    private static func textLines(_ changes: [ElementChange]) -> [String] {
        changes.flatMap { item in
            [
                "  \(sign(item.change)) \(item.kind.rawValue) \(item.id)\(item.change == .changed ? "" : " (\(item.change.rawValue))")"
            ]
                + item.details.map { "      \($0)" }
        }
    }

    // MARK: Markdown

    package var markdown: String {
        var output: [String] = []
        let verdict = behaviourDiffers ? "behaviour differs" : "no change in behaviour"
        output.append("### \(Self.code(new.id)): \(verdict)")
        output.append("")
        output.append(MarkdownText.inline(headline))
        output.append("")
        output.append("From \(Self.code(old.name)) to \(Self.code(new.name)) (\(Self.code("lifespec diff"))).")
        if !scenarios.isEmpty {
            output += ["", "#### Scenarios whose traces change", ""]
            for scenario in scenarios {
                let title = scenario.title.map { " " + MarkdownText.inline($0) } ?? ""
                let change = scenario.change == .changed ? "" : " (\(scenario.change.rawValue))"
                output.append("**\(Self.code(scenario.id))**\(title)\(change)")
                if !scenario.details.isEmpty {
                    output.append("")
                    output += scenario.details.map { "- " + MarkdownText.inline($0) }
                }
                output.append("")
                let body = scenario.trace.map { "\(Self.sign($0.side)) \($0.text)" }.joined(separator: "\n")
                output.append(MarkdownText.fencedBlock(body, language: "diff"))
                output.append("")
            }
            if output.last == "" { output.removeLast() }
        }
        if !changes.isEmpty {
            output += ["", "#### Elements that change", ""]
            output += Self.markdownTable(changes)
        }
        if !cases.isEmpty {
            output += ["", "#### Generated test cases", ""]
            output.append("<details><summary>\(MarkdownText.inline(casesLine))</summary>")
            output.append("")
            output += cases.map {
                "- \($0.change.rawValue) \(Self.code($0.id)): \(MarkdownText.inline($0.summary))"
            }
            output.append("")
            output.append("</details>")
        }
        if !textChanges.isEmpty {
            output += ["", "#### Text-only changes (no change in behaviour)", ""]
            output += Self.markdownTable(textChanges)
        }
        return output.joined(separator: "\n") + "\n"
    }

    private static func markdownTable(_ changes: [ElementChange]) -> [String] {
        ["| element | change | what |", "|---|---|---|"]
            + changes.map { item in
                let details = item.details.map(MarkdownText.inline).joined(separator: "<br/>")
                return "| \(item.kind.rawValue) \(code(item.id)) | \(item.change.rawValue) | \(details) |"
            }
    }

    private static func code(_ text: String) -> String {
        var output = TextOutput()
        MarkdownText.writeCode(text, to: &output)
        return output.text
    }

    // MARK: JSON

    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(JSONReport(diff: self))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The diff with the answers derived from it, as `--format json` writes it: its own fields,
    /// then in the same object whether behaviour differs and the headline.
    private struct JSONReport: Encodable {
        let diff: SpecDiff

        enum Answer: String, CodingKey { case behaviourDiffers, headline }

        func encode(to encoder: any Encoder) throws {
            try diff.encode(to: encoder)
            var answers = encoder.container(keyedBy: Answer.self)
            try answers.encode(diff.behaviourDiffers, forKey: .behaviourDiffers)
            try answers.encode(diff.headline, forKey: .headline)
        }
    }
}
