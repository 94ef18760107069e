import ArgumentParser
import LifeSpec
import LifeSpecRender

struct DocsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docs",
        abstract: "Write a spec's Markdown reference page."
    )

    @Argument(help: "The spec file.")
    var spec: String

    @Option(help: "The page's locale (default: the spec's first locale).")
    var locale: String?

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func run() throws {
        let loaded = try loadValidSpec(spec)
        if let locale, !loaded.document.locales.contains(locale) {
            let known = loaded.document.locales.isEmpty ? "the spec declares none" : loaded.document.locales.joined(separator: ", ")
            throw ValidationError("the spec has no locale '\(locale)' (locales: \(known))\(Suggestion.didYouMean(locale, among: loaded.document.locales))")
        }
        let mermaid = MermaidRenderer.render(loaded, options: DiagramOptions(locale: locale))
        let others = SpecFiles.neighbours(of: [loaded], paths: [spec])
        // The same drawings `generate` writes for this locale (`diagram.<locale>.svg`).
        let suffix = MarkdownRenderer.localeSuffix(locale: locale, defaultLocale: loaded.document.defaultLocale)
        let options = MarkdownOptions(specPath: spec, diagramPath: "diagram\(suffix).svg", mermaid: mermaid,
                                      scenarioDiagramPattern: "scenarios/{id}\(suffix).svg")
        let page = MarkdownRenderer.page(for: loaded, locale: locale ?? loaded.document.defaultLocale,
                                         options: options, others: others)
        let text = page.text
        try writeOutput(Array(text.utf8), to: output)
    }
}
