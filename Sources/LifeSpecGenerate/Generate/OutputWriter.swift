import Foundation
import LifeSpec
import LifeSpecRender

package struct OutputError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let message: String
    package var description: String { "\(path): error: \(message)" }
}

/// What a sync did, or (with `check`) would do.
package struct SyncReport: Sendable, Hashable {
    package var written: [String] = []
    package var created: [String] = []
    package var kept: [String] = []
    package var removed: [String] = []
    /// Files the previous run wrote that nothing produces any more but that were changed since
    /// (by a person, or the manifest names a file LifeSpec did not write): never removed.
    package var leftAlone: [String] = []

    package var changed: Bool { !written.isEmpty || !created.isEmpty || !removed.isEmpty }

    package init() {}
}

/// The output directory, and the rules for what may be written in it: generated paths stay
/// inside, and nothing in the tree is a symbolic link (a link would steer a write or a delete
/// outside, so it is refused, never followed).
package struct OutputWriter: Sendable {
    package static let manifestName = ".lifespec-manifest"
    /// Each run stages its files in a folder of its own, `<directory>/.lifespec-staging-<pid>-<random>`.
    static let stagingPrefix = ".lifespec-staging-"
    /// The longest file name most file systems take, in bytes.
    package static let maximumNameLength = 255
    package let directory: URL

    package init(directory: URL) {
        self.directory = directory.standardizedFileURL
    }

    /// Rejects absolute paths, `..`, empty or hidden components, control characters and names too
    /// long for a file system: ids can never steer a write outside the output directory.
    package static func validate(_ path: String) throws(OutputError) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"),
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.hasPrefix(".") }),
            !path.contains("\\"), !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw OutputError(
                path: path,
                message: "refusing to write '\(path)': generated paths must stay inside the output directory")
        }
        if let long = components.first(where: { $0.utf8.count > maximumNameLength }) {
            throw OutputError(
                path: path,
                message:
                    "the file name '\(long.prefix(40))…' is \(long.utf8.count) bytes long; file systems take at most \(maximumNameLength)"
            )
        }
    }

    /// The paths the manifest names, with the digest of the bytes LifeSpec wrote to each.
    package func previousManifest() -> [ManifestEntry] {
        guard let bytes = FileTree(root: directory.path).readRegularFile(Self.manifestName) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { ManifestEntry(line: $0) }
    }
}

/// One line of `.lifespec-manifest`: `<16 hex digits>  <path>`. A file is only removed as stale
/// when its bytes still have the digest LifeSpec recorded, so a line a person added (or a file a
/// person edited) never costs them a file.
package struct ManifestEntry: Sendable, Hashable {
    package let path: String
    /// `nil` for a line without a digest (an older manifest): such a file is never removed.
    package let digest: UInt64?

    package init(path: String, digest: UInt64?) {
        self.path = path
        self.digest = digest
    }

    init?(line: Substring) {
        guard !line.hasPrefix("#"), !line.isEmpty else { return nil }
        let parts = line.split(separator: " ", maxSplits: 1)
        if parts.count == 2, parts[0].utf8.count == 16, let digest = UInt64(parts[0], radix: 16) {
            self.init(path: String(parts[1].drop { $0 == " " }), digest: digest)
        } else {
            self.init(path: String(line), digest: nil)
        }
    }

    var line: String {
        guard let digest else { return path }
        let hex = String(digest, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "  " + path
    }

    /// FNV-1a, 64 bits: it tells whether a file is still the one written, not a defence against
    /// someone forging a collision (who could delete the file directly anyway).
    package static func digest<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
