/// What an XML file's raw bytes must be before any parser sees them. libxml2 picks the encoding
/// from a byte-order mark, from the first bytes, or from the XML declaration: text checked as
/// UTF-8 could be decoded as UTF-16 or UTF-7, and a DTD invisible to a UTF-8 scan expanded its
/// entities. So only UTF-8 passes (an XML declaration naming it, or none), with no NUL byte and
/// no DTD at all, whatever is around it.
enum XMLInputPolicy {
    /// The first thing about `bytes` that is refused, located; `nil` when they may be parsed.
    static func problem(in bytes: [UInt8], path: String) -> Diagnostic? {
        func at(_ offset: Int) -> SourceLocation { SpecLoader.offsetLocation(offset, in: bytes, path: path) }
        for (mark, name) in byteOrderMarks where bytes.starts(with: mark) {
            return .error(
                .unreadableFile, "SCXML file starts with a \(name) byte-order mark; LifeSpec reads SCXML in UTF-8 only",
                at: at(0))
        }
        if let nul = bytes.firstIndex(of: 0) {
            return .error(
                .unreadableFile,
                "SCXML file holds a NUL byte (UTF-16 or UTF-32 text?); LifeSpec reads SCXML in UTF-8 only", at: at(nul))
        }
        // Markup is ASCII in UTF-8, so the byte scan below sees every declaration libxml2 would.
        var index = 0
        while let open = find(Array("<?xml".utf8), in: bytes, from: index) {
            index = open + 5
            guard index < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x3F].contains(bytes[index]) else { continue }
            let end = find(Array("?>".utf8), in: bytes, from: index) ?? bytes.count
            if let encoding = encodingName(in: Array(bytes[index..<end])),
                !["utf-8", "utf8"].contains(encoding.lowercased())
            {
                // The name is shown only when it is short printable ASCII (it is the file's own text).
                let shown =
                    encoding.count <= 40 && encoding.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
                    ? "'\(encoding)'" : "another encoding"
                return .error(
                    .unreadableFile,
                    "the XML declaration names \(shown); LifeSpec reads SCXML in UTF-8 only (encoding=\"UTF-8\" or none)",
                    at: at(open))
            }
        }
        // Processing instructions: SCXML needs none, and Foundation's XMLParser crashes (a NULL
        // strlen) on one without data, `<?x?>` (found by the fuzzer). Only the XML declaration, at
        // the very start, passes.
        let declarationStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var scan = 0
        while let open = find(Array("<?".utf8), in: bytes, from: scan) {
            scan = open + 2
            let isDeclaration =
                open == declarationStart && find(Array("<?xml".utf8), in: bytes, from: open) == open
                && open + 5 < bytes.count && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[open + 5])
            if !isDeclaration {
                return .error(
                    .unsupportedSCXML,
                    "processing instructions (<?…?>) are not supported in SCXML files (only the XML declaration, first)",
                    at: at(open))
            }
        }
        // A DTD can declare entities that expand without bound; SCXML needs none. Refused even
        // inside a comment: the scan stays simple and the comment is not worth the risk.
        for keyword in ["<!DOCTYPE", "<!ENTITY", "<!ELEMENT", "<!ATTLIST", "<!NOTATION"] {
            if let offset = find(Array(keyword.utf8), in: bytes, from: 0) {
                return .error(
                    .unsupportedSCXML, "<!DOCTYPE> is not supported in SCXML files (no DTD or entities)", at: at(offset)
                )
            }
        }
        return nil
    }

    /// UTF-8's own mark is allowed (and dropped by the reader).
    private static let byteOrderMarks: [([UInt8], String)] = [
        ([0x00, 0x00, 0xFE, 0xFF], "UTF-32"), ([0xFF, 0xFE, 0x00, 0x00], "UTF-32"),
        ([0xFE, 0xFF], "UTF-16"), ([0xFF, 0xFE], "UTF-16"), ([0x2B, 0x2F, 0x76], "UTF-7"),
        ([0xF7, 0x64, 0x4C], "UTF-1"), ([0xDD, 0x73, 0x66, 0x73], "UTF-EBCDIC"), ([0x0E, 0xFE, 0xFF], "SCSU"),
        ([0xFB, 0xEE, 0x28], "BOCU-1"), ([0x84, 0x31, 0x95, 0x33], "GB 18030"),
    ]

    /// The first offset at or after `start` where `needle` is, ASCII letters compared in any case.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        func folded(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        let wanted = needle.map(folded)
        var offset = start
        while offset + wanted.count <= bytes.count {
            if folded(bytes[offset]) == wanted[0] {
                var matched = 1
                while matched < wanted.count, folded(bytes[offset + matched]) == wanted[matched] { matched += 1 }
                if matched == wanted.count { return offset }
            }
            offset += 1
        }
        return nil
    }

    /// The value of the `encoding` pseudo-attribute in an XML declaration's body.
    private static func encodingName(in body: [UInt8]) -> String? {
        guard let key = find(Array("encoding".utf8), in: body, from: 0) else { return nil }
        var index = key + 8
        func skipSpace() { while index < body.count, [0x20, 0x09, 0x0A, 0x0D].contains(body[index]) { index += 1 } }
        skipSpace()
        guard index < body.count, body[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        skipSpace()
        // An unquoted value is not XML: libxml2 stops there (LS181).
        guard index < body.count, body[index] == UInt8(ascii: "\"") || body[index] == UInt8(ascii: "'") else {
            return nil
        }
        let quote = body[index]
        index += 1
        let start = index
        while index < body.count, body[index] != quote { index += 1 }
        return String(decoding: body[start..<index], as: UTF8.self)
    }
}
