import Foundation

/// A target's escaping, scalar by scalar: its table of replacements, and a rule for the scalars
/// the table does not list (a `\u` escape, a replacement character) or `nil` to copy them. The
/// escapers of the formats written character by character (JSON, XML, HTML, ECMAScript, YAML) are
/// each one of these; DOT, HTML labels, Markdown, Mermaid and Swift literals escape on the bytes of
/// their hot paths instead (`DOTEncoder`, `DOTHTML`, `MarkdownText`, `MermaidRenderer`,
/// `SwiftSource`).
package struct ScalarEscapes: Sendable {
    private let table: [Unicode.Scalar: String]
    private let other: @Sendable (Unicode.Scalar) -> String?

    package init(_ table: [Unicode.Scalar: String], other: @escaping @Sendable (Unicode.Scalar) -> String?) {
        self.table = table
        self.other = other
    }

    package func write(_ text: String, to output: inout TextOutput) {
        for scalar in text.unicodeScalars {
            if let replacement = table[scalar] ?? other(scalar) {
                output.write(replacement)
            } else {
                output.write(scalar)
            }
        }
    }

    /// `\uXXXX`, lowercase hexadecimal: the escape JSON, ECMAScript and YAML share.
    package static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        "\\u" + TextOutput.hex(scalar, uppercase: false)
    }
}

/// JSON string literals: the short escapes, every other control character and U+2028/U+2029
/// (which end a line in JavaScript) as `\uXXXX`.
package enum JSONText {
    private static let short: [Unicode.Scalar: String] = [
        "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
    ]
    private static func unicodeEscaped(_ scalar: Unicode.Scalar) -> String? {
        scalar.value < 0x20 || scalar == "\u{2028}" || scalar == "\u{2029}" ? ScalarEscapes.unicodeEscape(scalar) : nil
    }
    private static let escapes = ScalarEscapes(short, other: unicodeEscaped)
    /// Also `<`, `>` and `&` as `\u` escapes, so that no string can close a `<script>` element or
    /// open a comment inside it (they occur nowhere else in JSON text).
    private static let scriptEscapes = ScalarEscapes(
        short.merging(["<": "\\u003c", ">": "\\u003e", "&": "\\u0026"]) { $1 }, other: unicodeEscaped)

    package static func writeString(_ text: String, to output: inout TextOutput, scriptSafe: Bool = false) {
        output.write(byte: UInt8(ascii: "\""))
        (scriptSafe ? scriptEscapes : escapes).write(text, to: &output)
        output.write(byte: UInt8(ascii: "\""))
    }
}

/// HTML text and attribute values (always written between double quotes).
package enum HTMLText {
    private static let escapes = ScalarEscapes([
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
    ]) { _ in nil }

    package static func write(_ text: String, to output: inout TextOutput) { escapes.write(text, to: &output) }
}

/// XML text for SCXML: attribute values (always written between double quotes, so `'` stays as
/// it is) and comments. Characters XML 1.0 cannot hold at all become U+FFFD.
package enum XMLText {
    private static let escapes = ScalarEscapes([
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;",
    ]) { scalar in
        scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF ? "\u{FFFD}" : nil
    }

    package static func writeAttribute(_ value: String, to output: inout TextOutput) {
        escapes.write(value, to: &output)
    }

    private static let textEscapes = ScalarEscapes(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"]) {
        scalar in
        canHold(scalar) ? nil : "\u{FFFD}"
    }

    /// Element content: `&`, `<` and `>` (so `]]>` too) as entities, a carriage return as `&#13;`
    /// (a parser turns a raw one into a line feed); line feeds and tabs as they are.
    package static func writeText(_ value: String, to output: inout TextOutput) {
        textEscapes.write(value, to: &output)
    }

    /// Whether XML 1.0 can hold `scalar` at all (no control character but tab, line feed and
    /// carriage return, no U+FFFE or U+FFFF), even as a character reference.
    package static func canHold(_ scalar: Unicode.Scalar) -> Bool {
        !(scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
            && scalar.value != 0xFFFE && scalar.value != 0xFFFF
    }

    /// Comment text: escaped as an attribute, and `--`, which cannot appear in a comment, spaced.
    package static func writeComment(_ value: String, to output: inout TextOutput) {
        let escaped = TextOutput.string { escapes.write(value, to: &$0) }
        output.write(escaped.replacingOccurrences(of: "--", with: "- -"))
    }
}

/// ECMAScript string literals for SCXML's datamodel expressions: single-quoted, line terminators
/// as escapes, other control characters as `\uXXXX`.
package enum ECMAScriptText {
    private static let escapes = ScalarEscapes([
        "\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\u{2028}": "\\u2028", "\u{2029}": "\\u2029",
    ]) { scalar in
        scalar.value < 0x20 ? ScalarEscapes.unicodeEscape(scalar) : nil
    }

    package static func writeString(_ value: String, to output: inout TextOutput) {
        output.write(byte: UInt8(ascii: "'"))
        escapes.write(value, to: &output)
        output.write(byte: UInt8(ascii: "'"))
    }
}

/// Double-quoted YAML scalars: backslash, quote and every control character escaped, and the
/// characters YAML readers treat as line breaks or a byte-order mark.
package enum YAMLText {
    private static let escapes = ScalarEscapes(["\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\t": "\\t", "\r": "\\r"]) {
        scalar in
        let value = scalar.value
        let escaped =
            value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || value == 0xFEFF
        return escaped ? ScalarEscapes.unicodeEscape(scalar) : nil
    }

    package static func writeQuoted(_ value: String, to output: inout TextOutput) {
        output.write(byte: UInt8(ascii: "\""))
        escapes.write(value, to: &output)
        output.write(byte: UInt8(ascii: "\""))
    }
}
