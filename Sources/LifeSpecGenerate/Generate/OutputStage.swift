import Foundation
import LifeSpec
import LifeSpecRender

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
package final class OutputStage: Sendable {
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

    package let writer: OutputWriter
    package let check: Bool
    package let scope: Set<String>?
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

    package func trust(_ files: [String: UInt64]) { unchanged.withLock { $0 = files } }

    /// Locks the directory (waiting for another run on it, after calling `waiting`), finishes or
    /// throws away what a killed run left, and, unless checking, makes this run's staging folder.
    /// `partners` are the run's other output folders: a killed run's commit is settled in them too,
    /// never in a folder the run does not write (a journal is data found on disk).
    package init(
        writer: OutputWriter, check: Bool, scope: Set<String>? = nil, partners: [String] = [],
        waiting: (@Sendable () -> Void)? = nil
    ) throws {
        self.writer = writer
        self.check = check
        self.scope = scope
        var root = writer.directory.path
        if let error = Self.linkOnPath(to: root) { throw error }
        var created: [String] = []
        var info = stat()
        if lstat(root, &info) != 0 {
            guard !check else {
                (tree, lock, staging, createdRoot) = (FileTree(root: root), nil, nil, [])
                return
            }
            created = try Self.makeFolders(root)
        }
        // Resolved once, so the lock and every path below name one folder (none of it is a link).
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

    /// A symbolic link at the output folder or any folder on the way to it, from the current
    /// folder (an absolute path outside it: below its top-level folder, which is the system's,
    /// such as macOS's `/tmp`). A run writes, removes and records files there: through a link it
    /// would do so anywhere the link points. Folders not made yet are made by the run, not links.
    package static func linkOnPath(to folder: String) -> OutputError? {
        let current = FileManager.default.currentDirectoryPath
        var prefix: String
        var components: [Substring]
        if folder.hasPrefix("/") {
            if folder == current || folder.hasPrefix(current == "/" ? "/" : current + "/") {
                prefix = current
                components = folder.dropFirst(current.count).split(separator: "/")
            } else {
                let all = folder.split(separator: "/")
                prefix = all.first.map { "/" + $0 } ?? "/"
                components = Array(all.dropFirst())
            }
        } else {
            prefix = "."
            components = folder.split(separator: "/")
        }
        for component in components where component != "." {
            prefix += "/" + component
            var info = stat()
            guard lstat(prefix, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT == S_IFLNK {
                let shown = prefix.hasPrefix("./") ? String(prefix.dropFirst(2)) : prefix
                return OutputError(
                    path: folder,
                    message:
                        "[LS005] \(shown == folder ? "the output folder" : "'\(shown)', on the way to the output folder,") is a symbolic link; lifespec writes only into real folders (give the folder the link points to, or remove the link)"
                )
            }
        }
        return nil
    }

    /// Compares `file` with the disk and, unless checking, stages it.
    package func offer(_ file: GeneratedFile) throws {
        TransactionProbe.announce(.stage)
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
    package func commit() throws -> SyncReport {
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
    package static func commit(_ stages: [OutputStage], whileLocked: ([SyncReport]) -> Void = { _ in }) throws
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
    package func discard() {
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
    func discardForInterruption() {
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
