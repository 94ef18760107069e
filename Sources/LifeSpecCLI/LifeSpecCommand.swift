import ArgumentParser

public struct LifeSpecCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
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
            TestsCommand.self,
            GenerateCommand.self,
            WatchCommand.self,
            CheckTraceCommand.self,
            RecorderCommand.self,
            SynthCommand.self,
            ImportCommand.self,
            ExportCommand.self,
        ]
    )

    public init() {}
}
