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
    /// What an event no enabled transition takes does.
    public var unhandledEvents: UnhandledEventPolicy { storage.unhandledEvents }
    /// The states the machine starts in: `[initial]`, or one per region (SCXML `initial="a b"`).
    public var initialTargets: [String] { storage.initialTargets }

    /// The same machine with `names` declared as events too (those it declares already are
    /// skipped). An SCXML processor takes any event name: one no transition names is matched by
    /// prefix (`foo` takes `foo.bar.bif`) or discarded, and the machine's matching does that only
    /// for events it declares.
    public func declaring(events names: [String]) throws(MachineError) -> Machine {
        var events = self.events
        for name in names where !events.contains(where: { $0.id == name }) {
            events.append(LifecycleEvent(id: name, kind: .system))
        }
        guard events.count > self.events.count else { return self }
        return try Machine(
            id: id, states: states, initial: initial, initialTargets: initialTargets, events: events, flags: flags,
            callbacks: callbacks, notifications: notifications, transitions: transitions,
            unhandledEvents: unhandledEvents)
    }

    /// `initialTargets` names several states to start in (one per region of a parallel state, as
    /// SCXML's `initial="a b"` does); empty means `[initial]`.
    public init(
        id: String,
        states: [StateNode],
        initial: String,
        initialTargets: [String] = [],
        events: [LifecycleEvent] = [],
        flags: [LifecycleFlag] = [],
        callbacks: [LifecycleCallback] = [],
        notifications: [LifecycleNotification] = [],
        transitions: [Transition] = [],
        unhandledEvents: UnhandledEventPolicy = .error
    ) throws(MachineError) {
        storage = try Storage(
            id: id, states: states, initial: initial, initialTargets: initialTargets, events: events,
            flags: flags, callbacks: callbacks, notifications: notifications, transitions: transitions,
            unhandledEvents: unhandledEvents)
    }

    public static func == (lhs: Machine, rhs: Machine) -> Bool {
        if lhs.storage === rhs.storage { return true }
        // Everything else is derived from these.
        return lhs.id == rhs.id && lhs.initial == rhs.initial && lhs.initialTargets == rhs.initialTargets
            && lhs.unhandledEvents == rhs.unhandledEvents && lhs.states == rhs.states && lhs.events == rhs.events
            && lhs.flags == rhs.flags && lhs.callbacks == rhs.callbacks && lhs.notifications == rhs.notifications
            && lhs.transitions == rhs.transitions
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(initial)
        hasher.combine(initialTargets)
        hasher.combine(unhandledEvents)
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
        let unhandledEvents: UnhandledEventPolicy
        let initialTargets: [String]

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
            id: String, states: [StateNode], initial: String, initialTargets: [String], events: [LifecycleEvent],
            flags: [LifecycleFlag], callbacks: [LifecycleCallback], notifications: [LifecycleNotification],
            transitions: [Transition], unhandledEvents: UnhandledEventPolicy
        ) throws(MachineError) {
            self.id = id
            self.states = states
            self.initial = initial
            self.initialTargets = initialTargets.isEmpty ? [initial] : initialTargets
            self.unhandledEvents = unhandledEvents
            self.flags = flags
            self.callbacks = callbacks
            self.notifications = notifications
            self.transitions = transitions.enumerated().map { offset, transition in
                var copy = transition
                copy.index = offset
                return copy
            }
            stateIndex = try Self.index(states.map(\.id), kind: .state)
            callbackIndex = try Self.index(callbacks.map(\.id), kind: .callback)
            notificationIndex = try Self.index(notifications.map(\.id), kind: .notification)
            let declaredEvents = try Self.index(events.map(\.id), kind: .event)
            flagIndex = try Self.index(flags.map(\.id), kind: .flag)
            let tables = try RunTables(
                states: states, initial: self.initialTargets, transitions: self.transitions, events: events,
                flags: flags,
                callbacks: callbacks, stateIndex: stateIndex, callbackIndex: callbackIndex,
                notificationIndex: notificationIndex, eventIndex: declaredEvents, flagIndex: flagIndex
            )
            self.tables = tables
            // `done.state.<id>` events the engine raises are events like the declared ones.
            self.events =
                events + tables.eventNames.dropFirst(events.count).map { LifecycleEvent(id: $0, kind: .internal) }
            eventIndex = tables.eventNumbers
            let allEvents = self.events
            ancestryIDs = tables.ancestry.map { chain in chain.map { states[$0].id } }
            handledEventIDs = tables.handledEvents.map { list in list.map { allEvents[$0].id } }
        }

        private static func index(_ ids: [String], kind: ElementKind) throws(MachineError) -> [String: Int] {
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
    public func notification(_ id: String) -> LifecycleNotification? {
        storage.notificationIndex[id].map { storage.notifications[$0] }
    }
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

    /// The `done.state.<id>` events a machine with these states raises: one per compound state with
    /// a final child, and per parallel state whose every region can complete. For loaders that check
    /// event names before a machine exists; `Machine.events` lists the same ones after the declared.
    public static func doneEvents(for states: [StateNode]) -> [String] {
        var index: [String: Int] = [:]
        for (offset, state) in states.enumerated() { index[state.id] = offset }
        var kind = [RunTables.Kind](repeating: .atomic, count: states.count)
        var children = [[Int]](repeating: [], count: states.count)
        for (offset, state) in states.enumerated() {
            if state.history != nil {
                kind[offset] = .shallowHistory
            } else if let parent = state.parent.flatMap({ index[$0] }) {
                children[parent].append(offset)
            }
        }
        for (offset, state) in states.enumerated() where state.history == nil && !children[offset].isEmpty {
            kind[offset] = state.isParallel ? .parallel : .compound
        }
        let complete = canComplete(kind: kind, children: children, isFinal: states.map(\.isFinal))
        return states.indices.filter { complete[$0] }.map { "done.state." + states[$0].id }
    }

    /// Per state (numbered parents before children): whether it can complete (SCXML's
    /// `isInFinalState` can hold).
    static func canComplete(kind: [RunTables.Kind], children: [[Int]], isFinal: [Bool]) -> [Bool] {
        var result = [Bool](repeating: false, count: kind.count)
        for state in stride(from: kind.count - 1, through: 0, by: -1) {
            if kind[state] == .compound {
                result[state] = children[state].contains { isFinal[$0] }
            } else if kind[state] == .parallel {
                result[state] = children[state].allSatisfy { result[$0] }
            }
        }
        return result
    }

    /// The callback followed or preceded by its posted notification, as the engine emits it.
    public func expand(_ action: Action) -> [Step] {
        Self.expand(action) { callback($0)?.posts }
    }

    static func expand(_ action: Action, posts: (String) -> PostedNotification?) -> [Step] {
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
