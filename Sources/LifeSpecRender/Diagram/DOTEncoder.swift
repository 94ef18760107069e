import LifeSpec

/// Writes a `DOTGraph` as DOT text.
///
/// - Every identifier is written bare only when it is a plain ASCII identifier or number that is
///   not a DOT keyword; anything else is quoted with `"` and `\` escaped, so no id can break out.
/// - Attributes come sorted by name, `graph`/`node`/`edge` defaults before statements, statements
///   in model order: equal graphs give byte-identical text.
/// - Values are escaped according to their `DOTValue` kind (see there); HTML-like labels are
///   written as `<…>` with all text entity-escaped.
package enum DOTEncoder {
    package static func encode(_ graph: DOTGraph) -> String {
        var output = TextOutput(capacity: 1 << 16)
        if graph.isStrict { output.write("strict ") }
        output.write(graph.isDirected ? "digraph " : "graph ")
        writeIdentifier(graph.id, to: &output)
        output.write(" {\n")
        writeBody(
            attributes: graph.attributes, nodeDefaults: graph.nodeDefaults, edgeDefaults: graph.edgeDefaults,
            statements: graph.statements, edgeOperator: graph.isDirected ? " -> " : " -- ", to: &output
        )
        output.write("}\n")
        return output.text
    }

    private static func writeBody(
        attributes: DOTAttributes, nodeDefaults: DOTAttributes, edgeDefaults: DOTAttributes,
        statements: [DOTStatement], edgeOperator: String, to output: inout TextOutput
    ) {
        output.indentation += 2
        defer { output.indentation -= 2 }
        if !attributes.isEmpty {
            output.startLine()
            output.write("graph")
            writeAttributeList(attributes, to: &output)
            output.write(";\n")
        }
        if !nodeDefaults.isEmpty {
            output.startLine()
            output.write("node")
            writeAttributeList(nodeDefaults, to: &output)
            output.write(";\n")
        }
        if !edgeDefaults.isEmpty {
            output.startLine()
            output.write("edge")
            writeAttributeList(edgeDefaults, to: &output)
            output.write(";\n")
        }
        for statement in statements {
            switch statement {
            case .node(let node):
                output.startLine()
                writeIdentifier(node.id, to: &output)
                writeAttributeList(node.attributes, to: &output)
                output.write(";\n")
            case .edge(let edge):
                output.startLine()
                writeIdentifier(edge.from, to: &output)
                output.write(edgeOperator)
                writeIdentifier(edge.to, to: &output)
                writeAttributeList(edge.attributes, to: &output)
                output.write(";\n")
            case .subgraph(let subgraph):
                output.startLine()
                output.write("subgraph ")
                writeIdentifier(subgraph.id, to: &output)
                output.write(" {\n")
                writeBody(
                    attributes: subgraph.attributes, nodeDefaults: subgraph.nodeDefaults,
                    edgeDefaults: subgraph.edgeDefaults, statements: subgraph.statements,
                    edgeOperator: edgeOperator, to: &output
                )
                output.startLine()
                output.write("}\n")
            }
        }
    }

    /// ` [a=1, b="x"]`, or nothing for no attributes.
    static func writeAttributeList(_ attributes: DOTAttributes, to output: inout TextOutput) {
        guard !attributes.isEmpty else { return }
        output.write(" [")
        var first = true
        for (key, value) in attributes.values.sorted(by: { $0.key < $1.key }) {
            if !first { output.write(", ") }
            first = false
            writeIdentifier(key, to: &output)
            output.write(byte: UInt8(ascii: "="))
            writeValue(value, to: &output)
        }
        output.write(byte: UInt8(ascii: "]"))
    }

    // MARK: Values

    static func writeValue(_ value: DOTValue, to output: inout TextOutput) {
        switch value {
        case .text(let text):
            output.write(byte: UInt8(ascii: "\""))
            writeEscapedText(text, record: false, to: &output)
            output.write(byte: UInt8(ascii: "\""))
        case .recordText(let text):
            output.write(byte: UInt8(ascii: "\""))
            writeEscapedText(text, record: true, to: &output)
            output.write(byte: UInt8(ascii: "\""))
        case .string(let string):
            writeIdentifier(string, to: &output)
        case .number(let number):
            writeNumber(number, to: &output)
        case .bool(let bool):
            output.write(bool ? "true" : "false")
        case .html(let html):
            output.write(byte: UInt8(ascii: "<"))
            html.write(to: &output)
            output.write(byte: UInt8(ascii: ">"))
        }
    }

    /// An identifier or plain value: bare when safe, otherwise quoted.
    static func writeIdentifier(_ id: String, to output: inout TextOutput) {
        if isBareIdentifier(id) || isNumeral(id) { output.write(id) } else { writeQuoted(id, to: &output) }
    }

    /// `"…"` with `\` and `"` escaped, a newline as `\n`, other control characters dropped.
    /// Inside a quoted DOT string the lexer only treats `\"` (and `\\`) specially, so the result
    /// always ends where it should. Graphviz keeps `\\` as two characters in ids and plain values
    /// (only label-like attributes un-escape it), so an id's backslashes come back doubled in its
    /// output; labels, which carry the text people read, use `.text` and round-trip exactly.
    static func writeQuoted(_ string: String, to output: inout TextOutput) {
        output.write(byte: UInt8(ascii: "\""))
        output.writeEscaped(string, escaping: quoted) { scalar, output in
            switch scalar {
            case "\\": output.write("\\\\")
            case "\"": output.write("\\\"")
            case "\n": output.write("\\n")
            case "\t": output.write(byte: UInt8(ascii: " "))
            default: break  // other controls are dropped
            }
        }
        output.write(byte: UInt8(ascii: "\""))
    }

    /// Escapes text for an escString attribute (label, tooltip): Graphviz un-escapes `\\`, turns
    /// `\n` into a line break, expands `\N`-style placeholders (escaped here, so they stay text)
    /// and decodes `&…;` entities (so `&` is written `&amp;`).
    static func writeEscapedText(_ text: String, record: Bool, to output: inout TextOutput) {
        output.writeEscaped(text, escaping: record ? recordText : labelText) { scalar, output in
            switch scalar {
            case "\\": output.write("\\\\")
            case "\"": output.write("\\\"")
            case "&": output.write("&amp;")
            case "\n": output.write("\\n")
            case "\t": output.write(byte: UInt8(ascii: " "))
            case "{", "}", "|", "<", ">":
                output.write(byte: UInt8(ascii: "\\"))
                output.write(scalar)
            default: break  // other controls are dropped
            }
        }
    }

    private static let quoted = ByteSet(controlsAnd: "\\\"")
    private static let labelText = ByteSet(controlsAnd: "\\\"&")
    private static let recordText = ByteSet(controlsAnd: "\\\"&{}|<>")

    /// C0/C1 control characters (other than newline and tab, handled by the callers) and DEL:
    /// Graphviz passes them through into SVG, where XML forbids them.
    static func isDroppedControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// DOT keywords, matched case-insensitively.
    private static let keywords: [[UInt8]] = ["node", "edge", "graph", "digraph", "subgraph", "strict"].map {
        Array($0.utf8)
    }

    /// Byte-wise: every character of a bare identifier is ASCII, so a keyword can only be spelled
    /// in ASCII letters too, and ASCII lowercasing is all `lowercased()` would do.
    static func isBareIdentifier(_ id: String) -> Bool {
        id.withUTF8Buffer(isBareIdentifier)
    }

    private static func isBareIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
        }
        guard isLetter(first),
            bytes.allSatisfy({ isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return false }
        return !keywords.contains { keyword in
            keyword.count == bytes.count && zip(keyword, bytes).allSatisfy { $0 == ($1 | 0x20) }
        }
    }

    static func isNumeral(_ id: String) -> Bool {
        var digits = 0
        var dots = 0
        for (offset, byte) in id.utf8.enumerated() {
            if offset == 0, byte == UInt8(ascii: "-") { continue }
            if byte == UInt8(ascii: ".") {
                dots += 1
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits += 1
            } else {
                return false
            }
        }
        return digits > 0 && dots <= 1
    }

    /// A number with at most four decimals, trailing zeros removed: `1`, `0.25`, `-3.5`.
    static func writeNumber(_ number: Double, to output: inout TextOutput) {
        guard number.isFinite else {
            output.write(byte: UInt8(ascii: "0"))
            return
        }
        let scaled = (number * 10_000).rounded()
        guard abs(scaled) < 1e17 else {
            output.write(String(Int64(number.rounded())))
            return
        }
        let magnitude = Int64(abs(scaled))
        if scaled < 0, magnitude != 0 { output.write(byte: UInt8(ascii: "-")) }
        output.write(String(magnitude / 10_000))
        var fraction = magnitude % 10_000
        guard fraction != 0 else { return }
        var digits = 4
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        output.write(byte: UInt8(ascii: "."))
        var divisor: Int64 = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            output.write(byte: UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }
}
