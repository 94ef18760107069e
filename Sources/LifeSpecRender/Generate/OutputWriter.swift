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

    public var changed: Bool { !written.isEmpty || !created.isEmpty || !removed.isEmpty }

    public init() {}
}

/// Brings an output directory in line with a set of generated files: writes only files whose
/// bytes changed, each atomically (temp file + rename in the same directory), removes files a
/// previous run generated that nothing produces any more (tracked in a manifest, so files a person
/// put there are never touched), and never writes outside the directory.
public struct OutputWriter: Sendable {
    public static let manifestName = ".lifespec-manifest"
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory.standardizedFileURL
    }

    /// Rejects absolute paths, `..`, empty or hidden components: ids can never steer a write
    /// outside the output directory.
    public static func validate(_ path: String) throws(OutputError) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.hasPrefix(".") }),
              !path.contains("\\"), !path.unicodeScalars.contains(where: { $0.value < 0x20 })
        else {
            throw OutputError(path: path, message: "refusing to write '\(path)': generated paths must stay inside the output directory")
        }
    }

    public func previousManifest() -> [String] {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(Self.manifestName).path),
              let text = String(data: data, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    /// With `check`, nothing is written: the report lists what is stale (`written`), missing
    /// (`created`) and extra (`removed`).
    ///
    /// `scope` limits removal to files under these top-level folders (a run over some specs must
    /// not remove what the others produced); `nil` means the files are the whole output.
    public func sync(_ files: [GeneratedFile], check: Bool, scope: Set<String>? = nil) throws -> SyncReport {
        let stage = OutputStage(writer: self, check: check, scope: scope)
        do {
            for file in files { try stage.offer(file) }
            return try stage.commit()
        } catch {
            stage.discard()
            throw error
        }
    }

    /// Writes `bytes` to a hidden temporary file beside `url` and returns its URL.
    fileprivate func writeTemporary(_ bytes: [UInt8], for url: URL) throws -> URL {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).lifespec-tmp-\(ProcessInfo.processInfo.processIdentifier)")
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            // Written straight from the array: Data(bytes) would copy every output once more.
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard written else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw OutputError(path: url.path, message: "cannot write \(temporary.path): \(reason)")
        }
        return temporary
    }

    /// Moves a temporary file over its destination. rename(2) replaces the destination in one
    /// step: readers see the old file or the new one.
    fileprivate func replace(_ url: URL, with temporary: URL) throws {
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw OutputError(path: url.path, message: "cannot replace file: \(reason)")
        }
    }

    /// A run killed between writing a temporary file and renaming it leaves the temporary behind.
    fileprivate func removeTemporaryFiles() {
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(at: directory, includingPropertiesForKeys: nil) else { return }
        for case let url as URL in enumerator where url.lastPathComponent.contains(".lifespec-tmp-") {
            try? manager.removeItem(at: url)
        }
    }

    fileprivate func removeEmptyParents(of url: URL) {
        var folder = url.deletingLastPathComponent().standardizedFileURL
        let manager = FileManager.default
        while folder.path.hasPrefix(directory.path + "/"), (try? manager.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
            try? manager.removeItem(at: folder)
            folder = folder.deletingLastPathComponent().standardizedFileURL
        }
    }
}

/// A sync fed one file at a time, from any number of threads: each file is compared with what is
/// on disk as it arrives and, when it differs, written to a hidden temporary file beside its
/// destination, so a run holds no more than the files in flight in memory. `commit` moves every
/// temporary file into place (each rename atomic), removes what a previous run generated that
/// nothing produced this time, and writes the manifest; `discard` removes the temporary files and
/// the folders the stage created, leaving the directory as it was.
public final class OutputStage: Sendable {
    private struct State {
        var seen: Set<String> = []
        var report = SyncReport()
        /// (destination, temporary file) for every changed file.
        var pending: [(URL, URL)] = []
        /// Folders this stage created, outermost first.
        var createdFolders: [URL] = []
        var finished = false
    }

    public let writer: OutputWriter
    public let check: Bool
    public let scope: Set<String>?
    private let state = Locked(State())

    public init(writer: OutputWriter, check: Bool, scope: Set<String>? = nil) {
        self.writer = writer
        self.check = check
        self.scope = scope
    }

    /// Compares `file` with the disk and, unless checking, stages it.
    public func offer(_ file: GeneratedFile) throws {
        try OutputWriter.validate(file.path)
        try state.withLock { state throws(OutputError) in
            guard !state.finished else { throw OutputError(path: file.path, message: "the output stage is already committed or discarded") }
            guard state.seen.insert(file.path).inserted else {
                throw OutputError(path: file.path, message: "two outputs claim the same file '\(file.path)'")
            }
        }
        let url = writer.directory.appendingPathComponent(file.path)
        let existing = FileManager.default.contents(atPath: url.path)
        if let existing, existing.elementsEqual(file.contents) {
            state.withLock { $0.report.kept.append(file.path) }
            return
        }
        var temporary: URL?
        if !check {
            try makeFolder(url.deletingLastPathComponent())
            temporary = try writer.writeTemporary(file.contents, for: url)
        }
        state.withLock { state in
            if existing == nil { state.report.created.append(file.path) } else { state.report.written.append(file.path) }
            if let temporary { state.pending.append((url, temporary)) }
        }
    }

    /// Moves the staged files into place, removes stale ones and writes the manifest.
    public func commit() throws -> SyncReport {
        let (seen, pending, unsortedReport) = state.withLock { state in
            state.finished = true
            return (state.seen, state.pending, state.report)
        }
        var report = unsortedReport
        report.kept.sort()
        report.written.sort()
        report.created.sort()
        let manager = FileManager.default
        let previous = writer.previousManifest()
        func inScope(_ path: String) -> Bool {
            guard let scope else { return true }
            return scope.contains(String(path.split(separator: "/").first ?? ""))
        }
        for (url, temporary) in pending.sorted(by: { $0.0.path < $1.0.path }) {
            try writer.replace(url, with: temporary)
        }
        for stale in previous.sorted() where !seen.contains(stale) && inScope(stale) {
            guard (try? OutputWriter.validate(stale)) != nil else { continue }
            let url = writer.directory.appendingPathComponent(stale)
            guard manager.fileExists(atPath: url.path) else { continue }
            report.removed.append(stale)
            if !check {
                try manager.removeItem(at: url)
                writer.removeEmptyParents(of: url)
            }
        }
        guard !check else { return report }
        writer.removeTemporaryFiles()
        let outOfScope = previous.filter { !inScope($0) && !seen.contains($0) }
        let manifestText = "# generated by lifespec — do not edit: the files the last 'lifespec generate' wrote\n"
            + (Array(seen) + outOfScope).sorted().map { $0 + "\n" }.joined()
        let manifestURL = writer.directory.appendingPathComponent(OutputWriter.manifestName)
        let manifest = Array(manifestText.utf8)
        if manager.contents(atPath: manifestURL.path).map({ !$0.elementsEqual(manifest) }) ?? true {
            try makeFolder(writer.directory)
            try writer.replace(manifestURL, with: writer.writeTemporary(manifest, for: manifestURL))
        }
        return report
    }

    /// Removes every staged file and the folders the stage created; the directory is as it was.
    public func discard() {
        let (pending, folders) = state.withLock { state in
            state.finished = true
            defer { state.pending = []; state.createdFolders = [] }
            return (state.pending, state.createdFolders)
        }
        let manager = FileManager.default
        for (_, temporary) in pending { try? manager.removeItem(at: temporary) }
        for folder in folders.reversed() where (try? manager.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
            try? manager.removeItem(at: folder)
        }
    }

    /// Creates `folder` and any missing parents, remembering which were new.
    private func makeFolder(_ folder: URL) throws {
        let manager = FileManager.default
        var missing: [URL] = []
        var current = folder.standardizedFileURL
        while !manager.fileExists(atPath: current.path) {
            missing.append(current)
            let parent = current.deletingLastPathComponent().standardizedFileURL
            if parent.path == current.path { break }
            current = parent
        }
        // mkdir(2) outermost first, for an error that names the reason (Foundation's does not);
        // each folder made is remembered at once, so a discard after a failure removes it too.
        for url in missing.reversed() {
            if mkdir(url.path, 0o755) == 0 {
                state.withLock { $0.createdFolders.append(url) }
            } else if errno != EEXIST {
                throw OutputError(path: url.path, message: "cannot create the folder: \(String(cString: strerror(errno)))")
            }
        }
    }
}
