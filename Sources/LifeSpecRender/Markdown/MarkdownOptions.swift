/// How `MarkdownRenderer` renders one page. Each option is a property with its default beside it,
/// set by name, as `DiagramOptions`'s are; only the locale is an initializer argument.
package struct MarkdownOptions: Sendable, Hashable {
    /// The page's locale: fixed phrases come from `Glossary`, spec text from its localized
    /// maps, both falling back to the spec's default locale (English for the phrases). `nil` means
    /// the spec's default locale.
    package var locale: String?
    /// The spec path shown in the "generated from" line, as given (keep it relative, e.g.
    /// `Spec/ios-app-lifecycle.yaml`). `nil` uses `LoadedSpec.path`. An absolute path is cut to its
    /// file name so no machine path leaks into the page.
    package var specPath: String?
    /// Relative link to the rendered diagram; `nil` leaves the image out.
    package var diagramPath: String? = "diagram.svg"
    /// The drawing a reader sees first, readable at a page's width (`overview.svg`); the page then
    /// links to `diagramPath`, the full detail. `nil`: the page shows `diagramPath` first.
    package var overviewPath: String?
    /// Mermaid source to embed (from the Mermaid renderer); `nil` leaves the block out.
    package var mermaid: String?
    /// Relative link to a scenario's highlighted diagram; `{id}` is replaced by the scenario id
    /// (percent-encoded). `nil` leaves the links out.
    package var scenarioDiagramPattern: String? = "scenarios/{id}.svg"
    /// Relative link to a scenario's sequence diagram, shown in its walkthrough; `{id}` as above.
    /// `nil` leaves them out.
    package var sequenceDiagramPattern: String?
    /// The locale variants of this page, in the order to list them (this page's own locale
    /// included, shown unlinked). Empty or a single entry: no language switcher.
    package var localeLinks: [LocaleLink] = []
    /// Pages of the specs this one names under `related:`, by spec id; an id without a page is
    /// listed unlinked.
    package var relatedPages: [String: RelatedPage] = [:]
    /// A system page's links to its parts' pages, by spec id; a part without a page is listed unlinked.
    package var partPages: [String: RelatedPage] = [:]
    /// The folder of the index of every spec (`MarkdownIndexRenderer`), relative to the page
    /// (`../`); the page links back to the index in its own language. `nil`: no link.
    package var indexPath: String?
    /// The spec's explorer page (`explorer.html`), relative to the page; `nil`: no "Try it" link.
    package var explorerPath: String?
    /// The system specs that include this spec as parts (a "Used by" section).
    package var usedBy: [UsedBySystem] = []

    package init(locale: String? = nil) { self.locale = locale }
}

/// Another spec's page, as this page links to it.
package struct RelatedPage: Sendable, Hashable {
    package var title: String
    /// Relative to this page, e.g. `../ios-app-lifecycle/README.md`.
    package var path: String
}

/// A system spec that includes this one, and under which part names.
package struct UsedBySystem: Sendable, Hashable {
    package var page: RelatedPage
    package var parts: [String]
}

/// One locale variant of a page and the relative path it lives at.
package struct LocaleLink: Sendable, Hashable {
    package var locale: String
    package var path: String
}

/// A rendered page and the file name it should be written to inside `Output/<spec-id>/`.
package struct MarkdownPage: Sendable, Hashable {
    /// The page's locale (`nil` when the spec declares no locales).
    package let locale: String?
    /// `README.md` for the default locale, `README.<locale>.md` for the others.
    package let fileName: String
    package let text: String
}
