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
        var output = ""
        if graph.isStrict { output += "strict " }
        output += graph.isDirected ? "digraph " : "graph "
        output += identifier(graph.id) + " {\n"
        let edgeOperator = graph.isDirected ? " -> " : " -- "
        writeBody(
            attributes: graph.attributes, nodeDefaults: graph.nodeDefaults, edgeDefaults: graph.edgeDefaults,
            statements: graph.statements, edgeOperator: edgeOperator, depth: 1, to: &output
        )
        output += "}\n"
        return output
    }

    private static func writeBody(
        attributes: DOTAttributes, nodeDefaults: DOTAttributes, edgeDefaults: DOTAttributes,
        statements: [DOTStatement], edgeOperator: String, depth: Int, to output: inout String
    ) {
        let indent = String(repeating: "  ", count: depth)
        if !attributes.isEmpty { output += indent + "graph" + attributeList(attributes) + ";\n" }
        if !nodeDefaults.isEmpty { output += indent + "node" + attributeList(nodeDefaults) + ";\n" }
        if !edgeDefaults.isEmpty { output += indent + "edge" + attributeList(edgeDefaults) + ";\n" }
        for statement in statements {
            switch statement {
            case .node(let node):
                output += indent + identifier(node.id) + attributeList(node.attributes) + ";\n"
            case .edge(let edge):
                output += indent + identifier(edge.from) + edgeOperator + identifier(edge.to)
                    + attributeList(edge.attributes) + ";\n"
            case .subgraph(let subgraph):
                output += indent + "subgraph " + identifier(subgraph.id) + " {\n"
                writeBody(
                    attributes: subgraph.attributes, nodeDefaults: subgraph.nodeDefaults,
                    edgeDefaults: subgraph.edgeDefaults, statements: subgraph.statements,
                    edgeOperator: edgeOperator, depth: depth + 1, to: &output
                )
                output += indent + "}\n"
            }
        }
    }

    /// ` [a=1, b="x"]`, or nothing for no attributes.
    static func attributeList(_ attributes: DOTAttributes) -> String {
        guard !attributes.isEmpty else { return "" }
        return " [" + attributes.sorted.map { identifier($0.key) + "=" + value($0.value) }.joined(separator: ", ") + "]"
    }

    // MARK: Values

    public static func value(_ value: DOTValue) -> String {
        switch value {
        case .text(let text): return "\"" + escapeText(text, record: false) + "\""
        case .recordText(let text): return "\"" + escapeText(text, record: true) + "\""
        case .string(let string): return identifier(string)
        case .number(let number): return format(number)
        case .bool(let bool): return bool ? "true" : "false"
        case .html(let html): return "<" + html.markup + ">"
        }
    }

    /// An identifier or plain value: bare when safe, otherwise quoted.
    public static func identifier(_ id: String) -> String {
        isBareIdentifier(id) || isNumeral(id) ? id : quote(id)
    }

    /// `"…"` with `\` and `"` escaped, a newline as `\n`, other control characters dropped.
    /// Inside a quoted DOT string the lexer only treats `\"` (and `\\`) specially, so the result
    /// always ends where it should. Graphviz keeps `\\` as two characters in ids and plain values
    /// (only label-like attributes un-escape it), so an id's backslashes come back doubled in its
    /// output; labels, which carry the text people read, use `.text` and round-trip exactly.
    public static func quote(_ string: String) -> String {
        var output = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "\"": output += "\\\""
            case "\n": output += "\\n"
            case "\t": output += " "
            default:
                if isDroppedControl(scalar) { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// Escapes text for an escString attribute (label, tooltip): Graphviz un-escapes `\\`, turns
    /// `\n` into a line break, expands `\N`-style placeholders (escaped here, so they stay text)
    /// and decodes `&…;` entities (so `&` is written `&amp;`).
    static func escapeText(_ text: String, record: Bool) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "\"": output += "\\\""
            case "&": output += "&amp;"
            case "\n": output += "\\n"
            case "\t": output += " "
            default:
                if isDroppedControl(scalar) { continue }
                if record, "{}|<>".unicodeScalars.contains(scalar) { output += "\\" }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// C0/C1 control characters (other than newline and tab, handled by the callers) and DEL:
    /// Graphviz passes them through into SVG, where XML forbids them.
    static func isDroppedControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static let keywords: Set<String> = ["node", "edge", "graph", "digraph", "subgraph", "strict"]

    static func isBareIdentifier(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, !keywords.contains(id.lowercased()) else { return false }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
        }
        return isLetter(first) && id.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
    }

    static func isNumeral(_ id: String) -> Bool {
        var scalars = Substring(id).unicodeScalars[...]
        if scalars.first == "-" { scalars = scalars.dropFirst() }
        guard !scalars.isEmpty else { return false }
        var digits = 0
        var dots = 0
        for scalar in scalars {
            if scalar == "." { dots += 1 } else if ("0"..."9").contains(scalar) { digits += 1 } else { return false }
        }
        return digits > 0 && dots <= 1
    }

    /// A number with at most four decimals, trailing zeros removed: `1`, `0.25`, `-3.5`.
    public static func format(_ number: Double) -> String {
        guard number.isFinite else { return "0" }
        let scaled = (number * 10_000).rounded()
        guard abs(scaled) < 1e17 else { return String(Int64(number.rounded())) }
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        let whole = magnitude / 10_000
        var fraction = String(magnitude % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let text = fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
        return negative && magnitude != 0 ? "-" + text : text
    }
}
