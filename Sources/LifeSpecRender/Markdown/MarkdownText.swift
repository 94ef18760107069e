import Foundation
import LifeSpec

/// Turns spec text into Markdown that reads as exactly that text on GitHub (GFM) and in other
/// CommonMark renderers, whatever characters it contains.
///
/// Spec strings are data, never markup. Every character that could open a Markdown or HTML
/// construct (emphasis, code, links, tables, math, HTML, entities, block markers) is written as a
/// character reference (`&#42;`), because a reference is literal text in every CommonMark
/// dialect, inside table cells and inside inline HTML alike, where backslash escapes are not
/// (some parsers honour `\*` but still treat `*` as an emphasis delimiter). Line breaks become
/// `<br/>` (the self-closing form: some parsers read a bare `<br>` as an unclosed element).
enum MarkdownText {
    /// The escape table, by ASCII byte: the characters written as references wherever they appear
    /// in text, and (`atLineStart`) those that start a block (list item, quote, heading underline)
    /// only at the start of a line. Every character either escapes is ASCII.
    private static let references: [String?] = table([
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;",
        "\\": "&#92;", "`": "&#96;", "*": "&#42;", "_": "&#95;", "~": "&#126;",
        "[": "&#91;", "]": "&#93;", "|": "&#124;", "$": "&#36;", "#": "&#35;",
    ])
    private static let blockStarters: [String?] = table(["-": "&#45;", "+": "&#43;", "=": "&#61;"])

    private static func table(_ entries: KeyValuePairs<Unicode.Scalar, String>) -> [String?] {
        var table = [String?](repeating: nil, count: 128)
        for (scalar, reference) in entries { table[Int(scalar.value)] = reference }
        return table
    }

    /// The reference for `character` from `table`, `nil` when it is written as it is.
    private static func lookUp(_ character: Character, in table: [String?]) -> String? {
        // A CR LF pair is one Character whose `asciiValue` is LF's; neither is in a table.
        guard let byte = character.asciiValue else { return nil }
        return table[Int(byte)]
    }

    /// Inline text: one line, safe in a paragraph, heading, list item, link text or table cell.
    /// Line breaks inside the text become `<br/>`; surrounding whitespace is trimmed.
    static func inline(_ text: String) -> String {
        if isPlainASCIILine(text) { return escapeLine(text) }
        return lines(of: text).map(escapeLine).joined(separator: "<br/>")
    }

    /// Inline text whose line breaks become spaces (headings, link titles, alt text).
    static func singleLine(_ text: String) -> String {
        if isPlainASCIILine(text) { return escapeLine(text) }
        return escapeLine(lines(of: text).joined(separator: " "))
    }

    /// The first paragraph only, on one line (line breaks as spaces): for one-line summaries.
    static func firstParagraph(_ text: String) -> String {
        let paragraph = lines(of: text, keepEmpty: true).drop { $0.isEmpty }.prefix { !$0.isEmpty }
        return escapeLine(paragraph.joined(separator: " "))
    }

    /// Prose for block context: paragraphs separated by blank lines stay paragraphs, single line
    /// breaks become `<br/>`. Returns the paragraphs, each one line of Markdown.
    static func paragraphs(_ text: String) -> [String] {
        var result: [String] = []
        var current: [String] = []
        for line in lines(of: text, keepEmpty: true) {
            if line.isEmpty {
                if !current.isEmpty { result.append(current.map(escapeLine).joined(separator: "<br/>")) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { result.append(current.map(escapeLine).joined(separator: "<br/>")) }
        return result
    }

    /// Inline code. A plain code span when the text allows one; otherwise (backticks, pipes, line
    /// breaks, edge spaces) an HTML `<code>` element whose text is escaped like prose, which no
    /// fence length or table-cell rule can break.
    static func writeCode(_ text: String, to output: inout TextOutput) {
        // Ids, names and conditions: one plain line, so a code span as it is.
        if isPlainASCIILine(text, withoutCodeDelimiters: true) {
            output.write(byte: UInt8(ascii: "`"))
            output.write(text)
            output.write(byte: UInt8(ascii: "`"))
            return
        }
        let flat = lines(of: text).joined(separator: " ")
        if !flat.isEmpty, !containsBacktickOrPipe(flat), flat.first != " ", flat.last != " " {
            output.write(byte: UInt8(ascii: "`"))
            output.write(flat)
            output.write(byte: UInt8(ascii: "`"))
            return
        }
        output.write("<code>")
        for character in flat {
            if let reference = lookUp(character, in: references) {
                output.write(reference)
            } else {
                output.write(String(character))
            }
        }
        output.write("</code>")
    }

    /// `contains("`")` on a String is Foundation's substring search (canonical equivalence, so
    /// U+1FEF GREEK VARIA counts as a backtick), slow for what a page asks of every id. ASCII
    /// text has no such equivalents, so a byte scan gives the same answer there.
    private static func containsBacktickOrPipe(_ text: String) -> Bool {
        if text.withUTF8Buffer({ $0.allSatisfy { $0 < 0x80 } }) {
            return text.withUTF8Buffer { $0.contains { $0 == UInt8(ascii: "`") || $0 == UInt8(ascii: "|") } }
        }
        return text.contains("`") || text.contains("|")
    }

    /// A URL that is safe as a link destination: `nil` unless it is relative or uses http, https or
    /// mailto (no `javascript:` and friends); everything outside a conservative ASCII set is
    /// percent-encoded, so spaces, parentheses, angle brackets and quotes cannot end the link.
    static func url(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        if let colon = trimmed.firstIndex(of: ":") {
            let scheme = trimmed[..<colon]
            let looksLikeScheme = scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            if looksLikeScheme, !["http", "https", "mailto"].contains(scheme.lowercased()) { return nil }
            if !looksLikeScheme, !trimmed[..<colon].contains("/") { return nil }
        }
        return percentEncoded(trimmed)
    }

    /// Percent-encodes every byte outside unreserved and reserved URL characters, minus the ones
    /// that end or confuse a Markdown link: `( ) < > [ ] " \ ` { } | ^` and spaces.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, allowedURLCharacters.contains(Character(scalar)) {
                result.append(Character(scalar))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    private static let allowedURLCharacters: Set<Character> = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#@!$&'*+,;=%"
    )

    /// A fenced code block whose fence is longer than any backtick run inside the text.
    static func fencedBlock(_ text: String, language: String) -> String {
        var longest = 0
        // Escaped text (an embedded diagram) has no backtick at all; otherwise count runs of
        // backtick characters (a backtick with a combining mark is another character).
        if text.withUTF8Buffer({ $0.contains(UInt8(ascii: "`")) }) {
            var run = 0
            for character in text {
                run = character == "`" ? run + 1 : 0
                longest = max(longest, run)
            }
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        var body = text.replacingLineEndings()
        if body.hasSuffix("\n") { body.removeLast() }
        return fence + language + "\n" + body + "\n" + fence
    }

    /// Text safe inside an HTML comment (`<!-- … -->`): it cannot close the comment.
    static func comment(_ text: String) -> String {
        var result = lines(of: text).joined(separator: " ")
        while result.contains("--") { result = result.replacingOccurrences(of: "--", with: "-\u{2010}") }
        return result.replacingOccurrences(of: ">", with: "\u{203A}")
    }

    // MARK: Internals

    private static func escapeLine(_ line: String) -> String {
        if let escaped = escapeASCIILine(line) { return escaped }
        var result = ""
        var atStart = true
        var digitsAtStart = true
        for character in line {
            if atStart, let replacement = lookUp(character, in: blockStarters) {
                result += replacement
            } else if digitsAtStart, !atStart, character == "." || character == ")" {
                // `1.` / `1)` would start an ordered list.
                result += character == "." ? "&#46;" : "&#41;"
            } else if let replacement = lookUp(character, in: references) {
                result += replacement
            } else {
                result.append(character)
            }
            if !character.isASCII || !character.isNumber { digitsAtStart = false }
            atStart = false
        }
        return result
    }

    /// `escapeLine` byte by byte, for ASCII text without a carriage return: there every byte is a
    /// `Character` of its own (only CR LF pairs into one), so the result is the same without
    /// grapheme breaking. `nil` for other text.
    private static func escapeASCIILine(_ line: String) -> String? {
        let bytes = line.utf8
        guard !bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\r") }) else { return nil }
        var needsEscape = false
        for (offset, byte) in bytes.enumerated()
        where references[Int(byte)] != nil || (offset == 0 && blockStarters[Int(byte)] != nil)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ")")
        {
            needsEscape = true
            break
        }
        guard needsEscape else { return line }
        var result = TextOutput(capacity: bytes.count + 16)
        var digitsAtStart = true
        for (offset, byte) in bytes.enumerated() {
            if offset == 0, let replacement = blockStarters[Int(byte)] {
                result.write(replacement)
            } else if digitsAtStart, offset > 0, byte == UInt8(ascii: ".") || byte == UInt8(ascii: ")") {
                // `1.` / `1)` would start an ordered list.
                result.write(byte == UInt8(ascii: ".") ? "&#46;" : "&#41;")
            } else if let replacement = references[Int(byte)] {
                result.write(replacement)
            } else {
                result.write(byte: byte)
            }
            if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { digitsAtStart = false }
        }
        return result.text
    }

    /// Whether `lines(of:)` would return `text` as its only line, decided on the bytes for ASCII:
    /// non-empty, printable (no control characters, so no line break), no space at either end.
    /// False for any other text, which then takes the general path. `withoutCodeDelimiters` also
    /// asks for no backtick or pipe, which a plain code span cannot hold.
    private static func isPlainASCIILine(_ text: String, withoutCodeDelimiters: Bool = false) -> Bool {
        text.withUTF8Buffer { bytes in
            guard let first = bytes.first, let last = bytes.last, first != UInt8(ascii: " "), last != UInt8(ascii: " ")
            else { return false }
            if withoutCodeDelimiters {
                return bytes.allSatisfy {
                    (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "`") && $0 != UInt8(ascii: "|")
                }
            }
            return bytes.allSatisfy { (0x20...0x7E).contains($0) }
        }
    }

    /// Lines with line endings normalised, control characters removed, tabs as spaces, each line
    /// trimmed (leading spaces would make an indented code block).
    private static func lines(of text: String, keepEmpty: Bool = false) -> [String] {
        // Most spec strings (ids, names) are one line with nothing to clean or trim: return them
        // as they are instead of going through Foundation's replacing, splitting and trimming,
        // which a page would pay for every cell. Whitespace at either end (by the Unicode
        // property, which covers Foundation's `whitespacesAndNewlines`) takes the full path.
        if let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            !first.properties.isWhitespace, !last.properties.isWhitespace,
            text.unicodeScalars.allSatisfy({
                $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) && $0 != "\u{2028}" && $0 != "\u{2029}"
            })
        {
            return [text]
        }
        let cleaned = String(
            String.UnicodeScalarView(
                text.replacingLineEndings().unicodeScalars.compactMap { scalar in
                    if scalar == "\n" { return scalar }
                    if scalar == "\t" { return " " }
                    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return nil }
                    // Line and paragraph separators would start new lines in some renderers.
                    if scalar == "\u{2028}" || scalar == "\u{2029}" { return "\n" }
                    return scalar
                }))
        let lines = cleaned.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if keepEmpty { return lines }
        return lines.filter { !$0.isEmpty }
    }
}

extension String {
    fileprivate func replacingLineEndings() -> String {
        // Without a carriage return there is nothing to replace (and Foundation's search is slow
        // on a whole embedded Mermaid diagram).
        guard utf8.contains(UInt8(ascii: "\r")) else { return self }
        return replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
