import LifecycleEngine

/// A position in a spec file, 1-based. Columns count Unicode scalars, as libyaml does.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let path: String
    public let line: Int
    public let column: Int

    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    public var description: String { "\(path):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}

/// Text given either as one string or per locale (`{en: …, zh-Hans: …}`).
public struct LocalizedText: Sendable, Hashable {
    /// Locale → text, in the order written. A plain string is stored under `nil` locale.
    public let translations: [(locale: String?, text: String)]

    public init(_ text: String) { translations = [(nil, text)] }
    public init(translations: [(locale: String?, text: String)]) { self.translations = translations }

    /// The text for `locale`, falling back to the default locale, then to a plain string,
    /// then to the first translation written.
    public func text(for locale: String?, defaultLocale: String?) -> String {
        if let locale, let match = translations.first(where: { $0.locale == locale }) { return match.text }
        if let defaultLocale, let match = translations.first(where: { $0.locale == defaultLocale }) {
            return match.text
        }
        if let plain = translations.first(where: { $0.locale == nil }) { return plain.text }
        return translations.first?.text ?? ""
    }

    /// Whether a text exists for `locale` itself, with no fallback. A plain string counts for the
    /// default locale only.
    public func hasTranslation(for locale: String, defaultLocale: String?) -> Bool {
        translations.contains { $0.locale == locale || ($0.locale == nil && locale == defaultLocale) }
    }

    public static func == (lhs: LocalizedText, rhs: LocalizedText) -> Bool {
        lhs.translations.elementsEqual(rhs.translations) { $0.locale == $1.locale && $0.text == $1.text }
    }

    public func hash(into hasher: inout Hasher) {
        for item in translations {
            hasher.combine(item.locale)
            hasher.combine(item.text)
        }
    }
}

/// A fact value as written: docs render it as a table cell.
public enum FactValue: Sendable, Hashable, CustomStringConvertible {
    case bool(Bool)
    case number(String)
    case text(LocalizedText)

    public var description: String {
        switch self {
        case .bool(let value): value ? "yes" : "no"
        case .number(let value): value
        case .text(let value): value.text(for: nil, defaultLocale: nil)
        }
    }
}

public struct SourceRef: Sendable, Hashable {
    public let id: String
    public let title: LocalizedText
    public let url: String
    public let location: SourceLocation
}

/// Everything a spec says, with locations, in document order. The engine's `Machine` is lowered
/// from it; renderers read the prose (titles, descriptions, facts, sources) from here and the
/// semantics from the machine.
public struct SpecDocument: Sendable, Hashable {
    public struct StateInfo: Sendable, Hashable {
        public let id: String
        public let title: LocalizedText?
        public let description: LocalizedText?
        /// Key → value in the order written.
        public let facts: [(key: String, value: FactValue)]
        public let source: String?
        public let location: SourceLocation

        public static func == (lhs: StateInfo, rhs: StateInfo) -> Bool {
            lhs.id == rhs.id && lhs.title == rhs.title && lhs.description == rhs.description
                && lhs.facts.elementsEqual(rhs.facts) { $0.key == $1.key && $0.value == $1.value }
                && lhs.source == rhs.source && lhs.location == rhs.location
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            hasher.combine(location)
        }
    }

    public struct EventInfo: Sendable, Hashable {
        public let id: String
        public let title: LocalizedText?
        public let kind: LifecycleEvent.Kind
        public let description: LocalizedText?
        public let source: String?
        public let location: SourceLocation
    }

    public struct FlagInfo: Sendable, Hashable {
        public let id: String
        /// What the flag says when true, worded to read inside a guard (`[exiting on suspend]`);
        /// the drawings negate it in words (`[not exiting on suspend]`, `[不在挂起时退出]`).
        public let title: LocalizedText?
        public let defaultValue: Bool
        public let description: LocalizedText?
        public let source: String?
        public let location: SourceLocation
    }

    public struct Deprecation: Sendable, Hashable {
        public let since: String?
        public let replacement: String?
        public let note: LocalizedText?
    }

    /// What UIKit calls back: a method the app implements (a delegate method, a view controller
    /// override), or a closure the app handed to a UIKit API (`passedTo`), such as the expiration
    /// handler of `beginBackgroundTask(expirationHandler:)`.
    public enum CallbackKind: String, Sendable, Hashable, CaseIterable {
        case method
        case closure
    }

    public struct CallbackInfo: Sendable, Hashable {
        public let id: String
        public let kind: CallbackKind
        /// For a closure: the API the app passes it to, e.g. `UIApplication.beginBackgroundTask(expirationHandler:)`.
        public let passedTo: String?
        /// A method's Swift name; a closure's name (its parameter label), which traces log.
        public let swift: String?
        public let objc: String?
        public let returns: String?
        public let description: LocalizedText?
        public let usage: LocalizedText?
        public let posts: PostedNotification?
        public let deprecated: Deprecation?
        /// As written, e.g. `5s`.
        public let timeLimit: String?
        public let source: String?
        public let location: SourceLocation
    }

    /// A fact that states declare (`onscreen: true`), with the title its table column shows.
    public struct FactInfo: Sendable, Hashable {
        public let id: String
        public let title: LocalizedText?
        public let description: LocalizedText?
        public let location: SourceLocation
    }

    public struct NotificationInfo: Sendable, Hashable {
        public let id: String
        public let swift: String?
        public let objc: String?
        public let description: LocalizedText?
        public let source: String?
        public let location: SourceLocation
    }

    public struct TransitionInfo: Sendable, Hashable {
        /// Index into `Machine.transitions`.
        public let index: Int
        public let guardText: String?
        public let description: LocalizedText?
        public let source: String?
        public let location: SourceLocation
    }

    public struct ScenarioInfo: Sendable, Hashable {
        public let id: String
        public let title: LocalizedText?
        public let description: LocalizedText?
        public let from: String?
        public let flags: [String: Bool]
        public let events: [String]
        public let expect: [Observation]
        /// The configuration it ends in: one state, or one per region (empty: not stated).
        public let endStates: [String]
        public let source: String?
        public let location: SourceLocation

        /// The first end state (the only one without parallel regions).
        public var end: String? { endStates.first }

        public init(
            id: String, title: LocalizedText?, description: LocalizedText?, from: String?, flags: [String: Bool],
            events: [String], expect: [Observation], endStates: [String], source: String?, location: SourceLocation
        ) {
            self.id = id
            self.title = title
            self.description = description
            self.from = from
            self.flags = flags
            self.events = events
            self.expect = expect
            self.endStates = endStates
            self.source = source
            self.location = location
        }

        public init(
            id: String, title: LocalizedText?, description: LocalizedText?, from: String?, flags: [String: Bool],
            events: [String], expect: [Observation], end: String?, source: String?, location: SourceLocation
        ) {
            self.init(
                id: id, title: title, description: description, from: from, flags: flags, events: events,
                expect: expect,
                endStates: end.map { [$0] } ?? [], source: source, location: location)
        }
    }

    /// Another lifecycle this one refers to (restoration happens during app launch, say).
    public struct RelatedSpec: Sendable, Hashable {
        public let id: String
        public let description: LocalizedText?
        public let location: SourceLocation
    }

    /// A choice the spec makes where Apple's documentation is silent or leaves room (`modelling:`):
    /// pages gather them under "How this is modelled" instead of mixing them into the descriptions
    /// of what UIKit does.
    public struct ModellingNote: Sendable, Hashable {
        /// The elements it is about (state, event, flag, callback or notification ids), maybe none.
        public let about: [String]
        public let text: LocalizedText
        public let source: String?
        public let location: SourceLocation
    }

    /// A spec included as a part of a system spec (`parts:`): a parallel region whose ids are
    /// prefixed with `name` (`A.appeared`, `A.viewDidLoad`).
    public struct PartInfo: Sendable, Hashable {
        public let name: String
        /// The id of the part's own spec, whose page documents it in full.
        public let specID: String
        /// The system's title for this part, if it gives one.
        public let title: LocalizedText?
        public let description: LocalizedText?
        /// The part's spec's own title.
        public let specTitle: LocalizedText?
        /// Where the part is included.
        public let location: SourceLocation

        /// The prefix of every id the part contributes.
        public var prefix: String { name + "." }
    }

    /// The file as given on the command line (relative paths stay relative).
    public let path: String
    public let formatVersion: Int
    public let id: String
    public let title: LocalizedText?
    public let summary: LocalizedText?
    public let platform: String?
    /// Declared locales; the first is the default. Empty when the spec declares none.
    public let locales: [String]
    public let sources: [SourceRef]
    /// States in document order, parents before children (same order as `Machine.states`).
    public let states: [StateInfo]
    public let events: [EventInfo]
    public let flags: [FlagInfo]
    /// The facts declared under `facts:`, in document order (empty when the spec declares none:
    /// its states' fact keys are then shown as written).
    public let facts: [FactInfo]
    public let callbacks: [CallbackInfo]
    public let notifications: [NotificationInfo]
    /// Same order as `Machine.transitions`.
    public let transitions: [TransitionInfo]
    public let scenarios: [ScenarioInfo]
    /// Other specs this one refers to, checked across specs by `SpecRelations`.
    public internal(set) var related: [RelatedSpec] = []
    /// The spec's own modelling notes, in the order written (a part's stay on the part's page).
    public internal(set) var modelling: [ModellingNote] = []
    /// The spec's `unhandled:` choice as written (`nil`: not written; the machine's policy says what applies).
    public internal(set) var unhandledEvents: UnhandledEventPolicy? = nil
    /// The Swift modules that declare the spec's API names (from `platform:` and `catalogs:`), in
    /// order, for code that refers to them (the recorder's imports).
    public internal(set) var apiModules: [String] = []
    /// In a system, the callbacks and notifications (by id) received or posted by an object shared
    /// by the whole app rather than by the part that models them (`APICatalog.sharedReceivers`):
    /// id → the object's name (`AppDelegate`, `UIApplication`). Their Swift and Objective-C names
    /// name that object, not the part (`AppDelegate.application(_:…)`, not `S1.application(_:…)`).
    public internal(set) var sharedReceivers: [String: String] = [:]
    /// Outside a system, the object each callback (by id) goes to by its API catalog entry's owner:
    /// the app-wide object for an owner with one per app (`AppDelegate`), else the owner itself
    /// (`UIViewController`). Callbacks no catalog knows (closures, a project's own names) are absent.
    public internal(set) var catalogReceivers: [String: String] = [:]
    /// Outside a system, the app-wide object that posts each notification (by id) whose catalog
    /// owner has one per app (`UIApplication`); notifications of the spec's own object are absent.
    package internal(set) var catalogPosters: [String: String] = [:]
    /// The parts of a system spec, in the order written (empty for a single-object spec).
    public internal(set) var parts: [PartInfo] = []

    public var isSystem: Bool { !parts.isEmpty }

    /// The part an element id belongs to (`A.appeared` → part `A`; the region `A` too).
    public func part(of id: String) -> PartInfo? {
        parts.first { id == $0.name || id.hasPrefix($0.prefix) }
    }

    /// The object that receives callback `id`, or posts notification `id`, in a system: an object
    /// the whole app shares (`sharedReceivers`: `AppDelegate`, `UIApplication`) whichever part
    /// models the call, else the part that owns it; `nil` outside a system. The one answer for
    /// traces, pages, sequence diagrams and `simulate --json`.
    package func receiver(of id: String) -> String? {
        sharedReceivers[id] ?? part(of: id)?.name
    }

    /// The object that receives callback `id`, as far as the spec says: in a system `receiver(of:)`,
    /// else its catalog's owner (`catalogReceivers`); `nil` when neither knows. What `check-trace`
    /// groups a log's callbacks by when no `--observe` declares what the log records.
    package func traceReceiver(ofCallback id: String) -> String? {
        isSystem ? receiver(of: id) : catalogReceivers[id]
    }

    /// The object that posts notification `id`, as far as the spec says: in a system
    /// `receiver(of:)`, else the app-wide object its catalog names (`catalogPosters`).
    package func poster(ofNotification id: String) -> String? {
        isSystem ? receiver(of: id) : catalogPosters[id]
    }

    public var defaultLocale: String? { locales.first }

    public func state(_ id: String) -> StateInfo? { states.first { $0.id == id } }
    public func event(_ id: String) -> EventInfo? { events.first { $0.id == id } }
    public func callback(_ id: String) -> CallbackInfo? { callbacks.first { $0.id == id } }
    public func notification(_ id: String) -> NotificationInfo? { notifications.first { $0.id == id } }
    public func flag(_ id: String) -> FlagInfo? { flags.first { $0.id == id } }
    public func fact(_ id: String) -> FactInfo? { facts.first { $0.id == id } }
    public func source(_ id: String) -> SourceRef? { sources.first { $0.id == id } }
    public func scenario(_ id: String) -> ScenarioInfo? { scenarios.first { $0.id == id } }

    /// `text` in `locale`, falling back to the default locale.
    public func text(_ text: LocalizedText?, locale: String? = nil) -> String? {
        text.map { $0.text(for: locale ?? defaultLocale, defaultLocale: defaultLocale) }
    }
}

/// A spec that loaded and lowered: its prose and its engine model, side by side.
public struct LoadedSpec: Sendable {
    public let document: SpecDocument
    public let machine: Machine
    /// The engine's exploration of `machine`, set by the loader: validation explores it anyway, and
    /// the planners (conformance suites) reuse it instead of exploring the machine again.
    public internal(set) var stateSpace: StateSpace? = nil
    /// The YAML text the spec was read from (`nil` for an SCXML chart): `export` carries it in the
    /// chart, in LifeSpec's namespace, so `import` gives this spec back, words and all.
    public internal(set) var sourceText: String? = nil
    /// The LifeSpec YAML an exported chart carries (`<lifespec:yaml>`), which `import` restores.
    package internal(set) var carriedYAML: SCXMLDocument.CarriedYAML? = nil
    /// The spec file's path relative to the directory it was loaded from (for "generated from" lines).
    public var path: String { document.path }
}
