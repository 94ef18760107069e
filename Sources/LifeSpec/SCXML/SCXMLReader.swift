import Foundation
import LifecycleEngine

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads SCXML (Foundation's `XMLParser`) into an `SCXMLDocument`, with a located diagnostic for
/// every construct outside the supported subset and every broken reference.
package enum SCXMLReader {
    package static let namespace = "http://www.w3.org/2005/07/scxml"
    /// LifeSpec's own elements and attributes in an exported chart (other engines ignore them).
    package static let lifespecNamespace = "urn:lifespec:scxml:1"

    package static func read(path: String, limits: LoaderLimits = LoaderLimits()) -> (
        document: SCXMLDocument?, diagnostics: [Diagnostic]
    ) {
        // The same door as a YAML spec file: a regular file, not a link out of the project, bounded.
        let data: Data
        switch SpecLoader.readFile(path: path, limits: limits) {
        case .success(let bytes): data = bytes
        case .failure(let problem): return (nil, [problem.diagnostic])
        }
        return read(data: data, path: path, limits: limits)
    }

    package static func read(data: Data, path: String, limits: LoaderLimits = LoaderLimits()) -> (
        document: SCXMLDocument?, diagnostics: [Diagnostic]
    ) {
        let start = SourceLocation(path: path, line: 1, column: 1)
        var bytes = [UInt8](data)
        // From the raw bytes: the parser decodes by the file's own declarations, not as we read it.
        if let problem = XMLInputPolicy.problem(in: bytes, path: path) { return (nil, [problem]) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return (nil, [.error(.unreadableFile, "SCXML file is not valid UTF-8", at: start)])
        }
        let tags = TagScanner.scan(text, path: path)
        if let flood = tags.flood { return (nil, [.error(.inputLimit, "SCXML: \(flood.message)", at: flood.location)]) }
        let builder = Builder(path: path, tagLocations: tags.starts, limits: limits)
        let parser = XMLParser(data: Data(text.utf8))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if !parsed || builder.xmlError != nil {
            let location =
                builder.xmlError?.location
                ?? SourceLocation(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
            let reason = builder.xmlError?.message ?? parser.parserError.map { xmlErrorText($0) } ?? "malformed XML"
            var diagnostics = builder.diagnostics
            diagnostics.append(.error(.xmlSyntax, reason, at: location))
            return (nil, diagnostics.sorted())
        }
        return builder.finish()
    }

    static func xmlErrorText(_ error: Error) -> String {
        let nsError = error as NSError
        // libxml2's error numbers, for the mistakes people make by hand (Foundation on Linux gives no text).
        let known: [Int: String] = [
            4: "the document is empty", 5: "the document ends before every element is closed",
            23: "a '&' that starts no entity (write &amp;)", 26: "an undeclared entity",
            38: "an attribute value without quotes or with '<'",
            39: "an attribute without a value", 41: "an attribute without a value", 65: "an attribute without a value",
            68: "a name was expected", 73: "'>' was expected", 76: "a closing tag does not match the element it closes",
            5000: "the document ends before every element is closed",
        ]
        if let text = known[nsError.code] { return "XML: \(text)" }
        if let message = nsError.userInfo[NSLocalizedDescriptionKey] as? String, !message.isEmpty {
            return "XML: " + message.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return "XML: malformed document (parser error \(nsError.code))"
    }
}
