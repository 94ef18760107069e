import ArgumentParser
import Foundation
import LifeSpec
import LifeSpecGenerate
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

    @OptionGroup var destination: OutputFolders

    @Option(
        help: ArgumentHelp(
            "Also write a DocC catalog of every spec to this folder (e.g. Docs/Lifecycles.docc).", valueName: "dir"))
    var docc: String?

    @ArgumentParser.Flag(
        help:
            "Write no conformance suites (a package whose test target uses the LifeSpecSuites build-tool plugin gets them at build time)."
    )
    var noSuites = false

    @ArgumentParser.Flag(help: "Write nothing; exit 1 listing every stale, missing or extra file.")
    var check = false

    @ArgumentParser.Flag(name: .shortAndLong, help: "Print only problems.")
    var quiet = false

    func validate() throws {
        if let docc {
            guard specs.isEmpty else {
                throw ValidationError("--docc writes a catalog of every spec: give no spec arguments with it")
            }
            guard URL(fileURLWithPath: docc).pathExtension == "docc" else {
                throw ValidationError(
                    "--docc needs a folder whose name ends in .docc (e.g. Docs/Lifecycles.docc), not '\(docc)'")
            }
        }
    }

    func run() throws {
        let run = GenerationRun(
            specs: specs, output: destination.output, suites: noSuites ? nil : destination.suites, check: check,
            docc: docc, toolVersion: LifeSpecVersion.current)
        // One run, one state of the inputs: each file is read once, whatever changes on disk meanwhile.
        let outcome = try InputSnapshot.during { try run.performInCommand() }
        if !outcome.diagnostics.isEmpty { StandardStreams.err(DiagnosticPrinter.text(outcome.diagnostics)) }
        guard let report = outcome.report else {
            if outcome.diagnostics.hasErrors {
                StandardStreams.err("error: nothing was generated: fix the errors above first\n")
            }
            throw ExitCode(FileProblem.anyMissing(specs) ? 64 : 1)
        }
        for path in outcome.edited {
            StandardStreams.err(
                "\(path): \(check ? "error" : "warning"): its bytes no longer match the content digest it records (edited by hand?); \(check ? "'lifespec generate' draws it again" : "drawn again")\n"
            )
        }
        if check {
            let problems =
                report.written.map { "stale:   \($0)" } + report.created.map { "missing: \($0)" }
                + report.removed.map { "extra:   \($0)" }
            if problems.isEmpty {
                var names =
                    ["\(destination.output)/"] + (noSuites ? [] : ["\(destination.suites)/"])
                    + (docc.map { ["\($0)/"] } ?? [])
                let last = names.removeLast()
                let folders = names.isEmpty ? "\(last) is" : names.joined(separator: ", ") + " and \(last) are"
                if !quiet { StandardStreams.out("\(folders) up to date (\(report.kept.count) files)\n") }
            } else {
                StandardStreams.err(problems.joined(separator: "\n") + "\n")
                StandardStreams.err(
                    "error: generated files are out of date with the specs; run 'swift run lifespec generate' and commit the result\n"
                )
                StandardStreams.err(Self.diffSuggestion(specs: specs, stale: report.written + report.created))
                throw ExitCode(1)
            }
        } else if !quiet {
            StandardStreams.out(GenerationRun.describe(report))
        }
    }
}

extension GenerateCommand {
    /// How to see what a stale spec changes in behaviour: `lifespec diff` against the last commit,
    /// for each spec (up to three) whose files are stale, else for a spec to name.
    static func diffSuggestion(specs: [String], stale: [String]) -> String {
        let files = (try? SpecFiles.resolve(specs)) ?? []
        let touched = files.filter { file in
            let id = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
            let suite = SwiftSuiteRenderer.fileName(forSpecID: id)
            return stale.contains { $0.contains("/\(id)/") || $0.hasSuffix("/" + suite) || $0 == suite }
        }
        let examples = (1...3).contains(touched.count) ? touched : ["Spec/SPEC.yaml"]
        return examples.map { "to see what changed in behaviour: lifespec diff HEAD:\($0) \($0)\n" }.joined()
    }
}

/// The folders `generate` and `watch` bring in line with the specs.
struct OutputFolders: ParsableArguments {
    @Option(name: .shortAndLong, help: "The output directory.")
    var output = "Output"

    @Option(help: "Where the conformance suites go: the test target that compiles and runs them.")
    var suites = GenerationRun.defaultSuites
}

extension GenerationRun {
    /// The pass as a command runs it: no spec to work on is a usage error (64); a folder that
    /// cannot be written is printed and ends the command with status 1.
    func performInCommand() throws -> Outcome {
        do {
            return try perform(waiting: { folder in
                StandardStreams.err("waiting for another lifespec run to finish with \(folder)/…\n")
            })
        } catch let error as SpecFiles.ResolveError {
            throw ValidationError(error.description)
        } catch let failure as Failure {
            StandardStreams.err(failure.description + "\n")
            throw ExitCode(1)
        }
    }
}

/// The specs named, or every spec in `Spec/`; none at all is a usage error.
func resolveSpecFiles(_ paths: [String]) throws -> [String] {
    do {
        return try SpecFiles.resolve(paths)
    } catch {
        throw ValidationError(error.description)
    }
}
