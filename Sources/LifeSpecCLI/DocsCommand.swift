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
            A Markdown page written with -o gets its drawings beside it (overview.svg and diagram.svg, \
            with the locale's suffix), and links only those; on standard output it embeds only the \
            Mermaid diagram. `generate` writes every drawing, scenarios' and sequences' too. \
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
        // The page links only the drawings written beside it: with -o, the overview and the whole
        // diagram in the page's locale, named as `generate` names them; on standard output, none
        // (the Mermaid block still draws the machine).
        var options = MarkdownOptions()
        options.specPath = input.spec
        options.mermaid = mermaid
        options.diagramPath = nil
        options.scenarioDiagramPattern = nil
        var drawings: [GeneratedFile] = []
        if destination.output != nil {
            drawings = try pageDrawings(loaded)
            options.diagramPath = drawings.first { $0.path.hasPrefix("diagram") }?.path
            options.overviewPath = drawings.first { $0.path.hasPrefix("overview") }?.path
        }
        let page = MarkdownRenderer.page(
            for: loaded, locale: locale ?? loaded.document.defaultLocale,
            options: options, others: others)
        // The page first: a destination it cannot take (a link, a folder) stops the run before
        // anything is written beside it.
        try writeOutput(Array(page.text.utf8), to: destination.output)
        if let output = destination.output {
            let folder = URL(fileURLWithPath: output).deletingLastPathComponent()
            for drawing in drawings {
                try writeOutput(drawing.contents, to: folder.appendingPathComponent(drawing.path).path)
            }
        }
    }

    /// `diagram<suffix>.svg` (when the machine is small enough to draw whole) and
    /// `overview<suffix>.svg` (when it has a readable overview), drawn as `generate` draws them.
    private func pageDrawings(_ loaded: LoadedSpec) throws -> [GeneratedFile] {
        let suffix = MarkdownRenderer.localeSuffix(locale: locale, defaultLocale: loaded.document.defaultLocale)
        var files: [GeneratedFile] = []
        do {
            let whole = DiagramOptions(locale: locale)
            if !DiagramBuilder.plan(for: loaded, options: whole).isRefused {
                let dot = try DiagramBuilder.build(for: loaded, options: whole).dot
                files.append(
                    GeneratedFile(
                        path: "diagram\(suffix).svg",
                        contents: try GraphvizRenderer.shared.render(dot: dot, format: .svg)))
            }
            var overview = DiagramOptions.pageOverview
            overview.locale = locale
            let plan = DiagramBuilder.plan(for: loaded, options: overview)
            if !plan.isRefused, plan.effectiveDetail == .overview {
                let dot = try DiagramBuilder.build(for: loaded, options: overview).dot
                files.append(
                    GeneratedFile(
                        path: "overview\(suffix).svg",
                        contents: try GraphvizRenderer.shared.render(dot: dot, format: .svg)))
            }
        } catch {
            throw cannotDraw(error)
        }
        return files
    }

    /// LS200 at the spec for a drawing that failed, printed; the exit status to throw.
    private func cannotDraw(_ error: Error) -> ExitCode {
        StandardStreams.err(
            DiagnosticPrinter.text([
                .error(
                    .renderFailed, "cannot draw the diagram: \(error)",
                    at: SourceLocation(path: input.spec, line: 1, column: 1))
            ]))
        return ExitCode(1)
    }

    private func writeArticle(_ loaded: LoadedSpec) throws {
        var resources: [GeneratedFile] = []
        if destination.output != nil {
            do {
                resources = try DocCRenderer.resources(for: loaded)
            } catch {
                throw cannotDraw(error)
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
