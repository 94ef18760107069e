import ArgumentParser
import LifeSpec
import LifeSpecRender

struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Write a spec's explorer: one self-contained HTML page to click through the lifecycle.",
        discussion: """
            The page embeds the spec's drawing and the engine's configurations and steps: events as \
            buttons (enabled when the engine handles them), the callbacks and notifications of each \
            step, scenarios, back and reset, #events=a,b,c in the URL, and a check of a pasted log \
            with check-trace's verdict. It fetches nothing. `generate` writes Output/<id>/explorer.html.
            """
    )

    @OptionGroup var input: SpecFileArgument

    @Option(help: "The language the page opens in (default: the spec's first locale); it switches between all of them.")
    var locale: String?

    @OptionGroup var destination: OutputFileOption

    func run() throws {
        let loaded = try loadValidSpec(input.spec)
        try requireLocale(locale, in: loaded)
        try writeOutput(ExplorerPage.page(for: loaded, locale: locale), to: destination.output)
    }
}
