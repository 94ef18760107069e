import ArgumentParser
import Foundation
import LifeSpec
import LifeSpecRender

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two versions of a spec: what changes in behaviour, scenario by scenario.",
        discussion: """
            Each version is a file, or REV:PATH read from git ('git show REV:PATH' in the current \
            folder: PATH is from the repository's root, or from the current folder when it starts with ./). \
            A system spec's parts (and catalog files) are read from the same revision.

            Lists the states, events, flags, callbacks, notifications and transitions added, removed or \
            changed; the scenarios whose traces change, the engine's call sequences before and after \
            aligned; the generated test cases that change; and, apart, text-only changes (titles, \
            descriptions, sources, summary).

            Exit status: 0 when the versions behave the same (text-only changes included), 1 when \
            behaviour differs or a version has errors, 64 for usage errors.

            Example: lifespec diff HEAD:Spec/ios-app-lifecycle.yaml Spec/ios-app-lifecycle.yaml --format markdown
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, json
    }

    @Argument(help: ArgumentHelp("The old version: a spec file, or REV:PATH from git.", valueName: "old"))
    var old: String

    @Argument(help: ArgumentHelp("The new version: a spec file, or REV:PATH from git.", valueName: "new"))
    var new: String

    @Option(help: "text, markdown (for a pull-request comment) or json.")
    var format: Format = .text

    @ArgumentParser.Flag(help: "Same as --format json.")
    var json = false

    func validate() throws {
        if json, format != .text, format != .json {
            throw ValidationError("--json and --format \(format.rawValue) ask for two formats: give one")
        }
    }

    func run() throws {
        let before = try Self.load(old)
        let after = try Self.load(new)
        let diff = SpecDiff(old: before, named: old, new: after, named: new)
        switch json ? .json : format {
        case .text: StandardStreams.out(diff.text)
        case .markdown: StandardStreams.out(diff.markdown)
        case .json: StandardStreams.out(diff.json)
        }
        if diff.behaviourDiffers { throw ExitCode(1) }
    }

    /// A version from a file, or from git for `REV:PATH` when no file has that name.
    static func load(_ argument: String) throws -> LoadedSpec {
        guard let revision = GitRevisionPath(argument), FileProblem.isMissing(argument) else {
            return try loadValidSpec(argument)
        }
        let data = try revision.read()
        // A system's parts, and catalog files, are read beside the spec: from the revision's folder.
        if !SpecLoader.isSCXML(revision.path), Self.namesFilesBeside(data) {
            return try revision.withFolder { path, shown in
                try Self.check(SpecLoader.load(path: path), argument: argument, shown: shown)
            }
        }
        return try check(SpecLoader.load(data: data, path: argument), argument: argument)
    }

    /// The spec of a version without errors; else its diagnostics (paths as `shown` gives them) and exit 1.
    static func check(_ result: SpecLoadResult, argument: String, shown: (String) -> String = { $0 }) throws
        -> LoadedSpec
    {
        guard let spec = result.spec, !result.hasErrors else {
            let diagnostics = result.diagnostics.map { item in
                Diagnostic(
                    item.severity, item.code, shown(item.message),
                    at: SourceLocation(
                        path: shown(item.location.path), line: item.location.line, column: item.location.column),
                    notes: item.notes.map(shown))
            }
            StandardStreams.err(DiagnosticPrinter.text(diagnostics))
            StandardStreams.err("\(argument): error: this version of the spec has errors\n")
            throw ExitCode(1)
        }
        return spec
    }

    /// Whether a spec's text may have a `parts:` or `catalogs:` key, whose files are read beside
    /// it: generous (anywhere, any quoting, YAML or JSON), since reading the folder for a spec
    /// that needs none costs only the time.
    static func namesFilesBeside(_ data: Data) -> Bool {
        let text = String(decoding: data, as: UTF8.self)
        return ["parts", "catalogs"].contains { key in
            ["\(key):", "\"\(key)\"", "'\(key)'"].contains { text.contains($0) }
        }
    }
}

/// `REV:PATH`: a file as git has it at a revision.
struct GitRevisionPath {
    let revision: String
    let path: String

    init?(_ argument: String) {
        guard let colon = argument.firstIndex(of: ":"), colon != argument.startIndex else { return nil }
        let path = argument[argument.index(after: colon)...]
        guard !path.isEmpty else { return nil }
        revision = String(argument[..<colon])
        self.path = String(path)
    }

    /// `git show REV:PATH` in the current folder; a revision or path git does not know is a usage error.
    func read() throws -> Data {
        try Self.git(["show", "\(revision):\(path)"], what: "read '\(revision):\(path)'")
    }

    /// Runs `body` on the spec's folder as the revision has it (`git archive`, in a temporary
    /// folder removed afterwards), with the spec's path there and a function that names the
    /// temporary copies as `REV:path` in what the loader says.
    func withFolder<T>(_ body: (String, (String) -> String) throws -> T) throws -> T {
        // `REV:./x` is relative to the current folder, `REV:x` to the repository's root.
        let relative = path.hasPrefix("./") || path.hasPrefix("../")
        let prefix =
            relative
            ? String(
                decoding: try Self.git(["rev-parse", "--show-prefix"], what: "find the repository"), as: UTF8.self
            )
            .trimmingCharacters(in: .whitespacesAndNewlines) : ""
        let rootPath = ((prefix + path) as NSString).standardizingPath
        let root = String(
            decoding: try Self.git(["rev-parse", "--show-toplevel"], what: "find the repository"), as: UTF8.self
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let manager = FileManager.default
        let scratch = manager.temporaryDirectory.appendingPathComponent("lifespec-diff-\(UUID().uuidString)")
        try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: scratch) }
        let archive = scratch.appendingPathComponent("revision.tar").path
        let folder = (rootPath as NSString).deletingLastPathComponent
        _ = try Self.git(
            ["-C", root, "archive", "--format=tar", "-o", archive, revision, "--", folder.isEmpty ? "." : folder],
            what: "read the folder of '\(revision):\(path)'")
        let tree = scratch.appendingPathComponent("tree")
        try manager.createDirectory(at: tree, withIntermediateDirectories: true)
        _ = try Self.run(["tar", "-xf", archive, "-C", tree.path], what: "unpack the folder of '\(revision):\(path)'")
        let base = tree.path + "/"
        return try body(base + rootPath) { $0.replacingOccurrences(of: base, with: "\(revision):") }
    }

    /// `git ARGUMENTS`' standard output; its failure is a usage error quoting git's first line.
    static func git(_ arguments: [String], what: String) throws -> Data {
        try run(["git"] + arguments, what: what)
    }

    static func run(_ arguments: [String], what: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ValidationError("cannot run \(arguments[0]) to \(what): \(error.localizedDescription)")
        }
        // Read before waiting: a large file fills the pipe's buffer. git writes to standard
        // error only a line or two, which its pipe holds meanwhile.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said =
                String(decoding: message, as: UTF8.self).split(whereSeparator: \.isNewline).first
                .map { String($0).replacingOccurrences(of: "fatal: ", with: "") } ?? "\(arguments[0]) failed"
            throw ValidationError("cannot \(what) from git: \(Diagnostic.escaped(said, keepingNewlines: false))")
        }
        return data
    }
}
