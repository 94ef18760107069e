import ArgumentParser
import Foundation
import LifeSpec

package struct LifeSpecCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "lifespec",
        abstract: "Turn a lifecycle spec into diagrams, reference docs and conformance tests.",
        discussion: """
            Exit status: 0 when clean, 1 when a spec has errors (or a check fails), 64 for usage errors.
            """,
        version: LifeSpecVersion.current,
        subcommands: [
            ValidateCommand.self,
            SimulateCommand.self,
            DiagramCommand.self,
            DocsCommand.self,
            ExploreCommand.self,
            TestsCommand.self,
            GenerateCommand.self,
            WatchCommand.self,
            CheckTraceCommand.self,
            DiffCommand.self,
            RecorderCommand.self,
            SynthCommand.self,
            ImportCommand.self,
            ExportCommand.self,
            InitCommand.self,
            SchemaCommand.self,
        ]
    )

    package init() {}

    /// ArgumentParser's `main()`, after a mistyped subcommand gets a suggestion: its own message
    /// for one ("Unexpected argument 'valdate'") names no command.
    package static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
            if !names.contains(first) {
                let hint = Suggestion.didYouMean(first, among: names)
                StandardStreams.err("error: '\(first)' is not a lifespec command\(hint)\n")
                StandardStreams.err("commands: \(names.dropLast().joined(separator: ", ")); see 'lifespec --help'\n")
                Foundation.exit(64)
            }
        }
        main(nil)
    }
}
