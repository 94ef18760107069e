import Foundation
import Ink
import LifeSpec
import Testing

/// Fixtures, goldens and Ink parsing for the Markdown tests.
enum MarkdownFixtures {
    /// The package root, found from this file (no bundles).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ relativePath: String) -> URL { packageRoot.appendingPathComponent(relativePath) }

    /// Loads a spec by its package-relative path, so the page shows that relative path.
    static func load(_ relativePath: String) throws -> LoadedSpec {
        let text = try String(contentsOf: url(relativePath), encoding: .utf8)
        let result = SpecLoader.load(text: text, path: relativePath)
        guard let spec = result.spec else {
            throw FixtureError(message: "\(relativePath) does not load:\n" + result.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return spec
    }

    static func load(yaml: String, path: String = "Spec/inline.yaml") throws -> LoadedSpec {
        let result = SpecLoader.load(text: yaml, path: path)
        guard let spec = result.spec else {
            throw FixtureError(message: "inline spec does not load:\n" + result.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return spec
    }

    struct FixtureError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// Compares generated text with `Tests/Fixtures/Markdown/Golden/<name>`.
/// `LIFESPEC_RECORD=1` rewrites the golden and fails, so a re-record is never silent.
func assertMarkdownGolden(_ text: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
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
                  let close = rest[openEnd...].range(of: "</\(name)>") else { break }
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
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { result.append(character) }
        }
        return result
    }
}
