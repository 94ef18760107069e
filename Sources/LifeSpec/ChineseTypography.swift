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

    package static func findings(in text: String) -> [Finding] {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: isCJK) else { return [] }
        var exempt = Array(repeating: false, count: scalars.count)
        // Code spans.
        var open: Int?
        for (index, scalar) in scalars.enumerated() where scalar == "`" {
            if let start = open {
                for position in start...index { exempt[position] = true }
                open = nil
            } else {
                open = index
            }
        }
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
