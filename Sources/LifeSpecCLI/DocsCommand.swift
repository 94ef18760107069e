import ArgumentParser
import Foundation
import LifeSpec
import LifeSpecGenerate
import LifeSpecRender

struct DocsCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case markdown, docc
    }

    static let configuration = CommandConfiguration(
        commandName: "docs",
        abstract: "Write a spec's reference page: Markdown (as in Output/) or a DocC article.",
        discussion: """
            A DocC article shows its diagrams as SVG resources of the catalog: with -o they are written \
            beside the article (<id>-diagram.svg, <id>-scenario-<scenario>.svg). `generate --docc DIR` \
            writes a whole catalog.
            """
    )

    @OptionGroup var input: SpecFileArgument

    @Option(help: "The page's locale (default: the spec's first locale).")
    var locale: String?

    @Option(help: "markdown or docc.")
    var format: Format = .markdown

    @OptionGroup var destination: OutputFileOption

    func run() throws {
        let loaded = try loadValidSpec(input.spec)
        try requireLocale(locale, in: loaded)
        if format == .docc {
            try writeArticle(loaded)
            return
        }
        let mermaid = MermaidRenderer.render(loaded, options: DiagramOptions(locale: locale))
        let others = SpecFiles.neighbours(of: [loaded], paths: [input.spec])
        // The same drawings `generate` writes for this locale (`diagram.<locale>.svg`).
        let suffix = MarkdownRenderer.localeSuffix(locale: locale, defaultLocale: loaded.document.defaultLocale)
        let options = MarkdownOptions(
            specPath: input.spec, diagramPath: "diagram\(suffix).svg", mermaid: mermaid,
            scenarioDiagramPattern: "scenarios/{id}\(suffix).svg")
        let page = MarkdownRenderer.page(
            for: loaded, locale: locale ?? loaded.document.defaultLocale,
            options: options, others: others)
        let text = page.text
        try writeOutput(Array(text.utf8), to: destination.output)
    }

    private func writeArticle(_ loaded: LoadedSpec) throws {
        var resources: [GeneratedFile] = []
        if destination.output != nil {
            do {
                resources = try DocCRenderer.resources(for: loaded)
            } catch {
                StandardStreams.err(
                    DiagnosticPrinter.text([
                        .error(
                            .renderFailed, "cannot draw the diagram: \(error)",
                            at: SourceLocation(path: input.spec, line: 1, column: 1))
                    ]))
                throw ExitCode(1)
            }
        }
        let related = Set(SpecFiles.neighbours(of: [loaded], paths: [input.spec]).map(\.document.id))
        let article = DocCRenderer.article(
            for: loaded, locale: locale, specPath: input.spec,
            resources: Set(resources.map(\.path)), catalogued: related)
        if let output = destination.output {
            let folder = URL(fileURLWithPath: output).deletingLastPathComponent()
            for resource in resources {
                try writeOutput(resource.contents, to: folder.appendingPathComponent(resource.path).path)
            }
        }
        try writeOutput(Array(article.utf8), to: destination.output)
    }
}
