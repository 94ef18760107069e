import LifeSpec
import LifecycleEngine

/// `lifespec explore` and `Output/<id>/explorer.html`: one self-contained HTML page (script,
/// styles and drawings inline, no network request) that walks the engine's `ExplorerGraph` of a
/// spec. Pure: the loaded spec, its graph and its drawings in, the page's bytes out, the same bytes
/// on every run.
///
/// The page's testable contract (README, "The explorer"): `#lifespec-explorer[data-configuration]`,
/// `button[data-event]`, `ol#lifespec-log > li[data-name]`, `button#lifespec-reset`,
/// `#events=` in the URL, `textarea#lifespec-trace-input`, `button#lifespec-check-trace`,
/// `#lifespec-trace-result[data-conforms][data-line]`, `[data-locale]`.
package enum ExplorerPage {
    /// The largest page `generate` writes for the specs of `Spec/` (measured: README, "The explorer").
    package static let sizeBudget = 2_000_000

    /// The file name beside a spec's other outputs.
    package static let fileName = "explorer.html"

    /// The whole page for `lifespec explore`: the engine's graph, the drawings, the page.
    package static func page(for spec: LoadedSpec, locale: String? = nil) throws -> [UInt8] {
        fitted(spec: spec, drawings: try drawings(for: spec), locale: locale).bytes
    }

    /// The page within `sizeBudget`: explored up to `ExplorerGraph.defaultNodeLimit` configurations,
    /// and explored again with half as many while the page is larger than the budget (it then says
    /// what it left out).
    package static func fitted(
        spec: LoadedSpec, drawings: [(locale: String?, svg: [UInt8])], locale: String? = nil
    ) -> (bytes: [UInt8], graph: ExplorerGraph) {
        var limit = ExplorerGraph.defaultNodeLimit
        while true {
            let graph = ExplorerGraph(spec: spec, nodeLimit: limit)
            let bytes = render(spec: spec, graph: graph, drawings: drawings, locale: locale)
            if bytes.count <= sizeBudget || limit <= 16 { return (bytes, graph) }
            limit /= 2
        }
    }

    /// The drawing the page highlights: a single lifecycle's overview (every state is a node, and
    /// it is readable at the pane's width); a system's full diagram, whose parts' states the page
    /// must light up (its overview draws each part as one box).
    package static func drawingOptions(for spec: LoadedSpec) -> DiagramOptions {
        spec.document.isSystem ? DiagramOptions() : .pageOverview
    }

    /// The spec's drawing (`drawingOptions`) in each of its locales (SVG), drawn in-process by
    /// Graphviz; none when the machine is too large to draw whole.
    package static func drawings(for spec: LoadedSpec) throws -> [(locale: String?, svg: [UInt8])] {
        var options = drawingOptions(for: spec)
        let plan = DiagramBuilder.plan(for: spec, options: options)
        guard !plan.isRefused, plan.effectiveDetail == options.detail else { return [] }
        var result: [(locale: String?, svg: [UInt8])] = []
        for locale in locales(of: spec) {
            options.locale = locale
            let dot = try DiagramBuilder.build(for: spec, options: options).dot
            result.append((locale, try GraphvizRenderer.shared.render(dot: dot, format: .svg)))
        }
        return result
    }

    /// The locales the page switches between: the spec's, else its one unnamed language.
    package static func locales(of spec: LoadedSpec) -> [String?] {
        spec.document.locales.isEmpty ? [nil] : spec.document.locales
    }

    /// The page. `drawings`: the overview per locale (from `drawings(for:)`, or the committed
    /// drawings when they are fresh); `locale`: the language it opens in (default: the spec's).
    package static func render(
        spec: LoadedSpec, graph: ExplorerGraph, drawings: [(locale: String?, svg: [UInt8])], locale: String? = nil
    ) -> [UInt8] {
        let document = spec.document
        let locales = locales(of: spec)
        let opening = locale ?? document.defaultLocale
        let strings = Glossary(locale: opening)
        var output = TextOutput(capacity: 1 << 16)
        output.write("<!DOCTYPE html>\n<html lang=\"")
        html(strings.explorerLanguageTag, to: &output)
        output.write("\">\n<head>\n<meta charset=\"utf-8\">\n")
        // Nothing may be fetched: the policy refuses every request but the page's own inline parts.
        output.write(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
        )
        output.write("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
        html(strings.explorerTitle(document.text(document.title, locale: opening) ?? document.id), to: &output)
        output.write("</title>\n<style>\n")
        output.write(ExplorerScript.style)
        output.write("</style>\n</head>\n<body>\n")
        output.write("<div id=\"lifespec-explorer\" data-configuration=\"")
        html(
            graph.nodes.isEmpty
                ? ""
                : graph.nodes[graph.start.node].active.map { spec.machine.states[$0].id }.joined(
                    separator: " "), to: &output)
        output.write("\">\n<header><h1 id=\"lifespec-title\">")
        html(strings.explorerTitle(document.text(document.title, locale: opening) ?? document.id), to: &output)
        output.write("</h1><nav class=\"locales\">")
        for candidate in locales {
            let name = Glossary(locale: candidate).explorerTable.first { $0.0 == "languageName" }?.1 ?? ""
            output.write("<button type=\"button\" data-locale=\"")
            html(candidate ?? "", to: &output)
            output.write("\">")
            html(name, to: &output)
            output.write("</button>")
        }
        output.write("</nav></header>\n")
        // An overview opens fitted to the pane, which its type is sized for; a system's full
        // diagram opens at its size, scrolled to what is active.
        output.write(
            drawingOptions(for: spec).detail == .overview
                ? ExplorerScript.body.replacingOccurrences(
                    of: "<div id=\"lifespec-drawing\"></div>", with: "<div id=\"lifespec-drawing\" class=\"fit\"></div>"
                )
                : ExplorerScript.body)
        output.write("</div>\n")
        for (offset, drawing) in drawings.enumerated() {
            output.write("<template class=\"lifespec-drawing\" data-drawing-locale=\"")
            html(drawing.locale ?? "", to: &output)
            output.write("\" data-drawing=\"\(offset)\">")
            output.write(svgElement(drawing.svg))
            output.write("</template>\n")
        }
        output.write("<script id=\"lifespec-data\" type=\"application/json\">")
        data(spec: spec, graph: graph, locales: locales, opening: opening).write(to: &output, scriptSafe: true)
        output.write("</script>\n<script>\n")
        output.write(ExplorerScript.script)
        output.write("</script>\n</body>\n</html>\n")
        return output.bytes
    }

    /// The `<svg>` element of Graphviz's SVG document, without the XML declaration, doctype and
    /// comments before it.
    static func svgElement(_ svg: [UInt8]) -> String {
        let text = String(decoding: svg, as: UTF8.self)
        guard let start = text.range(of: "<svg") else { return "" }
        return String(text[start.lowerBound...]).trimmingTrailingNewlines
    }

    /// HTML text and attribute values (always double-quoted).
    static func html(_ text: String, to output: inout TextOutput) { HTMLText.write(text, to: &output) }

    /// Everything the script reads: texts per locale, the graph, the scenarios, the log vocabulary.
    static func data(spec: LoadedSpec, graph: ExplorerGraph, locales: [String?], opening: String?) -> JSONValue {
        let document = spec.document
        let machine = spec.machine
        func localized(_ text: LocalizedText?, _ fallback: String) -> JSONValue {
            .object(locales.map { ($0 ?? "", .string(document.text(text, locale: $0) ?? fallback)) })
        }
        func localizedString(_ make: (String?) -> String) -> JSONValue {
            .object(locales.map { ($0 ?? "", .string(make($0))) })
        }
        // Observations: every callback, then every notification, as the log and the vocabulary name them.
        var observations: [Observation] = machine.callbacks.map { .callback($0.id) }
        observations += machine.notifications.map { .notification($0.id) }
        var observationIndex: [Observation: Int] = [:]
        for (offset, observation) in observations.enumerated() { observationIndex[observation] = offset }
        // The object a call goes to or a notification comes from: an app-wide object, a part (by
        // its title), in a single-object spec the object `simulate --json` names
        // (`SpecDocument.traceReceiver(ofCallback:)`, `poster(ofNotification:)`), else the spec's
        // object by its title.
        func receiver(_ id: String, callback: Bool, locale: String?) -> String {
            if let shared = document.sharedReceivers[id] { return shared }
            if let part = document.part(of: id) {
                return document.text(part.title ?? part.specTitle, locale: locale) ?? part.name
            }
            if let object = callback ? document.traceReceiver(ofCallback: id) : document.poster(ofNotification: id) {
                return object
            }
            return document.text(document.title, locale: locale) ?? document.id
        }
        // The group check-trace judges it in without --observe (its receiver's callbacks, or notifications).
        let groups = TraceCheck.observationGroups(machine: machine, document: document)
        let observationItems = observations.map { observation -> JSONValue in
            switch observation {
            case .callback(let id):
                .array([
                    .string("c"), .string(id), .string(machine.callback(id)?.swiftName ?? id),
                    localizedString { receiver(id, callback: true, locale: $0) }, .int(groups[observation] ?? 0),
                ])
            case .notification(let id):
                .array([
                    .string("n"), .string(id), .string(machine.notification(id)?.swiftName ?? id),
                    localizedString { receiver(id, callback: false, locale: $0) }, .int(groups[observation] ?? 0),
                ])
            }
        }
        let vocabulary = TraceVocabulary(machine: machine)
        let vocabularyItems = vocabulary.knownNames.map { name -> (String, JSONValue) in
            (name, .array(vocabulary.observations(named: name).compactMap { observationIndex[$0] }.map(JSONValue.int)))
        }
        // In a system, the part each state and event belongs to (a position in `parts`, or -1).
        let parts = document.parts.map { part -> JSONValue in
            .array([.string(part.name), localized(part.title ?? part.specTitle, part.name)])
        }
        func partIndex(_ id: String) -> Int {
            guard let part = document.part(of: id) else { return -1 }
            return document.parts.firstIndex { $0.name == part.name } ?? -1
        }
        let states = machine.states.map { state -> JSONValue in
            let atomic = state.isLeaf
            let short = state.id.split(separator: ".").last.map(String.init) ?? state.id
            return .array([
                .string(state.id), .bool(atomic), localized(document.state(state.id)?.title, short),
                .int(partIndex(state.id)),
            ])
        }
        let declared = Set(document.events.map(\.id))
        // In a system, the events its own transitions raise (its parts' and its own): the page
        // offers them apart, so that the events a person or the app sends come first.
        let raisedBySystem =
            document.isSystem
            ? Set(
                machine.transitions.filter { $0.sources.allSatisfy { document.part(of: $0) == nil } }.flatMap(\.raises))
            : []
        let events = machine.events.map { event -> JSONValue in
            .array([
                .string(event.id), localized(document.event(event.id)?.title, event.id),
                .bool(declared.contains(event.id) || document.events.isEmpty), .int(partIndex(event.id)),
                .bool(raisedBySystem.contains(event.id)),
            ])
        }
        let flags = machine.flags.map { flag -> JSONValue in
            .array([.string(flag.id), localized(document.flag(flag.id)?.title, flag.id)])
        }
        let nodes = graph.nodes.map { node -> JSONValue in
            var edges: [JSONValue] = []
            if node.isExpanded {
                // Only the events the engine takes, as (event, next node, sequence): most are refused.
                for (event, edge) in node.edges.enumerated() {
                    if let edge { edges += [.int(event), .int(edge.target), .int(edge.sequence)] }
                }
            }
            return .array([
                .array(node.active.map(JSONValue.int)),
                .string(String(node.flagValues.map { $0 ? "1" : "0" })),
                node.isExpanded ? .array(edges) : .null,
            ])
        }
        let sequences = graph.sequences.map { sequence in
            JSONValue.array(sequence.compactMap { observationIndex[$0] }.map(JSONValue.int))
        }
        var scenarios: [JSONValue] = []
        for (scenario, start) in zip(document.scenarios, graph.scenarioStarts) {
            guard let start else { continue }
            let eventPositions = scenario.events.compactMap { id in machine.events.firstIndex { $0.id == id } }
            guard eventPositions.count == scenario.events.count else { continue }
            scenarios.append(
                .array([
                    .string(scenario.id), localized(scenario.title, scenario.id), .int(start.node),
                    .int(start.sequence), .array(eventPositions.map(JSONValue.int)),
                ]))
        }
        let texts = locales.map { locale -> (String, JSONValue) in
            let strings = Glossary(locale: locale)
            return (
                locale ?? "",
                .object(
                    [
                        (
                            "title",
                            .string(strings.explorerTitle(document.text(document.title, locale: locale) ?? document.id))
                        ),
                        ("language", .string(strings.explorerLanguageTag)),
                    ] + strings.explorerTable.map { ($0.0, JSONValue.string($0.1)) })
            )
        }
        return .object([
            ("id", .string(document.id)),
            ("locales", .array(locales.map { .string($0 ?? "") })),
            ("locale", .string(opening ?? locales.first.flatMap { $0 } ?? "")),
            ("texts", .object(texts)),
            ("parts", .array(parts)),
            ("states", .array(states)),
            ("events", .array(events)),
            ("flags", .array(flags)),
            ("observations", .array(observationItems)),
            ("sequences", .array(sequences)),
            ("nodes", .array(nodes)),
            ("start", .array([.int(graph.start.node), .int(graph.start.sequence)])),
            ("scenarios", .array(scenarios)),
            ("traceStarts", .array(graph.traceStarts.map(JSONValue.int))),
            ("vocabulary", .object(vocabularyItems)),
            ("complete", .bool(graph.isComplete)),
            ("reachableComplete", .bool(graph.isReachableComplete)),
            ("configurationCount", .int(graph.nodes.count { $0.isExpanded })),
        ])
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var result = self
        while result.last == "\n" { result.removeLast() }
        return result
    }
}
