/// The shared engine's immutable model of one lifecycle.
///
/// A `Machine` is lowered from a spec by the `LifeSpec` module, but it knows nothing about YAML:
/// generated conformance suites and other programs build or load one and run it with `Runner`.
/// Every renderer, the validator, the simulator and the generated suites go through this type, so
/// the lifecycle semantics live here and nowhere else.
public struct Machine: Sendable, Hashable {
    /// Everything lives in one immutable object: a `Runner` copies its machine for every event it
    /// handles (to stay atomic), and copying one reference is one retain where a struct of a dozen
    /// arrays and dictionaries was a dozen.
    private let storage: Storage

    public var id: String { storage.id }
    /// Every state in document order (a parent before its children).
    public var states: [StateNode] { storage.states }
    /// The top-level initial state (possibly compound; `initialLeaf` resolves it).
    public var initial: String { storage.initial }
    public var events: [LifecycleEvent] { storage.events }
    public var flags: [LifecycleFlag] { storage.flags }
    public var callbacks: [LifecycleCallback] { storage.callbacks }
    public var notifications: [LifecycleNotification] { storage.notifications }
    /// Transitions in document order; `Transition.index` is the position in this array.
    public var transitions: [Transition] { storage.transitions }

    public init(
        id: String,
        states: [StateNode],
        initial: String,
        events: [LifecycleEvent] = [],
        flags: [LifecycleFlag] = [],
        callbacks: [LifecycleCallback] = [],
        notifications: [LifecycleNotification] = [],
        transitions: [Transition] = []
    ) throws(MachineError) {
        storage = try Storage(id: id, states: states, initial: initial, events: events, flags: flags, callbacks: callbacks,
                              notifications: notifications, transitions: transitions)
    }

    public static func == (lhs: Machine, rhs: Machine) -> Bool {
        if lhs.storage === rhs.storage { return true }
        // Everything else is derived from these.
        return lhs.id == rhs.id && lhs.initial == rhs.initial && lhs.states == rhs.states && lhs.events == rhs.events
            && lhs.flags == rhs.flags && lhs.callbacks == rhs.callbacks && lhs.notifications == rhs.notifications
            && lhs.transitions == rhs.transitions
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(initial)
        hasher.combine(states)
        hasher.combine(events)
        hasher.combine(flags)
        hasher.combine(callbacks)
        hasher.combine(notifications)
        hasher.combine(transitions)
    }

    private final class Storage: Sendable {
        let id: String
        let states: [StateNode]
        let initial: String
        let events: [LifecycleEvent]
        let flags: [LifecycleFlag]
        let callbacks: [LifecycleCallback]
        let notifications: [LifecycleNotification]
        let transitions: [Transition]

        let stateIndex: [String: Int]
        let callbackIndex: [String: Int]
        let notificationIndex: [String: Int]
        let eventIndex: [String: Int]
        let flagIndex: [String: Int]
        /// For every state, the transitions declared on it, in document order.
        let transitionsBySource: [String: [Int]]
        /// Precomputed per state: the runner asks these on every event, renderers for every cell.
        let ancestryByState: [String: [String]]
        let leafByState: [String: String]
        let handledEventsByState: [String: [String]]
        /// The same tables by position, for the runner's hot path (no string hashing per event).
        let tables: RunTables

        init(
            id: String, states: [StateNode], initial: String, events: [LifecycleEvent], flags: [LifecycleFlag],
            callbacks: [LifecycleCallback], notifications: [LifecycleNotification], transitions: [Transition]
        ) throws(MachineError) {
            self.id = id
            self.states = states
            self.initial = initial
            self.events = events
            self.flags = flags
            self.callbacks = callbacks
            self.notifications = notifications
            self.transitions = transitions.enumerated().map { offset, transition in
                var copy = transition
                copy.index = offset
                return copy
            }
            stateIndex = try Self.index(states.map(\.id), kind: "state")
            callbackIndex = try Self.index(callbacks.map(\.id), kind: "callback")
            notificationIndex = try Self.index(notifications.map(\.id), kind: "notification")
            eventIndex = try Self.index(events.map(\.id), kind: "event")
            flagIndex = try Self.index(flags.map(\.id), kind: "flag")
            var bySource: [String: [Int]] = [:]
            for transition in self.transitions {
                for source in transition.sources { bySource[source, default: []].append(transition.index) }
            }
            transitionsBySource = bySource
            var ancestries: [String: [String]] = [:]
            var parents: [String: String] = [:]
            for state in states { if let parent = state.parent { parents[state.id] = parent } }
            for state in states {
                var chain = [state.id]
                var seen: Set<String> = [state.id]
                while let parent = parents[chain[chain.count - 1]], seen.insert(parent).inserted { chain.append(parent) }
                ancestries[state.id] = chain
            }
            ancestryByState = ancestries
            var leaves: [String: String] = [:]
            let byID = Dictionary(states.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for state in states {
                var current = state.id
                var seen: Set<String> = []
                while let node = byID[current], let child = node.initial, !node.children.isEmpty, seen.insert(current).inserted {
                    current = child
                }
                leaves[state.id] = current
            }
            leafByState = leaves
            let eventOrder = Dictionary(events.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            var handled: [String: [String]] = [:]
            for state in states {
                var seenEvents: Set<String> = []
                for id in ancestries[state.id] ?? [] {
                    for index in bySource[id] ?? [] {
                        if case .event(let event) = self.transitions[index].trigger { seenEvents.insert(event) }
                    }
                }
                handled[state.id] = seenEvents.sorted { (eventOrder[$0] ?? 0) < (eventOrder[$1] ?? 0) }
            }
            handledEventsByState = handled
            try Self.validateReferences(
                states: states, initial: initial, transitions: self.transitions, callbacks: callbacks,
                stateIndex: stateIndex, callbackIndex: callbackIndex, notificationIndex: notificationIndex,
                eventIndex: eventIndex, flagIndex: flagIndex
            )
            // Only a machine whose references all resolve gets here, so every lookup below succeeds.
            tables = RunTables(
                states: states, transitions: self.transitions, callbacks: callbacks, flags: flags,
                stateIndex: stateIndex, callbackIndex: callbackIndex, eventIndex: eventIndex, flagIndex: flagIndex,
                ancestryByState: ancestries, leafByState: leaves, handledEventsByState: handled, transitionsBySource: bySource
            )
        }

        private static func index(_ ids: [String], kind: String) throws(MachineError) -> [String: Int] {
            var result: [String: Int] = [:]
            for (offset, id) in ids.enumerated() {
                if result.updateValue(offset, forKey: id) != nil { throw .duplicate(kind: kind, id: id) }
            }
            return result
        }

        /// The engine refuses a model it cannot run; the spec validator reports the same problems
        /// with source locations before lowering, so users only meet these through the library API.
        private static func validateReferences(
            states: [StateNode], initial: String, transitions: [Transition], callbacks: [LifecycleCallback],
            stateIndex: [String: Int], callbackIndex: [String: Int], notificationIndex: [String: Int],
            eventIndex: [String: Int], flagIndex: [String: Int]
        ) throws(MachineError) {
            guard stateIndex[initial] != nil else { throw .unknown(kind: "state", id: initial, context: "machine initial") }
            for state in states {
                if let parent = state.parent, stateIndex[parent] == nil {
                    throw .unknown(kind: "state", id: parent, context: "parent of '\(state.id)'")
                }
                // The runner numbers states, so a child must be one (entering a compound state could
                // otherwise end in a state the machine does not have).
                for child in state.children where stateIndex[child] == nil {
                    throw .unknown(kind: "state", id: child, context: "child of '\(state.id)'")
                }
                if !state.children.isEmpty {
                    guard let child = state.initial, state.children.contains(child) else {
                        throw .compoundWithoutInitial(state.id)
                    }
                }
            }
            for transition in transitions {
                for source in transition.sources where stateIndex[source] == nil {
                    throw .unknown(kind: "state", id: source, context: "transition \(transition.index) source")
                }
                if let target = transition.target, stateIndex[target] == nil {
                    throw .unknown(kind: "state", id: target, context: "transition \(transition.index) target")
                }
                if case .event(let event) = transition.trigger, eventIndex[event] == nil {
                    throw .unknown(kind: "event", id: event, context: "transition \(transition.index)")
                }
                for action in transition.actions {
                    switch action {
                    case .callback(let id) where callbackIndex[id] == nil:
                        throw .unknown(kind: "callback", id: id, context: "transition \(transition.index)")
                    case .notify(let id) where notificationIndex[id] == nil:
                        throw .unknown(kind: "notification", id: id, context: "transition \(transition.index)")
                    default: break
                    }
                }
                for flag in transition.guardExpression?.flags ?? [] where flagIndex[flag] == nil {
                    throw .unknown(kind: "flag", id: flag, context: "transition \(transition.index) guard")
                }
                for assignment in transition.assignments where flagIndex[assignment.flag] == nil {
                    throw .unknown(kind: "flag", id: assignment.flag, context: "transition \(transition.index) set")
                }
                for event in transition.raises where eventIndex[event] == nil {
                    throw .unknown(kind: "event", id: event, context: "transition \(transition.index) raise")
                }
            }
            for callback in callbacks {
                if let posted = callback.posts, notificationIndex[posted.notification] == nil {
                    throw .unknown(kind: "notification", id: posted.notification, context: "callback '\(callback.id)'")
                }
            }
        }
    }

    /// The machine by position, for `Runner` and `StateSpace`: states, events and flags are numbered
    /// as in `states`, `events` and `flags`, and flag values are `[Bool]` in `flags` order.
    var tables: RunTables { storage.tables }

    func stateIndex(of id: String) -> Int? { storage.stateIndex[id] }
    func eventIndex(of id: String) -> Int? { storage.eventIndex[id] }
    func flagIndex(of id: String) -> Int? { storage.flagIndex[id] }

    // MARK: Lookup

    public func state(_ id: String) -> StateNode? { storage.stateIndex[id].map { storage.states[$0] } }
    public func callback(_ id: String) -> LifecycleCallback? { storage.callbackIndex[id].map { storage.callbacks[$0] } }
    public func notification(_ id: String) -> LifecycleNotification? { storage.notificationIndex[id].map { storage.notifications[$0] } }
    public func event(_ id: String) -> LifecycleEvent? { storage.eventIndex[id].map { storage.events[$0] } }
    public func flag(_ id: String) -> LifecycleFlag? { storage.flagIndex[id].map { storage.flags[$0] } }

    /// Transitions declared on exactly this state (not inherited from ancestors).
    public func transitions(declaredOn state: String) -> [Transition] {
        (storage.transitionsBySource[state] ?? []).map { storage.transitions[$0] }
    }

    /// The state and its ancestors, innermost first.
    public func ancestry(of state: String) -> [String] {
        storage.ancestryByState[state] ?? []
    }

    /// Entering a state enters its `initial` child, recursively, until a leaf.
    public func leaf(entering state: String) -> String {
        storage.leafByState[state] ?? state
    }

    public var initialLeaf: String { leaf(entering: initial) }

    public var leafStates: [StateNode] { states.filter(\.isLeaf) }

    public var topLevelStates: [StateNode] { states.filter { $0.parent == nil } }

    /// Flag values with every declared default, overridden by `overrides`.
    public func flagValues(_ overrides: [String: Bool] = [:]) -> [String: Bool] {
        var values: [String: Bool] = [:]
        for flag in flags { values[flag.id] = flag.defaultValue }
        values.merge(overrides) { _, new in new }
        return values
    }

    /// The callback followed or preceded by its posted notification, as the engine emits it.
    public func expand(_ action: Action) -> [Step] {
        Self.expand(action) { callback($0)?.posts }
    }

    fileprivate static func expand(_ action: Action, posts: (String) -> PostedNotification?) -> [Step] {
        switch action {
        case .notify(let id):
            return [.notification(id)]
        case .callback(let id):
            guard let posted = posts(id) else { return [.callback(id)] }
            switch posted.order {
            case .before: return [.notification(posted.notification), .callback(id)]
            case .after: return [.callback(id), .notification(posted.notification)]
            }
        }
    }

    /// Events handled (by some transition, guard permitting) in a state or its ancestors, in
    /// declaration order. Cost is in the transitions on the way up, not in the number of events.
    public func handledEvents(in state: String) -> [String] {
        storage.handledEventsByState[state] ?? []
    }

}

/// A `Machine` by position, for the runner's hot path: states, events, transitions and flags are
/// numbered as in the machine's arrays, flag values are `[Bool]` in `Machine.flags` order, and nothing
/// on the way from an event to its steps hashes a string. Built once per machine, after its references
/// were checked, so every index here is valid.
struct RunTables: Sendable {
    struct Assignment: Sendable {
        let flag: Int
        let value: Bool
    }

    /// Per state: itself and its ancestors, innermost first.
    let ancestry: [[Int]]
    /// Per state: the leaf that entering it ends in.
    let leaf: [Int]
    /// Per state: the transitions declared on it, in document order.
    let declared: [[Int]]
    /// Per state: the events some transition on the way up handles, in event order.
    let handledEvents: [[Int]]
    /// Per transition: its event, or -1 for an eventless one.
    let trigger: [Int]
    /// Per transition: the leaf it lands in, or -1 for an internal one.
    let targetLeaf: [Int]
    let guards: [FlagGuard?]
    let assignments: [[Assignment]]
    let raises: [[Int]]
    /// Per transition: what its actions emit (callbacks expanded with their posted notifications).
    let actionSteps: [[Step]]
    let flagDefaults: [Bool]

    init(
        states: [StateNode], transitions: [Transition], callbacks: [LifecycleCallback], flags: [LifecycleFlag],
        stateIndex: [String: Int], callbackIndex: [String: Int], eventIndex: [String: Int], flagIndex: [String: Int],
        ancestryByState: [String: [String]], leafByState: [String: String], handledEventsByState: [String: [String]],
        transitionsBySource: [String: [Int]]
    ) {
        ancestry = states.map { state in (ancestryByState[state.id] ?? []).map { stateIndex[$0]! } }
        leaf = states.map { state in stateIndex[leafByState[state.id] ?? state.id]! }
        declared = states.map { transitionsBySource[$0.id] ?? [] }
        handledEvents = states.map { state in (handledEventsByState[state.id] ?? []).map { eventIndex[$0]! } }
        trigger = transitions.map { transition in transition.trigger.eventID.map { eventIndex[$0]! } ?? -1 }
        let leaf = self.leaf
        targetLeaf = transitions.map { transition in transition.target.map { leaf[stateIndex[$0]!] } ?? -1 }
        guards = transitions.map { transition in transition.guardExpression.map { FlagGuard($0, flagIndex: flagIndex) } }
        assignments = transitions.map { transition in
            transition.assignments.map { Assignment(flag: flagIndex[$0.flag]!, value: $0.value) }
        }
        raises = transitions.map { transition in transition.raises.map { eventIndex[$0]! } }
        actionSteps = transitions.map { transition in
            transition.actions.flatMap { action in
                Machine.expand(action) { id in callbackIndex[id].flatMap { callbacks[$0].posts } }
            }
        }
        flagDefaults = flags.map(\.defaultValue)
    }
}

/// A guard over flag positions, evaluated on `[Bool]` flag values.
indirect enum FlagGuard: Sendable {
    case flag(Int)
    case constant(Bool)
    case not(FlagGuard)
    case and(FlagGuard, FlagGuard)
    case or(FlagGuard, FlagGuard)

    init(_ expression: GuardExpression, flagIndex: [String: Int]) {
        switch expression {
        // An unknown flag reads as false, as in `GuardExpression.evaluate` (a machine has none).
        case .flag(let id): self = flagIndex[id].map(FlagGuard.flag) ?? .constant(false)
        case .constant(let value): self = .constant(value)
        case .not(let inner): self = .not(FlagGuard(inner, flagIndex: flagIndex))
        case .and(let lhs, let rhs): self = .and(FlagGuard(lhs, flagIndex: flagIndex), FlagGuard(rhs, flagIndex: flagIndex))
        case .or(let lhs, let rhs): self = .or(FlagGuard(lhs, flagIndex: flagIndex), FlagGuard(rhs, flagIndex: flagIndex))
        }
    }

    func evaluate(_ values: [Bool]) -> Bool {
        switch self {
        case .flag(let index): values[index]
        case .constant(let value): value
        case .not(let inner): !inner.evaluate(values)
        case .and(let lhs, let rhs): lhs.evaluate(values) && rhs.evaluate(values)
        case .or(let lhs, let rhs): lhs.evaluate(values) || rhs.evaluate(values)
        }
    }
}

public enum MachineError: Error, Hashable, Sendable, CustomStringConvertible {
    case duplicate(kind: String, id: String)
    case unknown(kind: String, id: String, context: String)
    case compoundWithoutInitial(String)

    public var description: String {
        switch self {
        case let .duplicate(kind, id): "duplicate \(kind) id '\(id)'"
        case let .unknown(kind, id, context): "unknown \(kind) '\(id)' in \(context)"
        case let .compoundWithoutInitial(id): "compound state '\(id)' has no valid initial child"
        }
    }
}

public struct StateNode: Sendable, Hashable {
    public let id: String
    public let parent: String?
    public let children: [String]
    /// The child entered when this compound state is entered.
    public let initial: String?
    public let isFinal: Bool

    public init(id: String, parent: String? = nil, children: [String] = [], initial: String? = nil, isFinal: Bool = false) {
        self.id = id
        self.parent = parent
        self.children = children
        self.initial = initial
        self.isFinal = isFinal
    }

    public var isLeaf: Bool { children.isEmpty }
    public var isCompound: Bool { !children.isEmpty }
}

public struct LifecycleEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable { case user, system, `internal` }
    public let id: String
    public let kind: Kind
    public init(id: String, kind: Kind = .system) {
        self.id = id
        self.kind = kind
    }
}

public struct LifecycleFlag: Sendable, Hashable {
    public let id: String
    public let defaultValue: Bool
    public init(id: String, defaultValue: Bool = false) {
        self.id = id
        self.defaultValue = defaultValue
    }
}

public struct LifecycleCallback: Sendable, Hashable {
    public let id: String
    /// The Swift name, e.g. `applicationWillResignActive(_:)`.
    public let swiftName: String
    /// The Objective-C selector, e.g. `applicationWillResignActive:`.
    public let objcName: String?
    public let posts: PostedNotification?

    public init(id: String, swiftName: String? = nil, objcName: String? = nil, posts: PostedNotification? = nil) {
        self.id = id
        self.swiftName = swiftName ?? id
        self.objcName = objcName
        self.posts = posts
    }
}

public struct PostedNotification: Sendable, Hashable {
    public enum Order: String, Sendable, Hashable, CaseIterable { case before, after }
    public let notification: String
    /// Whether the notification is posted before or after the callback runs.
    public let order: Order
    public init(notification: String, order: Order = .after) {
        self.notification = notification
        self.order = order
    }
}

public struct LifecycleNotification: Sendable, Hashable {
    public let id: String
    public let swiftName: String
    public let objcName: String?
    public init(id: String, swiftName: String? = nil, objcName: String? = nil) {
        self.id = id
        self.swiftName = swiftName ?? id
        self.objcName = objcName
    }
}

public enum Action: Sendable, Hashable {
    case callback(String)
    case notify(String)
}

public enum Trigger: Sendable, Hashable {
    case event(String)
    /// Eventless: taken as soon as its source is active and its guard holds.
    case always

    public var eventID: String? {
        if case .event(let id) = self { id } else { nil }
    }
}

public struct FlagAssignment: Sendable, Hashable {
    public let flag: String
    public let value: Bool
    public init(flag: String, value: Bool) {
        self.flag = flag
        self.value = value
    }
}

public struct Transition: Sendable, Hashable {
    /// Position in `Machine.transitions`; assigned by `Machine.init`.
    public internal(set) var index: Int
    /// The states this transition is declared on; it applies in their descendants too.
    public let sources: [String]
    public let trigger: Trigger
    public let guardExpression: GuardExpression?
    /// `nil` for an internal transition: actions run, the state does not change.
    public let target: String?
    public let actions: [Action]
    public let assignments: [FlagAssignment]
    /// Internal events queued for after this transition (run to completion).
    public let raises: [String]

    public init(
        sources: [String],
        trigger: Trigger,
        guardExpression: GuardExpression? = nil,
        target: String?,
        actions: [Action] = [],
        assignments: [FlagAssignment] = [],
        raises: [String] = []
    ) {
        self.index = -1
        self.sources = sources
        self.trigger = trigger
        self.guardExpression = guardExpression
        self.target = target
        self.actions = actions
        self.assignments = assignments
        self.raises = raises
    }

    public var isInternal: Bool { target == nil }
    public var isEventless: Bool { trigger == .always }

    public func isEnabled(flags: [String: Bool]) -> Bool {
        guardExpression?.evaluate(flags) ?? true
    }
}
