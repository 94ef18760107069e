import LifeSpec

extension SequenceDiagram {
    /// The diagram as a Mermaid `sequenceDiagram`: the same lifelines and rows, every text escaped
    /// (`MermaidRenderer.escape`). Calls are solid arrows, posted notifications dashed open ones,
    /// raised events dashed ones, and states notes over their lifeline.
    package func mermaid(scenario id: String, file: String) -> String {
        let strings = Glossary(language)
        func escaped(_ text: String) -> String { MermaidRenderer.escape(text) }
        var lines = [
            "%% " + escaped(strings.generatedComment(file: file)),
            "%% " + escaped(strings.sequenceComment(id)),
            "sequenceDiagram",
            "    title " + escaped(title),
        ]
        for (index, lifeline) in lifelines.enumerated() {
            lines.append("    participant L\(index) as \(escaped(lifeline.title))")
        }
        func notes(_ states: [Int: [String]]) {
            for (on, titles) in states.sorted(by: { $0.key < $1.key }) {
                lines.append("    Note over L\(on): \(escaped(titles.joined(separator: strings.listSeparator)))")
            }
        }
        notes(start)
        for row in rows {
            switch row {
            case .event(let number, let title, let to):
                lines.append("    L0->>L\(to): \(number) \(escaped(title))")
            case .raised(let title, let from, let to):
                lines.append("    L\(from)-->>L\(to): \(escaped(strings.raise(title)))")
            case .call(let name, let to):
                lines.append("    L0->>L\(to): \(escaped(name))")
            case .post(let name, let to):
                lines.append("    L0--)L\(to): \(escaped(strings.postArrow(name)))")
            case .state(let titles, let on):
                lines.append("    Note over L\(on): \(escaped(titles.joined(separator: strings.listSeparator)))")
            case .stopped(let message):
                lines.append("    Note over L0: \(escaped(message))")
            }
        }
        notes(end)
        return lines.joined(separator: "\n") + "\n"
    }
}
