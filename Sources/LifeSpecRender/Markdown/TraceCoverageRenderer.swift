import LifeSpec
import LifecycleEngine

/// `check-trace --coverage`'s report of what recorded sessions exercised: Markdown for people,
/// JSON for tools, the same facts in both. Spec text (ids, titles, guards) is data: Markdown
/// through `MarkdownText`, JSON through `JSONText`, so a hostile id cannot make markup.
package enum TraceCoverageRenderer {
    package static func markdown(_ report: TraceCoverageReport) -> String {
        var out = TextOutput(capacity: 4096)
        let title = report.specTitle.map { MarkdownText.singleLine($0) + " " } ?? ""
        out.line("# Coverage of recorded sessions: \(title)(\(code(report.specID)))")
        out.line()
        let logs = report.logs.count
        var judged = "\(logs) log\(logs == 1 ? "" : "s") checked: \(report.conformingLogs) conform"
        if report.failingLogs > 0 {
            judged +=
                ", \(report.failingLogs) fail\(report.failingLogs == 1 ? "s" : "") and"
                + " \(report.failingLogs == 1 ? "is" : "are") not counted"
        }
        out.line(judged + ".")
        out.line(
            "Exercised: every explanation of a log (every sequence of events that produces it) takes it. "
                + "Possibly: some explanations of a log take it, not all; the log cannot tell.")
        out.line()
        var totals = MarkdownTable(["", "exercised", "possibly", "never", "of"])
        for (name, total) in [
            ("states", report.stateTotal), ("transitions", report.transitionTotal),
            ("scenarios", report.scenarioTotal),
        ] {
            totals.add([
                name, "\(total.exercised)", "\(total.possibly)", "\(total.total - total.exercised - total.possibly)",
                "\(total.total)",
            ])
        }
        out.line(totals.output.text)
        out.line()
        out.line("Transitions count as the conformance suite counts them: one per source state and target.")
        out.line()
        if !report.untoldRegions.isEmpty {
            out.line(
                "Not told apart by some log (they emit nothing it records, and nothing else depends on them), "
                    + "so nothing in them is claimed from that log: "
                    + report.untoldRegions.map(code).joined(separator: ", ") + ".")
            out.line()
        }

        out.line("## Logs")
        out.line()
        var table = MarkdownTable(["log", "verdict"])
        for log in report.logs {
            let verdict =
                log.conforms
                ? "conforms"
                : "fails, not counted: " + MarkdownText.singleLine(firstLine(log.message))
            table.add([code(log.path), verdict])
        }
        out.line(table.output.text)
        out.line()

        let named = { (row: TraceCoverageReport.NamedRow) in
            [code(row.id), row.title.map(MarkdownText.singleLine) ?? ""]
        }
        section("States", report.states, header: ["state", "title"], into: &out, cells: named, count: \.count)
        section(
            "Transitions", report.transitions, header: ["#", "from", "event", "to"], into: &out,
            cells: { row in
                let event = row.event.map(code) ?? "always"
                let guardText = row.guardText.map { " if " + code($0) } ?? ""
                let targets = row.targets.isEmpty ? "(internal)" : row.targets.map(code).joined(separator: ", ")
                return ["\(row.index)", code(row.source), event + guardText, targets]
            }, count: \.count)
        section("Scenarios", report.scenarios, header: ["scenario", "title"], into: &out, cells: named, count: \.count)
        return out.text
    }

    /// A kind's three tables: exercised (with how many logs), possibly exercised, never exercised.
    private static func section<Row>(
        _ heading: String, _ rows: [Row], header: [String], into out: inout TextOutput, cells: (Row) -> [String],
        count: KeyPath<Row, TraceCoverageReport.Count>
    ) {
        out.line("## \(heading)")
        out.line()
        let groups: [(String, [Row], String?)] = [
            ("Exercised", rows.filter { $0[keyPath: count].logs > 0 }, "logs"),
            ("Possibly exercised", rows.filter { $0[keyPath: count].standing == "possibly" }, "logs (possibly)"),
            ("Never exercised", rows.filter { $0[keyPath: count].standing == "never" }, nil),
        ]
        for (title, members, column) in groups {
            out.line("### \(title) (\(members.count))")
            out.line()
            guard !members.isEmpty else {
                out.line("None.")
                out.line()
                continue
            }
            var table = MarkdownTable(header + (column.map { [$0] } ?? []))
            for row in members {
                let tally = row[keyPath: count]
                let extra: [String] =
                    column == nil ? [] : [title == "Exercised" ? "\(tally.logs)" : "\(tally.possibleLogs)"]
                table.add(cells(row) + extra)
            }
            out.line(table.output.text)
            out.line()
        }
    }

    private static func code(_ text: String) -> String {
        TextOutput.string { MarkdownText.writeCode(text, to: &$0) }
    }

    private static func firstLine(_ message: String) -> String {
        String(message.split(separator: "\n", omittingEmptySubsequences: true).first ?? "")
    }

    /// The same facts as JSON. Shape (pinned by `TraceCoverageTests`, described in
    /// docs/spec-format.md): `spec`, `logs` (`path`, `conforms`, `message`), `untold` (regions some
    /// log could not tell apart), `totals` (per kind
    /// `exercised`, `possibly`, `total`), and per item `exercised` / `possibly` log counts and
    /// `coverage` (`exercised`, `possibly` or `never`).
    package static func json(_ report: TraceCoverageReport) -> String {
        var out = TextOutput(capacity: 4096)
        out.write("{\n  \"spec\": ")
        JSONText.writeString(report.specID, to: &out)
        out.write(",\n  \"logs\": [")
        for (position, log) in report.logs.enumerated() {
            out.write(position == 0 ? "\n    {\"path\": " : ",\n    {\"path\": ")
            JSONText.writeString(log.path, to: &out)
            out.write(", \"conforms\": \(log.conforms), \"message\": ")
            JSONText.writeString(log.message, to: &out)
            out.write("}")
        }
        out.write(report.logs.isEmpty ? "],\n" : "\n  ],\n")
        out.write("  \"untold\": [")
        for (offset, region) in report.untoldRegions.enumerated() {
            if offset > 0 { out.write(", ") }
            JSONText.writeString(region, to: &out)
        }
        out.write("],\n")
        out.write("  \"totals\": {")
        for (position, (name, total)) in [
            ("states", report.stateTotal), ("transitions", report.transitionTotal),
            ("scenarios", report.scenarioTotal),
        ].enumerated() {
            out.write(position == 0 ? "\n" : ",\n")
            out.write(
                "    \"\(name)\": {\"exercised\": \(total.exercised), \"possibly\": \(total.possibly), \"total\": \(total.total)}"
            )
        }
        out.write("\n  },\n")
        writeRows("states", report.states, to: &out)
        out.write(",\n")
        out.write("  \"transitions\": [")
        for (position, row) in report.transitions.enumerated() {
            out.write(
                position == 0
                    ? "\n    {\"index\": \(row.index), \"from\": " : ",\n    {\"index\": \(row.index), \"from\": ")
            JSONText.writeString(row.source, to: &out)
            out.write(", \"event\": ")
            if let event = row.event { JSONText.writeString(event, to: &out) } else { out.write("null") }
            out.write(", \"guard\": ")
            if let guardText = row.guardText { JSONText.writeString(guardText, to: &out) } else { out.write("null") }
            out.write(", \"to\": [")
            for (offset, target) in row.targets.enumerated() {
                if offset > 0 { out.write(", ") }
                JSONText.writeString(target, to: &out)
            }
            out.write("], \"weight\": \(row.weight)")
            writeCount(row.count, to: &out)
        }
        out.write(report.transitions.isEmpty ? "],\n" : "\n  ],\n")
        writeRows("scenarios", report.scenarios, to: &out)
        out.write("\n}\n")
        return out.text
    }

    /// `  "name": [` the rows `]`, with no line break after the closing bracket.
    private static func writeRows(_ name: String, _ rows: [TraceCoverageReport.NamedRow], to out: inout TextOutput) {
        out.write("  \"\(name)\": [")
        for (position, row) in rows.enumerated() {
            out.write(position == 0 ? "\n    {\"id\": " : ",\n    {\"id\": ")
            JSONText.writeString(row.id, to: &out)
            writeTitle(row.title, to: &out)
            writeCount(row.count, to: &out)
        }
        out.write(rows.isEmpty ? "]" : "\n  ]")
    }

    private static func writeTitle(_ title: String?, to out: inout TextOutput) {
        out.write(", \"title\": ")
        if let title { JSONText.writeString(title, to: &out) } else { out.write("null") }
    }

    private static func writeCount(_ count: TraceCoverageReport.Count, to out: inout TextOutput) {
        out.write(
            ", \"exercised\": \(count.logs), \"possibly\": \(count.possibleLogs), \"coverage\": \"\(count.standing)\"}")
    }
}
