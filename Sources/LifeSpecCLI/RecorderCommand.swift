import ArgumentParser
import LifeSpec
import LifeSpecRender

struct RecorderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recorder",
        abstract: "Write a Swift file an app drops in to log its lifecycle in the format check-trace reads."
    )

    @OptionGroup var input: SpecFileArgument

    @OptionGroup var destination: OutputFileOption

    func run() throws {
        let loaded = try loadValidSpec(input.spec)
        if let refusal = RecorderRenderer.refusal(for: loaded) {
            StandardStreams.err("\(input.spec): error: \(refusal)\n")
            throw ExitCode(1)
        }
        try writeOutput(Array(RecorderRenderer.render(loaded, specPath: input.spec).utf8), to: destination.output)
    }
}
