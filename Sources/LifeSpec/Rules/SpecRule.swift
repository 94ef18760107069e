import LifecycleEngine

/// What a rule sees: the lowered spec, the raw one (for the locations of individual tokens), and
/// the engine's exploration of the machine, computed once for every rule.
struct RuleContext {
    let spec: LoadedSpec
    let raw: RawSpec
    let space: StateSpace
    var machine: Machine { spec.machine }
    var document: SpecDocument { spec.document }

    func location(ofTransition index: Int) -> SourceLocation { raw.transitions[index].location }
    func location(ofState id: String) -> SourceLocation? { document.state(id)?.location }

    func describe(_ transition: Transition) -> String {
        let trigger = transition.trigger.eventID.map { "on '\($0)'" } ?? "always"
        let target = transition.target.map { " → '\($0)'" } ?? " (internal)"
        return "transition from \(transition.sources.map { "'\($0)'" }.joined(separator: ", ")) \(trigger)\(target)"
    }
}

/// What a rule reports: a message at a location, under a stable code. A finding has no severity:
/// whether it is an error or a warning is decided where findings become diagnostics
/// (`RuleSeverity`), as swift-format leaves it to its configuration, so the same rule can be
/// advisory under SCXML semantics without knowing it.
struct Finding: Sendable {
    /// A finding's text. Each rule declares its messages beside itself, in an extension of this type.
    struct Message: Sendable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    let code: DiagnosticCode
    let message: Message
    let location: SourceLocation
    /// Further lines printed under the message.
    let notes: [String]

    init(_ code: DiagnosticCode, _ message: Message, at location: SourceLocation, notes: [String] = []) {
        self.code = code
        self.message = message
        self.location = location
        self.notes = notes
    }
}

/// Whether a finding is an error or a warning: the one place that decides it.
struct RuleSeverity: Sendable {
    /// Findings that do not stop generation: the spec still describes a lifecycle, but probably
    /// not the one its author meant.
    static let warnings: Set<DiagnosticCode> = [
        .uncoverableTransition, .unrestorableHistory, .unhandledDoneEvent, .chinesePunctuation, .sharedName,
        .missingDrawingTitle,
    ]

    /// Further codes that are warnings under this policy.
    let advisory: Set<DiagnosticCode>

    static let lifecycle = RuleSeverity(advisory: [])
    /// What a lifecycle spec must not do, a chart with SCXML's semantics (`unhandled: ignore`, every
    /// SCXML file) may: a state nothing leaves or nothing reaches (test charts have both), and
    /// transitions that document order chooses between. These are warnings there.
    static let scxmlSemantics = RuleSeverity(advisory: [
        .deadEnd, .unreachableState, .unreachableRegion, .nondeterminism,
    ])

    /// The policy a spec is checked under: SCXML's semantics when it ignores unhandled events
    /// (every SCXML file does), a lifecycle's otherwise. Every rule's finding about that spec gets
    /// its severity from this one decision, on the error paths too.
    static func policy(for raw: RawSpec) -> RuleSeverity {
        raw.unhandled?.value == .ignore ? .scxmlSemantics : .lifecycle
    }

    func severity(of code: DiagnosticCode) -> Diagnostic.Severity {
        Self.warnings.contains(code) || advisory.contains(code) ? .warning : .error
    }

    func diagnostic(_ finding: Finding) -> Diagnostic {
        Diagnostic(
            severity(of: finding.code), finding.code, finding.message.text, at: finding.location, notes: finding.notes)
    }
}

/// One check over a lowered spec. Each rule lives in its own file with its messages.
protocol SpecRule: Sendable {
    static func check(_ context: RuleContext) -> [Finding]
}

/// One check that needs only the spec as read, so it runs even when references are broken.
protocol RawSpecRule: Sendable {
    static func check(_ raw: RawSpec) -> [Finding]
}

/// The registry: every rule, in the order their findings are reported.
enum SpecRules {
    static var all: [any SpecRule.Type] {
        [
            NondeterminismRule.self,
            EventlessCycleRule.self,
            ReachabilityRule.self,
            DeadEndRule.self,
            ScenarioReplayRule.self,
            UnreachableRegionRule.self,
            UnrestorableHistoryRule.self,
            UnhandledDoneEventRule.self,
            DrawingTitleRule.self,
        ]
    }

    static var rawRules: [any RawSpecRule.Type] {
        [UnsatisfiableGuardRule.self, PlatformNamesRule.self, ChinesePunctuationRule.self, SharedNamesRule.self]
    }

    static func check(raw: RawSpec, severity: RuleSeverity) -> [Diagnostic] {
        rawRules.flatMap { $0.check(raw) }.map(severity.diagnostic)
    }

    /// The diagnostics, and the exploration the rules shared (for `LoadedSpec.stateSpace`).
    static func check(_ spec: LoadedSpec, raw: RawSpec, severity: RuleSeverity) -> (
        diagnostics: [Diagnostic], space: StateSpace
    ) {
        let context = RuleContext(spec: spec, raw: raw, space: StateSpaceMemo.space(for: spec.machine))
        return (all.flatMap { $0.check(context) }.map(severity.diagnostic), context.space)
    }
}
