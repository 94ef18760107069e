import LifeSpec

/// An HTML-like Graphviz label (`label=<…>`), built from values so that text can never become
/// markup: every piece of text is entity-escaped when encoded.
///
/// Only the cases that nest a single label are `indirect`: a diagram has a text piece for every
/// line of every label, and boxing each of them (as an all-`indirect` enum does) made building
/// and freeing a large diagram cost more than writing it out.
package enum DOTHTML: Sendable, Hashable {
    /// Text; `&`, `<`, `>`, `"` are entity-escaped, a newline becomes `<BR/>`, control
    /// characters are dropped.
    case text(String)
    /// `<BR/>`, optionally aligning the line it ends.
    case lineBreak(DOTHTMLAlign? = nil)
    indirect case bold(DOTHTML)
    indirect case italic(DOTHTML)
    indirect case underline(DOTHTML)
    indirect case font(DOTHTMLFont, DOTHTML)
    case concat([DOTHTML])
    case table(DOTHTMLTable)

    package static let empty = DOTHTML.concat([])
}

package enum DOTHTMLAlign: String, Sendable, Hashable {
    case left = "LEFT"
    case center = "CENTER"
    case right = "RIGHT"
}

package struct DOTHTMLFont: Sendable, Hashable {
    package var face: String?
    package var pointSize: Double?
    package var color: String?
}

package struct DOTHTMLTable: Sendable, Hashable {
    /// `TABLE` attributes by name (`BORDER`, `CELLSPACING`, …), written sorted.
    package var attributes: [String: String] = [:]
    package var rows: [DOTHTMLRow]
}

package enum DOTHTMLRow: Sendable, Hashable {
    case cells([DOTHTMLCell])
    /// A horizontal rule between rows (`<HR/>`).
    case rule
}

package struct DOTHTMLCell: Sendable, Hashable {
    /// `TD` attributes by name (`ALIGN`, `BGCOLOR`, …), written sorted.
    package var attributes: [String: String]
    package var content: DOTHTML

    package init(_ content: DOTHTML, attributes: [String: String] = [:]) {
        self.attributes = attributes
        self.content = content
    }
}

extension DOTHTML {
    /// The markup that goes between `<` and `>` of an HTML-like label.
    package var markup: String { TextOutput.string { write(to: &$0) } }

    func write(to output: inout TextOutput) {
        switch self {
        case .text(let text):
            Self.writeEscaped(text, lineBreaks: true, to: &output)
        case .lineBreak(let align):
            if let align {
                output.write("<BR ALIGN=\"")
                output.write(align.rawValue)
                output.write("\"/>")
            } else {
                output.write("<BR/>")
            }
        case .bold(let inner):
            output.write("<B>")
            inner.write(to: &output)
            output.write("</B>")
        case .italic(let inner):
            output.write("<I>")
            inner.write(to: &output)
            output.write("</I>")
        case .underline(let inner):
            output.write("<U>")
            inner.write(to: &output)
            output.write("</U>")
        case .font(let font, let inner):
            if font.face == nil, font.pointSize == nil, font.color == nil {
                inner.write(to: &output)
            } else {
                // The attributes in name order, as `attributeList` would sort them.
                output.write("<FONT")
                if let color = font.color { Self.writeAttribute("COLOR", color, to: &output) }
                if let face = font.face { Self.writeAttribute("FACE", face, to: &output) }
                if let size = font.pointSize {
                    output.write(" POINT-SIZE=\"")
                    DOTEncoder.writeNumber(size, to: &output)
                    output.write(byte: UInt8(ascii: "\""))
                }
                output.write(byte: UInt8(ascii: ">"))
                inner.write(to: &output)
                output.write("</FONT>")
            }
        case .concat(let parts):
            for part in parts { part.write(to: &output) }
        case .table(let table):
            output.write("<TABLE")
            Self.writeAttributeList(table.attributes, to: &output)
            output.write(byte: UInt8(ascii: ">"))
            for row in table.rows {
                switch row {
                case .rule:
                    output.write("<HR/>")
                case .cells(let cells):
                    output.write("<TR>")
                    for cell in cells {
                        output.write("<TD")
                        Self.writeAttributeList(cell.attributes, to: &output)
                        output.write(byte: UInt8(ascii: ">"))
                        cell.content.write(to: &output)
                        output.write("</TD>")
                    }
                    output.write("</TR>")
                }
            }
            output.write("</TABLE>")
        }
    }

    private static func writeAttributeList(_ attributes: [String: String], to output: inout TextOutput) {
        switch attributes.count {
        case 0:
            return
        case 1:
            let (key, value) = attributes.first!
            writeAttribute(key, value, to: &output)
        default:
            for (key, value) in attributes.sorted(by: { $0.key < $1.key }) { writeAttribute(key, value, to: &output) }
        }
    }

    /// ` NAME="value"`.
    private static func writeAttribute(_ key: String, _ value: String, to output: inout TextOutput) {
        output.write(byte: UInt8(ascii: " "))
        writeAttributeName(key, to: &output)
        output.write("=\"")
        writeEscaped(value, lineBreaks: false, to: &output)
        output.write(byte: UInt8(ascii: "\""))
    }

    /// The ASCII letters and hyphens of an attribute name. Written for every cell of every label,
    /// so ASCII names (all the renderers use) are filtered byte-wise: `Character.isLetter` looks
    /// up Unicode properties, and for ASCII it means exactly `A`–`Z` and `a`–`z`.
    private static func writeAttributeName(_ key: String, to output: inout TextOutput) {
        func isNameByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-")
        }
        if key.withUTF8Buffer({ $0.allSatisfy(isNameByte) }) {
            output.write(key)
        } else if key.withUTF8Buffer({ $0.allSatisfy { $0 < 0x80 } }) {
            for byte in key.utf8 where isNameByte(byte) { output.write(byte: byte) }
        } else {
            output.write(key.filter { $0.isASCII && ($0.isLetter || $0 == "-") })
        }
    }

    /// Entity-escapes text for an HTML-like label. Control characters (which Graphviz's XML
    /// parser rejects and which would make SVG output invalid) are dropped; a tab becomes a space.
    ///
    /// Graphviz expands `\N`, `\G`, `\E`, `\H`, `\T` and `\L` (node name, graph name, …) even
    /// inside HTML-like labels, after the XML parser has decoded entities, and has no escape for
    /// the backslash there; so a backslash followed by one of those letters gets an invisible
    /// U+2060 WORD JOINER in between, which keeps the text as written.
    static func writeEscaped(_ text: String, lineBreaks: Bool, to output: inout TextOutput) {
        // Most text has no backslash, and then nothing but the escaped bytes needs a look.
        guard text.withUTF8Buffer({ $0.contains(UInt8(ascii: "\\")) }) else {
            output.writeEscaped(text, escaping: escaped) { scalar, output in
                writeReplacement(scalar, lineBreaks: lineBreaks, to: &output)
            }
            return
        }
        // Whether the last scalar this call wrote was a backslash (dropped controls write nothing).
        var afterBackslash = false
        for scalar in text.unicodeScalars {
            if afterBackslash, "GNEHTL".unicodeScalars.contains(scalar) { output.write("\u{2060}") }
            if scalar == "\\" {
                output.write(byte: UInt8(ascii: "\\"))
                afterBackslash = true
            } else if writeReplacement(scalar, lineBreaks: lineBreaks, to: &output) {
                afterBackslash = false
            } else if !DOTEncoder.isDroppedControl(scalar) {
                output.write(scalar)
                afterBackslash = false
            }
        }
    }

    private static let escaped = ByteSet(controlsAnd: "&<>\"\\")

    /// Writes the replacement of a character that `escaped` holds (or a C1 control); true when
    /// that wrote something.
    @discardableResult
    private static func writeReplacement(_ scalar: Unicode.Scalar, lineBreaks: Bool, to output: inout TextOutput)
        -> Bool
    {
        switch scalar {
        case "&": output.write("&amp;")
        case "<": output.write("&lt;")
        case ">": output.write("&gt;")
        case "\"": output.write("&quot;")
        case "\n": output.write(lineBreaks ? "<BR/>" : " ")
        case "\t": output.write(byte: UInt8(ascii: " "))
        default: return false  // other controls are dropped
        }
        return true
    }
}
