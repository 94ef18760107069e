import LifeSpec
import LifecycleEngine

/// Dictionary lookups into a `SpecDocument`, built once per render.
///
/// `SpecDocument.state(_:)`, `event(_:)` and friends are linear `first(where:)` scans: fine for a
/// handful of lookups, quadratic when a renderer asks for every state's title on a machine with
/// thousands of states. This answers the same questions in constant time; like `first(where:)`,
/// the first declaration of an id wins.
struct DocumentIndex {
    let document: SpecDocument
    private let states: [String: Int]
    private let events: [String: Int]
    private let callbacks: [String: Int]
    private let notifications: [String: Int]
    private let flags: [String: Int]
    private let transitions: [Int: Int]

    init(_ document: SpecDocument) {
        self.document = document
        states = Self.positions(document.states.map(\.id))
        events = Self.positions(document.events.map(\.id))
        callbacks = Self.positions(document.callbacks.map(\.id))
        notifications = Self.positions(document.notifications.map(\.id))
        flags = Self.positions(document.flags.map(\.id))
        transitions = Self.positions(document.transitions.map(\.index))
    }

    private static func positions<Key: Hashable>(_ keys: [Key]) -> [Key: Int] {
        var result: [Key: Int] = [:]
        result.reserveCapacity(keys.count)
        for (offset, key) in keys.enumerated() where result[key] == nil { result[key] = offset }
        return result
    }

    func state(_ id: String) -> SpecDocument.StateInfo? { states[id].map { document.states[$0] } }
    func event(_ id: String) -> SpecDocument.EventInfo? { events[id].map { document.events[$0] } }
    func callback(_ id: String) -> SpecDocument.CallbackInfo? { callbacks[id].map { document.callbacks[$0] } }
    /// How diagrams and pages name a callback: a method by its Swift name, a closure the app
    /// passed to UIKit in braces (`{ expirationHandler }`), so it never reads as a delegate method.
    /// A call to an object the whole app shares is named by that object already in the machine
    /// (`SpecDocument.sharedReceivers`).
    func shownName(ofCallback id: String, in machine: Machine) -> String {
        let name = machine.callback(id)?.swiftName ?? id
        return callback(id)?.kind == .closure ? "{ \(name) }" : name
    }
    /// How diagrams and pages name a notification.
    func shownName(ofNotification id: String, in machine: Machine) -> String {
        machine.notification(id)?.swiftName ?? id
    }
    func notification(_ id: String) -> SpecDocument.NotificationInfo? {
        notifications[id].map { document.notifications[$0] }
    }
    func flag(_ id: String) -> SpecDocument.FlagInfo? { flags[id].map { document.flags[$0] } }

    /// A flag's title in `locale`, `nil` when it has none.
    func flagTitle(_ id: String, locale: String?) -> String? { document.text(flag(id)?.title, locale: locale) }

    /// A guard as drawings show it: in words when every flag and state it reads has a title, else
    /// as written (`nil`).
    func guardWords(_ expression: GuardExpression, locale: String?, words: Glossary) -> String? {
        words.guardWords(
            expression, flag: { flagTitle($0, locale: locale) },
            state: { id in
                guard let title = document.text(state(id)?.title, locale: locale) else { return nil }
                return (document.part(of: id)?.name, title)
            })
    }

    /// A `set` as drawings show it: by the flag's title when it has one.
    func assignmentWords(_ flag: String, to value: Bool, locale: String?, words: Glossary) -> String {
        flagTitle(flag, locale: locale).map { words.set(titled: $0, to: value) } ?? words.set(flag, to: value)
    }
    /// The prose of the transition whose `Machine.transitions` index is `index`.
    func transition(_ index: Int) -> SpecDocument.TransitionInfo? {
        transitions[index].map { document.transitions[$0] }
    }
}

/// A document entry with prose of its own: the description and cited source that a reference
/// table's last column shows.
protocol DocumentedElement {
    var description: LocalizedText? { get }
    var source: String? { get }
}

extension SpecDocument.NotificationInfo: DocumentedElement {}
