import Foundation
import LifeSpec
import LifeSpecRender

/// The specs one `watch` loaded, kept from pass to pass: a pass loads again only the files whose
/// bytes changed (a system also when a part file it composes changed), and regenerates only the
/// specs whose inputs changed since the last pass that committed (`GenerationRun.affected`).
///
/// Everything is decided from the files' bytes, never from their times: a cached spec is the one
/// `SpecLoader` gives for exactly these bytes of the file and of each part file it read.
package final class SpecCache: @unchecked Sendable {
    struct Entry {
        let bytes: Data
        /// The part files a system's loading read (both names `SpecComposer` tries), with the bytes
        /// each had (`nil`: absent).
        let parts: [(path: String, bytes: Data?)]
        let result: SpecLoadResult
    }

    /// What the last committed pass generated from: each spec path's inputs (its own bytes and
    /// its parts') and what other specs' pages read of it (`LinkFace`).
    struct Committed {
        var inputs: [String: [Data?]]
        var faces: [String: LinkFace]
        /// The output folders' manifests as that commit left them: another run that changed the
        /// folders since sends the next pass the whole way.
        var manifests: [String: ManifestStamp]
    }

    /// What a spec's page takes from another spec: its id, title and locales (a link), its parts
    /// and related specs ("used by", related links).
    struct LinkFace: Equatable {
        let id: String
        let title: LocalizedText?
        let locales: [String]
        let parts: [SpecDocument.PartInfo]
        let related: [String]

        init(_ document: SpecDocument) {
            (id, title, locales) = (document.id, document.title, document.locales)
            (parts, related) = (document.parts, document.related.map(\.id))
        }
    }

    struct ManifestStamp: Equatable {
        let modified: Int64
        let changed: Int64
        let inode: UInt64
        let size: Int64

        init?(_ path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            #if canImport(Darwin)
                (modified, changed) = (
                    NoOpRecord.Entry.nanoseconds(info.st_mtimespec), NoOpRecord.Entry.nanoseconds(info.st_ctimespec)
                )
            #else
                (modified, changed) = (
                    NoOpRecord.Entry.nanoseconds(info.st_mtim), NoOpRecord.Entry.nanoseconds(info.st_ctim)
                )
            #endif
            (inode, size) = (UInt64(info.st_ino), Int64(info.st_size))
        }
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    var committed: Committed?
    /// Paths loaded (from disk or this cache) since `beginPass`: the files the pass depends on.
    private var used: Set<String> = []

    /// Also keeps explored machines (`StateSpaceMemo`) for the rest of the process.
    package init() { StateSpaceMemo.enable() }

    /// The spec at `path`, from the cache when its bytes and its parts' bytes are unchanged.
    package func load(path: String) -> SpecLoadResult {
        // Through the input policy, as SpecLoader.load(path:) reads: load(data:) below checks no link.
        let bytes: Data
        switch SpecLoader.readFile(path: path, limits: LoaderLimits()) {
        case .success(let data): bytes = data
        case .failure: return SpecLoader.load(path: path)  // the refusal, as a load reports it
        }
        let cached = lock.withLock { entries[path] }
        if let cached, cached.bytes == bytes,
            cached.parts.allSatisfy({ Self.partBytes($0.path) == $0.bytes })
        {
            lock.withLock { used.formUnion([path] + cached.parts.map(\.path)) }
            return cached.result
        }
        let result = SpecLoader.load(data: bytes, path: path)
        let parts = Self.partFiles(of: result, path: path).map {
            (path: $0, bytes: Self.partBytes($0))
        }
        lock.withLock {
            used.formUnion([path] + parts.map(\.path))
            // A file that did not load may have failed on a part that does not exist yet: loaded again next time.
            if result.spec != nil {
                entries[path] = Entry(bytes: bytes, parts: parts, result: result)
            } else {
                entries[path] = nil
            }
        }
        return result
    }

    /// A part file's bytes as the composer reads them; `nil` when the policy refuses it (absent).
    private static func partBytes(_ path: String) -> Data? {
        try? SpecLoader.readFile(path: path, limits: LoaderLimits()).get()
    }

    /// The part files a system spec composes, under both names `SpecComposer` looks for.
    static func partFiles(of result: SpecLoadResult, path: String) -> [String] {
        guard let document = result.spec?.document else { return [] }
        let folder = (path as NSString).deletingLastPathComponent
        return Set(document.parts.map(\.specID)).sorted().flatMap { id in
            ["yaml", "yml"].map { folder.isEmpty ? "\(id).\($0)" : "\(folder)/\(id).\($0)" }
        }
    }

    /// Starts a pass: what it loads from here on is what `usedPaths` reports.
    func beginPass() { lock.withLock { used = [] } }

    /// Every existing file the pass loaded or composed (the watch watches them all).
    package var usedPaths: Set<String> {
        lock.withLock { used.filter { FileManager.default.fileExists(atPath: $0) } }
    }

    /// The inputs of the spec at `path` as last loaded (its bytes, then its parts').
    func inputs(of path: String) -> [Data?]? {
        lock.withLock { entries[path].map { [$0.bytes] + $0.parts.map(\.bytes) } }
    }
}
