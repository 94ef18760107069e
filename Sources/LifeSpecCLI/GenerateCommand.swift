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

    @ArgumentParser.Flag(help: "Write nothing; exit 1 listing every stale, missing or extra file.")
    var check = false

    @ArgumentParser.Flag(name: .shortAndLong, help: "Print only problems.")
    var quiet = false

    func run() throws {
        let outcome = try GenerationRun(specs: specs, output: output, suites: suites, check: check).perform()
        if !outcome.diagnostics.isEmpty { StandardStreams.err(DiagnosticPrinter.text(outcome.diagnostics)) }
        guard let report = outcome.report else {
            if outcome.diagnostics.hasErrors { StandardStreams.err("error: nothing was generated: fix the errors above first\n") }
            throw ExitCode(FileProblem.anyMissing(specs) ? 64 : 1)
        }
        if check {
            let problems = report.written.map { "stale:   \($0)" } + report.created.map { "missing: \($0)" }
                + report.removed.map { "extra:   \($0)" }
            if problems.isEmpty {
                if !quiet { StandardStreams.out("\(output)/ and \(suites)/ are up to date (\(report.kept.count) files)\n") }
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
    }

    static let defaultSuites = "Tests/GeneratedConformanceTests/Generated"

    let specs: [String]
    let output: String
    let suites: String
    let check: Bool

    func perform() throws -> Outcome {
        let paths = try SpecFiles.resolve(specs)
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
        let outputStage = OutputStage(writer: OutputWriter(directory: URL(fileURLWithPath: output, isDirectory: true)), check: check, scope: scope)
        // Suites are files of one folder: a partial run must keep the other specs' suites.
        let suiteNames = loaded.map(SwiftSuiteRenderer.fileName(for:))
        let suiteStage = OutputStage(writer: OutputWriter(directory: URL(fileURLWithPath: suites, isDirectory: true)), check: check,
                                     scope: specs.isEmpty ? nil : Set(suiteNames))
        do {
            // Files are written to temporary files as they are made and moved into place only
            // once everything was made: a failure leaves both directories as they were.
            let others = specs.isEmpty ? loaded : loaded + SpecFiles.neighbours(of: loaded, paths: paths)
            do throws(Generator.StreamError) {
                try Generator.generate(loaded, others: others, index: specs.isEmpty) { try outputStage.offer($0) }
            } catch {
                switch error {
                case .failure(let failure):
                    outputStage.discard()
                    suiteStage.discard()
                    return Outcome(diagnostics: failure.diagnostics, report: nil)
                case .sink(let error):
                    throw error
                }
            }
            for (spec, name) in zip(loaded, suiteNames) {
                try suiteStage.offer(GeneratedFile(path: name, text: SwiftSuiteRenderer.render(spec: spec)))
            }
            var report = try outputStage.commit().prefixed(with: output)
            report.merge(try suiteStage.commit().prefixed(with: suites))
            return Outcome(diagnostics: diagnostics, report: report)
        } catch {
            outputStage.discard()
            suiteStage.discard()
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
        return copy
    }

    mutating func merge(_ other: SyncReport) {
        written += other.written
        created += other.created
        kept += other.kept
        removed += other.removed
    }
}
