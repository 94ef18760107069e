import ArgumentParser
import LifeSpec
import LifeSpecRender

struct RecorderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recorder",
        abstract: "Write a Swift file an iOS app drops in to log its lifecycle for check-trace."
    )

    @Argument(help: "The spec file.")
    var spec: String

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func run() throws {
        let loaded = try loadValidSpec(spec)
        try writeOutput(Array(RecorderRenderer.render(loaded, specPath: spec).utf8), to: output)
    }
}
