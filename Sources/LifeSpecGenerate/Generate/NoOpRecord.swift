import Foundation
import LifeSpec
import LifeSpecRender

/// Proof that a `generate` has nothing to do, found without loading a spec: what the last
/// successful run was made from (a digest of its inputs: the spec files' bytes, the arguments, the
/// tool itself) and what it left on disk (each output's lstat — size, modification and change
/// times, inode — and the digest of its bytes the folder's `.lifespec-manifest` records). When the
/// inputs are the same and every output still has the recorded stat, the run would keep every
/// file: it reports them kept without drawing or comparing anything.
///
/// Kept in `<output>/.lifespec-cache/no-op`, a folder with its own `.gitignore` (inodes and times
/// are this machine's, never committed). Its stat rule is git's index: a file is trusted by its
/// stat only when it was last changed before the record was written; one changed in the same
/// clock tick ("racily clean") is read and compared by digest. Folders are checked to be the same
/// folders (inode), not links; a staging folder left by a killed run sends the run the slow way,
/// which finishes or throws it away. Anything unexpected — no record, another tool, a spec byte, a
/// touched output, a folder locked by a run in progress — means "not proven": the run does the
/// whole work as always, so the record can make a run faster, never different.
package enum NoOpRecord {
    package static let folderName = ".lifespec-cache"
    static let fileName = "no-op"
    static let header = "lifespec-no-op 2"

    struct Entry: Equatable {
        enum Kind: String {
            case file = "f"
            case folder = "d"
            case manifest = "m"
        }
        let kind: Kind
        let path: String
        let size: Int64
        let modified: Int64
        let changed: Int64
        let inode: UInt64
        let device: UInt64
        /// FNV-1a of the bytes (as `.lifespec-manifest` records it); 0 for folders.
        let digest: UInt64

        var line: String {
            "\(kind.rawValue) \(size) \(modified) \(changed) \(inode) \(device) \(String(digest, radix: 16)) \(path)"
        }

        init(kind: Kind, path: String, info: stat, digest: UInt64) {
            self.kind = kind
            self.path = path
            size = Int64(info.st_size)
            #if canImport(Darwin)
                modified = Self.nanoseconds(info.st_mtimespec)
                changed = Self.nanoseconds(info.st_ctimespec)
            #else
                modified = Self.nanoseconds(info.st_mtim)
                changed = Self.nanoseconds(info.st_ctim)
            #endif
            inode = UInt64(info.st_ino)
            device = UInt64(info.st_dev)
            self.digest = digest
        }

        init?(line: Substring) {
            let fields = line.split(separator: " ", maxSplits: 7, omittingEmptySubsequences: false)
            guard fields.count == 8, let kind = Kind(rawValue: String(fields[0])), let size = Int64(fields[1]),
                let modified = Int64(fields[2]), let changed = Int64(fields[3]), let inode = UInt64(fields[4]),
                let device = UInt64(fields[5]), let digest = UInt64(fields[6], radix: 16), !fields[7].isEmpty
            else { return nil }
            (self.kind, path, self.size, self.modified, self.changed) = (
                kind, String(fields[7]), size, modified, changed
            )
            (self.inode, self.device, self.digest) = (inode, device, digest)
        }

        static func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
    }

    /// One folder a run writes (Output/, the suites, a DocC catalog), as the report names it.
    package struct Folder: Sendable {
        package let path: String
        package let report: SyncReport

        package init(path: String, report: SyncReport) {
            self.path = path
            self.report = report
        }
    }

    static func prefix(_ folder: String) -> String { folder.hasSuffix("/") ? folder : folder + "/" }

    /// Records what a run that just committed left, under the folders' locks (`OutputStage.commit`'s
    /// `whileLocked`). Does nothing when something is not as a finished run leaves it.
    package static func record(inputs: String, folders: [Folder], in output: String) {
        var entries: [Entry] = []
        for folder in folders {
            let root = prefix(folder.path)
            var digests: [String: UInt64] = [:]
            for entry in OutputWriter(directory: URL(fileURLWithPath: folder.path, isDirectory: true))
                .previousManifest()
            {
                digests[entry.path] = entry.digest
            }
            var info = stat()
            // With the slash: the folder itself may be a link (Output → elsewhere), what is below may not.
            guard lstat(root, &info) == 0 else { return }
            var folders: Set<String> = []
            entries.append(Entry(kind: .folder, path: root, info: info, digest: 0))
            let manifest = root + OutputWriter.manifestName
            if let bytes = FileTree.readRegularFile(atPath: manifest), lstat(manifest, &info) == 0 {
                entries.append(Entry(kind: .manifest, path: manifest, info: info, digest: ManifestEntry.digest(bytes)))
            }
            for path in (folder.report.kept + folder.report.written + folder.report.created).sorted() {
                guard let digest = digests[path] else { return }
                var components = path.split(separator: "/").dropLast()
                var parents: [String] = []
                while !components.isEmpty {
                    parents.append(components.joined(separator: "/"))
                    components = components.dropLast()
                }
                for parent in parents.reversed() where folders.insert(parent).inserted {
                    guard lstat(root + parent, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
                    entries.append(Entry(kind: .folder, path: root + parent, info: info, digest: 0))
                }
                guard lstat(root + path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
                entries.append(Entry(kind: .file, path: root + path, info: info, digest: digest))
            }
        }
        store(sealed(header + "\n" + "inputs \(inputs)\n" + entries.map { $0.line + "\n" }.joined()), in: output)
    }

    /// The outputs a run with `inputs` would keep, in the order and form its report names them,
    /// when the record proves it has nothing to do; `nil` otherwise (then the run does the work).
    /// With `refresh`, a record whose racily clean files were all read and found unchanged is
    /// written again, so the next run trusts their stat.
    package static func verify(inputs: String, folders: [String], in output: String, refresh: Bool) -> [String]? {
        let recordPath = prefix(output) + folderName + "/" + fileName
        var recordInfo = stat()
        guard lstat(prefix(output) + folderName, &recordInfo) == 0, recordInfo.st_mode & S_IFMT == S_IFDIR,
            lstat(recordPath, &recordInfo) == 0, recordInfo.st_mode & S_IFMT == S_IFREG,
            let bytes = FileTree.readRegularFile(atPath: recordPath), let text = unsealed(bytes)
        else { return nil }
        var lines = text.split(separator: "\n")[...]
        guard lines.popFirst() == Substring(header), lines.popFirst() == Substring("inputs \(inputs)") else {
            return nil
        }
        var entries: [Entry] = []
        for line in lines {
            guard let entry = Entry(line: line) else { return nil }
            entries.append(entry)
        }
        // A run in progress holds its folders' locks: it is not waited for here (the slow way
        // waits, and says so); a finished one has left nothing to recover.
        var locks: [Int32] = []
        defer { for lock in locks { close(lock) } }
        for folder in folders {
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            locks.append(descriptor)
            guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return nil }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            guard !names.contains(where: { $0.hasPrefix(OutputWriter.stagingPrefix) }) else { return nil }
        }
        let threshold = Entry(kind: .file, path: recordPath, info: recordInfo, digest: 0).modified
        let roots = Set(folders.map(prefix))
        guard Set(entries.filter { $0.kind == .folder && roots.contains($0.path) }.map(\.path)) == roots else {
            return nil
        }
        var racy = 0
        var kept: [String] = []
        for entry in entries {
            var info = stat()
            guard lstat(entry.path, &info) == 0 else { return nil }
            let now = Entry(kind: entry.kind, path: entry.path, info: info, digest: entry.digest)
            let kind = info.st_mode & S_IFMT
            switch entry.kind {
            case .folder:
                guard kind == S_IFDIR, now.inode == entry.inode, now.device == entry.device else { return nil }
                continue
            case .file, .manifest:
                guard kind == S_IFREG, now == entry else { return nil }
            }
            if entry.modified >= threshold || entry.changed >= threshold {
                // Changed in the tick the record was written: a later edit in that tick could
                // have left the same stat, so the bytes decide.
                guard let bytes = FileTree.readRegularFile(atPath: entry.path),
                    ManifestEntry.digest(bytes) == entry.digest
                else { return nil }
                racy += 1
            }
            if entry.kind == .file { kept.append(entry.path) }
        }
        if refresh && racy > 0 { store(sealed(text), in: output) }
        return kept
    }

    /// The files of `folder` that are still, by their stat, the bytes the last recorded run left,
    /// each with the digest of those bytes (relative path → FNV-1a), whatever the inputs are now:
    /// a run that has work to do need not read them again to compare or verify them. Racily
    /// clean files are left out (they are read as always). Call it with the folders locked.
    package static func unchanged(_ folder: String, in output: String) -> [String: UInt64] {
        let recordPath = prefix(output) + folderName + "/" + fileName
        var recordInfo = stat()
        guard lstat(recordPath, &recordInfo) == 0, recordInfo.st_mode & S_IFMT == S_IFREG,
            let bytes = FileTree.readRegularFile(atPath: recordPath),
            let text = unsealed(bytes)
        else { return [:] }
        let threshold = Entry(kind: .file, path: recordPath, info: recordInfo, digest: 0).modified
        let root = prefix(folder)
        var result: [String: UInt64] = [:]
        for line in text.split(separator: "\n").dropFirst(2) {
            guard let entry = Entry(line: line) else { return [:] }
            guard entry.path.hasPrefix(root) else { continue }
            var info = stat()
            guard lstat(entry.path, &info) == 0 else {
                if entry.kind == .folder { return [:] }
                continue
            }
            let now = Entry(kind: entry.kind, path: entry.path, info: info, digest: entry.digest)
            switch entry.kind {
            case .folder:
                // A folder on the way that is not the recorded one (or is a link now): trust nothing.
                guard info.st_mode & S_IFMT == S_IFDIR, now.inode == entry.inode, now.device == entry.device else {
                    return [:]
                }
            case .manifest:
                continue
            case .file:
                guard info.st_mode & S_IFMT == S_IFREG, now == entry, entry.modified < threshold,
                    entry.changed < threshold
                else { continue }
                result[String(entry.path.dropFirst(root.count))] = entry.digest
            }
        }
        return result
    }

    /// The record's text with a last line holding the digest of everything above it: a record cut
    /// short or edited (a line lost would leave its file unchecked) is then not trusted at all.
    static func sealed(_ text: String) -> String { text + "sum sha256:\(SHA256.hex(Array(text.utf8)))\n" }

    /// The text of a sealed record without its seal, or `nil` when the seal does not match.
    static func unsealed(_ bytes: [UInt8]) -> String? {
        guard bytes.last == UInt8(ascii: "\n"),
            let start = bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")).map({ $0 + 1 })
        else { return nil }
        let body = Array(bytes[..<start])
        guard String(decoding: bytes[start...], as: UTF8.self) == "sum sha256:\(SHA256.hex(body))\n" else { return nil }
        return String(decoding: body, as: UTF8.self)
    }

    /// Writes the record whole (a new file renamed into place) into the cache folder, made with a
    /// `.gitignore` of its own the first time.
    private static func store(_ text: String, in output: String) {
        let folder = prefix(output) + folderName
        var info = stat()
        if lstat(folder, &info) != 0 {
            guard mkdir(folder, 0o755) == 0 else { return }
            try? FileTree.create(
                folder + "/.gitignore",
                bytes: Array("# machine-local state of lifespec generate: never committed\n*\n".utf8))
        } else if info.st_mode & S_IFMT != S_IFDIR {
            return
        }
        let partial = folder + "/\(fileName).\(getpid()).partial"
        unlink(partial)
        guard (try? FileTree.create(partial, bytes: Array(text.utf8))) != nil else { return }
        if rename(partial, folder + "/" + fileName) != 0 { unlink(partial) }
    }
}
