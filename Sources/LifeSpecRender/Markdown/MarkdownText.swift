import Foundation

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
    /// The characters written as references wherever they appear in text.
    private static let references: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;",
        "\\": "&#92;", "`": "&#96;", "*": "&#42;", "_": "&#95;", "~": "&#126;",
        "[": "&#91;", "]": "&#93;", "|": "&#124;", "$": "&#36;", "#": "&#35;",
    ]

    /// Characters that start a block (list item, quote, heading underline) at the start of a line.
    private static let blockStarters: [Character: String] = [
        "-": "&#45;", "+": "&#43;", "=": "&#61;",
    ]

    /// Inline text: one line, safe in a paragraph, heading, list item, link text or table cell.
    /// Line breaks inside the text become `<br/>`; surrounding whitespace is trimmed.
    static func inline(_ text: String) -> String {
        lines(of: text).map(escapeLine).joined(separator: "<br/>")
    }

    /// Inline text whose line breaks become spaces (headings, link titles, alt text).
    static func singleLine(_ text: String) -> String {
        escapeLine(lines(of: text).joined(separator: " "))
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
    static func code(_ text: String) -> String {
        let flat = lines(of: text).joined(separator: " ")
        if !flat.isEmpty, !containsBacktickOrPipe(flat), flat.first != " ", flat.last != " " {
            return "`" + flat + "`"
        }
        return "<code>" + flat.map { references[$0] ?? String($0) }.joined() + "</code>"
    }

    /// `contains("`")` on a String is Foundation's substring search (canonical equivalence, so
    /// U+1FEF GREEK VARIA counts as a backtick), and it dominated pages with thousands of ids.
    /// ASCII text has no such equivalents, so a byte scan gives the same answer there.
    private static func containsBacktickOrPipe(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.contains { $0 == UInt8(ascii: "`") || $0 == UInt8(ascii: "|") }
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
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
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
        var result = ""
        var atStart = true
        var digitsAtStart = true
        for character in line {
            if atStart, let replacement = blockStarters[character] {
                result += replacement
            } else if digitsAtStart, !atStart, character == "." || character == ")" {
                // `1.` / `1)` would start an ordered list.
                result += character == "." ? "&#46;" : "&#41;"
            } else if let replacement = references[character] {
                result += replacement
            } else {
                result.append(character)
            }
            if !character.isASCII || !character.isNumber { digitsAtStart = false }
            atStart = false
        }
        return result
    }

    /// Lines with line endings normalised, control characters removed, tabs as spaces, each line
    /// trimmed (leading spaces would make an indented code block).
    private static func lines(of text: String, keepEmpty: Bool = false) -> [String] {
        // Most spec strings (ids, names) are one line with nothing to clean or trim: return them
        // as they are instead of going through Foundation's replacing, splitting and trimming,
        // which dominated large reference pages. Whitespace at either end (by the Unicode
        // property, which covers Foundation's `whitespacesAndNewlines`) takes the full path.
        if let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
           !first.properties.isWhitespace, !last.properties.isWhitespace,
           text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) && $0 != "\u{2028}" && $0 != "\u{2029}" }) {
            return [text]
        }
        let cleaned = String(String.UnicodeScalarView(text.replacingLineEndings().unicodeScalars.compactMap { scalar in
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
