import Foundation
import Ink
import LifeSpec
import LifeSpecTestSupport
import Testing

/// Compares generated text with `Tests/Fixtures/Markdown/Golden/<name>`.
/// `LIFESPEC_RECORD=1` rewrites the golden and fails, so a re-record is never silent.
func assertMarkdownGolden(_ text: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    throws
{
    try assertGolden(text, at: "Tests/Fixtures/Markdown/Golden/\(name)", sourceLocation: sourceLocation)
}

/// A table of Ink's HTML, as cell texts (tags stripped, entities kept).
struct ParsedTable {
    var header: [String]
    var rows: [[String]]
    /// Raw HTML of the cells, for checks on markup inside them.
    var rawRows: [[String]]
}

enum InkHTML {
    static func html(_ markdown: String) -> String { MarkdownParser().html(from: markdown) }

    /// Every `<table>` in document order.
    static func tables(in html: String) -> [ParsedTable] {
        elements("table", in: html).map { table in
            let header = elements("thead", in: table).first.map { cells("th", in: $0) } ?? []
            let body = elements("tbody", in: table).first ?? ""
            let rows = elements("tr", in: body).map { cells("td", in: $0) }
            return ParsedTable(header: header.map(stripTags), rows: rows.map { $0.map(stripTags) }, rawRows: rows)
        }
    }

    /// The inner HTML of each non-nested `<name>…</name>`.
    static func elements(_ name: String, in html: String) -> [String] {
        var result: [String] = []
        var rest = html[...]
        while let open = rest.range(of: "<\(name)") {
            guard let openEnd = rest[open.upperBound...].firstIndex(of: ">"),
                let close = rest[openEnd...].range(of: "</\(name)>")
            else { break }
            result.append(String(rest[rest.index(after: openEnd)..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return result
    }

    static func cells(_ name: String, in row: String) -> [String] { elements(name, in: row) }

    static func stripTags(_ html: String) -> String {
        var result = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                result.append(character)
            }
        }
        return result
    }
}
