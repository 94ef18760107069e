import Foundation

/// One file the generator produces, relative to the output directory.
public struct GeneratedFile: Sendable, Hashable {
    public let path: String
    public let contents: [UInt8]

    public init(path: String, contents: [UInt8]) {
        self.path = path
        self.contents = contents
    }

    public init(path: String, text: String) {
        self.init(path: path, contents: Array(text.utf8))
    }
}

public struct OutputError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let message: String
    public var description: String { "\(path): error: \(message)" }
}

/// What a sync did, or (with `check`) would do.
public struct SyncReport: Sendable, Hashable {
    public var written: [String] = []
    public var created: [String] = []
    public var kept: [String] = []
    public var removed: [String] = []
    /// Files the previous run wrote that nothing produces any more but that were changed since
    /// (by a person, or the manifest names a file LifeSpec did not write): never removed.
    public var leftAlone: [String] = []

    public var changed: Bool { !written.isEmpty || !created.isEmpty || !removed.isEmpty }

    public init() {}
}

/// The output directory, and the rules for what may be written in it: generated paths stay
/// inside, and nothing in the tree is a symbolic link (a link would steer a write or a delete
/// outside, so it is refused, never followed).
public struct OutputWriter: Sendable {
    public static let manifestName = ".lifespec-manifest"
    /// Each run stages its files in a folder of its own, `<directory>/.lifespec-staging-<pid>-<random>`.
    static let stagingPrefix = ".lifespec-staging-"
    /// The longest file name most file systems take, in bytes.
    public static let maximumNameLength = 255
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory.standardizedFileURL
    }

    /// Rejects absolute paths, `..`, empty or hidden components, control characters and names too
    /// long for a file system: ids can never steer a write outside the output directory.
    public static func validate(_ path: String) throws(OutputError) {
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
    public func previousManifest() -> [ManifestEntry] {
        guard let bytes = FileTree(root: directory.path).readRegularFile(Self.manifestName) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { ManifestEntry(line: $0) }
    }
}

/// One line of `.lifespec-manifest`: `<16 hex digits>  <path>`. A file is only removed as stale
/// when its bytes still have the digest LifeSpec recorded, so a line a person added (or a file a
/// person edited) never costs them a file.
public struct ManifestEntry: Sendable, Hashable {
    public let path: String
    /// `nil` for a line without a digest (an older manifest): such a file is never removed.
    public let digest: UInt64?

    public init(path: String, digest: UInt64?) {
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
    public static func digest<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// What is at a path inside the output tree, found without following any symbolic link.
enum TreeEntry: Equatable {
    case missing
    case file
    case folder
    /// A symbolic link, or something that is not a file or a folder, at this prefix of the path.
    case refused(String, String)
}

/// Path operations relative to a root folder that never follow a symbolic link below the root.
struct FileTree: Sendable {
    let root: String

    func full(_ relative: String) -> String { root + "/" + relative }

    /// Walks `relative` one component at a time with lstat(2).
    func entry(_ relative: String) -> TreeEntry {
        var prefix = ""
        let components = relative.split(separator: "/")
        for (index, component) in components.enumerated() {
            prefix += prefix.isEmpty ? String(component) : "/" + component
            var info = stat()
            guard lstat(full(prefix), &info) == 0 else { return .missing }
            let kind = info.st_mode & S_IFMT
            let last = index == components.count - 1
            switch kind {
            case S_IFLNK:
                return .refused(
                    prefix, "is a symbolic link; lifespec never writes or deletes through a link in its output folder")
            case S_IFDIR: if last { return .folder }
            case S_IFREG:
                if last { return .file } else { return .refused(prefix, "is a file where a folder is needed") }
            default: return .refused(prefix, "is not a regular file or folder")
            }
        }
        return .folder
    }

    /// The bytes of a regular file, opened without following a link; `nil` for anything else.
    func readRegularFile(_ relative: String) -> [UInt8]? {
        guard entry(relative) == .file else { return nil }
        return Self.readRegularFile(atPath: full(relative))
    }

    /// The bytes of the regular file at `path` (its last component is not followed if a link).
    static func readRegularFile(atPath path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // read(2) fills memory through a pointer: C interop, not an optimisation.
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Creates a new file (never an existing one, never through a link) and writes `bytes`.
    static func create(_ path: String, bytes: [UInt8]) throws(OutputError) {
        // write(2) reads memory through a pointer: C interop, not an optimisation.
        let failure: Int32? = bytes.withUnsafeBytes { buffer -> Int32? in
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return errno }
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    let code = count == 0 ? ENOSPC : errno
                    close(descriptor)
                    return code
                }
                offset += count
            }
            return close(descriptor) == 0 ? nil : errno
        }
        if let failure {
            unlink(path)
            throw OutputError(path: path, message: "cannot write the file: \(String(cString: strerror(failure)))")
        }
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Removes a folder of plain files (a staging folder) and the folder itself.
    static func removeFlatFolder(_ path: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
    }
}

/// A sync fed one file at a time, from any number of threads, run as a transaction on the output
/// directory:
///
/// - **One run at a time.** The stage holds an exclusive lock (flock(2) on the directory) from its
///   creation to its commit or discard; a second run waits for it.
/// - **Staged in a folder of its own.** Each changed file is written, as it arrives, to a new file
///   (`O_EXCL | O_NOFOLLOW`) in `.lifespec-staging-<pid>-<random>/`, so a run holds no more than the
///   files in flight in memory and never writes through a planted link.
/// - **A recoverable commit.** `commit` writes a journal of every step (make a folder, move a file
///   in, move a stale file out) and only then carries them out; a file replaced or removed is kept
///   in the staging folder until the end. A step that fails undoes the ones before it (the run
///   changes nothing); a run killed at any instant leaves a staging folder that the next stage on
///   the directory finishes (journal written: every step is carried out) or throws away (no
///   journal yet), before it looks at anything. So the directory is whole-old or whole-new once
///   the next run has started. The folders of one run (Output/ and the suites) commit as one
///   transaction whose commit point is the first folder's journal (`commit(_:whileLocked:)`).
/// - **Never outside.** Every path is checked (`OutputWriter.validate`) and walked without
///   following links; a link anywhere in the output tree is an error. A stale file is removed only
///   if the manifest names it and its bytes are still the ones LifeSpec wrote.
public final class OutputStage: Sendable {
    private struct Pending: Sendable {
        let path: String
        let number: Int
    }

    private struct State {
        var seen: [String: UInt64] = [:]
        var report = SyncReport()
        var pending: [Pending] = []
        var nextNumber = 0
        var finished = false
    }

    public let writer: OutputWriter
    public let check: Bool
    public let scope: Set<String>?
    let tree: FileTree
    /// `nil` with `check` on a directory that does not exist: there is nothing to lock or recover.
    private let lock: Int32?
    let staging: String?
    /// Folders made to hold the directory itself, outermost first, removed again by a discard.
    private let createdRoot: [String]
    private let state = Locked(State())
    /// Files known, by their stat, to hold the bytes with this digest (relative path → FNV-1a, see
    /// `NoOpRecord.unchanged`): an offer of the same digest keeps them without reading them.
    private let unchanged = Locked([String: UInt64]())

    public func trust(_ files: [String: UInt64]) { unchanged.withLock { $0 = files } }

    /// Locks the directory (waiting for another run on it, after calling `waiting`), finishes or
    /// throws away what a killed run left, and, unless checking, makes this run's staging folder.
    /// `partners` are the run's other output folders: a killed run's commit is settled in them too,
    /// never in a folder the run does not write (a journal is data found on disk).
    public init(
        writer: OutputWriter, check: Bool, scope: Set<String>? = nil, partners: [String] = [],
        waiting: (@Sendable () -> Void)? = nil
    ) throws {
        self.writer = writer
        self.check = check
        self.scope = scope
        var root = writer.directory.path
        var created: [String] = []
        var info = stat()
        if lstat(root, &info) != 0 {
            guard !check else {
                (tree, lock, staging, createdRoot) = (FileTree(root: root), nil, nil, [])
                return
            }
            created = try Self.makeFolders(root)
        }
        // The directory itself may be a link (Output → elsewhere is a person's choice); below it nothing may.
        if let resolved = realpath(root, nil) {
            root = String(cString: resolved)
            free(resolved)
        }
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            for folder in created.reversed() { rmdir(folder) }
            throw OutputError(path: writer.directory.path, message: "cannot open the output folder: \(reason)")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            waiting?()
            while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        }
        tree = FileTree(root: root)
        lock = descriptor
        createdRoot = created
        Self.recover(in: tree, partners: Set(partners.compactMap(Self.resolved)))
        if check {
            staging = nil
        } else {
            let folder =
                root + "/" + OutputWriter.stagingPrefix
                + "\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16))"
            guard mkdir(folder, 0o700) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                for folder in created.reversed() { rmdir(folder) }
                throw OutputError(path: folder, message: "cannot create the staging folder: \(reason)")
            }
            staging = folder
        }
        Interruption.shared.register(self)
    }

    deinit {
        if let lock { close(lock) }
    }

    /// Compares `file` with the disk and, unless checking, stages it.
    public func offer(_ file: GeneratedFile) throws {
        TestSteps.announce("stage")
        try OutputWriter.validate(file.path)
        let digest = ManifestEntry.digest(file.contents)
        let number = try state.withLock { state throws(OutputError) -> Int in
            guard !state.finished else {
                throw OutputError(path: file.path, message: "the output stage is already committed or discarded")
            }
            guard state.seen.updateValue(digest, forKey: file.path) == nil else {
                throw OutputError(path: file.path, message: "two outputs claim the same file '\(file.path)'")
            }
            defer { state.nextNumber += 1 }
            return state.nextNumber
        }
        if unchanged.withLock({ $0[file.path] }) == digest {
            state.withLock { $0.report.kept.append(file.path) }
            return
        }
        let existing: [UInt8]?
        switch tree.entry(file.path) {
        case .missing: existing = nil
        case .file: existing = tree.readRegularFile(file.path)
        case .folder:
            throw OutputError(path: tree.full(file.path), message: "cannot write the file: a folder is in its place")
        case .refused(let prefix, let reason):
            throw OutputError(path: tree.full(prefix), message: reason)
        }
        if let existing, existing == file.contents {
            state.withLock { $0.report.kept.append(file.path) }
            return
        }
        if let staging {
            try FileTree.create(staging + "/s\(number)", bytes: file.contents)
        }
        state.withLock { state in
            if existing == nil {
                state.report.created.append(file.path)
            } else {
                state.report.written.append(file.path)
            }
            if staging != nil { state.pending.append(Pending(path: file.path, number: number)) }
        }
    }

    /// Moves the staged files into place, removes stale ones and writes the manifest, as one
    /// transaction.
    public func commit() throws -> SyncReport {
        try Self.commit([self])[0]
    }

    /// Commits several stages (the output folder and the suites folder) together, as one
    /// transaction: every journal is written before any step is carried out, and a step that fails
    /// in any of them undoes all. The first stage is the primary: the others' journals are written
    /// first, each naming the primary's staging folder, and the primary's journal last, so it alone
    /// is the commit point (a run killed between two journals is thrown away in every folder, see
    /// `recover(in:)`). Staging folders go in reverse order, so a primary's outlives those it
    /// decides for. `whileLocked` runs once every folder is whole-new and its staging folder gone,
    /// before the locks are released: what it sees of the folders is what this run left (see
    /// `NoOpRecord`).
    public static func commit(_ stages: [OutputStage], whileLocked: ([SyncReport]) -> Void = { _ in }) throws
        -> [SyncReport]
    {
        try Interruption.shared.whileCommitting { () throws -> [SyncReport] in
            var planned: [(stage: OutputStage, steps: [JournalStep], report: SyncReport)] = []
            do {
                for stage in stages {
                    let (steps, report) = try stage.plan()
                    planned.append((stage, steps, report))
                }
                try writeJournals(planned.map { ($0.stage, $0.steps) })
            } catch {
                for stage in stages.reversed() { stage.discard() }
                throw error
            }
            var done: [(OutputStage, [JournalStep])] = []
            for (stage, steps, _) in planned {
                guard let staging = stage.staging else { continue }
                do {
                    try Journal.carryOut(steps, in: stage.tree, staging: staging)
                    done.append((stage, steps))
                } catch {
                    // Marked first: an undo cut short is then undone again, in every folder.
                    if let primary = stages.first?.staging { Journal.markAborted(staging: primary) }
                    Journal.undo(steps, in: stage.tree, staging: staging)
                    for (earlier, steps) in done.reversed() {
                        Journal.undo(steps, in: earlier.tree, staging: earlier.staging!)
                    }
                    for stage in stages.reversed() { stage.discard() }
                    throw error
                }
            }
            for stage in stages.reversed() { stage.removeStaging() }
            whileLocked(planned.map(\.report))
            for stage in stages.reversed() { stage.finish() }
            return planned.map(\.report)
        }
    }

    /// Writes the journals of a commit (see `commit(_:whileLocked:)`): the secondaries' with steps,
    /// then the primary's, which is written whenever any stage has a step, even with none of its own.
    static func writeJournals(_ plans: [(stage: OutputStage, steps: [JournalStep])]) throws(OutputError) {
        let staged = plans.filter { $0.stage.staging != nil }
        guard let primary = staged.first, staged.contains(where: { !$0.steps.isEmpty }) else { return }
        let secondaries = staged.dropFirst().filter { !$0.steps.isEmpty }
        for secondary in secondaries {
            try Journal.write(
                JournalRecord(steps: secondary.steps, primary: primary.stage.staging),
                staging: secondary.stage.staging!)
        }
        try Journal.write(
            JournalRecord(steps: primary.steps, secondaries: secondaries.map { $0.stage.staging! }),
            staging: primary.stage.staging!)
    }

    /// Decides every step and writes the journal of a stage committed alone: from here on the
    /// commit happens, even if the process dies.
    func prepare() throws -> ([JournalStep], SyncReport) {
        let (steps, report) = try plan()
        if let staging, !steps.isEmpty { try Journal.write(steps, staging: staging) }
        return (steps, report)
    }

    /// Decides every step and stages the manifest; the journal is written by the caller.
    func plan() throws -> ([JournalStep], SyncReport) {
        let (seen, pending, unsortedReport, next) = try state.withLock { state throws(OutputError) in
            guard !state.finished else {
                throw OutputError(
                    path: writer.directory.path, message: "the output stage is already committed or discarded")
            }
            state.finished = true
            return (state.seen, state.pending, state.report, state.nextNumber)
        }
        var report = unsortedReport
        report.kept.sort()
        report.written.sort()
        report.created.sort()
        func inScope(_ path: String) -> Bool {
            guard let scope else { return true }
            return scope.contains(String(path.split(separator: "/").first ?? ""))
        }
        var steps: [JournalStep] = []
        var folders: Set<String> = []
        func makeParents(of path: String) throws(OutputError) {
            var parents: [String] = []
            var components = path.split(separator: "/").dropLast()
            while !components.isEmpty {
                parents.append(components.joined(separator: "/"))
                components = components.dropLast()
            }
            for folder in parents.reversed() where !folders.contains(folder) {
                switch tree.entry(folder) {
                case .folder: folders.insert(folder)
                case .missing:
                    folders.insert(folder)
                    steps.append(.makeFolder(folder))
                case .file:
                    throw OutputError(
                        path: tree.full(folder), message: "cannot create the folder: a file is in its place")
                case .refused(let prefix, let reason): throw OutputError(path: tree.full(prefix), message: reason)
                }
            }
        }
        for item in pending.sorted(by: { $0.path < $1.path }) {
            try makeParents(of: item.path)
            switch tree.entry(item.path) {
            case .missing: steps.append(.put(item.number, item.path, replacing: false))
            case .file: steps.append(.put(item.number, item.path, replacing: true))
            case .folder:
                throw OutputError(
                    path: tree.full(item.path), message: "cannot write the file: a folder is in its place")
            case .refused(let prefix, let reason): throw OutputError(path: tree.full(prefix), message: reason)
            }
        }
        let previous = writer.previousManifest()
        var kept: [ManifestEntry] = seen.map { ManifestEntry(path: $0.key, digest: $0.value) }
        var number = next
        for entry in previous.sorted(by: { $0.path < $1.path }) where seen[entry.path] == nil {
            guard inScope(entry.path) else {
                kept.append(entry)
                continue
            }
            guard (try? OutputWriter.validate(entry.path)) != nil, tree.entry(entry.path) == .file else { continue }
            guard let digest = entry.digest, tree.readRegularFile(entry.path).map(ManifestEntry.digest) == digest else {
                report.leftAlone.append(entry.path)
                continue
            }
            report.removed.append(entry.path)
            steps.append(.remove(number, entry.path))
            number += 1
        }
        guard let staging else { return (steps, report) }
        let manifestText =
            "# generated by lifespec — do not edit: the files the last 'lifespec generate' wrote, each with the digest of its bytes\n"
            + kept.sorted { $0.path < $1.path }.map { $0.line + "\n" }.joined()
        let manifest = Array(manifestText.utf8)
        switch tree.entry(OutputWriter.manifestName) {
        case .missing, .file:
            if tree.readRegularFile(OutputWriter.manifestName) != manifest {
                try FileTree.create(staging + "/s\(number)", bytes: manifest)
                steps.append(
                    .put(number, OutputWriter.manifestName, replacing: tree.entry(OutputWriter.manifestName) == .file))
            }
        case .folder:
            throw OutputError(
                path: tree.full(OutputWriter.manifestName),
                message: "cannot write the manifest: a folder is in its place")
        case .refused(let prefix, let reason): throw OutputError(path: tree.full(prefix), message: reason)
        }
        return (steps, report)
    }

    /// Removes every staged file and the staging folder; the directory is as it was.
    public func discard() {
        state.withLock { state in
            state.finished = true
            state.pending = []
        }
        finish()
        for folder in createdRoot.reversed() { rmdir(folder) }
    }

    /// Throws away the staging folder (the lock stays held).
    private func removeStaging() {
        state.withLock { $0.finished = true }
        if let staging, FileTree.exists(staging) { FileTree.removeFlatFolder(staging) }
    }

    /// Throws away the staging folder and releases the lock.
    private func finish() {
        state.withLock { $0.finished = true }
        if let staging, FileTree.exists(staging) { FileTree.removeFlatFolder(staging) }
        if let lock { flock(lock, LOCK_UN) }
        Interruption.shared.unregister(self)
    }

    /// Lets go of the lock and the staging folder as a killed process would (tests only).
    func abandon() {
        state.withLock { $0.finished = true }
        if let lock { flock(lock, LOCK_UN) }
        Interruption.shared.unregister(self)
    }

    /// Discards a stage from the signal handler: only its own staging folder goes.
    fileprivate func discardForInterruption() {
        state.withLock { $0.finished = true }
        if let staging, FileTree.exists(staging) {
            // Offers on other threads may still be creating files in it: try a few times.
            for _ in 0..<3 where FileTree.exists(staging) { FileTree.removeFlatFolder(staging) }
        }
        for folder in createdRoot.reversed() { rmdir(folder) }
    }

    /// Finishes or throws away every staging folder a killed run left in `tree`. Called with the
    /// lock held, so no live run owns any of them.
    ///
    /// A folder without a journal was never committed: it is thrown away. A primary's journal (or
    /// a lone one) is the commit point: its steps are carried out, and so are those of each
    /// secondary it names that is still there (under that folder's lock), unless it was marked
    /// aborted, then all are undone. A secondary's journal follows its primary's: carried out
    /// (or undone) when the primary's journal names it, thrown away when the primary has no
    /// journal or is gone (a primary's staging folder outlives its secondaries', so gone means
    /// never committed).
    static func recover(in tree: FileTree, partners: Set<String> = []) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: tree.root)) ?? []
        where name.hasPrefix(OutputWriter.stagingPrefix) {
            let folder = tree.root + "/" + name
            guard tree.entry(name) == .folder else {
                unlink(folder)
                continue
            }
            if let record = Journal.read(staging: folder) {
                if let primary = record.primary {
                    if Journal.read(staging: primary)?.secondaries.contains(folder) == true {
                        settle([(tree, folder, record.steps)], decidedBy: primary)
                    }
                } else {
                    recoverPrimary(record, in: tree, staging: folder, partners: partners)
                }
            }
            FileTree.removeFlatFolder(folder)
        }
    }

    /// Settles a primary's journal together with those of its secondaries still there (a run on
    /// their folder may have settled some), each under its folder's lock, held until it is settled
    /// and gone. Only a staging folder directly in one of `partners` counts.
    private static func recoverPrimary(
        _ record: JournalRecord, in tree: FileTree, staging: String, partners: Set<String>
    ) {
        var locks: [Int32] = []
        defer { for lock in locks { close(lock) } }
        var journals = [(tree, staging, record.steps)]
        for secondary in record.secondaries {
            let url = URL(fileURLWithPath: secondary)
            let root = url.deletingLastPathComponent().path
            guard url.lastPathComponent.hasPrefix(OutputWriter.stagingPrefix),
                secondary == root + "/" + url.lastPathComponent,
                let resolvedRoot = resolved(root), partners.contains(resolvedRoot)
            else { continue }
            let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            locks.append(descriptor)
            while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
            let secondaryTree = FileTree(root: root)
            guard secondaryTree.entry(url.lastPathComponent) == .folder,
                let steps = Journal.read(staging: secondary)?.steps
            else { continue }
            journals.append((secondaryTree, secondary, steps))
        }
        settle(journals, decidedBy: staging)
        for journal in journals.dropFirst() { FileTree.removeFlatFolder(journal.1) }
    }

    /// The canonical path of an existing folder (links resolved), as staging paths are written.
    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Carries out journals of one commit, or undoes them when the primary is marked aborted or a
    /// step fails. The primary is marked before any undo, so a recovery cut short decides the same.
    private static func settle(
        _ journals: [(tree: FileTree, staging: String, steps: [JournalStep])], decidedBy primary: String
    ) {
        let aborted = { FileTree.exists(primary + "/" + Journal.abortName) }
        if !aborted() && !journals.contains(where: { FileTree.exists($0.staging + "/" + Journal.abortName) }) {
            do {
                for journal in journals {
                    try Journal.carryOut(journal.steps, in: journal.tree, staging: journal.staging)
                }
                return
            } catch {
                Journal.markAborted(staging: primary)
            }
        }
        for journal in journals.reversed() { Journal.undo(journal.steps, in: journal.tree, staging: journal.staging) }
    }

    /// Creates `path` and its missing parents; returns those made, outermost first.
    private static func makeFolders(_ path: String) throws -> [String] {
        var missing: [String] = []
        var current = URL(fileURLWithPath: path).standardizedFileURL.path
        while !FileTree.exists(current) {
            missing.append(current)
            let parent = URL(fileURLWithPath: current).deletingLastPathComponent().standardizedFileURL.path
            if parent == current { break }
            current = parent
        }
        var made: [String] = []
        for folder in missing.reversed() {
            if mkdir(folder, 0o755) == 0 {
                made.append(folder)
            } else if errno != EEXIST {
                let reason = String(cString: strerror(errno))
                for folder in made.reversed() { rmdir(folder) }
                throw OutputError(path: folder, message: "cannot create the folder: \(reason)")
            }
        }
        return made
    }
}

/// One step of a commit. Staged files are `s<n>` in the staging folder; a file a step replaces is
/// kept as `b<n>` and a stale file moved out as `r<n>` until the commit is over, so every step can
/// be undone.
enum JournalStep: Equatable, Sendable {
    case makeFolder(String)
    case put(Int, String, replacing: Bool)
    case remove(Int, String)
}

/// A complete journal: its steps and, in a commit of several folders, its link to the others.
/// The primary's journal (the first folder's, written last) is the commit point of them all: a
/// secondary's journal alone decides nothing (see `OutputStage.commit(_:whileLocked:)`).
struct JournalRecord: Equatable, Sendable {
    var steps: [JournalStep]
    /// In a secondary folder's journal: the primary's staging folder, whose journal decides.
    var primary: String? = nil
    /// In the primary's journal: the secondaries' staging folders that have steps to carry out.
    var secondaries: [String] = []
}

enum Journal {
    static let name = "journal"
    static let abortName = "abort"
    private static let header = "lifespec-journal 1"
    /// Tests stretch the commit (microseconds per step) so a kill can land inside it.
    private static let pause =
        ProcessInfo.processInfo.environment["LIFESPEC_TEST_COMMIT_PAUSE"].flatMap { UInt32($0) } ?? 0

    /// Written in full under another name, then renamed: a journal is there whole or not at all.
    static func write(_ steps: [JournalStep], staging: String) throws(OutputError) {
        try write(JournalRecord(steps: steps), staging: staging)
    }

    static func write(_ record: JournalRecord, staging: String) throws(OutputError) {
        var text = header + "\n"
        if let primary = record.primary { text += "primary\t\(escaped(primary))\n" }
        for secondary in record.secondaries { text += "secondary\t\(escaped(secondary))\n" }
        for step in record.steps {
            switch step {
            case .makeFolder(let path): text += "mkdir\t\(path)\n"
            case .put(let number, let path, let replacing):
                text += "put\t\(number)\t\(replacing ? "replace" : "new")\t\(path)\n"
            case .remove(let number, let path): text += "remove\t\(number)\t\(path)\n"
            }
        }
        text += "end\n"
        let partial = staging + "/" + name + ".partial"
        try FileTree.create(partial, bytes: Array(text.utf8))
        guard rename(partial, staging + "/" + name) == 0 else {
            throw OutputError(
                path: staging, message: "cannot write the commit journal: \(String(cString: strerror(errno)))")
        }
        TestSteps.announce("journal")
        if pause > 0 { usleep(pause) }
    }

    /// The complete journal of a staging folder; `nil` if there is none (the run died before its
    /// commit).
    static func read(staging: String) -> JournalRecord? {
        guard let bytes = FileTree(root: staging).readRegularFile(name) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(header), lines.contains("end") else { return nil }
        var record = JournalRecord(steps: [])
        for line in lines.dropFirst() {
            if line == "end" { return record }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "primary" where fields.count == 2: record.primary = unescaped(fields[1])
            case "secondary" where fields.count == 2: record.secondaries.append(unescaped(fields[1]))
            case "mkdir" where fields.count == 2: record.steps.append(.makeFolder(fields[1]))
            case "put" where fields.count == 4:
                record.steps.append(.put(Int(fields[1]) ?? -1, fields[3], replacing: fields[2] == "replace"))
            case "remove" where fields.count == 3: record.steps.append(.remove(Int(fields[1]) ?? -1, fields[2]))
            default: return nil
            }
        }
        return nil
    }

    /// A folder path on one journal line: `%`, tabs, line breaks and other control bytes as `%XX`.
    static func escaped(_ path: String) -> String {
        var result: [UInt8] = []
        for byte in path.utf8 {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") {
                result += Array(("%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)).utf8)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    static func unescaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Marks the staging folder's commit as abandoned: from then on recovery undoes it (and, for a
    /// primary, its secondaries) rather than carrying it out.
    static func markAborted(staging: String) {
        let marker = staging + "/" + abortName
        if !FileTree.exists(marker) { close(open(marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)) }
    }

    private static func isSafe(_ path: String) -> Bool {
        path == OutputWriter.manifestName || (try? OutputWriter.validate(path)) != nil
    }

    /// Carries out every step not yet done; running it again after a kill finishes the job.
    static func carryOut(_ steps: [JournalStep], in tree: FileTree, staging: String) throws(OutputError) {
        func fail(_ path: String, _ what: String) -> OutputError {
            OutputError(
                path: tree.full(path), message: "\(what): \(String(cString: strerror(errno))); nothing was changed")
        }
        var removedFolders: [String] = []
        for step in steps {
            TestSteps.announce("commit")
            if pause > 0 { usleep(pause) }
            switch step {
            case .makeFolder(let path):
                guard isSafe(path) else { continue }
                switch tree.entry(path) {
                case .folder: continue
                case .missing:
                    guard mkdir(tree.full(path), 0o755) == 0 else { throw fail(path, "cannot create the folder") }
                case .file:
                    errno = ENOTDIR
                    throw fail(path, "cannot create the folder")
                case .refused(let prefix, let reason):
                    throw OutputError(path: tree.full(prefix), message: reason + "; nothing was changed")
                }
            case .put(let number, let path, _):
                let staged = staging + "/s\(number)"
                guard isSafe(path), FileTree.exists(staged) else { continue }
                switch tree.entry(path) {
                case .missing: break
                case .file:
                    let backup = staging + "/b\(number)"
                    if !FileTree.exists(backup), link(tree.full(path), backup) != 0,
                        rename(tree.full(path), backup) != 0
                    {
                        throw fail(path, "cannot replace the file")
                    }
                case .folder:
                    errno = EISDIR
                    throw fail(path, "cannot replace the file")
                case .refused(let prefix, let reason):
                    throw OutputError(path: tree.full(prefix), message: reason + "; nothing was changed")
                }
                guard rename(staged, tree.full(path)) == 0 else { throw fail(path, "cannot replace the file") }
            case .remove(let number, let path):
                guard isSafe(path), tree.entry(path) == .file else { continue }
                guard rename(tree.full(path), staging + "/r\(number)") == 0 else {
                    throw fail(path, "cannot remove the file")
                }
                removedFolders.append(path)
            }
        }
        // Folders emptied by removals go too (never the output folder itself).
        for path in removedFolders {
            var components = path.split(separator: "/").dropLast()
            while !components.isEmpty, rmdir(tree.full(components.joined(separator: "/"))) == 0 {
                components = components.dropLast()
            }
        }
    }

    /// Undoes every step that was carried out, newest first; marks the journal so a kill during
    /// the undo is undone, not redone, by the next run.
    static func undo(_ steps: [JournalStep], in tree: FileTree, staging: String) {
        markAborted(staging: staging)
        for step in steps.reversed() {
            switch step {
            case .makeFolder(let path):
                if isSafe(path), tree.entry(path) == .folder { rmdir(tree.full(path)) }
            case .put(let number, let path, let replacing):
                guard isSafe(path) else { continue }
                let backup = staging + "/b\(number)"
                if replacing {
                    if FileTree.exists(backup), tree.entry(path) != .folder { rename(backup, tree.full(path)) }
                } else if !FileTree.exists(staging + "/s\(number)"), tree.entry(path) == .file {
                    unlink(tree.full(path))
                }
            case .remove(let number, let path):
                let moved = staging + "/r\(number)"
                guard isSafe(path), FileTree.exists(moved) else { continue }
                var components = path.split(separator: "/").dropLast()
                var parents: [String] = []
                while !components.isEmpty {
                    parents.append(components.joined(separator: "/"))
                    components = components.dropLast()
                }
                for folder in parents.reversed() where tree.entry(folder) == .missing {
                    mkdir(tree.full(folder), 0o755)
                }
                rename(moved, tree.full(path))
            }
        }
    }
}

/// SIGINT and SIGTERM: the stages in progress are thrown away (a commit under way is finished
/// first), then the process ends as the signal would have ended it.
final class Interruption: Sendable {
    static let shared = Interruption()
    private let stages = Locked([ObjectIdentifier: OutputStage]())
    private let committing = NSLock()
    private let sources = Locked([any DispatchSourceSignal]())

    func register(_ stage: OutputStage) { stages.withLock { $0[ObjectIdentifier(stage)] = stage } }
    func unregister(_ stage: OutputStage) { _ = stages.withLock { $0.removeValue(forKey: ObjectIdentifier(stage)) } }

    func whileCommitting<T>(_ body: () throws -> T) rethrows -> T {
        committing.lock()
        defer { committing.unlock() }
        return try body()
    }

    func install() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM, SIGHUP] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in
                    committing.lock()
                    let live = stages.withLock { Array($0.values) }
                    for stage in live { stage.discardForInterruption() }
                    // libdispatch blocks the signal to read it from a signalfd: unblock it on
                    // this thread and raise it again, so the process ends as the signal ends it.
                    signal(number, SIG_DFL)
                    var set = sigset_t()
                    sigemptyset(&set)
                    sigaddset(&set, number)
                    pthread_sigmask(SIG_UNBLOCK, &set, nil)
                    raise(number)
                    _exit(128 + number)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}

extension OutputStage {
    /// Makes SIGINT, SIGTERM and SIGHUP throw away the stages in progress (finishing a commit that
    /// has started) before the process ends. The command line calls this once at start.
    public static func cleanUpOnSignals() {
        Interruption.shared.install()
    }
}
