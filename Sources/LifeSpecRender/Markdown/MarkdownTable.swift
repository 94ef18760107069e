/// A GFM pipe table built from cells that are already inline Markdown.
///
/// Cells are forced onto one line (a line break would end the table) and rows are padded or cut to
/// the header's column count, so the table's shape cannot depend on its content. Pipes inside
/// cells must already be escaped; `MarkdownText` never emits a raw one.
struct MarkdownTable {
    var headers: [String]
    var rows: [[String]] = []

    init(_ headers: [String]) { self.headers = headers }

    mutating func add(_ cells: [String]) { rows.append(cells) }

    func render() -> String {
        func line(_ cells: [String]) -> String {
            let fitted = (0..<headers.count).map { index in
                index < cells.count ? cells[index] : ""
            }
            return "| " + fitted.map(clean).joined(separator: " | ") + " |"
        }
        var lines = [line(headers), "|" + String(repeating: " --- |", count: headers.count)]
        lines += rows.map(line)
        return lines.joined(separator: "\n")
    }

    private func clean(_ cell: String) -> String {
        // Few cells hold a line break: a cell without a line-break scalar (LF, VT, FF, CR, NEL,
        // LS, PS — each always a character of its own, or CR LF) is kept as it is rather than
        // split character by character.
        let hasBreak = cell.unicodeScalars.contains { scalar in
            (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
        }
        let flat = hasBreak ? cell.split(whereSeparator: \.isNewline).joined(separator: "<br/>") : cell
        return flat.isEmpty ? " " : flat
    }
}
