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
            folder, so PATH is from the repository's root, or starts with ./). Lists the states, events, \
            flags, callbacks, notifications and transitions added, removed or changed; the scenarios \
            whose traces change, the call sequences before and after aligned; the generated test cases \
            that change; and, apart, text-only changes (titles, descriptions, sources, summary). \
            A system spec (parts:) is compared from files only. \
            Exit status: 0 when the versions behave the same (text-only changes included), 1 when \
            behaviour differs or a version has errors, 64 for usage errors. \
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
        if SpecLoader.isSCXML(revision.path) == false, Self.declaresParts(data) {
            throw ValidationError(
                "\(argument) is a system spec (parts:): diff reads a system only from files; check the revision out (git worktree add) and compare its file"
            )
        }
        let result = SpecLoader.load(data: data, path: argument)
        guard let spec = result.spec, !result.hasErrors else {
            StandardStreams.err(DiagnosticPrinter.text(result.diagnostics))
            StandardStreams.err("\(argument): error: this version of the spec has errors\n")
            throw ExitCode(1)
        }
        return spec
    }

    /// Whether a YAML spec's text has a top-level `parts:` key: its parts would be read beside it.
    static func declaresParts(_ data: Data) -> Bool {
        String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).contains {
            $0.hasPrefix("parts:") || $0.hasPrefix("\"parts\":") || $0.hasPrefix("'parts':")
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "show", "\(revision):\(path)"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ValidationError("cannot run git to read '\(revision):\(path)': \(error.localizedDescription)")
        }
        // Read before waiting: a large file fills the pipe's buffer. git writes to standard
        // error only a line or two, which its pipe holds meanwhile.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said =
                String(decoding: message, as: UTF8.self).split(whereSeparator: \.isNewline).first
                .map { String($0).replacingOccurrences(of: "fatal: ", with: "") } ?? "git show failed"
            throw ValidationError(
                "cannot read '\(revision):\(path)' from git: \(Diagnostic.escaped(said, keepingNewlines: false))")
        }
        return data
    }
}
