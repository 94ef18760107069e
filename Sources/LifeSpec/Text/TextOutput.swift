/// The one writer of generated text: UTF-8 written piece by piece into one byte array, with the
/// current indentation. DOT, Mermaid, Swift suites, SCXML, YAML, JSON and the Markdown and DocC
/// pages (block by block, `MarkdownBlocks`) are written through it; the localized phrases of a
/// page are Strings its blocks are written from. Each target's text is escaped by that target's
/// one escaper:
/// `DOTEncoder` (DOT ids and strings), `DOTHTML` (HTML-like labels), `MarkdownText`,
/// `MermaidRenderer.escape`, `SwiftSource` (Swift literals), `JSONText`, `XMLText` and
/// `ECMAScriptText` (SCXML), `YAMLText`.
///
/// Bytes rather than a String: the generators assemble megabytes out of millions of short pieces,
/// and appending bytes in place avoids the temporary Strings that `+`, `map` and `joined`
/// allocate for every piece.
package struct TextOutput: TextOutputStream {
    package private(set) var bytes: [UInt8] = []
    /// Spaces `line(_:)` and `startLine()` write before a line's text; writers step it up and
    /// down as they enter and leave a nested block.
    package var indentation = 0

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    package var text: String { String(decoding: bytes, as: UTF8.self) }
    package var isEmpty: Bool { bytes.isEmpty }
    package var count: Int { bytes.count }

    /// The string's bytes copied at once: appended as a `UTF8View`, a 4-region 2,000-state suite's
    /// 234,000 pieces cost 193 instructions each (callgrind).
    package mutating func write(_ text: String) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
    package mutating func write(_ text: Substring) {
        // A substring's UTF-8 view has no fast copy of its own (see `withUTF8Buffer`).
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }
    package mutating func write(_ other: TextOutput) { bytes.append(contentsOf: other.bytes) }
    package mutating func write(byte: UInt8) { bytes.append(byte) }
    package mutating func write(_ number: Int) { write(String(number)) }
    package mutating func write(repeating byte: UInt8, count: Int) {
        // Indentation copied from a row of spaces: `repeatElement` appended byte by byte, 233
        // instructions a line of a 4-region 2,000-state suite (callgrind).
        if byte == UInt8(ascii: " "), count <= Self.spaces.count {
            bytes.append(contentsOf: Self.spaces[..<count])
        } else {
            bytes.append(contentsOf: repeatElement(byte, count: count))
        }
    }
    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)
    package mutating func write(_ scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { bytes.append($0) }
    }

    /// The indentation, at the start of a line whose text is written next.
    package mutating func startLine() { write(repeating: UInt8(ascii: " "), count: indentation) }
    /// A whole line: the indentation, `text` and a newline (an empty line has no indentation).
    package mutating func line(_ text: String = "") {
        if !text.isEmpty {
            startLine()
            write(text)
        }
        bytes.append(UInt8(ascii: "\n"))
    }
    package mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    /// Drops what was written from byte `offset` on.
    package mutating func removeSuffix(from offset: Int) { bytes.removeSubrange(offset...) }

    /// The text `write` writes into a new output, for the few places that need a String.
    package static func string(_ write: (inout TextOutput) -> Void) -> String {
        var output = TextOutput()
        write(&output)
        return output.text
    }

    /// A scalar's value in hexadecimal, zero-padded to `minimumDigits`: the digits of the `\u`
    /// escapes of JSON, ECMAScript, YAML and Swift.
    package static func hex(_ scalar: Unicode.Scalar, minimumDigits: Int = 4, uppercase: Bool) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, minimumDigits - digits.count)) + digits
    }

    /// Writes `text`, handing every byte in `escaping` and every C1 control (U+0080–U+009F, which
    /// no output format wants) to `replace`, which writes its replacement or nothing (to drop
    /// it); everything else is copied as it is, in runs.
    @inline(__always)
    package mutating func writeEscaped(
        _ text: String, escaping: ByteSet, replace: (Unicode.Scalar, inout TextOutput) -> Void
    ) {
        text.withUTF8Buffer { utf8 in
            var runStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte < 0x80 {
                    guard escaping.contains(byte) else {
                        index += 1
                        continue
                    }
                    bytes.append(contentsOf: utf8[runStart..<index])
                    replace(Unicode.Scalar(byte), &self)
                    index += 1
                } else {
                    // Valid UTF-8: C2 is always the lead byte of U+0080–U+00BF.
                    guard byte == 0xC2, index + 1 < utf8.count, utf8[index + 1] < 0xA0 else {
                        index += 1
                        continue
                    }
                    bytes.append(contentsOf: utf8[runStart..<index])
                    replace(Unicode.Scalar(utf8[index + 1]), &self)
                    index += 2
                }
                runStart = index
            }
            bytes.append(contentsOf: utf8[runStart..<index])
        }
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes as one buffer (copied only for a string without
    /// contiguous storage, which native strings always have). Byte scans of generated and read
    /// text go through it: walking `String.UTF8View` index by index and appending its slices costs
    /// several times the instructions. Callgrind, `lifespec tests` of `synth --states 2000 --seed 7`:
    /// `SwiftSource.writeStringLiteral` (its ASCII check and `writeEscaped`) 167 M instructions over
    /// the view, 57 M over the buffer; the whole run 2,450 M → 2,309 M.
    @inlinable
    package func withUTF8Buffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}

/// A set of ASCII bytes, tested without hashing or branching on each candidate.
package struct ByteSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// The C0 controls and DEL, plus `characters` (ASCII only).
    package init(controlsAnd characters: String) {
        for byte in UInt8(0)..<0x20 { insert(byte) }
        insert(0x7F)
        for byte in characters.utf8 { insert(byte) }
    }

    private mutating func insert(_ byte: UInt8) {
        precondition(byte < 0x80)
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    @inline(__always)
    package func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte &- 64)) != 0
    }
}
