import ArgumentParser
import Foundation
import LifeSpec
import LifeSpecRender

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Validate every spec, then bring Output/ in line with Spec/: diagrams, docs and test suites.",
        discussion: """
        Nothing is written if any spec has errors. Only files whose bytes changed are written, each \
        atomically; files an earlier run generated that no spec produces any more are removed.
        """
    )

    @Argument(help: "Spec files (default: every spec in Spec/, and the Output/README.md index).")
    var specs: [String] = []

    @Option(name: .shortAndLong, help: "The output directory.")
    var output = "Output"

    @Option(help: "Where the conformance suites go: the test target that compiles and runs them.")
    var suites = GenerationRun.defaultSuites

    @Option(help: ArgumentHelp("Also write a DocC catalog of every spec to this folder (e.g. Docs/Lifecycles.docc).", valueName: "dir"))
    var docc: String?

    @ArgumentParser.Flag(help: "Write no conformance suites (a package whose test target uses the LifeSpecSuites build-tool plugin gets them at build time).")
    var noSuites = false

    @ArgumentParser.Flag(help: "Write nothing; exit 1 listing every stale, missing or extra file.")
    var check = false

    @ArgumentParser.Flag(name: .shortAndLong, help: "Print only problems.")
    var quiet = false

    func validate() throws {
        if let docc {
            guard specs.isEmpty else { throw ValidationError("--docc writes a catalog of every spec: give no spec arguments with it") }
            guard URL(fileURLWithPath: docc).pathExtension == "docc" else {
                throw ValidationError("--docc needs a folder whose name ends in .docc (e.g. Docs/Lifecycles.docc), not '\(docc)'")
            }
        }
    }

    func run() throws {
        var run = GenerationRun(specs: specs, output: output, suites: noSuites ? nil : suites, check: check)
        run.docc = docc
        let outcome = try run.perform()
        if !outcome.diagnostics.isEmpty { StandardStreams.err(DiagnosticPrinter.text(outcome.diagnostics)) }
        guard let report = outcome.report else {
            if outcome.diagnostics.hasErrors { StandardStreams.err("error: nothing was generated: fix the errors above first\n") }
            throw ExitCode(FileProblem.anyMissing(specs) ? 64 : 1)
        }
        for path in outcome.edited {
            StandardStreams.err("\(path): \(check ? "error" : "warning"): its bytes no longer match the content digest it records (edited by hand?); \(check ? "'lifespec generate' draws it again" : "drawn again")\n")
        }
        if check {
            let problems = report.written.map { "stale:   \($0)" } + report.created.map { "missing: \($0)" }
                + report.removed.map { "extra:   \($0)" }
            if problems.isEmpty {
                var names = ["\(output)/"] + (noSuites ? [] : ["\(suites)/"]) + (docc.map { ["\($0)/"] } ?? [])
                let last = names.removeLast()
                let folders = names.isEmpty ? "\(last) is" : names.joined(separator: ", ") + " and \(last) are"
                if !quiet { StandardStreams.out("\(folders) up to date (\(report.kept.count) files)\n") }
            } else {
                StandardStreams.err(problems.joined(separator: "\n") + "\n")
                StandardStreams.err("error: generated files are out of date with the specs; run 'swift run lifespec generate' and commit the result\n")
                throw ExitCode(1)
            }
        } else if !quiet {
            StandardStreams.out(GenerationRun.describe(report))
        }
    }
}

/// One generate pass, shared by `generate` and `watch`.
struct GenerationRun {
    struct Outcome {
        var diagnostics: [Diagnostic]
        /// `nil` when nothing was generated (spec errors or a render failure).
        var report: SyncReport?
        /// Drawings whose bytes no longer match the content digest they record (edited by hand).
        var edited: [String] = []
    }

    static let defaultSuites = "Tests/GeneratedConformanceTests/Generated"

    let specs: [String]
    let output: String
    /// `nil`: no suites are written or checked.
    let suites: String?
    let check: Bool
    /// A DocC catalog of every spec to write too (`generate --docc`), or `nil`.
    var docc: String? = nil

    func perform() throws -> Outcome {
        OutputStage.cleanUpOnSignals()
        let paths = try SpecFiles.resolve(specs)
        var folders: [(path: String, scope: Set<String>?)] = [(output, nil)]
        if let suites { folders.append((suites, nil)) }
        if let docc { folders.append((docc, nil)) }
        // Nothing to do is proven from the inputs' bytes and the outputs' stat (see NoOpRecord),
        // without loading a spec: the four specs of Spec/ in a few milliseconds instead of about
        // 0.36 s of CPU (Benchmarks/RESULTS.md, "generate with nothing to do").
        let inputs = GenerateInputs.digest(specs: specs, paths: paths, output: output, suites: suites, docc: docc)
        if let inputs, let kept = NoOpRecord.verify(inputs: inputs, folders: folders.map(\.path), in: output, refresh: !check) {
            var report = SyncReport()
            report.kept = kept
            return Outcome(diagnostics: [], report: report)
        }
        var loaded: [LoadedSpec] = []
        var diagnostics: [Diagnostic] = []
        for path in paths {
            let result = SpecLoader.load(path: path)
            diagnostics += result.diagnostics.filter { $0.severity == .error }
            if let spec = result.spec { loaded.append(spec) }
        }
        if !diagnostics.hasErrors { diagnostics += SpecFiles.relationDiagnostics(for: loaded, paths: paths) }
        // Not a diagnostic of its own (no code): the errors above are the problems.
        guard !diagnostics.hasErrors else { return Outcome(diagnostics: diagnostics, report: nil) }
        let scope: Set<String>? = specs.isEmpty ? nil : Set(loaded.map(\.document.id))
        // Drawings are compared by what they were drawn from, not by their bytes (see DrawingFreshness).
        let freshness = DrawingFreshness(directory: URL(fileURLWithPath: output, isDirectory: true))
        // Suites are files of one folder: a partial run must keep the other specs' suites.
        let suiteNames = loaded.map(SwiftSuiteRenderer.fileName(for:))
        var stages: [OutputStage] = []
        // The catalog's SVGs are the ones made for Output/, under their resource names.
        let doccResources = NameSet()
        // Output/, then the suites and the DocC catalog when asked for.
        folders[0].scope = scope
        if suites != nil { folders[1].scope = specs.isEmpty ? nil : Set(suiteNames) }
        do {
            // Each folder is locked for the whole run (a second run waits), and what a killed run
            // left is finished or thrown away before anything is compared.
            for (folder, folderScope) in folders {
                stages.append(try OutputStage(writer: OutputWriter(directory: URL(fileURLWithPath: folder, isDirectory: true)), check: check,
                                              scope: folderScope, waiting: { StandardStreams.err("waiting for another lifespec run to finish with \(folder)/…\n") }))
            }
            // What the last recorded run left and nobody changed since is not read again to be
            // compared or verified (taken with the folders locked).
            for (stage, folder) in zip(stages, folders) { stage.trust(NoOpRecord.unchanged(folder.path, in: output)) }
            freshness.trust(NoOpRecord.unchanged(output, in: output))
            let outputStage = stages[0]
            let suiteStage = suites == nil ? nil : stages[1]
            let doccStage = docc == nil ? nil : stages[stages.count - 1]
            // Files are written to the run's staging folders as they are made and moved into
            // place only once everything was made, as one transaction per folder.
            let others = specs.isEmpty ? loaded : loaded + SpecFiles.neighbours(of: loaded, paths: paths)
            do throws(Generator.StreamError) {
                try Generator.generate(loaded, others: others, index: specs.isEmpty, freshness: freshness) { file in
                    try outputStage.offer(file)
                    if let doccStage, let name = DocCRenderer.resourceName(forOutputPath: file.path) {
                        try doccStage.offer(GeneratedFile(path: "Resources/" + name, contents: file.contents))
                        doccResources.insert(name)
                    }
                }
            } catch {
                switch error {
                case .failure(let failure):
                    for stage in stages { stage.discard() }
                    return Outcome(diagnostics: failure.diagnostics, report: nil)
                case .sink(let error):
                    throw error
                }
            }
            if let suiteStage {
                for (spec, name) in zip(loaded, suiteNames) {
                    try suiteStage.offer(GeneratedFile(path: name, text: SwiftSuiteRenderer.render(spec: spec)))
                }
            }
            if let doccStage, let docc {
                let resources = doccResources.names
                let catalogued = Set(loaded.map(\.document.id))
                for spec in loaded {
                    let article = DocCRenderer.article(for: spec, resources: resources, catalogued: catalogued)
                    try doccStage.offer(GeneratedFile(path: DocCRenderer.articleName(specID: spec.document.id), text: article))
                }
                let name = URL(fileURLWithPath: docc).deletingPathExtension().lastPathComponent
                try doccStage.offer(GeneratedFile(path: "\(name).md", text: DocCRenderer.root(title: name, specs: loaded)))
            }
            // A run that printed nothing but its report is one a later run may repeat by the record.
            let recordable = !check && diagnostics.isEmpty && freshness.edited.isEmpty
            let reports = try OutputStage.commit(stages) { reports in
                guard recordable, let inputs else { return }
                NoOpRecord.record(inputs: inputs, folders: zip(folders, reports).map { NoOpRecord.Folder(path: $0.0.path, report: $0.1) }, in: output)
            }
            var report = reports[0].prefixed(with: output)
            for (folder, folderReport) in zip(folders.dropFirst(), reports.dropFirst()) { report.merge(folderReport.prefixed(with: folder.path)) }
            let prefix = output.hasSuffix("/") ? output : output + "/"
            return Outcome(diagnostics: diagnostics, report: report, edited: freshness.edited.map { prefix + $0 })
        } catch {
            for stage in stages { stage.discard() }
            // An OutputError already reads "path: error: message".
            StandardStreams.err(error is OutputError ? "\(error)\n" : "error: \(error)\n")
            throw ExitCode(1)
        }
    }

    static func describe(_ report: SyncReport) -> String {
        var lines: [String] = []
        lines += report.created.map { "created  \($0)" }
        lines += report.written.map { "updated  \($0)" }
        lines += report.removed.map { "removed  \($0)" }
        lines += report.leftAlone.map { "kept     \($0) (no spec makes it any more, but it was changed since lifespec wrote it)" }
        lines.append("\(report.created.count) created, \(report.written.count) updated, \(report.kept.count) unchanged, \(report.removed.count) removed")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SyncReport {
    /// The same report with every path shown under `folder`.
    func prefixed(with folder: String) -> SyncReport {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var copy = SyncReport()
        copy.written = written.map { prefix + $0 }
        copy.created = created.map { prefix + $0 }
        copy.kept = kept.map { prefix + $0 }
        copy.removed = removed.map { prefix + $0 }
        copy.leftAlone = leftAlone.map { prefix + $0 }
        return copy
    }

    mutating func merge(_ other: SyncReport) {
        written += other.written
        created += other.created
        kept += other.kept
        removed += other.removed
        leftAlone += other.leftAlone
    }
}

/// Names collected from the generator's threads.
private final class NameSet: @unchecked Sendable {
    private let lock = NSLock()
    private var set: Set<String> = []
    func insert(_ name: String) { lock.withLock { _ = set.insert(name) } }
    var names: Set<String> { lock.withLock { set } }
}
