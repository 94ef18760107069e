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

/// Refuses a `--locale` the spec does not declare (a usage error), suggesting the nearest one.
func requireLocale(_ locale: String?, in spec: LoadedSpec) throws {
    let locales = spec.document.locales
    guard let locale, !locales.contains(locale) else { return }
    let known = locales.isEmpty ? "the spec declares none" : locales.joined(separator: ", ")
    throw ValidationError(
        "the spec has no locale '\(locale)' (locales: \(known))\(Suggestion.didYouMean(locale, among: locales))")
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
