import LifecycleEngine

/// The spec as read, before references are resolved: every id and reference keeps its location so
/// the resolver can point at the exact token. Internal to the loader.
struct RawSpec {
    struct State {
        var id: Located<String>
        var parent: String?
        var title: LocalizedText?
        var description: LocalizedText?
        var facts: [(key: String, value: FactValue)] = []
        /// The fact keys as written, for the check against the declared facts.
        var factKeys: [Located<String>] = []
        var children: [Located<String>] = []
        /// The default entry's targets: one child, or descendants (one per region of a parallel
        /// descendant, as SCXML's `initial="a b"`).
        var initial: [Located<String>] = []
        /// Where `initial` was written (for diagnostics about the whole list).
        var initialLocation: SourceLocation?
        var isFinal = false
        /// `parallel: true`: every child is a region, active at once.
        var parallel: Located<Bool>?
        /// Set on a history pseudo-state.
        var history: Located<HistoryDepth>?
        /// A history state's default targets (its default transition), and that transition's actions.
        var historyDefault: [Located<String>] = []
        var historyDefaultBlock = Block()
        var entry = Block()
        var exit = Block()
        /// What SCXML's `<initial>` transition does (YAML has no place for it).
        var initialBlock = Block()
        var source: Located<String>?
        /// The part it comes from (`parts:`), `nil` for the spec's own states.
        var part: String?
    }

    /// Executable content as written: callbacks and notifications in order, flags set, events raised.
    struct Block {
        var actions: [ActionRef] = []
        var set: [(flag: Located<String>, value: Bool)] = []
        var raise: [Located<String>] = []
        var isEmpty: Bool { actions.isEmpty && set.isEmpty && raise.isEmpty }
    }

    struct Callback {
        var id: Located<String>
        var kind: SpecDocument.CallbackKind = .method
        var kindLocation: SourceLocation?
        var passedTo: Located<String>?
        /// The object the call goes to, when neither a part nor an API catalog says (`receiver:`).
        var receiver: Located<String>?
        var swift: Located<String>?
        var objc: Located<String>?
        var returns: String?
        var description: LocalizedText?
        var usage: LocalizedText?
        var posts: (notification: Located<String>, order: PostedNotification.Order)?
        var deprecated: SpecDocument.Deprecation?
        var timeLimit: String?
        var source: Located<String>?
        /// The part it comes from: its names were checked against the part's own catalogs.
        var part: String?
    }

    struct ModellingNote {
        var about: [Located<String>] = []
        var text: LocalizedText
        var source: Located<String>?
        var location: SourceLocation
    }

    struct Notification {
        var id: Located<String>
        var swift: Located<String>?
        var objc: Located<String>?
        var description: LocalizedText?
        var source: Located<String>?
        var part: String?
    }

    enum ActionRef {
        case callback(Located<String>)
        case notify(Located<String>)
    }

    struct Transition {
        var location: SourceLocation
        var from: [Located<String>] = []
        /// Event descriptors (SCXML matching); empty with `always`.
        var on: [Located<String>] = []
        var always: Bool = false
        var type: TransitionType = .external
        /// Whether `type:` is written: `type: internal` on a transition without `to` says that
        /// doing nothing is meant.
        var typeWritten = false
        var guardText: Located<String>?
        /// Columns from the guard scalar's mark to its first character (1 when quoted).
        var guardColumnShift = 0
        var guardExpression: GuardExpression?
        /// Targets: none for a targetless transition, several for one state per region.
        var to: [Located<String>] = []
        var actions: [ActionRef] = []
        var set: [(flag: Located<String>, value: Bool)] = []
        var raise: [Located<String>] = []
        var description: LocalizedText?
        var source: Located<String>?
        /// False when the entry was too broken to lower.
        var isComplete = true
        /// The part it comes from, `nil` for the spec's own transitions.
        var part: String?
    }

    /// One entry of `parts:`: another spec included as a namespaced parallel region.
    struct Part {
        var name: Located<String>
        /// The spec id as written (a sibling file `<id>.yaml`).
        var spec: Located<String>
        var title: LocalizedText?
        var description: LocalizedText?
        /// Filled in by the composer once the part's spec loaded.
        var specID: String?
        var specTitle: LocalizedText?
        var specPath: String?
    }

    struct Scenario {
        var id: Located<String>
        var location: SourceLocation
        var title: LocalizedText?
        var description: LocalizedText?
        var from: Located<String>?
        var flags: [(flag: Located<String>, value: Bool)] = []
        var events: [Located<String>] = []
        var expect: [(observation: Observation, location: SourceLocation)] = []
        var expectGiven = false
        /// The configuration it ends in: one state, or one per region.
        var end: [Located<String>] = []
        var source: Located<String>?
    }

    var path: String
    var formatVersion = 1
    /// `parts:`: with any, the spec is a system spec and `SpecComposer` composes it.
    var parts: [Part] = []
    /// Whether `parts:` was written (even empty or broken), so 'states' and 'initial' are optional.
    var declaresParts = false
    /// The API catalogs of the parts' specs: their modules matter to code that names their callbacks.
    var partCatalogs: [APICatalog] = []
    var id: Located<String>?
    var title: LocalizedText?
    var summary: LocalizedText?
    var platform: Located<String>?
    /// The API catalogs named under `catalogs:`, loaded (built-in or from their files).
    var catalogs: [(reference: Located<String>, catalog: APICatalog)] = []
    /// A catalog under `catalogs:` is unknown or did not load: names it might hold are not judged.
    var catalogMissing = false
    var locales: [Located<String>] = []
    var sources: [SourceRef] = []
    var states: [State] = []
    /// The states the machine starts in: one, or one per region of a parallel state.
    var initial: [Located<String>] = []
    /// What an event no transition takes does.
    var unhandled: Located<UnhandledEventPolicy>?
    var events: [SpecDocument.EventInfo] = []
    var flags: [SpecDocument.FlagInfo] = []
    var facts: [SpecDocument.FactInfo] = []
    /// Whether the spec has a `facts:` section: only then must every state's fact be declared.
    var declaresFacts = false
    var callbacks: [Callback] = []
    var notifications: [Notification] = []
    var transitions: [Transition] = []
    var scenarios: [Scenario] = []
    var related: [SpecDocument.RelatedSpec] = []
    /// `modelling:` as written; its `about` ids are checked once every element is known.
    var modelling: [ModellingNote] = []
    /// Every `source:` reference, checked once all sources are known.
    var sourceReferences: [Located<String>] = []
    /// Every localized text with where it was written, for the translation check.
    var localizedTexts: [(text: LocalizedText, what: String, location: SourceLocation)] = []
    var rootLocation: SourceLocation
    /// Every Simplified Chinese text with where its value is written, for the typography check.
    var chineseTexts: [(text: String, what: String, location: SourceLocation)] = []
    /// The file's text, to place a typography finding inside a folded or quoted scalar.
    var sourceText = ""
    /// An SCXML chart's `<lifespec:yaml>`: the spec `export` wrote it from.
    var carriedYAML: SCXMLDocument.CarriedYAML?
}
