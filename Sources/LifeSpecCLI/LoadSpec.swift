import ArgumentParser
import LifeSpec

/// Loads one spec for a command that needs a valid one: diagnostics go to standard error, and a
/// spec with errors stops the command with exit status 1. A spec file that is not there is a
/// wrong argument: exit status 64, as for every other file named on the command line.
func loadValidSpec(_ path: String) throws -> LoadedSpec {
    let result = SpecLoader.load(path: path)
    guard let spec = result.spec, !result.hasErrors else {
        StandardStreams.err(DiagnosticPrinter.text(result.diagnostics))
        if FileProblem.isMissing(path) { throw ExitCode(64) }
        // A file that cannot be read has nothing to fix inside it.
        if result.diagnostics.contains(where: { $0.code == .unreadableFile }) { throw ExitCode(1) }
        StandardStreams.err("\(path): error: the spec has errors; run 'lifespec validate \(path)' after fixing them\n")
        throw ExitCode(1)
    }
    return spec
}

/// The one spec file a command reads.
struct SpecFileArgument: ParsableArguments {
    @Argument(help: "The spec file.")
    var spec: String
}

/// `-o FILE`: where a command writes its one result; standard output without it.
struct OutputFileOption: ParsableArguments {
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?
}
