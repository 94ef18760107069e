import ArgumentParser
import LifeSpec
import LifeSpecGenerate
import LifeSpecRender

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check specs against the shared engine and report every problem with its location."
    )

    @Argument(help: "Spec files (default: every spec in Spec/).")
    var specs: [String] = []

    @Option(help: "Output format: text or json.")
    var format: DiagnosticFormat = .text

    @ArgumentParser.Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
        let paths = try resolveSpecFiles(specs)
        let results = paths.map { SpecLoader.load(path: $0) }
        var diagnostics = results.flatMap(\.diagnostics).removingRepeats()
        diagnostics += SpecFiles.relationDiagnostics(for: results.compactMap(\.spec), paths: paths)
        switch format {
        case .text:
            StandardStreams.out(DiagnosticPrinter.text(diagnostics))
            StandardStreams.out(DiagnosticPrinter.summary(diagnostics, files: paths.count))
        case .json:
            StandardStreams.out(DiagnosticPrinter.json(diagnostics))
        }
        if FileProblem.anyMissing(specs) { throw ExitCode(64) }
        if diagnostics.hasErrors || (strict && !diagnostics.isEmpty) { throw ExitCode(1) }
    }
}
