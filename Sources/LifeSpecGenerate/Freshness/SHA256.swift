import CSHA256
import LifeSpec
import LifeSpecRender

/// SHA-256 (FIPS 180-4), for the digests drawings record. Foundation on Linux has no digest API and
/// the project takes no crypto dependency for this one use. Whole blocks go through the x86 SHA
/// extensions where the CPU has them (CSHA256); this implementation serves everywhere else.
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0
    /// The message schedule, allocated once per digest rather than once per 64-byte block.
    private var schedule = [UInt32](repeating: 0, count: 64)

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Whether whole blocks go through CSHA256: the CPU's SHA extensions, when it has them.
    private let accelerated: Bool
    static let cpuHasSHAExtensions = lifespec_sha256_accelerated() != 0

    package init() { accelerated = Self.cpuHasSHAExtensions }

    /// `accelerated: false` computes in Swift even on a CPU with SHA extensions (to test one against the other).
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
        if accelerated {
            bytes.withUnsafeBufferPointer { all in
                withUnsafeMutableBytes(of: &state) { words in
                    lifespec_sha256_blocks(
                        words.baseAddress!.assumingMemoryBound(to: UInt32.self),
                        all.baseAddress! + (start - bytes.startIndex), blocks)
                }
            }
            return
        }
        for block in 0..<blocks { compress(bytes, at: start + 64 * block) }
    }

    /// Compresses the 64 bytes of `bytes` from `start` on.
    private mutating func compress(_ bytes: ArraySlice<UInt8>, at start: Int) {
        for i in 0..<16 {
            let byte = start + 4 * i
            schedule[i] =
                UInt32(bytes[byte]) << 24 | UInt32(bytes[byte + 1]) << 16 | UInt32(bytes[byte + 2]) << 8
                | UInt32(bytes[byte + 3])
        }
        for i in 16..<64 {
            let s0 = schedule[i - 15].rotatedRight(7) ^ schedule[i - 15].rotatedRight(18) ^ (schedule[i - 15] >> 3)
            let s1 = schedule[i - 2].rotatedRight(17) ^ schedule[i - 2].rotatedRight(19) ^ (schedule[i - 2] >> 10)
            schedule[i] = schedule[i - 16] &+ s0 &+ schedule[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for i in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ Self.k[i] &+ schedule[i]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
            state.7 &+ h
        )
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
