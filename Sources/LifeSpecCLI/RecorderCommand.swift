import ArgumentParser
import LifeSpec
import LifeSpecRender

struct RecorderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recorder",
        abstract: "Write a Swift file an app drops in to log its lifecycle in the format check-trace reads."
    )

    @Argument(help: "The spec file.")
    var spec: String

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func run() throws {
        let loaded = try loadValidSpec(spec)
        if let refusal = RecorderRenderer.refusal(for: loaded) {
            StandardStreams.err("\(spec): error: \(refusal)\n")
            throw ExitCode(1)
        }
        try writeOutput(Array(RecorderRenderer.render(loaded, specPath: spec).utf8), to: output)
    }
}
