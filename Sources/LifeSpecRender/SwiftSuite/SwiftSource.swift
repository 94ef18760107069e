import LifeSpec

/// Safe spellings of arbitrary spec strings inside generated Swift source. Nothing a spec says can
/// end a string literal or a comment early, start an interpolation, add a line, or hide text
/// (bidirectional overrides and other invisible characters are written as `\u{…}` escapes).
package enum SwiftSource {
    /// A double-quoted Swift string literal whose value is exactly `text`.
    package static func writeStringLiteral(_ text: String, to output: inout TextOutput) {
        output.write(byte: UInt8(ascii: "\""))
        // ASCII text (ids, summaries) byte by byte: printable ASCII is visible, so only the
        // escapes below and the other controls (as `\u{…}`) differ from the text.
        if text.withUTF8Buffer({ $0.allSatisfy { $0 < 0x80 } }) {
            output.writeEscaped(text, escaping: literalEscapes) { scalar, output in writeEscape(scalar, to: &output) }
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\", "\"", "\n", "\r", "\t", "\0": writeEscape(scalar, to: &output)
                default:
                    if isVisible(scalar) { output.write(scalar) } else { writeUnicodeEscape(scalar, to: &output) }
                }
            }
        }
        output.write(byte: UInt8(ascii: "\""))
    }

    private static let literalEscapes = ByteSet(controlsAnd: "\\\"")

    /// The escape for `\`, `"`, a control character or DEL inside a string literal.
    private static func writeEscape(_ scalar: Unicode.Scalar, to output: inout TextOutput) {
        switch scalar {
        case "\\": output.write("\\\\")
        case "\"": output.write("\\\"")
        case "\n": output.write("\\n")
        case "\r": output.write("\\r")
        case "\t": output.write("\\t")
        case "\0": output.write("\\0")
        default: writeUnicodeEscape(scalar, to: &output)
        }
    }

    /// Text for one `//` comment line: newlines and invisible characters become `\u{…}` escapes, so
    /// the comment cannot end early or carry code onto a line of its own.
    package static func commentText(_ text: String) -> String {
        TextOutput.string { output in
            for scalar in text.unicodeScalars {
                if isVisible(scalar) { output.write(scalar) } else { writeUnicodeEscape(scalar, to: &output) }
            }
        }
    }

    /// A Swift identifier fragment for `text`: ASCII letters, digits and `_` kept, other ASCII as
    /// `_`, anything else as `uXXXX`. Prefix it with something that starts with a letter to get an
    /// identifier (never a keyword, never starting with a digit).
    package static func identifierFragment(_ text: String) -> String {
        // ASCII (every case id): one byte each, `isAlphabetic` meaning A–Z and a–z there.
        if text.withUTF8Buffer({ $0.allSatisfy { $0 < 0x80 } }) {
            return String(
                decoding: text.utf8.map { byte in
                    (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                        ? byte : UInt8(ascii: "_")
                }, as: UTF8.self)
        }
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" {
                result.unicodeScalars.append(scalar)
            } else if scalar.isASCII {
                result += "_"
            } else {
                result += "u" + hex(scalar)
            }
        }
        return result
    }

    /// An UpperCamelCase type name: `ios-app-lifecycle` → `IosAppLifecycle`. Words split at ASCII
    /// characters that cannot appear in identifiers; a name that would start with a digit, or is empty,
    /// gets the prefix `Spec`.
    package static func typeName(_ text: String) -> String {
        var result = ""
        var capitalizeNext = true
        for scalar in text.unicodeScalars {
            let isWordCharacter =
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
            if isWordCharacter {
                result += capitalizeNext ? String(scalar).uppercased() : String(scalar)
                capitalizeNext = false
            } else if scalar.isASCII {
                capitalizeNext = true
            } else {
                result += "U" + hex(scalar)
                capitalizeNext = true
            }
        }
        if result.isEmpty || result.first!.isNumber || result.first == "_" { result = "Spec" + result }
        return result
    }

    /// Printable and unambiguous: ASCII printable characters, and letters, digits, punctuation and
    /// symbols beyond ASCII. Controls, format characters (bidi overrides, zero-width), separators
    /// other than the ASCII space, combining marks, private-use and unassigned scalars are not.
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value >= 0x20 && scalar.value < 0x7F }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// `\u{…}`, the escape for any scalar inside a string literal or shown in a comment.
    private static func writeUnicodeEscape(_ scalar: Unicode.Scalar, to output: inout TextOutput) {
        output.write("\\u{")
        output.write(hex(scalar))
        output.write(byte: UInt8(ascii: "}"))
    }

    static func hex(_ scalar: Unicode.Scalar) -> String { TextOutput.hex(scalar, uppercase: true) }
}
