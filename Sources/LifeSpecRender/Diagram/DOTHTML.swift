/// An HTML-like Graphviz label (`label=<…>`), built from values so that text can never become
/// markup: every piece of text is entity-escaped when encoded.
public indirect enum DOTHTML: Sendable, Hashable {
    /// Text; `&`, `<`, `>`, `"` are entity-escaped, a newline becomes `<BR/>`, control
    /// characters are dropped.
    case text(String)
    /// `<BR/>`, optionally aligning the line it ends.
    case lineBreak(DOTHTMLAlign? = nil)
    case bold(DOTHTML)
    case italic(DOTHTML)
    case underline(DOTHTML)
    case font(DOTHTMLFont, DOTHTML)
    case concat([DOTHTML])
    case table(DOTHTMLTable)

    public static let empty = DOTHTML.concat([])
}

public enum DOTHTMLAlign: String, Sendable, Hashable {
    case left = "LEFT"
    case center = "CENTER"
    case right = "RIGHT"
}

public struct DOTHTMLFont: Sendable, Hashable {
    public var face: String?
    public var pointSize: Double?
    public var color: String?

    public init(face: String? = nil, pointSize: Double? = nil, color: String? = nil) {
        self.face = face
        self.pointSize = pointSize
        self.color = color
    }
}

public struct DOTHTMLTable: Sendable, Hashable {
    /// `TABLE` attributes by name (`BORDER`, `CELLSPACING`, …), written sorted.
    public var attributes: [String: String]
    public var rows: [DOTHTMLRow]

    public init(attributes: [String: String] = [:], rows: [DOTHTMLRow]) {
        self.attributes = attributes
        self.rows = rows
    }
}

public enum DOTHTMLRow: Sendable, Hashable {
    case cells([DOTHTMLCell])
    /// A horizontal rule between rows (`<HR/>`).
    case rule
}

public struct DOTHTMLCell: Sendable, Hashable {
    /// `TD` attributes by name (`ALIGN`, `BGCOLOR`, …), written sorted.
    public var attributes: [String: String]
    public var content: DOTHTML

    public init(_ content: DOTHTML, attributes: [String: String] = [:]) {
        self.attributes = attributes
        self.content = content
    }
}

extension DOTHTML {
    /// The markup that goes between `<` and `>` of an HTML-like label.
    public var markup: String {
        var output = ""
        write(to: &output)
        return output
    }

    func write(to output: inout String) {
        switch self {
        case .text(let text):
            output += Self.escape(text)
        case .lineBreak(let align):
            if let align { output += "<BR ALIGN=\"\(align.rawValue)\"/>" } else { output += "<BR/>" }
        case .bold(let inner):
            output += "<B>"; inner.write(to: &output); output += "</B>"
        case .italic(let inner):
            output += "<I>"; inner.write(to: &output); output += "</I>"
        case .underline(let inner):
            output += "<U>"; inner.write(to: &output); output += "</U>"
        case .font(let font, let inner):
            var attributes: [String: String] = [:]
            if let face = font.face { attributes["FACE"] = face }
            if let size = font.pointSize { attributes["POINT-SIZE"] = DOTEncoder.format(size) }
            if let color = font.color { attributes["COLOR"] = color }
            if attributes.isEmpty {
                inner.write(to: &output)
            } else {
                output += "<FONT" + Self.attributeList(attributes) + ">"
                inner.write(to: &output)
                output += "</FONT>"
            }
        case .concat(let parts):
            for part in parts { part.write(to: &output) }
        case .table(let table):
            output += "<TABLE" + Self.attributeList(table.attributes) + ">"
            for row in table.rows {
                switch row {
                case .rule:
                    output += "<HR/>"
                case .cells(let cells):
                    output += "<TR>"
                    for cell in cells {
                        output += "<TD" + Self.attributeList(cell.attributes) + ">"
                        cell.content.write(to: &output)
                        output += "</TD>"
                    }
                    output += "</TR>"
                }
            }
            output += "</TABLE>"
        }
    }

    private static func attributeList(_ attributes: [String: String]) -> String {
        attributes.sorted { $0.key < $1.key }.map { key, value in
            " " + attributeName(key) + "=\"" + escape(value, lineBreaks: false) + "\""
        }.joined()
    }

    /// The ASCII letters and hyphens of an attribute name. Written for every cell of every label,
    /// so ASCII names (all the renderers use) are filtered byte-wise: `Character.isLetter` looks
    /// up Unicode properties, and for ASCII it means exactly `A`–`Z` and `a`–`z`.
    private static func attributeName(_ key: String) -> String {
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return key.filter { $0.isASCII && ($0.isLetter || $0 == "-") } }
        return String(decoding: key.utf8.filter { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-")
        }, as: UTF8.self)
    }

    /// Entity-escapes text for an HTML-like label. Control characters (which Graphviz's XML
    /// parser rejects and which would make SVG output invalid) are dropped; a tab becomes a space.
    ///
    /// Graphviz expands `\N`, `\G`, `\E`, `\H`, `\T` and `\L` (node name, graph name, …) even
    /// inside HTML-like labels, after the XML parser has decoded entities, and has no escape for
    /// the backslash there; so a backslash followed by one of those letters gets an invisible
    /// U+2060 WORD JOINER in between, which keeps the text as written.
    static func escape(_ text: String, lineBreaks: Bool = true) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if output.unicodeScalars.last == "\\", "GNEHTL".unicodeScalars.contains(scalar) { output += "\u{2060}" }
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "\n": output += lineBreaks ? "<BR/>" : " "
            case "\t": output += " "
            default:
                if DOTEncoder.isDroppedControl(scalar) { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
