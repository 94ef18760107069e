import Foundation
import LifecycleEngine

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An SCXML document in the subset LifeSpec runs: the null datamodel plus `In()` conditions;
/// `<state>`, `<parallel>`, `<final>`, `<history>`, `<initial>`, `<transition>` (several events and
/// targets, `type="internal"`), `<onentry>`/`<onexit>`, and as executable content `<raise>` and
/// `<log>` (a callback). Everything else is refused with a located diagnostic by `SCXMLReader`.
package struct SCXMLDocument: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case state, parallel, final
        case history(HistoryDepth)
    }

    /// Executable content, in document order.
    package enum Content: Sendable, Hashable {
        case raise(String)
        /// A `<log>`: the callback it stands for.
        case log(String)
        /// `<log label="notification" expr="'id'"/>`.
        case notify(String)
        /// `<assign location="flag" expr="true|false"/>` (boolean flags of an ECMAScript datamodel).
        case assign(flag: String, value: Bool)
    }

    /// What LifeSpec's own export records in its namespace (`SCXMLReader.lifespecNamespace`), so a
    /// spec survives YAML → SCXML → YAML: names, kinds and posted notifications.
    package struct Metadata: Sendable, Hashable {
        package var title: String?
        package var unhandled: UnhandledEventPolicy?
        package var eventKinds: [String: LifecycleEvent.Kind] = [:]
        /// The events in the order the spec declared them.
        package var eventOrder: [String] = []
        package var callbacks: [LifecycleCallback] = []
        package var notifications: [LifecycleNotification] = []
        /// `<lifespec:yaml>`: the spec's own YAML (titles, descriptions, scenarios and the rest).
        package var yaml: CarriedYAML?
        /// `<lifespec:flag id var>`: the flag a `<data>` variable stands for, where they differ (a
        /// system's `A.needsLayout` is the variable `A$needsLayout`), with where the chart says so.
        package var flagNames: [String: FlagName] = [:]
    }

    /// A flag's id for a `<data>` variable, and where the chart names it.
    package struct FlagName: Sendable, Hashable {
        package var id: String
        package var location: SourceLocation
    }

    /// The YAML text of the spec a chart was exported from, and where the chart carries it.
    package struct CarriedYAML: Sendable, Hashable {
        package var text: String
        package var location: SourceLocation
    }

    package struct State: Sendable, Hashable {
        package var id: String
        /// Position of the parent in `states`; nil at the top level.
        package var parent: Int?
        package var kind: Kind
        /// The `initial` attribute's ids, or the `<initial>` transition's targets.
        package var initial: [String]
        /// What the `<initial>` transition runs.
        package var initialContent: [Content]
        package var entry: [Content]
        package var exit: [Content]
        package var location: SourceLocation
        /// The document gave no id: this one was generated (document order).
        package var idIsGenerated: Bool
    }

    package struct Transition: Sendable, Hashable {
        /// Position of the state it is declared on in `states`.
        package var source: Int
        /// Event descriptors as written (`a`, `a.b`, `a.*`, `*`); empty for an eventless transition.
        package var events: [String]
        package var condition: GuardExpression?
        package var targets: [String]
        package var type: TransitionType
        package var content: [Content]
        package var location: SourceLocation
        /// Further states it is declared on (a spec's `from: [a, b]`, exported once per state).
        package var extraSources: [Int] = []
        /// `lifespec:index`: its position in the exported spec.
        package var specIndex: Int?
    }

    package var path: String
    /// The `<scxml name>`, if any.
    package var name: String?
    /// The `<scxml initial>` ids, or the first top-level state.
    package var initial: [String]
    /// Every state in document order (parents before children).
    package var states: [State]
    /// Transitions in document order (a history state's default included, an `<initial>`'s not).
    package var transitions: [Transition]
    package var rootLocation: SourceLocation
    /// Boolean `<data>` of an ECMAScript datamodel: LifeSpec's flags, with their defaults.
    package var flags: [LifecycleFlag] = []
    package var metadata = Metadata()

    /// Events named by transitions (descriptors without `.*`, `*` excluded) and `<raise>`, in first-use order.
    package var eventNames: [String] {
        var seen: Set<String> = []
        var result: [String] = []
        func add(_ name: String) { if seen.insert(name).inserted { result.append(name) } }
        // The exported spec's own order first; then transitions' events, then raised ones.
        for name in metadata.eventOrder { add(name) }
        for transition in transitions {
            for descriptor in transition.events {
                guard let name = Self.eventName(descriptor) else { continue }
                add(name)
            }
        }
        for name in raisedEvents { add(name) }
        return result
    }

    /// Events `<raise>` queues, in first-use order.
    package var raisedEvents: [String] {
        names { if case .raise(let name) = $0 { name } else { nil } }
    }

    /// Callbacks (`<log>`), in first-use order.
    package var callbackNames: [String] {
        names { if case .log(let name) = $0 { name } else { nil } }
    }

    /// Notifications (`<log label="notification">`) and the ones the metadata declares, in first-use order.
    package var notificationNames: [String] {
        names(after: metadata.notifications.map(\.id)) { if case .notify(let name) = $0 { name } else { nil } }
    }

    /// The names `pick` finds in the executable content, each once: `first`, then in document order
    /// (each state's entry, initial and exit content, then the transitions').
    private func names(after first: [String] = [], _ pick: (Content) -> String?) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for name in first where seen.insert(name).inserted { result.append(name) }
        let blocks = states.flatMap { [$0.entry, $0.initialContent, $0.exit] } + transitions.map(\.content)
        for block in blocks {
            for item in block { if let name = pick(item), seen.insert(name).inserted { result.append(name) } }
        }
        return result
    }

    /// Callbacks: the metadata's, then every other `<log>` callback.
    var allCallbacks: [LifecycleCallback] {
        var result = metadata.callbacks
        var seen = Set(result.map(\.id))
        for name in callbackNames where seen.insert(name).inserted { result.append(LifecycleCallback(id: name)) }
        return result
    }

    /// The event a descriptor names: `a.*` and `a.` name `a`; `*` names none.
    package static func eventName(_ descriptor: String) -> String? {
        if descriptor == "*" { return nil }
        if descriptor.hasSuffix(".*") { return String(descriptor.dropLast(2)) }
        if descriptor.hasSuffix(".") { return String(descriptor.dropLast()) }
        return descriptor
    }
}

extension SCXMLDocument.State {
    package var isHistory: Bool { if case .history = kind { true } else { false } }
}
