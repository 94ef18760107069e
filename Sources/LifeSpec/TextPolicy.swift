/// The characters a spec's text may not carry into generated files, whatever the target
/// (Markdown, Mermaid, DOT and the SVG drawn from it, Swift source): they are invisible or move
/// other text around, so they could make a page or a diagram say something the spec does not.
///
/// - bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): removed
///   (the marks U+200E/U+200F, which only set a direction, stay);
/// - line and paragraph separators (U+2028, U+2029) and a carriage return: a line break (`\n`);
/// - other C0 controls (ESC, NUL, …; tab and line feed stay), DEL and C1 controls: removed.
///
/// The loader applies it to every string it reads, with a warning (LS015), so every target gets
/// the same text; each target's own escaping still handles what is syntax for it.
package enum TextPolicy {
    /// Whether `clean` changes `text`, from its UTF-8 bytes (the common case is a quick scan).
    package static func needsCleaning(_ text: String) -> Bool {
        text.withUTF8Buffer(needsCleaning)
    }

    private static func needsCleaning(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // The two bytes before this one: C2 and E2 lead the multi-byte scalars that matter.
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in bytes {
            if byte < 0x20 {
                if byte != 0x09 && byte != 0x0A { return true }
            } else if byte == 0x7F {
                return true
            } else if previous.1 == 0xC2, byte < 0xA0 {
                return true
            } else if previous.0 == 0xE2 {
                // E2 80 A8–AE: U+2028–U+202E; E2 81 A6–A9: U+2066–U+2069.
                if previous.1 == 0x80 && (0xA8...0xAE).contains(byte) { return true }
                if previous.1 == 0x81 && (0xA6...0xA9).contains(byte) { return true }
            }
            previous = (previous.1, byte)
        }
        return false
    }

    /// The text under the policy, and the names of what was removed or replaced.
    package static func clean(_ text: String) -> (String, [String]) {
        var output = String.UnicodeScalarView()
        var found: [String] = []
        func note(_ name: String) { if !found.contains(name) { found.append(name) } }
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0x09, 0x0A: output.append(scalar)
            case 0x0D:
                note("a carriage return")
                if index + 1 >= scalars.count || scalars[index + 1] != "\n" { output.append("\n") }
            case 0x2028, 0x2029:
                note("a line or paragraph separator (U+\(String(scalar.value, radix: 16, uppercase: true)))")
                output.append("\n")
            case 0x202A...0x202E, 0x2066...0x2069:
                note("a bidirectional override (U+\(String(scalar.value, radix: 16, uppercase: true)))")
            case 0x1B:
                note("a terminal escape (ESC)")
            case 0x00:
                note("a NUL character")
            case 0x00...0x1F, 0x7F...0x9F:
                note("a control character (U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(4)))")
            default:
                output.append(scalar)
            }
        }
        return (String(output), found)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
