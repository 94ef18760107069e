import ArgumentParser
import LifeSpec

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write the YAML spec equivalent to an SCXML chart.",
        discussion: """
            The chart must be in LifeSpec's SCXML subset (see 'lifespec validate FILE.scxml'). The YAML is \
            loaded back before it is written: it must give the same machine as the chart, or nothing is written. \
            A chart 'lifespec export' wrote carries its spec's YAML in LifeSpec's namespace: that YAML is \
            written as it was (titles, descriptions, scenarios and all) when it gives the chart's machine.
            Example: lifespec import door.scxml -o Spec/door.yaml
            """
    )

    @Argument(help: "The SCXML file.")
    var file: String

    @OptionGroup var destination: OutputFileOption

    func validate() throws {
        guard SpecLoader.isSCXML(file) else { throw ValidationError("'\(file)' is not an .scxml file") }
    }

    func run() throws {
        let loaded = try loadValidSpec(file)
        let path = destination.output ?? "imported.yaml"
        let yaml: String
        do {
            let imported = try SpecYAMLWriter.imported(
                loaded, path: path, header: "Imported by lifespec import from \(file).")
            yaml = imported.yaml
            StandardStreams.err(DiagnosticPrinter.text(imported.diagnostics))
        } catch {
            StandardStreams.err("\(file): error: cannot import: \(error)\n")
            throw ExitCode(1)
        }
        let check = SpecLoader.load(text: yaml, path: path)
        guard let reloaded = check.spec, reloaded.machine == loaded.machine else {
            StandardStreams.err(DiagnosticPrinter.text(check.diagnostics.filter { $0.severity == .error }))
            StandardStreams.err(
                "\(file): error: the YAML written for this chart does not load as the same machine; nothing was written\n"
            )
            throw ExitCode(1)
        }
        try writeOutput(Array(yaml.utf8), to: destination.output)
    }
}
