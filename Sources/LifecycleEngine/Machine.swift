/// The shared engine's immutable model of one lifecycle.
///
/// A `Machine` is lowered from a spec by the `LifeSpec` module, but it knows nothing about YAML:
/// generated conformance suites and other programs build or load one and run it with `Runner`.
/// Every renderer, the validator, the simulator and the generated suites go through this type, so
/// the lifecycle semantics live here and nowhere else.
public struct Machine: Sendable, Hashable {
    public let id: String
    /// Every state in document order (a parent before its children).
    public let states: [StateNode]
    /// The top-level initial state (possibly compound; `initialLeaf` resolves it).
    public let initial: String
    public let events: [LifecycleEvent]
    public let flags: [LifecycleFlag]
    public let callbacks: [LifecycleCallback]
    public let notifications: [LifecycleNotification]
    /// Transitions in document order; `Transition.index` is the position in this array.
    public let transitions: [Transition]

    private let stateIndex: [String: Int]
    private let callbackIndex: [String: Int]
    private let notificationIndex: [String: Int]
    private let eventIndex: [String: Int]
    private let flagIndex: [String: Int]
    /// For every state, the transitions declared on it, in document order.
    private let transitionsBySource: [String: [Int]]
    /// Precomputed per state: the runner asks these on every event, renderers for every cell.
    private let ancestryByState: [String: [String]]
    private let leafByState: [String: String]
    private let handledEventsByState: [String: [String]]

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
        try validateReferences()
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
    private func validateReferences() throws(MachineError) {
        guard stateIndex[initial] != nil else { throw .unknown(kind: "state", id: initial, context: "machine initial") }
        for state in states {
            if let parent = state.parent, stateIndex[parent] == nil {
                throw .unknown(kind: "state", id: parent, context: "parent of '\(state.id)'")
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

    // MARK: Lookup

    public func state(_ id: String) -> StateNode? { stateIndex[id].map { states[$0] } }
    public func callback(_ id: String) -> LifecycleCallback? { callbackIndex[id].map { callbacks[$0] } }
    public func notification(_ id: String) -> LifecycleNotification? { notificationIndex[id].map { notifications[$0] } }
    public func event(_ id: String) -> LifecycleEvent? { eventIndex[id].map { events[$0] } }
    public func flag(_ id: String) -> LifecycleFlag? { flagIndex[id].map { flags[$0] } }

    /// Transitions declared on exactly this state (not inherited from ancestors).
    public func transitions(declaredOn state: String) -> [Transition] {
        (transitionsBySource[state] ?? []).map { transitions[$0] }
    }

    /// The state and its ancestors, innermost first.
    public func ancestry(of state: String) -> [String] {
        ancestryByState[state] ?? []
    }

    /// Entering a state enters its `initial` child, recursively, until a leaf.
    public func leaf(entering state: String) -> String {
        leafByState[state] ?? state
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
        switch action {
        case .notify(let id):
            return [.notification(id)]
        case .callback(let id):
            guard let posted = callback(id)?.posts else { return [.callback(id)] }
            switch posted.order {
            case .before: return [.notification(posted.notification), .callback(id)]
            case .after: return [.callback(id), .notification(posted.notification)]
            }
        }
    }

    /// Events handled (by some transition, guard permitting) in a state or its ancestors, in
    /// declaration order. Cost is in the transitions on the way up, not in the number of events.
    public func handledEvents(in state: String) -> [String] {
        handledEventsByState[state] ?? []
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
