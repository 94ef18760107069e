import LifeSpec
import LifecycleEngine

/// Renders the Markdown reference page of one spec, in one locale.
///
/// Prose (titles, descriptions, facts, sources) comes from `SpecDocument`; everything about
/// behaviour (what a transition does, what each event does in each state, each scenario's trace)
/// is asked of the engine: `Machine.expand`, `Machine.leaf(entering:)` and `Runner`.
/// The output is deterministic: document order everywhere, no dates, no absolute paths.
package enum MarkdownRenderer {
    /// The page for `options.locale` (default: the spec's default locale).
    package static func render(_ spec: LoadedSpec, options: MarkdownOptions = MarkdownOptions()) -> String {
        MarkdownPageBuilder(spec: spec, options: options).render()
    }

    /// One page per locale the spec declares (one page when it declares none), each linking to the
    /// others. `options.locale` and `options.localeLinks` are set per page; the rest is kept.
    ///
    /// `others` are the specs generated beside this one: the `related:` ones are linked, in the
    /// page's locale where the other spec has it.
    package static func pages(
        for spec: LoadedSpec, options: MarkdownOptions = MarkdownOptions(), others: [LoadedSpec] = []
    ) -> [MarkdownPage] {
        let locales: [String?] = spec.document.locales.isEmpty ? [nil] : spec.document.locales
        return locales.map { page(for: spec, locale: $0, options: options, others: others) }
    }

    /// The page of one locale (`nil` when the spec declares none), exactly as `pages` writes it:
    /// `lifespec docs` prints one page and need not render the others.
    package static func page(
        for spec: LoadedSpec, locale: String?, options: MarkdownOptions = MarkdownOptions(), others: [LoadedSpec] = []
    ) -> MarkdownPage {
        let document = spec.document
        let links = document.locales.map {
            LocaleLink(locale: $0, path: fileName(locale: $0, defaultLocale: document.defaultLocale))
        }
        var pageOptions = options
        pageOptions.locale = locale
        pageOptions.localeLinks = links
        /// Another spec's page in this page's locale where it has one.
        func link(to otherDocument: SpecDocument) -> RelatedPage {
            let otherLocale =
                locale.flatMap { otherDocument.locales.contains($0) ? $0 : nil } ?? otherDocument.defaultLocale
            let title = otherDocument.text(otherDocument.title, locale: otherLocale) ?? otherDocument.id
            let page = fileName(locale: otherLocale, defaultLocale: otherDocument.defaultLocale)
            return RelatedPage(title: title, path: "../\(otherDocument.id)/\(page)")
        }
        for related in document.related {
            guard let other = others.first(where: { $0.document.id == related.id }) else { continue }
            pageOptions.relatedPages[related.id] = link(to: other.document)
        }
        for part in document.parts {
            guard let other = others.first(where: { $0.document.id == part.specID }) else { continue }
            pageOptions.partPages[part.specID] = link(to: other.document)
        }
        // Systems in id order, so the list is the same however the specs were found.
        for other in others.sorted(by: { $0.document.id < $1.document.id }) where other.document.id != document.id {
            let names = other.document.parts.filter { $0.specID == document.id }.map(\.name)
            if !names.isEmpty { pageOptions.usedBy.append(UsedBySystem(page: link(to: other.document), parts: names)) }
        }
        return MarkdownPage(
            locale: locale,
            fileName: fileName(locale: locale, defaultLocale: document.defaultLocale),
            text: render(spec, options: pageOptions)
        )
    }

    /// `README.md` for the default locale (or none), `README.<locale>.md` for the others.
    package static func fileName(locale: String?, defaultLocale: String?) -> String {
        "README\(localeSuffix(locale: locale, defaultLocale: defaultLocale)).md"
    }

    /// What a locale adds to the name of each of its files (pages and diagrams): nothing for the
    /// default locale (or none), `.<locale>` for the others, with anything but ASCII letters,
    /// digits, `-` and `_` replaced so a locale can never leave its folder.
    package static func localeSuffix(locale: String?, defaultLocale: String?) -> String {
        guard let locale, locale != defaultLocale else { return "" }
        return "."
            + String(locale.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }
}

/// Assembles one page. Every spec string goes through `MarkdownText`; the only raw Markdown is
/// the page's own frame and the phrases of `Glossary`.
///
/// A class, not a struct: the sections pass its methods around as closures (`map(code)`,
/// `map(stateName)`), and as a struct each such closure would copy the whole builder (document,
/// machine, indexes). Everything in it is immutable but the timelines it keeps.
final class MarkdownPageBuilder: WordedPage {
    let spec: LoadedSpec
    /// The loader's exploration, when it made one: the matrix of a parallel machine reads its
    /// configurations instead of exploring again.
    let stateSpace: StateSpace?
    let options: MarkdownOptions
    /// Source id → its 1-based number in the Sources list.
    let sourceNumbers: [String: Int]
    /// The sources the page lists: a system page leaves its parts' sources to the parts' pages.
    let sources: [SourceRef]
    /// The transitions that call each callback, and that post each notification directly, in
    /// document order (filtering every transition per callback was quadratic).
    let callers: [String: [Transition]]
    let posters: [String: [Transition]]
    /// The states whose entry or exit calls each callback, in document order (scanning every
    /// state per callback was quadratic).
    let blockCallers: [String: [(state: String, onEntry: Bool)]]
    /// The callbacks that post each notification, in declaration order.
    let postingCallbacks: [String: [LifecycleCallback]]
    /// The words the page shares with the DocC article.
    let words: PageWords
    /// Compact timelines by scenario id: the first scenarios are shown twice (at a glance and
    /// in their walkthrough).
    private var timelines: [String: MarkdownTable?] = [:]

    init(spec: LoadedSpec, options: MarkdownOptions) {
        self.spec = spec
        stateSpace = spec.stateSpace
        self.options = options
        words = PageWords(
            spec: spec, locale: options.locale ?? spec.document.defaultLocale, escape: MarkdownText.inline,
            code: { value in TextOutput.string { MarkdownText.writeCode(value, to: &$0) } })
        var numbers: [String: Int] = [:]
        // A part's sources keep the location in the part's file.
        let sources = spec.document.sources.filter { !spec.document.isSystem || $0.location.path == spec.document.path }
        self.sources = sources
        for (offset, source) in sources.enumerated() where numbers[source.id] == nil {
            numbers[source.id] = offset + 1
        }
        sourceNumbers = numbers
        var callers: [String: [Transition]] = [:]
        var posters: [String: [Transition]] = [:]
        for transition in spec.machine.transitions {
            // Once per transition, however often it names the same callback or notification.
            var called: Set<String> = []
            var posted: Set<String> = []
            for action in transition.actions {
                switch action {
                case .callback(let id): if called.insert(id).inserted { callers[id, default: []].append(transition) }
                case .notify(let id): if posted.insert(id).inserted { posters[id, default: []].append(transition) }
                }
            }
        }
        self.callers = callers
        self.posters = posters
        var blockCallers: [String: [(state: String, onEntry: Bool)]] = [:]
        for state in spec.machine.states {
            for (actions, onEntry) in [(state.entry.actions, true), (state.exit.actions, false)] {
                var called: Set<String> = []
                for case .callback(let id) in actions where called.insert(id).inserted {
                    blockCallers[id, default: []].append((state.id, onEntry))
                }
            }
        }
        self.blockCallers = blockCallers
        var posting: [String: [LifecycleCallback]] = [:]
        for callback in spec.machine.callbacks {
            if let posts = callback.posts { posting[posts.notification, default: []].append(callback) }
        }
        postingCallbacks = posting
    }

    // MARK: Page

    func render() -> String {
        var page = MarkdownBlocks()
        page.add("<!-- generated from \(MarkdownText.comment(specPath)) by lifespec — do not edit -->")
        let top = [indexLink(), localeSwitcher(), explorerLink()].compactMap { $0 }
        if !top.isEmpty { page.add(top.joined(separator: strings.separator)) }
        page.add("# " + MarkdownText.singleLine(title))
        if let summary = text(document.summary) { page.add(contentsOf: MarkdownText.paragraphs(summary)) }
        page.add("> " + strings.generatedNote(spec: code(specPath)))

        // GitHub's anchors, in heading order, so repeated heading texts get their -1, -2 suffixes;
        // the scenarios' anchors follow their section's, and its numbered index links to them.
        var anchors = AnchorRegistry()
        _ = anchors.add(title)
        // What a reader wants first (the drawing and the common sequences), then the walkthroughs,
        // then the reference tables; who uses the spec and its sources last.
        var sections: [(heading: String, anchor: String, body: MarkdownBlocks)] = []
        var glance: Int?
        var scenarioAnchors: [String] = []
        for (heading, section) in [
            (strings.glanceHeading, nil),
            (strings.partsHeading, partsSection),
            (strings.scenariosHeading, nil),
            (strings.statesHeading, statesSection),
            (strings.callbacksHeading, callbacksSection),
            (strings.notificationsHeading, notificationsSection),
            (strings.eventsHeading, eventsSection),
            (strings.flagsHeading, flagsSection),
            (strings.transitionsHeading, transitionsSection),
            (strings.matrixHeading, matrixSection),
            (strings.modellingHeading, modellingSection),
            (strings.usedByHeading, usedBySection),
            (strings.relatedHeading, relatedSection),
            (strings.sourcesHeading, sourcesSection),
        ] as [(String, (() -> MarkdownBlocks)?)] {
            guard let section else {
                if heading == strings.glanceHeading {
                    // Its links go to the walkthroughs' anchors, known once they are registered.
                    glance = sections.count
                    sections.append((heading, anchors.add(heading), MarkdownBlocks()))
                    continue
                }
                guard !document.scenarios.isEmpty else { continue }
                let anchor = anchors.add(heading)
                scenarioAnchors = document.scenarios.map { anchors.add(scenarioTitle($0)) }
                sections.append((heading, anchor, scenariosSection(anchors: scenarioAnchors)))
                continue
            }
            let body = section()
            guard !body.isEmpty else { continue }
            sections.append((heading, anchors.add(heading), body))
        }
        if let glance {
            let body = glanceSection(scenarioAnchors: scenarioAnchors)
            if body.isEmpty {
                sections.remove(at: glance)
            } else {
                sections[glance].body = body
            }
        }

        page.add { output in
            output.write(strings.contentsLead)
            for (offset, section) in sections.enumerated() {
                if offset > 0 { output.write(strings.separator) }
                output.write("[\(section.heading)](#\(section.anchor))")
            }
        }
        for section in sections {
            page.add("## " + section.heading)
            page.add(contentsOf: section.body)
        }
        page.addLines(referenceDefinitions())
        return page.page
    }

    var specPath: String {
        let path = options.specPath ?? document.path
        guard path.hasPrefix("/") else { return path }
        return String(path.split(separator: "/").last ?? "")
    }

    var title: String { text(document.title) ?? document.id }

    /// Back to the index of every spec, in this page's language.
    private func indexLink() -> String? {
        guard let index = options.indexPath else { return nil }
        let path = index + MarkdownRenderer.fileName(locale: locale, defaultLocale: "en")
        return "[← \(MarkdownText.singleLine(strings.indexTitle))](\(MarkdownText.url(path) ?? path))"
    }

    /// "Try it": the explorer page, opening in this page's language.
    private func explorerLink() -> String? {
        guard let path = options.explorerPath, let url = MarkdownText.url(path) else { return nil }
        let opening =
            locale == document.defaultLocale ? "" : locale.map { "#locale=" + MarkdownText.percentEncoded($0) } ?? ""
        return "[▶ \(MarkdownText.singleLine(strings.tryIt))](\(url)\(opening))"
    }

    private func localeSwitcher() -> String? {
        guard options.localeLinks.count > 1 else { return nil }
        return options.localeLinks.map { link in
            let name = MarkdownText.singleLine(Glossary.displayName(of: link.locale))
            if link.locale == locale { return "**\(name)**" }
            return "[\(name)](\(MarkdownText.url(link.path) ?? ""))"
        }.joined(separator: strings.separator)
    }

    private func scenarioTitle(_ scenario: SpecDocument.ScenarioInfo) -> String { text(scenario.title) ?? scenario.id }

    /// GitHub's heading anchor: lowercased, punctuation and symbols dropped, spaces as hyphens.
    /// (Characters in the anchor are letters, digits, `-` and `_`, so it is a safe URL fragment.)
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            })
    }

    /// Anchors of the headings of one page, in order; a repeated anchor gets `-1`, `-2`… like GitHub.
    struct AnchorRegistry {
        private var counts: [String: Int] = [:]

        mutating func add(_ heading: String) -> String {
            let original = MarkdownPageBuilder.anchor(heading)
            var slug = original
            while counts[slug] != nil {
                let next = (counts[original] ?? 0) + 1
                counts[original] = next
                slug = "\(original)-\(next)"
            }
            counts[slug] = 0
            return slug
        }
    }

    // MARK: Sections

    /// The readable drawing, and the most common sequences as compact timelines: the first
    /// scenarios, as the spec lists them (a spec lists its common ones first).
    private func glanceSection(scenarioAnchors: [String]) -> MarkdownBlocks {
        var body = diagramSection()
        let shown = Array(zip(document.scenarios, scenarioAnchors).prefix(Self.glanceScenarios))
        let anchorOf = Dictionary(uniqueKeysWithValues: zip(document.scenarios.map(\.id), scenarioAnchors))
        var intro = false
        for (scenario, anchor) in shown {
            guard let table = timeline(scenario) else { continue }
            if !intro { body.add(strings.glanceSequences) }
            intro = true
            // The same calls can end in different states (Home with and without background work).
            let walkthrough = ScenarioWalkthrough(scenario: scenario, machine: machine)
            let route = strings.fromTo(
                walkthrough.startStates.map(stateName).joined(separator: " + "),
                walkthrough.endStates.map(stateName).joined(separator: " + "))
            body.add(
                "**\(MarkdownText.singleLine(scenarioTitle(scenario)))**" + strings.separator + route
                    + strings.separator
                    + "[\(MarkdownText.singleLine(strings.fullWalkthrough))](#\(anchor))")
            if let note = setUpNote(scenario, anchors: anchorOf) { body.add(note) }
            body.add(table)
        }
        return body
    }

    /// How many scenarios the page opens with.
    static let glanceScenarios = 3

    /// A scenario's compact timeline (one line per call), read off its sequence diagram, without
    /// the set-up another walkthrough shows in full (`setUp(of:)`).
    private func timeline(_ scenario: SpecDocument.ScenarioInfo) -> MarkdownTable? {
        if let known = timelines[scenario.id] { return known }
        let skipping = words.setUp(of: scenario)?.steps ?? 0
        let table = SequenceDiagram(spec: spec, scenario: scenario.id, locale: locale).flatMap {
            CompactTimeline($0, skipping: skipping, strings: strings, escape: MarkdownText.inline, code: code).table
        }
        timelines[scenario.id] = .some(table)
        return table
    }

    /// The sentence that points a walkthrough's skipped set-up to where it is shown in full.
    private func setUpNote(_ scenario: SpecDocument.ScenarioInfo, anchors: [String: String]) -> String? {
        guard let (steps, first) = words.setUp(of: scenario), let anchor = anchors[first.id] else { return nil }
        return "*" + strings.setUpAsIn(steps: steps, "[\(MarkdownText.singleLine(scenarioTitle(first)))](#\(anchor))")
            + "*"
    }

    private func diagramSection() -> MarkdownBlocks {
        var body = MarkdownBlocks()
        if let overview = options.overviewPath.flatMap(MarkdownText.url) {
            body.add("![\(MarkdownText.singleLine(strings.diagramAlt(title: title)))](\(overview))")
            if let full = options.diagramPath.flatMap(MarkdownText.url) { body.add(strings.fullDiagram(full)) }
        } else if let path = options.diagramPath, let url = MarkdownText.url(path) {
            body.add("![\(MarkdownText.singleLine(strings.diagramAlt(title: title)))](\(url))")
        }
        if let mermaid = options.mermaid, !mermaid.isEmpty {
            body.add(
                "<details>\n<summary>\(MarkdownText.singleLine(strings.mermaidSummary))</summary>\n\n"
                    + MarkdownText.fencedBlock(mermaid, language: "mermaid") + "\n\n</details>")
        }
        return body
    }

    private func statesSection() -> MarkdownBlocks {
        guard !machine.states.isEmpty else { return MarkdownBlocks() }
        // Declared facts in their declared order, then any undeclared ones as first written.
        let shownStates = document.states.filter { shows($0.id) }
        var factKeys: [String] = document.facts.map(\.id).filter { key in
            shownStates.contains { $0.facts.contains { $0.key == key } }
        }
        for state in shownStates {
            for fact in state.facts where !factKeys.contains(fact.key) { factKeys.append(fact.key) }
        }
        var table = MarkdownTable(
            [strings.stateColumn, strings.groupColumn, strings.descriptionColumn]
                + factKeys.map { key in MarkdownText.inline(text(document.fact(key)?.title) ?? key) })
        for state in machine.states where shows(state.id) || document.parts.contains(where: { $0.name == state.id }) {
            let info = lookup.state(state.id)
            var label = stateLabel(state.id)
            var markers = strings.markers(of: state, in: machine, code: code)
            if state.isParallel {
                markers.append(
                    strings.parallelOf(machine.regions(of: state.id).map(code).joined(separator: strings.listSeparator))
                )
            }
            if let depth = state.history, let parent = state.parent {
                let fallback =
                    machine.historyDefault(of: state.id)?.targets.map(code).joined(separator: " + ") ?? strings.none
                markers.append(strings.historyOf(deep: depth == .deep, parent: code(parent), fallback: fallback))
            }
            if !state.entry.isEmpty { markers.append(strings.onEntry(actionsText(state.entry))) }
            if !state.exit.isEmpty { markers.append(strings.onExit(actionsText(state.exit))) }
            if !markers.isEmpty { label += "<br/>*" + markers.joined(separator: strings.listSeparator) + "*" }
            let facts = factKeys.map { key in
                info?.facts.first { $0.key == key }.map { factText($0.value) } ?? ""
            }
            table.add(
                [
                    label,
                    state.parent.map(stateLabel) ?? strings.none,
                    described(info?.description, source: info?.source),
                ] + facts)
        }
        if machine.hasParallelRegions {
            // By title, as a reader knows the states; the table beside gives each one's id.
            let initial = machine.defaultLeaves(entering: machine.initial).map(stateName).joined(separator: " + ")
            return MarkdownBlocks(strings.statesIntroParallel(initial: initial), table)
        }
        return MarkdownBlocks(strings.statesIntro(initial: stateName(machine.initialLeaf)), table)
    }

    /// An entry or exit block: its callbacks and notifications in the engine's order, then what it
    /// sets and raises.
    private func actionsText(_ block: ActionBlock) -> String {
        machine.effects(of: block).map { effect in
            switch effect {
            case .callback(let id): callbackName(id)
            case .notification(let id, _): notificationName(id)
            case .assignment(let assignment): code("\(assignment.flag) = \(assignment.value)")
            case .raise(let event): "raise " + code(event)
            }
        }.joined(separator: strings.listSeparator)
    }

    private func callbacksSection() -> MarkdownBlocks {
        guard machine.callbacks.contains(where: { shows($0.id) }) else { return MarkdownBlocks() }
        var table = MarkdownTable([
            strings.methodColumn, strings.notificationColumn, strings.calledWhenColumn,
            strings.purposeColumn, strings.notesColumn,
        ])
        for callback in machine.callbacks where shows(callback.id) {
            let info = lookup.callback(callback.id)
            var method = code(info?.swift ?? callback.swiftName)
            if info?.kind == .closure {
                method = code(lookup.shownName(ofCallback: callback.id, in: machine))
                if let host = info?.passedTo { method += "<br/>" + strings.closurePassedTo(code(host)) }
            }
            if let objc = info?.objc ?? callback.objcName {
                method += "<br/>" + strings.objc(code(objc))
            }
            let notification =
                callback.posts.map { posted in
                    notificationName(posted.notification) + "<br/>" + strings.posted(posted.order)
                } ?? strings.none
            let callers = self.callers[callback.id] ?? []
            // Entry and exit actions call it too.
            let blockCallers = (self.blockCallers[callback.id] ?? []).map {
                $0.onEntry ? strings.entering(stateName($0.state)) : strings.exiting(stateName($0.state))
            }
            let calledWhen =
                callers.isEmpty && blockCallers.isEmpty
                ? "*\(strings.notCalled)*"
                : (words.calledWhen(callers) + blockCallers).joined(separator: "<br/>")
            var purpose: [String] = []
            if let description = text(info?.description) { purpose.append(MarkdownText.inline(description)) }
            if let usage = text(info?.usage) {
                purpose.append("**\(strings.typicalUse)** " + MarkdownText.inline(usage))
            }
            var notes: [String] = []
            if let returns = info?.returns { notes.append(strings.returns(code(returns))) }
            if let limit = info?.timeLimit { notes.append(strings.timeLimit(MarkdownText.inline(limit))) }
            if let deprecation = info?.deprecated {
                var note = "⚠️ " + strings.deprecated(since: deprecation.since.map(MarkdownText.inline))
                if let replacement = deprecation.replacement {
                    note += strings.sentenceSeparator + strings.replacement(code(replacement))
                }
                if let extra = text(deprecation.note) { note += strings.sentenceSeparator + MarkdownText.inline(extra) }
                notes.append(note)
            }
            table.add([
                method, notification, calledWhen,
                joinedOrNone(purpose) + sourceMark(info?.source),
                joinedOrNone(notes),
            ])
        }
        return MarkdownBlocks(strings.callbacksIntro, table)
    }

    private func notificationsSection() -> MarkdownBlocks {
        referenceSection(
            machine.notifications, info: lookup.notification, intro: strings.notificationsIntro,
            columns: [strings.notificationColumn, strings.postedColumn]
        ) { notification, info in
            var name = code(info?.swift ?? notification.swiftName)
            if let objc = info?.objc ?? notification.objcName { name += "<br/>" + strings.objc(code(objc)) }
            var posted: [String] = (postingCallbacks[notification.id] ?? []).compactMap { callback in
                guard let posts = callback.posts else { return nil }
                return strings.postedWith(posts.order, callback: callbackName(callback.id))
            }
            posted += words.calledWhen(posters[notification.id] ?? []).map(strings.postedDirectly)
            return [name, posted.isEmpty ? "*\(strings.neverPosted)*" : posted.joined(separator: "<br/>")]
        }
    }

    /// A reference table of the elements this page lists (see `shows`), a row each, after its
    /// intro; nothing when the page lists none of them. The last column is each element's
    /// description in the document, with its source.
    private func referenceSection<Element: Identifiable<String>, Info: DocumentedElement>(
        _ elements: [Element], info: (String) -> Info?, intro: String, columns: [String],
        row: (Element, Info?) -> [String]
    ) -> MarkdownBlocks {
        let shown = elements.filter { shows($0.id) }
        guard !shown.isEmpty else { return MarkdownBlocks() }
        var table = MarkdownTable(columns + [strings.descriptionColumn])
        for element in shown {
            let info = info(element.id)
            table.add(row(element, info) + [described(info?.description, source: info?.source)])
        }
        return MarkdownBlocks(intro, table)
    }

    /// Walkthroughs name the states each event leaves and enters when that says more than its
    /// transitions: the machine has parallel regions or entry/exit actions.
    private var showsEntryExit: Bool {
        machine.hasParallelRegions || machine.states.contains { !$0.entry.isEmpty || !$0.exit.isEmpty }
    }

    /// The walkthroughs; `anchors` are their headings' anchors, in order, for the numbered index
    /// that follows the introduction when there are several.
    private func scenariosSection(anchors: [String]) -> MarkdownBlocks {
        var body = MarkdownBlocks()
        body.add(strings.scenariosIntro)
        if document.scenarios.count > 1 {
            body.addLines(
                zip(document.scenarios, anchors).enumerated().map { offset, item in
                    "\(offset + 1). [\(MarkdownText.singleLine(scenarioTitle(item.0)))](#\(item.1))"
                })
        }
        let anchorOf = Dictionary(uniqueKeysWithValues: zip(document.scenarios.map(\.id), anchors))
        for scenario in document.scenarios {
            body.add("### " + MarkdownText.singleLine(scenarioTitle(scenario)))
            if let description = text(scenario.description) {
                body.add(contentsOf: MarkdownText.paragraphs(description))
            }
            let walkthrough = ScenarioWalkthrough(scenario: scenario, machine: machine)

            var start = strings.startsIn(walkthrough.startStates.map(stateName).joined(separator: " + "))
            let flags = orderedFlags(walkthrough.flags)
            if !flags.isEmpty { start += strings.with(flags.map { flagWords($0.key, $0.value) }) }
            var header = "*" + start + "*"
            if let pattern = options.scenarioDiagramPattern,
                let url = MarkdownText.url(
                    pattern.replacingOccurrences(of: "{id}", with: MarkdownText.percentEncoded(scenario.id)))
            {
                header += strings.separator + "[\(MarkdownText.singleLine(strings.highlightedDiagram))](\(url))"
            }
            header += sourceMark(scenario.source)
            body.add(header)
            if let pattern = options.sequenceDiagramPattern,
                let url = MarkdownText.url(
                    pattern.replacingOccurrences(of: "{id}", with: MarkdownText.percentEncoded(scenario.id)))
            {
                body.add("![\(MarkdownText.singleLine(strings.sequenceAlt(scenarioTitle(scenario))))](\(url))")
            }
            // What a reader scans: one line per call; then, folded, the steps with their states by
            // titles, and the engine's trace by spec ids.
            if let note = setUpNote(scenario, anchors: anchorOf) { body.add(note) }
            if let table = timeline(scenario) { body.add(table) }
            var stop: String?
            switch walkthrough.stop {
            case .cannotStart(let error):
                stop = strings.cannotRun(MarkdownText.inline(error.description))
            case .failed(let event, .unhandledEvent(_, let state, _)):
                stop = strings.notHandled(event: eventName(event), state: stateName(state))
            case .failed(_, let error):
                stop = strings.cannotRun(MarkdownText.inline(error.description))
            case nil:
                break
            }
            if let stop { body.add(stop) }
            body.add(strings.endsIn(walkthrough.endStates.map(stateName).joined(separator: " + ")))
            body.add("<details>\n<summary>\(MarkdownText.inline(strings.stepByStepSummary))</summary>")
            for block in walkthroughLines(walkthrough, readable: true) { body.addLines(block) }
            body.add("</details>")
            body.add("<details>\n<summary>\(MarkdownText.inline(strings.engineTraceSummary))</summary>")
            var detail = strings.startsIn(walkthrough.startStates.map(code).joined(separator: " + "))
            if !flags.isEmpty {
                detail += strings.withFlags(
                    flags.map { code($0.key) + " = " + code(String($0.value)) }.joined(separator: strings.listSeparator)
                )
            }
            body.add("*" + detail + "*")
            for block in walkthroughLines(walkthrough, readable: false) { body.addLines(block) }
            body.add(strings.endsIn(walkthrough.endStates.map(code).joined(separator: " + ")))
            body.add("</details>")
        }
        return body
    }

    /// A walkthrough's steps: by titles for reading (`readable`), or by spec ids as the engine
    /// traces them, with the states each event leaves and enters where that says more than its
    /// transitions (the machine has parallel regions or entry/exit actions).
    private func walkthroughLines(_ walkthrough: ScenarioWalkthrough, readable: Bool) -> [[String]] {
        let state = readable ? stateName : code
        var start: [String] = []
        // Starting as SCXML does shows what the start itself observed.
        if !walkthrough.startObservations.isEmpty {
            start.append(
                "- "
                    + strings.onStart(
                        walkthrough.startObservations.map(observationText).joined(separator: strings.then)))
        }
        for move in walkthrough.startMoves { start.append("- " + moveText(move, event: "", readable: readable)) }
        var lines: [String] = []
        for (offset, item) in walkthrough.items.enumerated() {
            let marker = "\(offset + 1). "
            let indent = String(repeating: " ", count: marker.count)
            lines.append(marker + (readable ? "**" + eventName(item.event) + "**" : eventLabel(item.event)))
            for move in item.moves {
                lines.append(indent + "- " + moveText(move, event: item.event, readable: readable))
            }
            // The entry and exit actions are among the callbacks listed above.
            let changes = [item.left, item.reentered, item.passedThrough, item.entered]
            guard !readable, showsEntryExit, changes.contains(where: { !$0.isEmpty }) else { continue }
            /// Each state with the actions it ran: its exit actions when leaving, its entry actions
            /// when entering, both when it did both.
            func named(_ states: [String], exits: Bool, entries: Bool) -> String? {
                states.isEmpty
                    ? nil
                    : states.map { id in
                        var actions: [String] = []
                        if exits, let block = machine.state(id)?.exit, !block.isEmpty {
                            actions.append(strings.onExit(actionsText(block)))
                        }
                        if entries, let block = machine.state(id)?.entry, !block.isEmpty {
                            actions.append(strings.onEntry(actionsText(block)))
                        }
                        return actions.isEmpty
                            ? state(id) : state(id) + " (" + actions.joined(separator: strings.listSeparator) + ")"
                    }.joined(separator: strings.listSeparator)
            }
            lines.append(
                indent + "- *"
                    + strings.leavesEnters(
                        left: named(item.left, exits: true, entries: false),
                        reentered: named(item.reentered, exits: true, entries: true),
                        passed: named(item.passedThrough, exits: true, entries: true),
                        entered: named(item.entered, exits: false, entries: true)) + "*")
        }
        return [start, lines].filter { !$0.isEmpty }
    }

    private func eventsSection() -> MarkdownBlocks {
        referenceSection(
            machine.events, info: lookup.event, intro: strings.eventsIntro,
            columns: [strings.eventColumn, strings.kindColumn]
        ) { event, info in
            var label = code(event.id)
            if let title = text(info?.title) { label = "**\(MarkdownText.inline(title))**<br/>" + label }
            return [label, strings.kind(event.kind)]
        }
    }

    private func flagsSection() -> MarkdownBlocks {
        referenceSection(
            machine.flags, info: lookup.flag, intro: strings.flagsIntro,
            columns: [strings.flagColumn, strings.defaultColumn]
        ) { flag, _ in
            [code(flag.id), code(String(flag.defaultValue))]
        }
    }

    private func transitionsSection() -> MarkdownBlocks {
        guard machine.transitions.contains(where: { shows($0.sources.first ?? "") }) else { return MarkdownBlocks() }
        let infos = document.transitions
        let hasDescriptions = infos.contains { text($0.description) != nil || $0.source != nil }
        var headers = [
            strings.numberColumn, strings.fromColumn, strings.eventColumn, strings.guardColumn,
            strings.toColumn, strings.effectsColumn,
        ]
        if hasDescriptions { headers.append(strings.descriptionColumn) }
        var table = MarkdownTable(headers)
        let listSeparator = strings.listSeparator
        for transition in machine.transitions where shows(transition.sources.first ?? "") {
            table.addRow { row in
                row.cell { $0.write(transition.index + 1) }
                row.cell { output in
                    for (offset, source) in transition.sources.enumerated() {
                        if offset > 0 { output.write(listSeparator) }
                        MarkdownText.writeCode(source, to: &output)
                    }
                }
                row.cell { output in
                    if let event = transition.trigger.eventID {
                        MarkdownText.writeCode(event, to: &output)
                    } else {
                        output.write(strings.always)
                    }
                }
                row.cell { output in
                    if let expression = transition.guardExpression {
                        MarkdownText.writeCode(expression.description, to: &output)
                    } else {
                        output.write(strings.none)
                    }
                }
                row.cell { output in
                    guard let target = transition.target else {
                        output.write(strings.stays)
                        return
                    }
                    MarkdownText.writeCode(target, to: &output)
                    // Several targets (one per region).
                    for other in transition.targets.dropFirst() {
                        output.write(" + ")
                        MarkdownText.writeCode(other, to: &output)
                    }
                    let leaf = machine.leaf(entering: target)
                    if leaf != target { output.write("<br/>" + strings.enters(code(leaf))) }
                }
                row.cell { output in
                    // The effects, "<br/>" between them, or "—" for none: the callbacks and
                    // notifications numbered, then what the transition sets, then what it raises.
                    var count = 0
                    func next() {
                        if count > 0 { output.write("<br/>") }
                        count += 1
                    }
                    var assignments: [FlagAssignment] = []
                    var raises: [String] = []
                    for effect in machine.effects(of: transition) {
                        switch effect {
                        case .callback(let id):
                            next()
                            output.write(count)
                            output.write(". ")
                            MarkdownText.writeCode(lookup.shownName(ofCallback: id, in: machine), to: &output)
                        case .notification(let id, _):
                            next()
                            output.write(count)
                            output.write(". ")
                            output.write(strings.notifyPrefix)
                            output.write(byte: UInt8(ascii: " "))
                            MarkdownText.writeCode(machine.notification(id)?.swiftName ?? id, to: &output)
                        case .assignment(let assignment): assignments.append(assignment)
                        case .raise(let event): raises.append(event)
                        }
                    }
                    if !assignments.isEmpty {
                        next()
                        output.write(
                            strings.sets(
                                assignments.map { code($0.flag) + " = " + code(String($0.value)) }.joined(
                                    separator: listSeparator)))
                    }
                    if !raises.isEmpty {
                        next()
                        output.write(strings.raises(raises.map(code).joined(separator: listSeparator)))
                    }
                    if count == 0 { output.write(strings.none) }
                }
                if hasDescriptions {
                    let info = lookup.transition(transition.index)
                    row.cell(described(info?.description, source: info?.source))
                }
            }
        }
        return MarkdownBlocks(strings.transitionsIntro, table)
    }

    private func matrixSection() -> MarkdownBlocks { words.matrixSection(stateSpace: stateSpace, lineBreak: "<br/>") }

    /// Whether a table of the page lists the element: a system page lists its own, and leaves each
    /// part's states, events, callbacks, flags and transitions to the part's page.
    private func shows(_ id: String) -> Bool { !document.isSystem || document.part(of: id) == nil }

    /// A system's parts, each linked to its own page.
    private func partsSection() -> MarkdownBlocks {
        guard document.isSystem else { return MarkdownBlocks() }
        let items = document.parts.map { part -> String in
            var item = "- **\(MarkdownText.inline(part.name))**"
            if let title = text(part.title) { item += " — " + MarkdownText.inline(title) }
            let page = options.partPages[part.specID]
            if let page, let url = MarkdownText.url(page.path) {
                item += strings.colon + "[\(MarkdownText.inline(page.title))](\(url))"
                // Its own diagram beside its page, in the same locale (`README.zh-Hans.md`, `diagram.zh-Hans.svg`).
                let diagramPath =
                    page.path.hasSuffix(".md")
                    ? String(page.path.dropLast(3)).replacingOccurrences(of: "/README", with: "/diagram") + ".svg" : nil
                if let diagram = diagramPath.flatMap(MarkdownText.url) {
                    item += strings.parenthesized(strings.partDiagram(diagram))
                }
            } else {
                item += strings.colon + code(part.specID)
            }
            if let description = text(part.description) { item += ". " + MarkdownText.inline(description) }
            return item
        }
        // Examples of the first part's own names, as the tables and traces spell them.
        let prefix = document.parts[0].prefix
        let examples = [
            machine.leafStates.first { $0.id.hasPrefix(prefix) }?.id,
            // A call the whole app's object receives is named by that object, not the part.
            machine.callbacks.first { $0.id.hasPrefix(prefix) && document.sharedReceivers[$0.id] == nil }?.swiftName,
        ]
        return MarkdownBlocks(
            strings.partsIntro(examples: examples.compactMap { $0 }.map(code).joined(separator: strings.listSeparator)),
            lines: items)
    }

    /// The choices the spec makes where Apple leaves room, apart from what Apple says.
    private func modellingSection() -> MarkdownBlocks { words.modellingSection(sourceMark: sourceMark) }

    /// The system specs that include this one as a part.
    private func usedBySection() -> MarkdownBlocks {
        guard !options.usedBy.isEmpty else { return MarkdownBlocks() }
        let items = options.usedBy.map { user -> String in
            let link =
                MarkdownText.url(user.page.path).map { "[\(MarkdownText.inline(user.page.title))](\($0))" }
                ?? MarkdownText.inline(user.page.title)
            return "- " + link + strings.asParts(user.parts.map(code).joined(separator: strings.listSeparator))
        }
        return MarkdownBlocks(strings.usedByIntro, lines: items)
    }

    private func relatedSection() -> MarkdownBlocks {
        guard !document.related.isEmpty else { return MarkdownBlocks() }
        let items = document.related.map { related -> String in
            let page = options.relatedPages[related.id]
            var item = "- "
            if let page, let url = MarkdownText.url(page.path) {
                item += "[\(MarkdownText.inline(page.title))](\(url))"
            } else {
                item += code(related.id)
            }
            if let description = text(related.description) { item += " — " + MarkdownText.inline(description) }
            return item
        }
        return MarkdownBlocks(lines: items)
    }

    private func sourcesSection() -> MarkdownBlocks {
        guard !sources.isEmpty else { return MarkdownBlocks() }
        let items = sources.enumerated().map { offset, source in
            let name = MarkdownText.inline(text(source.title) ?? source.id)
            if let url = MarkdownText.url(source.url) { return "\(offset + 1). [\(name)](\(url))" }
            return "\(offset + 1). \(name) — \(code(source.url))"
        }
        return MarkdownBlocks(lines: items)
    }

    /// `[src-N]: url` for every source the page cites with a reference link.
    private func referenceDefinitions() -> [String] {
        sources.enumerated().compactMap { offset, source -> String? in
            guard sourceNumbers[source.id] == offset + 1, let url = MarkdownText.url(source.url) else { return nil }
            return "[src-\(offset + 1)]: \(url)"
        }
    }

    // MARK: Pieces

    private func code(_ string: String) -> String { TextOutput.string { MarkdownText.writeCode(string, to: &$0) } }

    private func stateLabel(_ id: String) -> String {
        guard let title = text(lookup.state(id)?.title) else { return code(id) }
        return "**\(MarkdownText.inline(title))**<br/>" + code(id)
    }

    private func callbackName(_ id: String) -> String { words.callbackName(id) }
    private func notificationName(_ id: String) -> String { words.notificationName(id) }

    private func eventLabel(_ id: String) -> String {
        guard let title = text(lookup.event(id)?.title) else { return "**" + code(id) + "**" }
        return strings.labelled(MarkdownText.inline(title), id: code(id))
    }

    private func observationText(_ observation: Observation) -> String { words.observation(observation) }
    private func stateName(_ id: String) -> String { words.stateName(id) }
    private func eventName(_ id: String) -> String { words.eventName(id) }
    private func flagWords(_ id: String, _ value: Bool) -> String { words.flagWords(id, value) }

    private func moveText(_ move: ScenarioWalkthrough.Move, event: String, readable: Bool) -> String {
        words.move(move, event: event, readable: readable)
    }

    private func factText(_ value: FactValue) -> String {
        switch value {
        case .bool(let flag): flag ? strings.yes : strings.no
        case .number(let number): MarkdownText.inline(number)
        case .text(let localized): text(localized).map(MarkdownText.inline) ?? ""
        }
    }

    /// Description text plus its source mark, or "—".
    private func described(_ description: LocalizedText?, source: String?) -> String {
        strings.described(text(description).map(MarkdownText.inline), mark: sourceMark(source))
    }

    /// ` [n]` linking to the cited source, or "" when there is none (or it is unknown).
    private func sourceMark(_ id: String?) -> String {
        guard let id, let number = sourceNumbers[id] else { return "" }
        let source = sources[number - 1]
        guard MarkdownText.url(source.url) != nil else {
            return " [&#91;\(number)&#93;](#\(Self.anchor(strings.sourcesHeading)))"
        }
        return " [&#91;\(number)&#93;][src-\(number)]"
    }

    private func joinedOrNone(_ parts: [String]) -> String {
        parts.isEmpty ? strings.none : parts.joined(separator: "<br/>")
    }

    /// Scenario flags in declaration order (unknown ones after, sorted), so output is stable.
    private func orderedFlags(_ flags: [String: Bool]) -> [(key: String, value: Bool)] {
        let declared = machine.flags.compactMap { flag in flags[flag.id].map { (key: flag.id, value: $0) } }
        let unknown = flags.keys.filter { machine.flag($0) == nil }.sorted().map { (key: $0, value: flags[$0]!) }
        return declared + unknown
    }
}
