import Foundation
import LifecycleEngine

/// Composes a system spec (`parts:`) into one ordinary spec, at the level of the spec as read, so
/// the resolver, the rules, the engine and every renderer work on the result unchanged.
///
/// The composed machine is one parallel state named after the spec, with a region per part, in the
/// order written, and last a `coordinator` region holding the system's own states. A part's ids are
/// prefixed with its name (`A.appeared`, `A.push`, `A.viewDidLoad`, flag `A.needsLayout`); its
/// callbacks and notifications are shown as `A.viewWillDisappear(_:)`. Every element keeps the
/// location where it is written, so a problem inside a part points into the part's file.
/// The part's own scenarios and related specs stay on its own page; its sources are shared by every
/// instance of the same spec (`<spec id>.<source id>`).
enum SpecComposer {
    /// The region that holds the system spec's own `states:`.
    static let coordinatorRegion = "coordinator"

    struct Composed {
        var raw: RawSpec?
        var diagnostics: [Diagnostic]
    }

    /// A part's spec, loaded on its own (its diagnostics point into its file).
    private struct LoadedPart {
        var raw: RawSpec?
        var result: SpecLoadResult?
        var path: String
        /// Why it cannot be a part, when it cannot.
        var problem: String?
        var problemCode = DiagnosticCode.invalidPart
    }

    static func compose(_ system: RawSpec, limits: LoaderLimits) -> Composed {
        var diagnostics: [Diagnostic] = []
        let folder = (system.path as NSString).deletingLastPathComponent
        var loaded: [String: LoadedPart] = [:]
        var reportedFiles: Set<String> = []
        var parts: [RawSpec.Part] = []
        var usable = true
        for var part in system.parts {
            let specID = part.spec.value
            // A part that cannot be used: reported at the spec it names.
            func refuse(_ code: DiagnosticCode, _ message: String) {
                diagnostics.append(.error(code, message, at: part.spec.location))
                usable = false
            }
            guard SpecParser.isValidSpecID(specID) else {
                refuse(
                    .unknownPartSpec,
                    "part '\(part.name.value)' names '\(specID)', which is not a spec id; write the id of a spec beside this file (Spec/<id>.yaml)"
                )
                continue
            }
            if loaded[specID] == nil {
                loaded[specID] = loadPart(specID, folder: folder, systemPath: system.path, limits: limits)
            }
            let candidate = loaded[specID]!
            if candidate.result == nil, candidate.raw == nil, candidate.problem == nil {
                let siblings = siblingSpecIDs(in: folder, excluding: system.path)
                refuse(
                    .unknownPartSpec,
                    "part '\(part.name.value)': there is no spec '\(specID)' beside this file (\(candidate.path))\(Suggestion.didYouMean(specID, among: siblings))"
                )
                continue
            }
            if let problem = candidate.problem {
                refuse(candidate.problemCode, "part '\(part.name.value)': \(problem)")
                continue
            }
            if let result = candidate.result, result.hasErrors {
                let errors = result.diagnostics.filter { $0.severity == .error }
                refuse(
                    .invalidPart,
                    "part '\(part.name.value)': spec '\(specID)' (\(candidate.path)) has \(errors.count) error\(errors.count == 1 ? "; fix it" : "s; fix them") first"
                )
                // The part's own problems, where they are; once even if several parts use the file.
                if reportedFiles.insert(candidate.path).inserted { diagnostics += errors }
                continue
            }
            part.specID = candidate.raw?.id?.value ?? specID
            part.specTitle = candidate.raw?.title
            part.specPath = candidate.path
            parts.append(part)
        }
        guard usable, let systemID = system.id?.value else { return Composed(raw: nil, diagnostics: diagnostics) }

        var composed = system
        composed.parts = parts
        let partNames = Set(parts.map(\.name.value))
        diagnostics += clashes(system, root: systemID, partNames: partNames)
        guard !diagnostics.hasErrors else { return Composed(raw: nil, diagnostics: diagnostics) }
        // Not a reason to stop: the composed spec still resolves, so every other problem shows too.
        diagnostics += boundaryCrossings(system, root: systemID, partNames: partNames)

        let anchor = system.parts.first?.name.location ?? system.rootLocation
        let systemTopLevel = system.states.filter { $0.parent == nil }.map(\.id)
        // `initial:` may name part states too (`A.appeared`): that part's region starts there
        // instead of at the part's own initial state, as SCXML's `initial` may list a state in each
        // region of a parallel state. The rest is the coordinator's.
        var partInitial: [String: [Located<String>]] = [:]
        var coordinatorInitial: [Located<String>] = []
        for target in system.initial {
            if let name = part(of: target.value, among: partNames) {
                partInitial[name, default: []].append(target)
            } else {
                coordinatorInitial.append(target)
            }
        }
        var regions = parts.map(\.name)
        if !systemTopLevel.isEmpty {
            regions.append(Located(coordinatorRegion, at: coordinatorInitial.first?.location ?? anchor))
        }
        guard regions.count >= 2 else {
            diagnostics.append(
                .error(
                    .invalidParallel,
                    "a system spec needs at least two regions: two parts, or one part and states of its own", at: anchor
                ))
            return Composed(raw: nil, diagnostics: diagnostics)
        }

        var root = RawSpec.State(id: Located(systemID, at: system.id?.location ?? anchor), parent: nil)
        root.title = system.title
        root.children = regions
        root.parallel = Located(true, at: anchor)
        var states = [root]
        var transitions = system.transitions
        var sources = system.sources
        for part in parts {
            guard let partRaw = loaded[part.spec.value]?.raw else { continue }
            let namespace = Namespace(part: part.name.value, sourcePrefix: part.specID ?? part.spec.value)
            var region = RawSpec.State(id: part.name, parent: systemID)
            region.title = part.title ?? partRaw.title
            region.description = part.description
            region.children = partRaw.states.filter { $0.parent == nil }.map { namespace.id($0.id) }
            if let chosen = partInitial[part.name.value] {
                region.initial = chosen
                region.initialLocation = chosen.first?.location
            } else {
                region.initial = partRaw.initial.map(namespace.id)
                region.initialLocation = part.name.location
            }
            region.part = part.name.value
            states.append(region)
            for state in partRaw.states { states.append(namespace.state(state, region: part.name.value)) }
            transitions += partRaw.transitions.map(namespace.transition)
            composed.events += partRaw.events.map(namespace.event)
            composed.flags += partRaw.flags.map(namespace.flag)
            composed.callbacks += partRaw.callbacks.map(namespace.callback)
            composed.notifications += partRaw.notifications.map(namespace.notification)
            for source in partRaw.sources where !sources.contains(where: { $0.id == namespace.source(source.id) }) {
                sources.append(
                    SourceRef(
                        id: namespace.source(source.id), title: source.title, url: source.url, location: source.location
                    ))
            }
            for fact in partRaw.facts where !composed.facts.contains(where: { $0.id == fact.id }) {
                composed.facts.append(fact)
            }
            for catalog in PlatformNamesRule.catalogs(of: partRaw)
            where !composed.partCatalogs.contains(where: { $0.name == catalog.name }) {
                composed.partCatalogs.append(catalog)
            }
        }
        if !systemTopLevel.isEmpty {
            var coordinator = RawSpec.State(
                id: Located(coordinatorRegion, at: coordinatorInitial.first?.location ?? anchor), parent: systemID)
            coordinator.title = coordinatorTitle(locales: system.locales.map(\.value))
            coordinator.children = systemTopLevel
            coordinator.initial = coordinatorInitial
            coordinator.initialLocation = coordinatorInitial.first?.location
            states.append(coordinator)
            states += system.states.map { state in
                var state = state
                if state.parent == nil { state.parent = coordinatorRegion }
                return state
            }
        }
        composed.states = states
        composed.transitions = transitions
        composed.sources = sources
        composed.initial = [Located(systemID, at: system.initial.first?.location ?? anchor)]
        return Composed(raw: composed, diagnostics: diagnostics)
    }

    /// The title of the region holding the system's own states, as parts have theirs: the tool's
    /// words in each locale the system declares, in the language `Language(locale:)` decides for
    /// it, so the diagrams and pages of every locale name the region.
    static func coordinatorTitle(locales: [String]) -> LocalizedText {
        func words(_ language: Language) -> String {
            switch language {
            case .english: "Coordinator"
            case .simplifiedChinese: "协调器"
            }
        }
        guard !locales.isEmpty else { return LocalizedText(words(.english)) }
        return LocalizedText(translations: locales.map { ($0, words(Language(locale: $0))) })
    }

    /// Loads a part's spec file beside the system's: `nil` result and raw when there is none.
    private static func loadPart(_ specID: String, folder: String, systemPath: String, limits: LoaderLimits)
        -> LoadedPart
    {
        let candidates = ["yaml", "yml"].map { folder.isEmpty ? "\(specID).\($0)" : "\(folder)/\(specID).\($0)" }
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            return LoadedPart(path: candidates[0])
        }
        if (path as NSString).standardizingPath == (systemPath as NSString).standardizingPath {
            return LoadedPart(path: path, problem: "a spec cannot be a part of itself")
        }
        if let refusal = ProjectPaths.refusal(of: path, namedBy: systemPath) {
            return LoadedPart(
                path: path, problem: "spec '\(specID)' is not read: \(refusal)", problemCode: .outsideProject)
        }
        let data: Data
        switch SpecLoader.readFile(path: path, limits: limits) {
        case .success(let bytes): data = bytes
        case .failure(let problem):
            return LoadedPart(result: SpecLoadResult(spec: nil, diagnostics: [problem.diagnostic]), path: path)
        }
        let text: String
        switch SpecLoader.decode(data, path: path) {
        case .success(let decoded): text = decoded
        case .failure(let problem):
            return LoadedPart(result: SpecLoadResult(spec: nil, diagnostics: [problem.diagnostic]), path: path)
        }
        let read = SpecLoader.read(text: text, path: path, limits: limits)
        guard let raw = read.raw else {
            return LoadedPart(result: SpecLoadResult(spec: nil, diagnostics: read.diagnostics.sorted()), path: path)
        }
        if raw.declaresParts {
            // Nesting would need ids such as A.B.appeared and raises across levels; one level of
            // parts covers the systems UIKit documents, and a cycle of includes is impossible.
            return LoadedPart(
                raw: raw, path: path,
                problem:
                    "spec '\(specID)' (\(path)) has parts of its own; a part must be a single-object spec (system specs do not nest)"
            )
        }
        return LoadedPart(
            raw: raw, result: SpecLoader.check(raw, diagnostics: read.diagnostics, unknownKeys: read.unknownKeys),
            path: path)
    }

    private static func siblingSpecIDs(in folder: String, excluding path: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        let own = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return names.filter { ["yaml", "yml"].contains(($0 as NSString).pathExtension) }
            .map { ($0 as NSString).deletingPathExtension }.filter { $0 != own }.sorted()
    }

    /// The part a prefixed id belongs to (`A.appeared` → `A`), if any.
    static func part(of id: String, among partNames: Set<String>) -> String? {
        guard let dot = id.firstIndex(of: ".") else { return nil }
        let prefix = String(id[..<dot])
        return partNames.contains(prefix) ? prefix : nil
    }

    /// The system's own ids must stay out of the names parts and the composition create.
    private static func clashes(_ system: RawSpec, root: String, partNames: Set<String>) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var seenParts: Set<String> = []
        for part in system.parts {
            if part.name.value == root || part.name.value == coordinatorRegion {
                diagnostics.append(
                    .error(
                        .partNameClash,
                        "part name '\(part.name.value)' is taken: the composed machine names its \(part.name.value == root ? "parallel state after the spec id" : "region of the system's own states") '\(part.name.value)'",
                        at: part.name.location))
            }
            seenParts.insert(part.name.value)
        }
        let own: [(kind: String, id: Located<String>)] =
            system.states.map { ("state", $0.id) } + system.events.map { ("event", Located($0.id, at: $0.location)) }
            + system.flags.map { ("flag", Located($0.id, at: $0.location)) }
            + system.callbacks.map { ("callback", $0.id) }
            + system.notifications.map { ("notification", $0.id) }
        for (kind, id) in own {
            if partNames.contains(id.value) {
                diagnostics.append(
                    .error(
                        .partNameClash, "\(kind) '\(id.value)' has the name of part '\(id.value)'; rename one of them",
                        at: id.location))
            } else if let part = part(of: id.value, among: partNames) {
                diagnostics.append(
                    .error(
                        .partNameClash,
                        "\(kind) '\(id.value)' is in part '\(part)''s namespace ('\(part).…' names the part's own \(kind)s); rename it",
                        at: id.location))
            } else if kind == "state", id.value == root || id.value == coordinatorRegion {
                diagnostics.append(
                    .error(
                        .partNameClash,
                        "state '\(id.value)' is taken: the composed machine names its \(id.value == root ? "parallel state after the spec id" : "region of the system's own states") '\(id.value)'",
                        at: id.location))
            }
        }
        return diagnostics
    }

    /// The system's transitions drive parts through their events; entering or leaving a part's
    /// state directly would exit every region at once and bypass the part's own rules.
    private static func boundaryCrossings(_ system: RawSpec, root: String, partNames: Set<String>) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for transition in system.transitions {
            for (end, id) in transition.from.map({ ("leave", $0) }) + transition.to.map({ ("enter", $0) }) {
                guard let part = partNames.contains(id.value) ? id.value : part(of: id.value, among: partNames) else {
                    if id.value == root {
                        diagnostics.append(
                            .error(
                                .partBoundary,
                                "the system's transitions cannot \(end) '\(root)', the parallel state that holds every part; use the states of its own",
                                at: id.location))
                    }
                    continue
                }
                diagnostics.append(
                    .error(
                        .partBoundary,
                        "the system's transitions cannot \(end) '\(id.value)', a state of part '\(part)'; drive the part by raising its events (raise: [\(part).<event>]) and test its states with in(\(part).<state>)",
                        at: id.location))
            }
        }
        return diagnostics
    }

    /// Renames a part's ids into its namespace.
    struct Namespace {
        let part: String
        let sourcePrefix: String

        func name(_ id: String) -> String { "\(part).\(id)" }
        func id(_ id: Located<String>) -> Located<String> { Located(name(id.value), at: id.location) }
        func source(_ id: String) -> String { "\(sourcePrefix).\(id)" }
        func source(_ id: Located<String>?) -> Located<String>? {
            id.map { Located(source($0.value), at: $0.location) }
        }

        /// Event descriptors: `push` → `A.push`, `done.state.x` → `done.state.A.x`, `*` → `A` (every
        /// event of the part, as SCXML's prefix matching reads it).
        func event(_ descriptor: Located<String>) -> Located<String> {
            let value = descriptor.value
            let renamed =
                if value == "*" {
                    part
                } else if value.hasPrefix("done.state.") {
                    "done.state." + name(String(value.dropFirst("done.state.".count)))
                } else {
                    name(value)
                }
            return Located(renamed, at: descriptor.location)
        }

        func action(_ action: RawSpec.ActionRef) -> RawSpec.ActionRef {
            switch action {
            case .callback(let id): .callback(self.id(id))
            case .notify(let id): .notify(self.id(id))
            }
        }

        func block(_ block: RawSpec.Block) -> RawSpec.Block {
            RawSpec.Block(
                actions: block.actions.map(action), set: block.set.map { (id($0.flag), $0.value) },
                raise: block.raise.map(event))
        }

        func state(_ state: RawSpec.State, region: String) -> RawSpec.State {
            var renamed = state
            renamed.id = id(state.id)
            renamed.parent = state.parent.map(name) ?? region
            renamed.children = state.children.map(id)
            renamed.initial = state.initial.map(id)
            renamed.historyDefault = state.historyDefault.map(id)
            renamed.historyDefaultBlock = block(state.historyDefaultBlock)
            renamed.entry = block(state.entry)
            renamed.exit = block(state.exit)
            renamed.initialBlock = block(state.initialBlock)
            renamed.source = source(state.source)
            // Checked against the part's own `facts:` when it loaded.
            renamed.factKeys = []
            renamed.part = part
            return renamed
        }

        func transition(_ transition: RawSpec.Transition) -> RawSpec.Transition {
            var renamed = transition
            renamed.from = transition.from.map(id)
            renamed.to = transition.to.map(id)
            renamed.on = transition.on.map(event)
            renamed.actions = transition.actions.map(action)
            renamed.set = transition.set.map { (id($0.flag), $0.value) }
            renamed.raise = transition.raise.map(event)
            if let expression = transition.guardExpression, let text = transition.guardText {
                let namespaced = expression.renamed(flag: name, state: name)
                renamed.guardExpression = namespaced
                renamed.guardText = Located(namespaced.description, at: text.location)
            }
            renamed.source = source(transition.source)
            renamed.part = part
            return renamed
        }

        func event(_ event: SpecDocument.EventInfo) -> SpecDocument.EventInfo {
            .init(
                id: name(event.id), title: event.title, kind: event.kind, description: event.description,
                source: event.source.map(source), location: event.location)
        }

        func flag(_ flag: SpecDocument.FlagInfo) -> SpecDocument.FlagInfo {
            .init(
                id: name(flag.id), title: flag.title, defaultValue: flag.defaultValue, description: flag.description,
                source: flag.source.map(source), location: flag.location)
        }

        func callback(_ callback: RawSpec.Callback) -> RawSpec.Callback {
            var renamed = callback
            renamed.id = id(callback.id)
            // Traces and pages name the object: `A.viewWillDisappear(_:)`.
            renamed.swift = Located(
                name(callback.swift?.value ?? callback.id.value), at: callback.swift?.location ?? callback.id.location)
            renamed.objc = callback.objc.map(id)
            renamed.posts = callback.posts.map { (id($0.notification), $0.order) }
            renamed.source = source(callback.source)
            renamed.part = part
            return renamed
        }

        func notification(_ notification: RawSpec.Notification) -> RawSpec.Notification {
            var renamed = notification
            renamed.id = id(notification.id)
            renamed.swift = Located(
                name(notification.swift?.value ?? notification.id.value),
                at: notification.swift?.location ?? notification.id.location)
            renamed.objc = notification.objc.map(id)
            renamed.source = source(notification.source)
            renamed.part = part
            return renamed
        }
    }
}
