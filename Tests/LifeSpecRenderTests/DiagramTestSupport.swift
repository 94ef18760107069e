import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Compares generated text with `Tests/Fixtures/Diagram/Golden/<name>`. `LIFESPEC_RECORD=1`
/// rewrites the golden and fails, so a re-record is never silent. (Same contract as the Markdown
/// goldens' helper; a separate folder so each renderer's goldens stay together.)
func assertDiagramGolden(_ text: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    throws
{
    try assertGolden(text, at: "Tests/Fixtures/Diagram/Golden/\(name)", sourceLocation: sourceLocation)
}

/// SVG from Graphviz, parsed with Foundation's XML parser.
struct ParsedSVG {
    let document: XMLDocument

    init(_ bytes: [UInt8]) throws {
        document = try XMLDocument(data: Data(bytes), options: [])
    }

    /// Text of every element with the given local name, in document order.
    func texts(of element: String) throws -> [String] {
        try document.nodes(forXPath: "//*[local-name()='\(element)']").map { $0.stringValue ?? "" }
    }

    /// Every `<text>` drawn, with the invisible word joiner the HTML escaping inserts removed.
    var drawnTexts: [String] {
        get throws { try texts(of: "text").map { $0.replacingOccurrences(of: "\u{2060}", with: "") } }
    }

    /// The `id` attribute of every element that has one.
    var ids: [String] {
        get throws { try document.nodes(forXPath: "//@id").compactMap(\.stringValue) }
    }
}

/// Reads the resident set size from /proc (Linux); nil elsewhere.
func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
