import LifeSpec

/// A GFM pipe table built from cells that are already inline Markdown.
///
/// Cells are forced onto one line (a line break would end the table) and rows are padded or cut to
/// the header's column count, so the table's shape cannot depend on its content. Pipes inside
/// cells must already be escaped; `MarkdownText` never emits a raw one.
///
/// Rows are written into the table's text as they are added, and a row can be written cell by
/// cell (`addRow`): the large tables (transitions, the event/state matrix) have tens of thousands
/// of cells, and a String of its own for each would be most of a page's work.
struct MarkdownTable {
    let columns: Int
    /// The table's text: the header row, the delimiter row and the rows added so far.
    private(set) var output = TextOutput(capacity: 1024)

    init(_ headers: [String]) {
        columns = headers.count
        writeRow { row in for header in headers { row.cell(header) } }
        output.write("\n|")
        for _ in 0..<columns { output.write(" --- |") }
    }

    mutating func add(_ cells: [String]) {
        addRow { row in for cell in cells { row.cell(cell) } }
    }

    /// Adds a row whose cells `write` writes in order; missing cells are empty, extra ones dropped.
    mutating func addRow(_ write: (inout Row) -> Void) {
        output.write(byte: UInt8(ascii: "\n"))
        writeRow(write)
    }

    private mutating func writeRow(_ write: (inout Row) -> Void) {
        var row = Row(columns: columns)
        swap(&row.output, &output)
        write(&row)
        row.finish()
        swap(&row.output, &output)
    }

    /// One row being written into the table's text.
    struct Row {
        let columns: Int
        fileprivate var output = TextOutput()
        private var written = 0

        fileprivate init(columns: Int) { self.columns = columns }

        /// A cell that is inline Markdown already.
        mutating func cell(_ text: String) {
            cell { $0.write(text) }
        }

        /// A cell of fixed text known to be one non-empty line (a phrase of `Glossary`):
        /// nothing to check.
        mutating func cell(line text: String) {
            guard written < columns else { return }
            output.write(written == 0 ? "| " : " | ")
            output.write(text)
            written += 1
        }

        /// A cell written piece by piece.
        mutating func cell(_ write: (inout TextOutput) -> Void) {
            guard written < columns else { return }
            output.write(written == 0 ? "| " : " | ")
            let start = output.count
            write(&output)
            clean(from: start)
            written += 1
        }

        fileprivate mutating func finish() {
            while written < columns { cell("") }
            output.write(" |")
        }

        /// Puts the cell written from `start` on one line, and makes an empty cell a space.
        private mutating func clean(from start: Int) {
            guard output.count > start else {
                output.write(byte: UInt8(ascii: " "))
                return
            }
            guard output.hasLineBreak(from: start) else { return }
            let cell = output.text(from: start)
            let flat = cell.split(whereSeparator: \.isNewline).joined(separator: "<br/>")
            output.removeSuffix(from: start)
            output.write(flat.isEmpty ? " " : flat)
        }
    }
}

extension TextOutput {
    /// Whether the text from byte `start` on holds a line-break scalar (LF, VT, FF, CR, NEL, LS,
    /// PS): in UTF-8 the bytes 0A–0D, C2 85 and E2 80 A8/A9. Few cells do, and a cell without one
    /// is kept as it is rather than split character by character.
    func hasLineBreak(from start: Int) -> Bool {
        var offset = start
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x0A...0x0D: return true
            case 0xC2 where offset + 1 < bytes.count && bytes[offset + 1] == 0x85: return true
            case 0xE2
            where offset + 2 < bytes.count && bytes[offset + 1] == 0x80
                && (bytes[offset + 2] == 0xA8 || bytes[offset + 2] == 0xA9):
                return true
            default: offset += 1
            }
        }
        return false
    }

    /// The text from byte `start` on.
    func text(from start: Int) -> String {
        String(decoding: bytes[start...], as: UTF8.self)
    }
}
