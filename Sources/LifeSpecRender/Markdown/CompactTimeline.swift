import LifeSpec

/// A scenario as a reader scans it: one line per call or notification, with the object that
/// receives it and the event that caused it. Read off the scenario's sequence diagram
/// (`SequenceDiagram`), so the table and the drawing beside it say the same; state changes and
/// raised events are left to the drawing and the step-by-step detail.
struct CompactTimeline {
    /// The table, or `nil` when the scenario made no call and sent no event.
    let table: MarkdownTable?

    /// `escape` and `code` are the target's (Markdown page or DocC article). The first
    /// `skipping` events are left out (a set-up the page shows in full elsewhere).
    init(
        _ diagram: SequenceDiagram, skipping: Int = 0, strings: Glossary, escape: (String) -> String,
        code: (String) -> String
    ) {
        // The sender and one object: the object column would say the same on every line.
        let objects = Set(
            diagram.rows.compactMap { row -> Int? in
                switch row {
                case .call(_, let to), .post(_, let to): to
                default: nil
                }
            })
        let showsObject = objects.count > 1 || diagram.lifelines.count > 2
        var table = MarkdownTable(
            showsObject
                ? [strings.eventColumn, strings.objectColumn, strings.callColumn]
                : [strings.eventColumn, strings.callColumn])
        var lines = 0
        // The event a line belongs to, written on its first line only.
        var pending: String? = strings.timelineStart
        var eventHasLine = true
        func add(_ call: String, on lifeline: Int?) {
            var cells = [pending ?? ""]
            if showsObject { cells.append(lifeline.map { escape(Self.object(diagram.lifelines[$0])) } ?? "") }
            cells.append(call)
            table.add(cells)
            pending = nil
            eventHasLine = true
            lines += 1
        }
        // Rows before the first event shown (the start's own calls belong to the set-up too).
        var skipped = skipping > 0
        for row in diagram.rows {
            if case .event(let number, _, _) = row, number > skipping { skipped = false }
            if skipped { continue }
            switch row {
            case .event(let number, let title, _):
                if !eventHasLine { add("*\(strings.nothingObservable)*", on: nil) }
                pending = "**\(number). \(escape(title))**"
                eventHasLine = false
            case .call(let name, let to):
                add(code(name), on: to)
            case .post(let name, let to):
                add(strings.posts(code(name)), on: to)
            case .stopped(let message):
                add("*\(escape(message))*", on: nil)
            case .raised, .state:
                continue
            }
        }
        if !eventHasLine { add("*\(strings.nothingObservable)*", on: nil) }
        self.table = lines == 0 ? nil : table
    }

    /// An object as a timeline names it: a part or an app-wide object by its name (`B`,
    /// `AppDelegate`), the object of a single-object spec by its title.
    static func object(_ lifeline: SequenceDiagram.Lifeline) -> String {
        if lifeline.key.hasPrefix("@") { return String(lifeline.key.dropFirst()) }
        return lifeline.key == "." || lifeline.key.isEmpty ? lifeline.title : lifeline.key
    }
}
