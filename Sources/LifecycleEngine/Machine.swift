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
        /// Per state, by position: `tables.ancestry` and `tables.handledEvents` as ids, for the
        /// string API (renderers ask for every cell; a per-id dictionary of each cost more to build
        /// than everything else here).
        let ancestryIDs: [[String]]
        let handledEventIDs: [[String]]
        /// Everything by position, for the runner's hot path (no string hashing per event).
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
            let tables = try RunTables(
                states: states, initial: initial, transitions: self.transitions, events: events, flags: flags,
                callbacks: callbacks, stateIndex: stateIndex, callbackIndex: callbackIndex,
                notificationIndex: notificationIndex, eventIndex: eventIndex, flagIndex: flagIndex
            )
            self.tables = tables
            ancestryIDs = tables.ancestry.map { chain in chain.map { states[$0].id } }
            handledEventIDs = tables.handledEvents.map { list in list.map { events[$0].id } }
        }

        private static func index(_ ids: [String], kind: String) throws(MachineError) -> [String: Int] {
            var result: [String: Int] = [:]
            result.reserveCapacity(ids.count)
            for (offset, id) in ids.enumerated() {
                if result.updateValue(offset, forKey: id) != nil { throw .duplicate(kind: kind, id: id) }
            }
            return result
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
        guard let index = storage.stateIndex[state] else { return [] }
        return storage.tables.declared[index].map { storage.transitions[$0] }
    }

    /// The state and its ancestors, innermost first.
    public func ancestry(of state: String) -> [String] {
        storage.stateIndex[state].map { storage.ancestryIDs[$0] } ?? []
    }

    /// Entering a state enters its `initial` child, recursively, until a leaf.
    public func leaf(entering state: String) -> String {
        storage.stateIndex[state].map { storage.states[storage.tables.leaf[$0]].id } ?? state
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
        storage.stateIndex[state].map { storage.handledEventIDs[$0] } ?? []
    }

}

/// A `Machine` by position, for the runner's hot path: states, events, transitions and flags are
/// numbered as in the machine's arrays, flag values are `[Bool]` in `Machine.flags` order, and nothing
/// on the way from an event to its steps hashes a string. A class: the runner reads it on every
/// step, and copying a struct of eleven arrays out of the machine cost eleven retains and releases.
final class RunTables: Sendable {
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

    /// Resolves every reference once, both to check it and to number it: the engine refuses a model
    /// it cannot run. The checks run in a fixed order (initial, states, transitions, callbacks) so the
    /// error thrown for a broken model is always the first of them. The spec validator reports the
    /// same problems with source locations before lowering, so users only meet these through the
    /// library API.
    init(
        states: [StateNode], initial: String, transitions: [Transition], events: [LifecycleEvent], flags: [LifecycleFlag],
        callbacks: [LifecycleCallback], stateIndex: [String: Int], callbackIndex: [String: Int],
        notificationIndex: [String: Int], eventIndex: [String: Int], flagIndex: [String: Int]
    ) throws(MachineError) {
        guard stateIndex[initial] != nil else { throw .unknown(kind: "state", id: initial, context: "machine initial") }
        let stateCount = states.count
        var parent = [Int](repeating: -1, count: stateCount)
        // The initial child of each compound state, -1 for a leaf.
        var initialChild = [Int](repeating: -1, count: stateCount)
        for (offset, state) in states.enumerated() {
            if let parentID = state.parent {
                guard let index = stateIndex[parentID] else {
                    throw .unknown(kind: "state", id: parentID, context: "parent of '\(state.id)'")
                }
                parent[offset] = index
            }
            // The runner numbers states, so a child must be one (entering a compound state could
            // otherwise end in a state the machine does not have).
            for child in state.children where stateIndex[child] == nil {
                throw .unknown(kind: "state", id: child, context: "child of '\(state.id)'")
            }
            if !state.children.isEmpty {
                guard let child = state.initial, state.children.contains(child), let index = stateIndex[child] else {
                    throw .compoundWithoutInitial(state.id)
                }
                initialChild[offset] = index
            }
        }
        // Walks stop at a state met before in the same walk (a cycle only a hand-built model can
        // have); `walk[s] == w` marks s as seen in walk w, so no walk allocates a set.
        var walk = [Int](repeating: -1, count: stateCount)
        var ancestry: [[Int]] = []
        ancestry.reserveCapacity(stateCount)
        for state in 0..<stateCount {
            var chain = [state]
            walk[state] = state
            var current = state
            while parent[current] >= 0, walk[parent[current]] != state {
                current = parent[current]
                walk[current] = state
                chain.append(current)
            }
            ancestry.append(chain)
        }
        walk = [Int](repeating: -1, count: stateCount)
        var leaf = [Int](repeating: 0, count: stateCount)
        for state in 0..<stateCount {
            var current = state
            while initialChild[current] >= 0, walk[current] != state {
                walk[current] = state
                current = initialChild[current]
            }
            leaf[state] = current
        }
        var declared = [[Int]](repeating: [], count: stateCount)
        var trigger: [Int] = [], targetLeaf: [Int] = [], guards: [FlagGuard?] = []
        var assignments: [[Assignment]] = [], raises: [[Int]] = [], actionSteps: [[Step]] = []
        trigger.reserveCapacity(transitions.count)
        targetLeaf.reserveCapacity(transitions.count)
        guards.reserveCapacity(transitions.count)
        assignments.reserveCapacity(transitions.count)
        raises.reserveCapacity(transitions.count)
        actionSteps.reserveCapacity(transitions.count)
        // Fields, not whole transitions: a copy of one retains every array in it.
        for position in transitions.indices {
            // Named only when thrown: building it for every transition cost more than the checks.
            func context(_ part: String = "") -> String { "transition \(position)" + part }
            for source in transitions[position].sources {
                guard let index = stateIndex[source] else { throw .unknown(kind: "state", id: source, context: context(" source")) }
                declared[index].append(position)
            }
            if let target = transitions[position].target {
                guard let index = stateIndex[target] else { throw .unknown(kind: "state", id: target, context: context(" target")) }
                targetLeaf.append(leaf[index])
            } else {
                targetLeaf.append(-1)
            }
            if case .event(let event) = transitions[position].trigger {
                guard let index = eventIndex[event] else { throw .unknown(kind: "event", id: event, context: context()) }
                trigger.append(index)
            } else {
                trigger.append(-1)
            }
            var steps: [Step] = []
            for action in transitions[position].actions {
                switch action {
                case .callback(let id):
                    guard let index = callbackIndex[id] else { throw .unknown(kind: "callback", id: id, context: context()) }
                    steps += Machine.expand(action) { _ in callbacks[index].posts }
                case .notify(let id):
                    guard notificationIndex[id] != nil else { throw .unknown(kind: "notification", id: id, context: context()) }
                    steps += Machine.expand(action) { _ in nil }
                }
            }
            actionSteps.append(steps)
            if let expression = transitions[position].guardExpression {
                guards.append(try FlagGuard(compiling: expression, flagIndex: flagIndex, context: context(" guard")))
            } else {
                guards.append(nil)
            }
            var flagAssignments: [Assignment] = []
            for assignment in transitions[position].assignments {
                guard let index = flagIndex[assignment.flag] else {
                    throw .unknown(kind: "flag", id: assignment.flag, context: context(" set"))
                }
                flagAssignments.append(Assignment(flag: index, value: assignment.value))
            }
            assignments.append(flagAssignments)
            var raised: [Int] = []
            for event in transitions[position].raises {
                guard let index = eventIndex[event] else { throw .unknown(kind: "event", id: event, context: context(" raise")) }
                raised.append(index)
            }
            raises.append(raised)
        }
        for callback in callbacks {
            if let posted = callback.posts, notificationIndex[posted.notification] == nil {
                throw .unknown(kind: "notification", id: posted.notification, context: "callback '\(callback.id)'")
            }
        }
        var eventSeen = [Int](repeating: -1, count: events.count)
        var handledEvents: [[Int]] = []
        handledEvents.reserveCapacity(stateCount)
        for state in 0..<stateCount {
            var handled: [Int] = []
            for ancestor in ancestry[state] {
                for index in declared[ancestor] where trigger[index] >= 0 && eventSeen[trigger[index]] != state {
                    eventSeen[trigger[index]] = state
                    handled.append(trigger[index])
                }
            }
            handledEvents.append(handled.sorted())
        }
        self.ancestry = ancestry
        self.leaf = leaf
        self.declared = declared
        self.handledEvents = handledEvents
        self.trigger = trigger
        self.targetLeaf = targetLeaf
        self.guards = guards
        self.assignments = assignments
        self.raises = raises
        self.actionSteps = actionSteps
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

    /// Throws for the first unknown flag in reading order (the order of `GuardExpression.flags`).
    init(compiling expression: GuardExpression, flagIndex: [String: Int], context: @autoclosure () -> String) throws(MachineError) {
        switch expression {
        case .flag(let id):
            guard let index = flagIndex[id] else { throw .unknown(kind: "flag", id: id, context: context()) }
            self = .flag(index)
        case .constant(let value): self = .constant(value)
        case .not(let inner): self = .not(try FlagGuard(compiling: inner, flagIndex: flagIndex, context: context()))
        case .and(let lhs, let rhs):
            self = .and(try FlagGuard(compiling: lhs, flagIndex: flagIndex, context: context()),
                        try FlagGuard(compiling: rhs, flagIndex: flagIndex, context: context()))
        case .or(let lhs, let rhs):
            self = .or(try FlagGuard(compiling: lhs, flagIndex: flagIndex, context: context()),
                       try FlagGuard(compiling: rhs, flagIndex: flagIndex, context: context()))
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
