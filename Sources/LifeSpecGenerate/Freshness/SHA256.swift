import CSHA256
import LifeSpec
import LifeSpecRender

/// SHA-256 (FIPS 180-4), for the digests drawings record. Foundation on Linux has no digest API and
/// the project takes no crypto dependency for this one use. This type buffers and pads; CSHA256
/// compresses whole blocks, with the x86 SHA extensions where the CPU has them.
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    /// Whether whole blocks go through the CPU's SHA extensions, when it has them.
    private let accelerated: Bool
    static let cpuHasSHAExtensions = lifespec_sha256_accelerated() != 0

    package init() { accelerated = Self.cpuHasSHAExtensions }

    /// `accelerated: false` uses the portable compression even on a CPU with SHA extensions (to test
    /// one against the other).
    init(accelerated: Bool) { self.accelerated = accelerated && Self.cpuHasSHAExtensions }

    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let array = bytes as? [UInt8] { return update(array[...]) }
        if let slice = bytes as? ArraySlice<UInt8> { return update(slice) }
        update(Array(bytes)[...])
    }

    /// Whole blocks are compressed where they are; only a partial block is copied.
    package mutating func update(_ bytes: ArraySlice<UInt8>) {
        var offset = bytes.startIndex
        length &+= UInt64(bytes.count)
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, bytes.count)
            buffer.append(contentsOf: bytes[offset..<(offset + take)])
            offset += take
            guard buffer.count == 64 else { return }
            compress(buffer[...], at: 0, blocks: 1)
            buffer.removeAll(keepingCapacity: true)
        }
        let blocks = (bytes.endIndex - offset) / 64
        compress(bytes, at: offset, blocks: blocks)
        offset += 64 * blocks
        buffer.append(contentsOf: bytes[offset...])
    }

    package mutating func update(_ text: String) { update(Array(text.utf8)[...]) }

    /// The digest as 64 lowercase hexadecimal digits.
    package mutating func finalize() -> String {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        while (buffer.count + tail.count) % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        update(tail[...])
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for word in words {
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int((word >> UInt32(shift)) & 0xF)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Compresses `blocks` blocks of 64 bytes of `bytes` from `start` on.
    private mutating func compress(_ bytes: ArraySlice<UInt8>, at start: Int, blocks: Int) {
        guard blocks > 0 else { return }
        let accelerated = self.accelerated
        bytes.withUnsafeBufferPointer { all in
            withUnsafeMutableBytes(of: &state) { words in
                let state = words.baseAddress!.assumingMemoryBound(to: UInt32.self)
                let data = all.baseAddress! + (start - bytes.startIndex)
                if accelerated {
                    lifespec_sha256_blocks(state, data, blocks)
                } else {
                    lifespec_sha256_blocks_portable(state, data, blocks)
                }
            }
        }
    }
}
