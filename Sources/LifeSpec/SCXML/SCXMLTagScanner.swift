import Foundation

extension SCXMLReader {
    /// Where each start tag begins (`<`), in document order: libxml2 reports where a tag *ends*,
    /// which for a tag written over several lines is not where a reader looks.
    struct TagScanner {
        var starts: [SourceLocation] = []
        /// The first tag with more attributes than `maximumAttributes`, or where the document's
        /// namespace declarations pass `maximumNamespaceDeclarations`: libxml2 takes time
        /// quadratic in them (100,000 attributes on one element took 9 s).
        var flood: (message: String, location: SourceLocation)?

        /// SCXML's elements take a handful; LifeSpec's own export writes at most eight.
        static let maximumAttributes = 64
        static let maximumNamespaceDeclarations = 256

        /// Comments, CDATA sections, processing instructions and declarations, by how each opens
        /// and ends, in the order tried.
        static let notTags: [(open: String, end: String)] = [
            ("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">"),
        ]

        static func scan(_ text: String, path: String) -> TagScanner {
            var result = TagScanner()
            var namespaces = 0
            let scalars = Array(text.unicodeScalars)
            var index = 0
            var line = 1
            var column = 1
            func advance() {
                if scalars[index] == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                index += 1
            }
            func starts(with literal: String) -> Bool {
                var offset = index
                for scalar in literal.unicodeScalars {
                    guard offset < scalars.count, scalars[offset] == scalar else { return false }
                    offset += 1
                }
                return true
            }
            func skip(past terminator: String) {
                while index < scalars.count, !starts(with: terminator) { advance() }
                for _ in terminator.unicodeScalars where index < scalars.count { advance() }
            }
            while index < scalars.count {
                guard scalars[index] == "<" else {
                    advance()
                    continue
                }
                if let (_, end) = Self.notTags.first(where: { starts(with: $0.open) }) {
                    skip(past: end)
                    continue
                }
                let isStart = index + 1 < scalars.count && scalars[index + 1] != "/"
                let tag = SourceLocation(path: path, line: line, column: column)
                if isStart { result.starts.append(tag) }
                // To the tag's end, across quoted attribute values (which may hold `>`).
                var quote: Unicode.Scalar?
                var attributes = 0
                while index < scalars.count {
                    let scalar = scalars[index]
                    if quote == nil, scalar.properties.isWhitespace,
                        starts(with: " xmlns") || starts(with: "\txmlns")
                            || starts(with: "\nxmlns") || starts(with: "\rxmlns")
                    {
                        namespaces += 1
                    }
                    advance()
                    if let open = quote {
                        if scalar == open { quote = nil }
                    } else if scalar == "\"" || scalar == "'" {
                        quote = scalar
                    } else if scalar == "=" {
                        attributes += 1
                        // Refused at once: the rest of a flooded tag is not worth reading.
                        if attributes > maximumAttributes {
                            result.flood = ("an element with more than \(maximumAttributes) attributes", tag)
                            return result
                        }
                    } else if scalar == ">" {
                        break
                    }
                }
                if result.flood == nil, attributes > maximumAttributes {
                    result.flood = ("an element with more than \(maximumAttributes) attributes", tag)
                } else if result.flood == nil, namespaces > maximumNamespaceDeclarations {
                    result.flood = ("more than \(maximumNamespaceDeclarations) namespace declarations", tag)
                }
                if result.flood != nil { return result }
            }
            return result
        }
    }
}
