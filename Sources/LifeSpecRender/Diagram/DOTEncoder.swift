/// Writes a `DOTGraph` as DOT text.
///
/// - Every identifier is written bare only when it is a plain ASCII identifier or number that is
///   not a DOT keyword; anything else is quoted with `"` and `\` escaped, so no id can break out.
/// - Attributes come sorted by name, `graph`/`node`/`edge` defaults before statements, statements
///   in model order: equal graphs give byte-identical text.
/// - Values are escaped according to their `DOTValue` kind (see there); HTML-like labels are
///   written as `<…>` with all text entity-escaped.
public enum DOTEncoder {
    public static func encode(_ graph: DOTGraph) -> String {
        var output = TextOutput(capacity: 1 << 16)
        if graph.isStrict { output.write("strict ") }
        output.write(graph.isDirected ? "digraph " : "graph ")
        writeIdentifier(graph.id, to: &output)
        output.write(" {\n")
        writeBody(
            attributes: graph.attributes, nodeDefaults: graph.nodeDefaults, edgeDefaults: graph.edgeDefaults,
            statements: graph.statements, edgeOperator: graph.isDirected ? " -> " : " -- ", depth: 1, to: &output
        )
        output.write("}\n")
        return output.text
    }

    private static func writeBody(
        attributes: DOTAttributes, nodeDefaults: DOTAttributes, edgeDefaults: DOTAttributes,
        statements: [DOTStatement], edgeOperator: String, depth: Int, to output: inout TextOutput
    ) {
        func indent() { output.write(repeating: UInt8(ascii: " "), count: 2 * depth) }
        if !attributes.isEmpty { indent(); output.write("graph"); writeAttributeList(attributes, to: &output); output.write(";\n") }
        if !nodeDefaults.isEmpty { indent(); output.write("node"); writeAttributeList(nodeDefaults, to: &output); output.write(";\n") }
        if !edgeDefaults.isEmpty { indent(); output.write("edge"); writeAttributeList(edgeDefaults, to: &output); output.write(";\n") }
        for statement in statements {
            switch statement {
            case .node(let node):
                indent()
                writeIdentifier(node.id, to: &output)
                writeAttributeList(node.attributes, to: &output)
                output.write(";\n")
            case .edge(let edge):
                indent()
                writeIdentifier(edge.from, to: &output)
                output.write(edgeOperator)
                writeIdentifier(edge.to, to: &output)
                writeAttributeList(edge.attributes, to: &output)
                output.write(";\n")
            case .subgraph(let subgraph):
                indent()
                output.write("subgraph ")
                writeIdentifier(subgraph.id, to: &output)
                output.write(" {\n")
                writeBody(
                    attributes: subgraph.attributes, nodeDefaults: subgraph.nodeDefaults,
                    edgeDefaults: subgraph.edgeDefaults, statements: subgraph.statements,
                    edgeOperator: edgeOperator, depth: depth + 1, to: &output
                )
                indent()
                output.write("}\n")
            }
        }
    }

    /// ` [a=1, b="x"]`, or nothing for no attributes.
    static func attributeList(_ attributes: DOTAttributes) -> String {
        var output = TextOutput()
        writeAttributeList(attributes, to: &output)
        return output.text
    }

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

    public static func value(_ value: DOTValue) -> String {
        var output = TextOutput()
        writeValue(value, to: &output)
        return output.text
    }

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
    public static func identifier(_ id: String) -> String {
        isBareIdentifier(id) || isNumeral(id) ? id : quote(id)
    }

    static func writeIdentifier(_ id: String, to output: inout TextOutput) {
        if isBareIdentifier(id) || isNumeral(id) { output.write(id) } else { writeQuoted(id, to: &output) }
    }

    /// `"…"` with `\` and `"` escaped, a newline as `\n`, other control characters dropped.
    /// Inside a quoted DOT string the lexer only treats `\"` (and `\\`) specially, so the result
    /// always ends where it should. Graphviz keeps `\\` as two characters in ids and plain values
    /// (only label-like attributes un-escape it), so an id's backslashes come back doubled in its
    /// output; labels, which carry the text people read, use `.text` and round-trip exactly.
    public static func quote(_ string: String) -> String {
        var output = TextOutput()
        writeQuoted(string, to: &output)
        return output.text
    }

    static func writeQuoted(_ string: String, to output: inout TextOutput) {
        output.write(byte: UInt8(ascii: "\""))
        output.writeEscaped(string, escaping: quoted) { scalar, output in
            switch scalar {
            case "\\": output.write("\\\\")
            case "\"": output.write("\\\"")
            case "\n": output.write("\\n")
            case "\t": output.write(byte: UInt8(ascii: " "))
            default: break // other controls are dropped
            }
        }
        output.write(byte: UInt8(ascii: "\""))
    }

    /// Escapes text for an escString attribute (label, tooltip): Graphviz un-escapes `\\`, turns
    /// `\n` into a line break, expands `\N`-style placeholders (escaped here, so they stay text)
    /// and decodes `&…;` entities (so `&` is written `&amp;`).
    static func escapeText(_ text: String, record: Bool) -> String {
        var output = TextOutput()
        writeEscapedText(text, record: record, to: &output)
        return output.text
    }

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
            default: break // other controls are dropped
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
    private static let keywords: [[UInt8]] = ["node", "edge", "graph", "digraph", "subgraph", "strict"].map { Array($0.utf8) }

    /// Byte-wise: every character of a bare identifier is ASCII, so a keyword can only be spelled
    /// in ASCII letters too, and ASCII lowercasing is all `lowercased()` would do.
    static func isBareIdentifier(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { bytes in
            guard let first = bytes.first else { return false }
            func isLetter(_ byte: UInt8) -> Bool {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
            }
            guard isLetter(first), bytes.allSatisfy({ isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return false }
            return !keywords.contains { keyword in
                keyword.count == bytes.count && zip(keyword, bytes).allSatisfy { $0 == ($1 | 0x20) }
            }
        }
    }

    static func isNumeral(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { bytes in
            var digits = 0
            var dots = 0
            for (offset, byte) in bytes.enumerated() {
                if offset == 0, byte == UInt8(ascii: "-") { continue }
                if byte == UInt8(ascii: ".") { dots += 1 } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { digits += 1 } else { return false }
            }
            return digits > 0 && dots <= 1
        }
    }

    /// A number with at most four decimals, trailing zeros removed: `1`, `0.25`, `-3.5`.
    public static func format(_ number: Double) -> String {
        var output = TextOutput()
        writeNumber(number, to: &output)
        return output.text
    }

    static func writeNumber(_ number: Double, to output: inout TextOutput) {
        guard number.isFinite else { output.write(byte: UInt8(ascii: "0")); return }
        let scaled = (number * 10_000).rounded()
        guard abs(scaled) < 1e17 else { output.write(String(Int64(number.rounded()))); return }
        let magnitude = Int64(abs(scaled))
        if scaled < 0, magnitude != 0 { output.write(byte: UInt8(ascii: "-")) }
        output.write(String(magnitude / 10_000))
        var fraction = magnitude % 10_000
        guard fraction != 0 else { return }
        var digits = 4
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        output.write(byte: UInt8(ascii: "."))
        var divisor: Int64 = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            output.write(byte: UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }
}

/// UTF-8 text written piece by piece into one byte array. The generators assemble megabytes out
/// of millions of short pieces: appending bytes in place avoids the temporary Strings that `+`,
/// `map` and `joined` allocate for every piece, and costs less than growing a String.
struct TextOutput {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    var text: String { String(decoding: bytes, as: UTF8.self) }
    var isEmpty: Bool { bytes.isEmpty }
    var count: Int { bytes.count }

    mutating func write(_ text: String) { bytes.append(contentsOf: text.utf8) }
    mutating func write(_ text: Substring) { bytes.append(contentsOf: text.utf8) }
    mutating func write(_ other: TextOutput) { bytes.append(contentsOf: other.bytes) }
    mutating func write(byte: UInt8) { bytes.append(byte) }
    mutating func write(_ number: Int) { write(String(number)) }
    mutating func write(repeating byte: UInt8, count: Int) {
        for _ in 0..<count { bytes.append(byte) }
    }
    mutating func write(_ scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { bytes.append($0) }
    }
    /// Drops what was written from byte `offset` on.
    mutating func removeSuffix(from offset: Int) { bytes.removeSubrange(offset...) }

    /// Writes `text`, handing every byte in `escaping` and every C1 control (U+0080–U+009F, which
    /// no output format wants) to `replace`, which writes its replacement or nothing (to drop
    /// it); everything else is copied as it is, in runs.
    @inline(__always)
    mutating func writeEscaped(_ text: String, escaping: ByteSet, replace: (Unicode.Scalar, inout TextOutput) -> Void) {
        var text = text
        text.withUTF8 { source in
            var runStart = 0
            var index = 0
            while index < source.count {
                let byte = source[index]
                if byte < 0x80 {
                    guard escaping.contains(byte) else { index += 1; continue }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
                    replace(Unicode.Scalar(byte), &self)
                    index += 1
                } else {
                    // Valid UTF-8: C2 is always the lead byte of U+0080–U+00BF.
                    guard byte == 0xC2, index + 1 < source.count, source[index + 1] < 0xA0 else { index += 1; continue }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
                    replace(Unicode.Scalar(source[index + 1]), &self)
                    index += 2
                }
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
        }
    }
}

/// A set of ASCII bytes, tested without hashing or branching on each candidate.
struct ByteSet {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// The C0 controls and DEL, plus `characters` (ASCII only).
    init(controlsAnd characters: String) {
        for byte in UInt8(0)..<0x20 { insert(byte) }
        insert(0x7F)
        for byte in characters.utf8 { insert(byte) }
    }

    private mutating func insert(_ byte: UInt8) {
        precondition(byte < 0x80)
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte &- 64)) != 0
    }
}
