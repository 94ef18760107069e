import Dispatch
import LifeSpec
import LifeSpecRender

/// Everything `lifespec generate` produces. Files go to a sink as they are made; `generate`
/// stages them on disk (`OutputStage`) and moves them into place only once every piece has
/// succeeded, so a failure anywhere leaves `Output/` as it was.
///
/// The work is split into independent pieces (a spec's pages, its diagram, each scenario's
/// diagram, …) run on every core. Graphviz runs one layout at a time (`GraphvizRenderer`), so the
/// gain is everything around it — building DOT, encoding PNG, writing Markdown — which overlaps
/// the layouts. Each file's bytes depend only on the specs, never on which piece ran first.
package enum Generator {
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let diagnostics: [Diagnostic]
        package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    }

    /// The suites, one file per spec, relative to the suites directory (the test target that
    /// compiles them), kept apart from `Output/` so each exists once.
    package static func suites(for specs: [LoadedSpec]) -> [GeneratedFile] {
        specs.map {
            GeneratedFile(path: SwiftSuiteRenderer.fileName(for: $0), text: SwiftSuiteRenderer.render(spec: $0))
        }
    }

    /// The files for every spec, plus the index. Paths are relative to the output directory.
    package static func files(for specs: [LoadedSpec]) throws(Failure) -> [GeneratedFile] {
        try collect { sink throws(StreamError) in try generate(specs, others: specs, index: true, into: sink) }
    }

    /// One spec's files under `<id>/`.
    package static func files(for spec: LoadedSpec, others: [LoadedSpec] = []) throws(Failure) -> [GeneratedFile] {
        try files(for: [spec], others: others)
    }

    /// The files of each of `specs` under `<id>/`, without the index. `others` are the specs their
    /// pages may link to. Each spec that cannot be drawn gives one diagnostic.
    package static func files(for specs: [LoadedSpec], others: [LoadedSpec]) throws(Failure) -> [GeneratedFile] {
        try collect { sink throws(StreamError) in try generate(specs, others: others, index: false, into: sink) }
    }

    /// Why a streamed generate stopped: a spec could not be generated, or the sink failed.
    package enum StreamError: Error {
        case failure(Failure)
        case sink(any Error)
    }

    /// Hands every file to `sink` as soon as it is made, from several threads at once, so a large
    /// machine's output never has to be in memory all together (`OutputStage` writes each to a
    /// temporary file). With `index`, `README.md` (the index of `others`) comes too. Once a piece
    /// has failed nothing more is handed over, but every piece still runs, so the diagnostics are
    /// the same on every run (each failing spec's first failure); the caller discards what it got.
    ///
    /// With `freshness`, a drawing whose file on disk is fresh (see `DrawingFreshness`) is not drawn
    /// again: its bytes on disk are handed over as they are.
    package static func generate(
        _ specs: [LoadedSpec], others: [LoadedSpec], index: Bool, freshness: DrawingFreshness? = nil,
        into sink: @escaping @Sendable (GeneratedFile) throws -> Void
    ) throws(StreamError) {
        var unique: [LoadedSpec] = []
        var diagnostics: [Diagnostic] = []
        var ids: [String: String] = [:]
        for spec in specs {
            if let other = ids.updateValue(spec.path, forKey: spec.document.id) {
                diagnostics.append(
                    .error(
                        .duplicateID,
                        "spec id '\(spec.document.id)' is also used by \(other); each spec needs its own Output/<id>/",
                        at: SourceLocation(path: spec.path, line: 1, column: 1)))
                continue
            }
            unique.append(spec)
        }
        guard diagnostics.isEmpty else { throw .failure(Failure(diagnostics: diagnostics)) }
        let pieces = unique.flatMap { work(for: $0, others: others, linksIndex: index, freshness: freshness) }
        struct Outcome {
            var failures: [Int: Failure] = [:]
            var sinkError: (any Error)?
            var stopped: Bool { !failures.isEmpty || sinkError != nil }
        }
        let outcome = Locked(Outcome())
        DispatchQueue.concurrentPerform(iterations: pieces.count) { index in
            do throws(Failure) {
                try pieces[index].make { file in
                    guard !outcome.withLock(\.stopped) else { return }
                    do {
                        try sink(file)
                    } catch {
                        outcome.withLock { if $0.sinkError == nil { $0.sinkError = error } }
                    }
                }
            } catch {
                outcome.withLock { $0.failures[index] = error }
            }
        }
        let result = outcome.withLock { $0 }
        if let error = result.sinkError { throw .sink(error) }
        if !result.failures.isEmpty {
            // The first failure of a spec says it; its other diagrams usually fail the same way.
            var failedSpecs: Set<String> = []
            for (index, failure) in result.failures.sorted(by: { $0.key < $1.key })
            where failedSpecs.insert(pieces[index].specPath).inserted {
                diagnostics += failure.diagnostics
            }
            throw .failure(Failure(diagnostics: diagnostics))
        }
        if index {
            // The index in every language the pages are in, each linking to the others.
            let locales = MarkdownIndexRenderer.locales(of: others)
            do {
                for locale in locales {
                    try sink(
                        GeneratedFile(
                            path: MarkdownIndexRenderer.fileName(locale: locale),
                            text: MarkdownIndexRenderer.render(others, locale: locale, locales: locales)))
                }
            } catch {
                throw .sink(error)
            }
        }
    }

    /// Runs a streamed generate into an array, in path order.
    private static func collect(
        _ body: (@escaping @Sendable (GeneratedFile) throws -> Void) throws(StreamError) -> Void
    ) throws(Failure) -> [GeneratedFile] {
        let files = Locked([GeneratedFile]())
        do {
            try body { file in files.withLock { $0.append(file) } }
        } catch {
            switch error {
            case .failure(let failure): throw failure
            case .sink: preconditionFailure("appending to an array cannot fail")
            }
        }
        return files.withLock { $0 }.sorted { $0.path < $1.path }
    }

    /// One independent piece of a spec's output. `make` hands each file over as soon as it is made
    /// (the drawings' SVGs are written while their bitmap is still being encoded).
    private struct Piece: Sendable {
        let specPath: String
        let make: @Sendable (_ emit: (GeneratedFile) -> Void) throws(Failure) -> Void
    }

    private static func work(
        for spec: LoadedSpec, others: [LoadedSpec], linksIndex: Bool, freshness: DrawingFreshness?
    ) -> [Piece] {
        let folder = spec.document.id
        let location = SourceLocation(path: spec.path, line: 1, column: 1)
        let options = DiagramOptions()
        @Sendable func piece(_ make: @escaping @Sendable () throws -> [GeneratedFile]) -> Piece {
            piece(emitting: { emit in for file in try make() { emit(file) } })
        }
        @Sendable func piece(emitting make: @escaping @Sendable ((GeneratedFile) -> Void) throws -> Void) -> Piece {
            Piece(specPath: spec.path) { emit throws(Failure) in
                do {
                    try make(emit)
                } catch let error as DiagramError {
                    throw Failure(diagnostics: [
                        .error(.renderFailed, "cannot draw the diagram: \(error)", at: location)
                    ])
                } catch {
                    throw Failure(diagnostics: [
                        .error(.renderFailed, "cannot render the diagram: \(error)", at: location)
                    ])
                }
            }
        }
        // Too large for Graphviz to draw whole: one diagram per top-level group instead, and the
        // page leaves the whole-machine image out (the Mermaid text is still there).
        let drawnWhole = !DiagramBuilder.plan(for: spec, options: options).isRefused
        // The page's first drawing, readable at its width (OverviewTests); drawn only at its own detail.
        let overviewOptions = DiagramOptions.pageOverview
        let overviewPlan = DiagramBuilder.plan(for: spec, options: overviewOptions)
        let overviewDrawn = !overviewPlan.isRefused && overviewPlan.effectiveDetail == .overview
        var pieces: [Piece] = []

        // Every locale gets its own drawings, in its own words: `diagram.svg` and
        // `scenarios/<id>.svg` for the default locale, `diagram.<locale>.svg` and
        // `scenarios/<id>.<locale>.svg` for the others; each page embeds its locale's.
        let locales: [String?] = spec.document.locales.isEmpty ? [nil] : spec.document.locales
        @Sendable func suffix(_ locale: String?) -> String {
            MarkdownRenderer.localeSuffix(locale: locale, defaultLocale: spec.document.defaultLocale)
        }

        // Mermaid and the reference pages, one per locale, each embedding the Mermaid diagram in
        // its own language (as `lifespec docs --locale` does).
        pieces.append(
            piece {
                let mermaid = MermaidRenderer.render(spec, options: options)
                var files = [GeneratedFile(path: "\(folder)/diagram.mmd", text: mermaid)]
                for locale in locales {
                    let localized =
                        locale == nil || locale == spec.document.defaultLocale
                        ? mermaid
                        : MermaidRenderer.render(spec, options: DiagramOptions(locale: locale))
                    var markdown = MarkdownOptions()
                    markdown.specPath = spec.path
                    markdown.mermaid = localized
                    markdown.diagramPath = "diagram\(suffix(locale)).svg"
                    markdown.scenarioDiagramPattern = "scenarios/{id}\(suffix(locale)).svg"
                    markdown.sequenceDiagramPattern = "sequences/{id}\(suffix(locale)).svg"
                    if linksIndex { markdown.indexPath = "../" }
                    if overviewDrawn { markdown.overviewPath = "overview\(suffix(locale)).svg" }
                    markdown.explorerPath = ExplorerPage.fileName
                    if !drawnWhole {
                        markdown.diagramPath = nil
                        markdown.scenarioDiagramPattern = nil
                    }
                    let page = MarkdownRenderer.page(for: spec, locale: locale, options: markdown, others: others)
                    files.append(GeneratedFile(path: "\(folder)/\(page.fileName)", text: page.text))
                }
                return files
            })

        if overviewDrawn {
            pieces.append(
                piece(emitting: { emit in
                    for locale in locales {
                        var localeOptions = overviewOptions
                        localeOptions.locale = locale
                        let dot = try DiagramBuilder.build(for: spec, options: localeOptions).dot
                        let path = "\(folder)/overview\(suffix(locale)).svg"
                        emit(GeneratedFile(path: path, contents: try svg(path, dot: dot, freshness: freshness)))
                    }
                }))
        }

        // Each scenario's sequence diagram, in every locale: small pinned drawings, one piece.
        if !spec.document.scenarios.isEmpty {
            pieces.append(
                piece(emitting: { emit in
                    for locale in locales {
                        for scenario in spec.document.scenarios {
                            guard let diagram = SequenceDiagram(spec: spec, scenario: scenario.id, locale: locale)
                            else { continue }
                            let dot = DOTEncoder.encode(SequenceLayout(diagram).graph())
                            let path = "\(folder)/sequences/\(scenario.id)\(suffix(locale)).svg"
                            let drawing = try svg(
                                path, dot: dot, engine: SequenceLayout.layoutEngine, freshness: freshness)
                            emit(GeneratedFile(path: path, contents: drawing))
                        }
                    }
                }))
        }

        // The explorer page: the engine's graph of the spec and its overview in every locale (the
        // committed drawing when it is fresh, so that the page is the same on every machine).
        pieces.append(
            piece {
                var drawings: [(locale: String?, svg: [UInt8])] = []
                let explorerOptions = ExplorerPage.drawingOptions(for: spec)
                let isOverview = explorerOptions.detail == .overview
                if isOverview ? overviewDrawn : drawnWhole {
                    for locale in locales {
                        var localeOptions = explorerOptions
                        localeOptions.locale = locale
                        let dot = try DiagramBuilder.build(for: spec, options: localeOptions).dot
                        let name = isOverview ? "overview" : "diagram"
                        let path = "\(folder)/\(name)\(suffix(locale)).svg"
                        drawings.append((locale, try svg(path, dot: dot, freshness: freshness)))
                    }
                }
                let page = ExplorerPage.fitted(spec: spec, drawings: drawings).bytes
                return [GeneratedFile(path: "\(folder)/\(ExplorerPage.fileName)", contents: page)]
            })

        guard drawnWhole else {
            for group in spec.machine.topLevelStates where group.isCompound || group.isParallel {
                pieces.append(
                    piece {
                        var groupOptions = options
                        groupOptions.group = group.id
                        let dot = try DiagramBuilder.build(for: spec, options: groupOptions).dot
                        let path = "\(folder)/groups/\(group.id).svg"
                        return [
                            GeneratedFile(path: "\(folder)/groups/\(group.id).dot", text: dot),
                            GeneratedFile(path: path, contents: try svg(path, dot: dot, freshness: freshness)),
                        ]
                    })
            }
            return pieces
        }
        pieces.append(
            piece(emitting: { emit in
                // One manifest for the folder's bitmaps, every locale's among them.
                var manifest = DrawingManifest()
                for locale in locales {
                    var localeOptions = options
                    localeOptions.locale = locale
                    try drawings(
                        for: spec, options: localeOptions, suffix: suffix(locale), freshness: freshness,
                        manifest: &manifest, emit: emit)
                }
                emit(GeneratedFile(path: "\(folder)/\(DrawingManifest.fileName)", text: manifest.text))
            }))
        return pieces
    }

    /// An SVG drawing of `dot`: the committed file at `path` when it is fresh, else drawn now and
    /// stamped with what it is drawn from (so the next run finds it fresh).
    private static func svg(
        _ path: String, dot: String, engine: String = "dot", freshness: DrawingFreshness?
    ) throws -> [UInt8] {
        let source = DrawingSource(layout: dot, format: .svg, engine: engine)
        return try freshness?.reusable(path, source: source)
            ?? DrawingStamp.stamp(
                GraphvizRenderer.shared.render(dot: dot, format: .svg, layout: engine), source: source)
    }

    /// The overview (SVG, PNG) and every scenario's SVG, from one layout: a scenario is the
    /// overview restyled, its step numbers drawn over it. Only the drawings that are not fresh
    /// are drawn; with all of them fresh, Graphviz is not asked at all.
    /// `suffix` names a locale's files (`diagram.zh-Hans.svg`; empty for the default locale, which
    /// also writes the DOT source: the other locales differ from it only in words).
    private static func drawings(
        for spec: LoadedSpec, options: DiagramOptions, suffix: String, freshness: DrawingFreshness?,
        manifest: inout DrawingManifest, emit: (GeneratedFile) -> Void
    ) throws {
        let folder = spec.document.id
        let overview = try DiagramBuilder.build(for: spec, options: options)
        let dot = overview.dot
        let scenarios = spec.document.scenarios
        let layout = DrawingSource.digest(of: dot)

        @Sendable func plan(_ path: String, _ source: DrawingSource, _ format: GraphvizFormat) -> Planned {
            let fresh = freshness?.reusable(path, source: source)
            return Planned(path: path, source: source, format: format, bytes: fresh, reused: fresh != nil)
        }
        // Building a scenario's graph runs it through the engine, and checking its file hashes it:
        // the scenarios are done side by side, in the background while the overview is laid out
        // (Benchmarks/RESULTS.md, "generate of 500 states"), and so is planning their drawings.
        struct Scenario: Sendable {
            let graph: DOTGraph
            let dot: String
            let overlays: [Overlay]
            var file: Planned
        }
        let built = Locked([Int: Result<Scenario, DiagramError>]())
        let prepared = Locked(Result<ScenarioDrawings, DiagramError>.success(ScenarioDrawings()))
        let building = DispatchGroup()
        DispatchQueue.global().async(group: building) {
            DispatchQueue.concurrentPerform(iterations: scenarios.count) { index in
                var scenarioOptions = options
                scenarioOptions.scenario = scenarios[index].id
                let result = Result { () throws(DiagramError) -> Scenario in
                    let diagram = try DiagramBuilder.build(for: spec, options: scenarioOptions)
                    let dot = diagram.dot
                    let planned = plan(
                        "\(folder)/scenarios/\(scenarios[index].id)\(suffix).svg",
                        DrawingSource(layoutDigest: layout, restyle: dot, overlays: diagram.overlays, format: .svg),
                        .svg)
                    return Scenario(graph: diagram.graph, dot: dot, overlays: diagram.overlays, file: planned)
                }
                built.withLock { $0[index] = result }
            }
            let results = built.withLock { $0 }.sorted { $0.key < $1.key }.map(\.value)
            prepared.withLock {
                $0 = Result { () throws(DiagramError) in
                    let made = try results.map { result throws(DiagramError) in try result.get() }
                    return ScenarioDrawings(
                        files: made.map(\.file), graphs: made.map(\.graph), dots: made.map(\.dot),
                        overlays: made.map(\.overlays), layout: overview.graph)
                }
            }
        }
        @Sendable func scenarioDrawings() throws(DiagramError) -> ScenarioDrawings {
            building.wait()
            return try prepared.withLock { $0 }.get()
        }
        var overviewFiles = [
            plan("\(folder)/diagram\(suffix).svg", DrawingSource(layoutDigest: layout, format: .svg), .svg),
            plan("\(folder)/diagram\(suffix).png", DrawingSource(layoutDigest: layout, format: .png), .png),
        ]
        let overviewMissing = overviewFiles.filter { $0.bytes == nil }.map(\.format)
        var scenarioDrawing = ScenarioDrawings()
        var results: ArraySlice<[GraphvizOutput]> = []
        // The overview's bitmap, while it is still being encoded: the SVGs are finished meanwhile.
        var pending: [Int: PendingBitmap] = [:]
        if overviewMissing.isEmpty {
            // Every overview file is fresh: Graphviz lays the graph out only for a scenario to draw.
            scenarioDrawing = try scenarioDrawings()
            let requests = scenarioDrawing.requests
            if !requests.isEmpty { results = try GraphvizRenderer.shared.render(layout: dot, requests: requests)[...] }
        } else {
            // The overview is laid out and drawn while the scenarios are built; a scenario that
            // fails to build is reported once the drawing is over.
            var failure: DiagramError?
            var drawn = try GraphvizRenderer.shared.renderPendingBitmaps(
                layout: dot, requests: [DrawingRequest(formats: overviewMissing)],
                then: {
                    do throws(DiagramError) {
                        scenarioDrawing = try scenarioDrawings()
                        return scenarioDrawing.requests
                    } catch {
                        failure = error
                        return []
                    }
                })[...]
            if let failure { throw failure }
            var outputs = drawn.removeFirst()[...]
            for index in overviewFiles.indices where overviewFiles[index].bytes == nil {
                switch outputs.removeFirst() {
                case .finished(let output): overviewFiles[index].bytes = output.data
                case .pending(let bitmap): pending[index] = bitmap
                }
            }
            // The scenarios are SVGs: finished as they are drawn.
            results = try drawn.map { outputs throws(GraphvizError) in
                try outputs.map { output throws(GraphvizError) in try output.finished() }
            }[...]
        }
        var scenarioFiles = scenarioDrawing.files
        let drawn = scenarioDrawing.finish(Array(results))
        var wholeAgain: [Int] = []
        for (index, svg) in zip(scenarioDrawing.drawn, drawn) {
            if let svg { scenarioFiles[index].bytes = svg } else { wholeAgain.append(index) }
        }
        if !wholeAgain.isEmpty {
            // A scenario that could not be pieced together is drawn whole, from a layout of its own.
            let again = try GraphvizRenderer.shared.render(
                layout: dot, requests: wholeAgain.map { scenarioDrawing.wholeRequest($0) })
            for (index, outputs) in zip(wholeAgain, again) { scenarioFiles[index].bytes = outputs[0].data }
        }
        // Stamping hashes every SVG and bitmap: the two cores share it, the SVGs while a bitmap
        // may still be encoding.
        let planned = overviewFiles + scenarioFiles
        let finished = Locked([Int: (GeneratedFile, DrawingManifest.Entry?)]())
        @Sendable func finish(_ index: Int, _ bytes: [UInt8]) {
            let file = planned[index]
            var bytes = bytes
            var entry: DrawingManifest.Entry?
            if file.format == .svg {
                // A reused SVG already carries its stamp (the one it was checked against).
                if !file.reused { bytes = DrawingStamp.stamp(bytes, source: file.source) }
            } else {
                entry = DrawingManifest.Entry(source: file.source.digest, content: "sha256:" + SHA256.hex(bytes))
            }
            finished.withLock { $0[index] = (GeneratedFile(path: file.path, contents: bytes), entry) }
        }
        DispatchQueue.concurrentPerform(iterations: planned.count) { index in
            if let bytes = planned[index].bytes { finish(index, bytes) }
        }
        func handOver() {
            let done = finished.withLock { done in
                defer { done = [:] }
                return done
            }
            for (_, (file, entry)) in done.sorted(by: { $0.key < $1.key }) {
                if let entry { manifest.entries[String(file.path.dropFirst(folder.count + 1))] = entry }
                emit(file)
            }
        }
        if suffix.isEmpty { emit(GeneratedFile(path: "\(folder)/diagram.dot", text: dot)) }
        // The SVGs are written while the bitmap is finished.
        handOver()
        for (index, bitmap) in pending { finish(index, try bitmap.bytes()) }
        handOver()
    }

    /// A drawing to make (or reused): where it goes and what it is drawn from.
    fileprivate struct Planned: Sendable {
        let path: String
        let source: DrawingSource
        let format: GraphvizFormat
        var bytes: [UInt8]?
        let reused: Bool
    }

    /// The scenarios of one diagram: which are drawn, and how. Two or more are drawn from their
    /// differences (`ScenarioDifferences`): a base and one drawing per scenario with only what
    /// differs from it shown.
    fileprivate struct ScenarioDrawings: Sendable {
        var files: [Planned] = []
        /// The indices of `files` to draw.
        var drawn: [Int] = []
        var dots: [String] = []
        var overlays: [[Overlay]] = []
        /// What Graphviz is asked to draw; made in the background, not under Graphviz's lock.
        var requests: [DrawingRequest] = []
        var piecesTogether = false

        init() {}

        init(files: [Planned], graphs: [DOTGraph], dots: [String], overlays: [[Overlay]], layout: DOTGraph) {
            self.files = files
            self.dots = dots
            self.overlays = overlays
            drawn = files.indices.filter { files[$0].bytes == nil }
            if drawn.count >= 2,
                let differences = ScenarioDifferences(
                    scenarios: drawn.map { graphs[$0] }, overlays: drawn.map { overlays[$0] }, layout: layout)
            {
                piecesTogether = true
                requests =
                    [
                        DrawingRequest(
                            restyle: DOTEncoder.encode(differences.base), formats: [.svg], sharedLayoutOnly: true)
                    ]
                    + zip(differences.differences.indices, drawn).map { scenario, index in
                        // The listing of what is shown when there is one: far less for Graphviz to parse.
                        let listed = differences.listed[scenario]
                        return DrawingRequest(
                            restyle: DOTEncoder.encode(listed ?? differences.differences[scenario]),
                            overlays: overlays[index], formats: [.svg], sharedLayoutOnly: true,
                            hidesUnlisted: listed != nil)
                    }
            } else {
                requests = drawn.map(wholeRequest)
            }
        }

        func wholeRequest(_ index: Int) -> DrawingRequest {
            DrawingRequest(restyle: dots[index], overlays: overlays[index], formats: [.svg])
        }

        /// The SVG of each drawn scenario from what `requests` gave, `nil` for one to draw whole.
        func finish(_ outputs: [[GraphvizOutput]]) -> [[UInt8]?] {
            guard piecesTogether else { return outputs.map { $0.first?.data } }
            guard let base = outputs.first?.first?.data else { return drawn.map { _ in nil } }
            // A difference that did not share the layout has no output: an empty one pieces to nil.
            return ScenarioDifferences.piece(base: base, differences: outputs.dropFirst().map { $0.first?.data ?? [] })
        }
    }
}
