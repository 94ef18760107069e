/// Simplified Chinese uses full-width punctuation: `（UIKit，App 代理）`, `生成：请修改`. ASCII
/// `( ) , : ; ? !` next to Chinese characters is a typing slip that every page and diagram would
/// repeat, so the validator warns about it (LS151) and the tool's own Chinese phrases are tested
/// with the same check.
///
/// A mark counts as Chinese punctuation when the nearest character on either side (skipping
/// spaces and other such marks) is CJK; a parenthesis whose partner counts does too, and so do
/// `, ; : ? !` directly inside such a pair (`（UIKit，App 代理）`). Code spans (`` `…` ``) and API
/// names (`application(_:didFinishLaunchingWithOptions:)`: an identifier followed by parentheses
/// with ASCII inside) are code, not prose, and are never reported.
package enum ChineseTypography {
    package struct Finding: Sendable, Hashable {
        /// Offset of the mark in the text's Unicode scalars.
        package let offset: Int
        package let mark: Character
        package let fullWidth: Character
    }

    static let fullWidth: [Unicode.Scalar: Character] = [
        "(": "（", ")": "）", ",": "，", ":": "：", ";": "；", "?": "？", "!": "！",
    ]

    /// Han ideographs, CJK and full-width punctuation, kana, and the curly quotes Chinese text uses.
    package static func isCJKScalar(_ scalar: Unicode.Scalar) -> Bool { isCJK(scalar) }

    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3000...0x303F, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0xFF00...0xFFEF, 0x20000...0x2FFFF, 0x2018, 0x2019, 0x201C, 0x201D:
            true
        default:
            false
        }
    }

    private static func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
    }

    /// Per scalar, whether it is inside a code span (between two backticks, both included); an
    /// unpaired backtick opens nothing.
    private static func inCodeSpan(_ scalars: [Unicode.Scalar]) -> [Bool] {
        var code = Array(repeating: false, count: scalars.count)
        var open: Int?
        for (index, scalar) in scalars.enumerated() where scalar == "`" {
            if let start = open {
                for position in start...index { code[position] = true }
                open = nil
            } else {
                open = index
            }
        }
        return code
    }

    package static func findings(in text: String) -> [Finding] {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: isCJK) else { return [] }
        var exempt = inCodeSpan(scalars)
        // API names: `identifier(…)` with only ASCII, no spaces, inside balanced parentheses.
        var index = 0
        while index < scalars.count {
            if scalars[index] == "(", index > 0, isIdentifier(scalars[index - 1]), !exempt[index],
                let close = apiNameEnd(scalars, open: index)
            {
                for position in index...close { exempt[position] = true }
                index = close + 1
            } else {
                index += 1
            }
        }
        // `https://…`: the colon of a URL scheme.
        for index in scalars.indices
        where scalars[index] == ":" && index + 2 < scalars.count
            && scalars[index + 1] == "/" && scalars[index + 2] == "/"
        {
            exempt[index] = true
        }

        func isMark(_ position: Int) -> Bool { fullWidth[scalars[position]] != nil }
        func neighbour(of position: Int, step: Int) -> Unicode.Scalar? {
            var cursor = position + step
            while cursor >= 0, cursor < scalars.count {
                let scalar = scalars[cursor]
                if scalar == " " || (isMark(cursor) && !exempt[cursor]) {
                    cursor += step
                    continue
                }
                return scalar
            }
            return nil
        }
        var flagged = Array(repeating: false, count: scalars.count)
        for position in scalars.indices where isMark(position) && !exempt[position] {
            if let left = neighbour(of: position, step: -1), isCJK(left) { flagged[position] = true }
            if let right = neighbour(of: position, step: 1), isCJK(right) { flagged[position] = true }
        }
        // Parenthesis pairs (outside code) go together, and take the separators directly inside.
        var stack: [Int] = []
        var pairs: [(open: Int, close: Int)] = []
        for position in scalars.indices where !exempt[position] {
            if scalars[position] == "(" { stack.append(position) }
            if scalars[position] == ")", let start = stack.popLast() { pairs.append((start, position)) }
        }
        for pair in pairs where flagged[pair.open] || flagged[pair.close] {
            flagged[pair.open] = true
            flagged[pair.close] = true
            var depth = 0
            for position in (pair.open + 1)..<pair.close where !exempt[position] {
                switch scalars[position] {
                case "(": depth += 1
                case ")": depth -= 1
                case ",", ";", ":", "?", "!": if depth == 0 { flagged[position] = true }
                default: break
                }
            }
        }
        return scalars.indices.filter { flagged[$0] }.map { position in
            Finding(offset: position, mark: Character(scalars[position]), fullWidth: fullWidth[scalars[position]]!)
        }
    }

    /// The closing parenthesis of an API name's argument list opened at `open`, if everything
    /// between is ASCII without spaces (`(_:)`, `(with:)`, `(expirationHandler:)`).
    private static func apiNameEnd(_ scalars: [Unicode.Scalar], open: Int) -> Int? {
        var depth = 0
        for position in open..<scalars.count {
            let scalar = scalars[position]
            guard scalar.isASCII, scalar != " ", scalar != "\n" else { return nil }
            if scalar == "(" { depth += 1 }
            if scalar == ")" {
                depth -= 1
                if depth == 0 { return position }
            }
        }
        return nil
    }
}

extension ChineseTypography {
    /// A word Simplified Chinese text must not use, and the one to use instead: the glossary keeps
    /// its list (`Glossary.forbiddenChinese`, beside the words it governs), and tests hold every
    /// phrase of the tool to it.
    package struct Pairing: Sendable, Hashable {
        /// The text to find; `#` stands for one or more ASCII digits (`#s`: a duration written
        /// `5s`), and a match must not run on into an ASCII letter or digit.
        package let wrong: String
        package let right: String
        /// Why, in a few words (what the wrong word means instead, or whose usage decides).
        package let reason: String

        package init(_ wrong: String, use right: String, because reason: String) {
            self.wrong = wrong
            self.right = right
            self.reason = reason
        }
    }

    /// A forbidden word found in a text.
    package struct Misuse: Sendable, Hashable {
        /// Offset of the match in the text's Unicode scalars.
        package let offset: Int
        package let found: String
        package let pairing: Pairing
    }

    /// Every match of `pairings` in `text`, outside code spans, in text order.
    package static func misuses(in text: String, pairings: [Pairing]) -> [Misuse] {
        let scalars = Array(text.unicodeScalars)
        let code = inCodeSpan(scalars)
        func isLatin(_ position: Int) -> Bool {
            position >= 0 && position < scalars.count && scalars[position].isASCII
                && (scalars[position].properties.isAlphabetic || ("0"..."9").contains(scalars[position]))
        }
        /// The end of a match of `pattern` at `start`, if it matches there.
        func match(_ pattern: [Unicode.Scalar], at start: Int) -> Int? {
            var position = start
            for expected in pattern {
                if expected == "#" {
                    let first = position
                    while position < scalars.count, ("0"..."9").contains(scalars[position]) { position += 1 }
                    if position == first { return nil }
                } else {
                    guard position < scalars.count, scalars[position] == expected else { return nil }
                    position += 1
                }
            }
            return position
        }
        var found: [Misuse] = []
        for pairing in pairings {
            let pattern = Array(pairing.wrong.unicodeScalars)
            guard let first = pattern.first else { continue }
            for start in scalars.indices where !code[start] {
                // A pattern that starts or ends with Latin text must not be part of a longer word.
                if first.isASCII, isLatin(start - 1) { continue }
                guard let end = match(pattern, at: start) else { continue }
                if pattern.last?.isASCII == true, isLatin(end) { continue }
                let text = String(String.UnicodeScalarView(scalars[start..<end]))
                found.append(Misuse(offset: start, found: text, pairing: pairing))
            }
        }
        return found.sorted { ($0.offset, $0.found) < ($1.offset, $1.found) }
    }
}
