import ArgumentParser
import Foundation
import LifeSpec
import LifeSpecGenerate
import LifeSpecRender

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Regenerate whenever a watched spec changes (polling); Ctrl-C stops.",
        discussion: """
            Watches the specs named (and the part files and related specs they use), or every spec in \
            Spec/ (files added or removed there count as changes). A save loads and generates again \
            only the specs it changed: the spec saved, and every system that uses it as a part. An \
            invalid save prints its diagnostics and the watch goes on; the output is left as it was.
            """
    )

    @Argument(help: "Spec files to watch (default: every spec in Spec/).")
    var specs: [String] = []

    @OptionGroup var destination: OutputFolders

    @Option(help: "Seconds between polls.")
    var interval: Double = 0.5

    @Option(help: .hidden)
    var maxPasses: Int?

    func validate() throws {
        guard interval >= 0.05 else { throw ValidationError("--interval must be at least 0.05 seconds") }
        // Nothing to watch is a usage error up front, not a message on every poll.
        if specs.isEmpty {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: "Spec", isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ValidationError(
                    "nothing to watch: no spec given and no 'Spec/' folder here; name the specs: lifespec watch SPEC…")
            }
        }
        for spec in specs where FileProblem.isMissing(spec) {
            throw missingFile(spec, what: "spec file")
        }
    }

    func run() throws {
        StandardStreams.out("watching \(specs.isEmpty ? "Spec/" : specs.joined(separator: ", ")) (Ctrl-C to stop)\n")
        try SpecWatch(specs: specs, interval: interval, maxPasses: maxPasses).run(
            changed: { StandardStreams.out("changed: \($0.joined(separator: ", "))\n") },
            pass: { cache in
                do {
                    var run = GenerationRun(
                        specs: specs, output: destination.output, suites: destination.suites, check: false,
                        toolVersion: LifeSpecVersion.current)
                    run.cache = cache
                    // Each pass is one state of the inputs, as a generate is.
                    let outcome = try InputSnapshot.during { try run.performInCommand() }
                    if !outcome.diagnostics.isEmpty { StandardStreams.out(DiagnosticPrinter.text(outcome.diagnostics)) }
                    if let report = outcome.report {
                        StandardStreams.out(GenerationRun.describe(report))
                    } else {
                        StandardStreams.out("nothing was generated: fix the errors above; watching for the next save\n")
                    }
                } catch let error as ValidationError {
                    StandardStreams.out("error: \(error.message)\n")
                } catch is ExitCode {
                    // The pass printed its own error (an unwritable output folder); keep watching.
                }
            })
    }
}
