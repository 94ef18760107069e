import ArgumentParser
import LifeSpec

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a spec as SCXML that another engine runs with the same trace.",
        discussion: """
            Flags become an ECMAScript datamodel (<data>, cond, <assign>); callbacks and notifications become \
            <log label="callback"|"notification" expr="'id'"/>, in the order the engine emits them.
            Example: lifespec export Spec/ios-app-lifecycle.yaml --format scxml -o app.scxml
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case scxml }

    @OptionGroup var input: SpecFileArgument

    @Option(help: "The format to write (scxml).")
    var format: Format = .scxml

    @OptionGroup var destination: OutputFileOption

    func run() throws {
        let loaded = try loadValidSpec(input.spec)
        let text: String
        do {
            text = try SCXMLWriter.scxml(for: loaded)
        } catch {
            StandardStreams.err("\(input.spec): error: cannot export: \(error)\n")
            throw ExitCode(1)
        }
        try writeOutput(Array(text.utf8), to: destination.output)
    }
}
