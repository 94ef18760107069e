import ArgumentParser
import Foundation
import LifeSpec
import LifeSpecGenerate
import LifeSpecRender

extension DiagramOptions.Detail: ExpressibleByArgument {}

struct DiagramCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case dot, svg, png, pdf, mermaid
        var isBinary: Bool { self == .png || self == .pdf }
    }

    enum Layout: String, ExpressibleByArgument, CaseIterable {
        case tb, lr
    }

    static let configuration = CommandConfiguration(
        commandName: "diagram",
        abstract: "Draw a spec's state diagram (rendered in-process by Graphviz) or its Mermaid source."
    )

    @OptionGroup var input: SpecFileArgument

    @Option(help: "Output format: dot, svg, png, pdf or mermaid (default: from the -o file's extension, else svg).")
    var format: Format?

    @Option(help: "Highlight one scenario's path, numbering its steps.")
    var scenario: String?

    @Option(
        help: ArgumentHelp(
            "Draw one scenario as a sequence diagram: who is called, in which order, as the engine runs it.",
            valueName: "scenario"))
    var sequence: String?

    @Option(
        help: "How much each arrow says: states, overview (event titles only: a page's first drawing), events or full.")
    var detail: DiagramOptions.Detail = .full

    @Option(help: "Layout direction: tb (top to bottom) or lr (left to right).")
    var layout: Layout = .tb

    @Option(help: "Draw one compound state alone (for machines too large to draw whole).")
    var group: String?

    @Option(help: "Locale for titles (default: the spec's first locale).")
    var locale: String?

    @ArgumentParser.Flag(help: "Leave notifications out of the transition labels.")
    var hideNotifications = false

    @ArgumentParser.Flag(help: "Leave the legend out.")
    var noLegend = false

    @OptionGroup var destination: OutputFileOption

    /// The format the `-o` file's extension names, if it names one.
    static func format(forExtension pathExtension: String) -> Format? {
        switch pathExtension.lowercased() {
        case "dot", "gv": .dot
        case "svg": .svg
        case "png": .png
        case "pdf": .pdf
        case "mmd", "mermaid": .mermaid
        default: nil
        }
    }

    /// `--format`, else the `-o` extension's, else SVG; a file whose extension names another
    /// format than `--format` is refused (it would hold bytes its name misdescribes).
    func resolvedFormat() throws -> Format {
        guard let output = destination.output else { return format ?? .svg }
        let pathExtension = URL(fileURLWithPath: output).pathExtension
        let implied = Self.format(forExtension: pathExtension)
        switch (format, implied) {
        case (let asked?, let implied?) where asked != implied:
            throw ValidationError(
                "--format \(asked.rawValue) does not match the extension of '\(output)' (.\(pathExtension) is \(implied.rawValue)); drop --format or change the file name"
            )
        case (let asked?, _): return asked
        case (nil, let implied?): return implied
        case (nil, nil):
            let shown = pathExtension.isEmpty ? "it has no extension" : "'.\(pathExtension)' is not one"
            throw ValidationError(
                "cannot tell the format of '\(output)' from its name (\(shown)); name it .svg, .png, .pdf, .dot or .mmd, or pass --format"
            )
        }
    }

    func validate() throws {
        if sequence != nil {
            let others = [
                scenario != nil ? "--scenario" : nil, group != nil ? "--group" : nil,
                detail != .full ? "--detail" : nil, layout != .tb ? "--layout" : nil,
                hideNotifications ? "--hide-notifications" : nil, noLegend ? "--no-legend" : nil,
            ].compactMap { $0 }
            if !others.isEmpty {
                throw ValidationError(
                    "--sequence draws a scenario on its own; it does not take \(others.joined(separator: ", "))")
            }
        }
        let format = try resolvedFormat()
        if destination.output == nil, format.isBinary, isatty(STDOUT_FILENO) != 0 {
            throw ValidationError(
                "refusing to write \(format.rawValue.uppercased()) to a terminal; use -o FILE or redirect standard output"
            )
        }
    }

    func run() throws {
        let format = try resolvedFormat()
        let loaded = try loadValidSpec(input.spec)
        // A drawing of a spec that declares no locale is drawn in its one language, whatever is asked.
        if !loaded.document.locales.isEmpty { try requireLocale(locale, in: loaded) }
        if let sequence {
            try runSequence(sequence, of: loaded, format: format)
            return
        }
        var options = DiagramOptions(locale: locale)
        options.detail = detail
        options.direction = layout == .lr ? .leftToRight : .topToBottom
        options.showNotifications = !hideNotifications
        options.scenario = scenario
        options.legend = !noLegend
        options.group = group
        let bytes: [UInt8]
        do {
            if format == .mermaid {
                if let scenario, loaded.document.scenario(scenario) == nil {
                    throw DiagramError.unknownScenario(scenario, available: loaded.document.scenarios.map(\.id))
                }
                bytes = Array(MermaidRenderer.render(loaded, options: options).utf8)
            } else {
                // DOT text is not laid out here, so it keeps the detail asked for at any size; the
                // layout budget only decides what to say about it.
                let diagram = try DiagramBuilder.build(
                    for: loaded, options: options, limits: format == .dot ? .unlimited : .standard)
                if format == .dot {
                    let standard = diagram.plan.replanned(with: .standard)
                    if standard.message != nil {
                        let advice =
                            standard.isRefused
                            ? "draw one group at a time with --group"
                            : "as SVG or PNG it is drawn at '\(standard.effectiveDetail.rawValue)' detail"
                        StandardStreams.err(
                            "note: the diagram has \(standard.size.summary): Graphviz's dot may take minutes to lay this DOT out; \(advice)\n"
                        )
                    }
                } else if let message = diagram.plan.message {
                    StandardStreams.err("note: \(message)\n")
                }
                switch format {
                case .dot: bytes = Array(diagram.standaloneDOT.utf8)
                case .svg:
                    bytes = DrawingStamp.stamp(
                        try diagram.render(.svg),
                        source: DrawingSource(layout: diagram.dot, overlays: diagram.overlays, format: .svg))
                case .png: bytes = try diagram.render(.png)
                case .pdf: bytes = try diagram.render(.pdf)
                case .mermaid: bytes = []
                }
            }
        } catch let error as DiagramError {
            // Too large to lay out is an input limit, located like every other (LS003).
            if case .tooLarge = error {
                StandardStreams.err("\(input.spec):1:1: error: [\(DiagnosticCode.inputLimit.rawValue)] \(error)\n")
                throw ExitCode(1)
            }
            StandardStreams.err("\(input.spec): error: \(error)\n")
            throw ExitCode(1)
        } catch {
            StandardStreams.err("\(input.spec):1:1: error: [\(DiagnosticCode.renderFailed.rawValue)] \(error)\n")
            throw ExitCode(1)
        }
        try writeOutput(bytes, to: destination.output)
    }
}

extension DiagramCommand {
    /// `--sequence`: the scenario's trace as a sequence diagram, drawn from pinned positions.
    func runSequence(_ id: String, of loaded: LoadedSpec, format: Format) throws {
        guard let diagram = SequenceDiagram(spec: loaded, scenario: id, locale: locale) else {
            StandardStreams.err(
                "\(input.spec): error: \(DiagramError.unknownScenario(id, available: loaded.document.scenarios.map(\.id)))\n"
            )
            throw ExitCode(1)
        }
        let bytes: [UInt8]
        do {
            let dot = DOTEncoder.encode(SequenceLayout(diagram).graph())
            switch format {
            case .mermaid:
                bytes = Array(
                    diagram.mermaid(scenario: id, file: URL(fileURLWithPath: input.spec).lastPathComponent).utf8)
            case .dot: bytes = Array(dot.utf8)
            case .svg:
                bytes = DrawingStamp.stamp(
                    try GraphvizRenderer.shared.render(dot: dot, format: .svg, layout: SequenceLayout.layoutEngine),
                    source: DrawingSource(layout: dot, format: .svg, engine: SequenceLayout.layoutEngine))
            case .png:
                bytes = try GraphvizRenderer.shared.render(dot: dot, format: .png, layout: SequenceLayout.layoutEngine)
            case .pdf:
                bytes = try GraphvizRenderer.shared.render(dot: dot, format: .pdf, layout: SequenceLayout.layoutEngine)
            }
        } catch {
            StandardStreams.err("\(input.spec):1:1: error: [\(DiagnosticCode.renderFailed.rawValue)] \(error)\n")
            throw ExitCode(1)
        }
        try writeOutput(bytes, to: destination.output)
    }
}

/// Ends a one-shot command whose output is written, without freeing `objects` (the spec, its
/// exploration, the plan) first: the system takes the whole memory back at once, where freeing them
/// object by object cost the 4-region 2,000-state suite 0.13 G of its 3.54 G instructions
/// (callgrind). Only for the end of `run()`: nothing may follow it.
func exitKeeping<Objects>(_ objects: Objects) -> Never {
    withExtendedLifetime(objects) { Foundation.exit(0) }
}

/// Writes a command's result to a file (atomically, see `AtomicFile`) or to standard output; a file
/// that cannot be written is `path: error: [LS005] cannot write the file: …`, exit 1.
func writeOutput(_ bytes: [UInt8], to path: String?) throws {
    guard let path else {
        FileHandle.standardOutput.write(Data(bytes))
        return
    }
    do {
        try AtomicFile.replace(path, with: bytes)
    } catch {
        StandardStreams.err("\(path): error: [\(DiagnosticCode.unwritableFile.rawValue)] \(error.message)\n")
        throw ExitCode(1)
    }
}
