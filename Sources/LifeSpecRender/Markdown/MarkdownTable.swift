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
        var output = TextOutput(capacity: 1024)
        write(headers, to: &output)
        output.write("\n|")
        for _ in headers { output.write(" --- |") }
        for row in rows {
            output.write(byte: UInt8(ascii: "\n"))
            write(row, to: &output)
        }
        return output.text
    }

    /// `| a | b |` with exactly the header's number of cells.
    private func write(_ cells: [String], to output: inout TextOutput) {
        output.write("| ")
        for index in headers.indices {
            if index > 0 { output.write(" | ") }
            write(cell: index < cells.count ? cells[index] : "", to: &output)
        }
        output.write(" |")
    }

    private func write(cell: String, to output: inout TextOutput) {
        // Few cells hold a line break: a cell without a line-break scalar (LF, VT, FF, CR, NEL,
        // LS, PS — each always a character of its own, or CR LF) is kept as it is rather than
        // split character by character. In UTF-8 those are the bytes 0A–0D, C2 85 and E2 80 A8/A9.
        var copy = cell
        let hasBreak = copy.withUTF8 { bytes in
            for (offset, byte) in bytes.enumerated() {
                switch byte {
                case 0x0A...0x0D: return true
                case 0xC2 where offset + 1 < bytes.count && bytes[offset + 1] == 0x85: return true
                case 0xE2 where offset + 2 < bytes.count && bytes[offset + 1] == 0x80 && (bytes[offset + 2] == 0xA8 || bytes[offset + 2] == 0xA9):
                    return true
                default: continue
                }
            }
            return false
        }
        let flat = hasBreak ? cell.split(whereSeparator: \.isNewline).joined(separator: "<br/>") : cell
        output.write(flat.isEmpty ? " " : flat)
    }
}
