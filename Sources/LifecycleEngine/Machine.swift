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
        var kind = [UInt8](repeating: 0, count: states.count)
        var children = [[Int]](repeating: [], count: states.count)
        for (offset, state) in states.enumerated() {
            if state.history != nil {
                kind[offset] = 3
            } else if let parent = state.parent.flatMap({ index[$0] }) {
                children[parent].append(offset)
            }
        }
        for (offset, state) in states.enumerated() where state.history == nil && !children[offset].isEmpty {
            kind[offset] = state.isParallel ? 2 : 1
        }
        let complete = canComplete(kind: kind, children: children, isFinal: states.map(\.isFinal))
        return states.indices.filter { complete[$0] }.map { "done.state." + states[$0].id }
    }

    /// Per state (numbered parents before children): whether it can complete (SCXML's
    /// `isInFinalState` can hold).
    static func canComplete(kind: [UInt8], children: [[Int]], isFinal: [Bool]) -> [Bool] {
        var result = [Bool](repeating: false, count: kind.count)
        for state in stride(from: kind.count - 1, through: 0, by: -1) {
            if kind[state] == 1 {
                result[state] = children[state].contains { isFinal[$0] }
            } else if kind[state] == 2 {
                result[state] = children[state].allSatisfy { result[$0] }
            }
        }
        return result
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
/// numbered as in the machine's arrays (events: declared ones, then the synthesized `done.state.*`
/// ones), flag values are `[Bool]` in `Machine.flags` order, and nothing on the way from an event to
/// its steps hashes a string. A class: the runner reads it on every step.
final class RunTables: Sendable {
    struct Assignment: Sendable, Hashable {
        let flag: Int
        let value: Bool
    }

    /// Executable content by position: what it emits, sets and raises.
    struct Block: Sendable, Hashable {
        let steps: [Step]
        let assignments: [Assignment]
        let raises: [Int]
        var isEmpty: Bool { steps.isEmpty && assignments.isEmpty && raises.isEmpty }
        static let empty = Block(steps: [], assignments: [], raises: [])
    }

    /// Per state: its parent, -1 at the top level.
    let parent: [Int]
    /// Per state: itself and its ancestors, innermost first.
    let ancestry: [[Int]]
    /// Per state: its child states (history pseudo-states excluded), in document order.
    let children: [[Int]]
    /// Per state: its history pseudo-state children.
    let historyChildren: [[Int]]
    /// Per state: 0 atomic, 1 compound, 2 parallel, 3 history (shallow), 4 history (deep).
    let kind: [UInt8]
    /// Whether some state is parallel: asked once per cell by the renderers, so not a scan each time.
    let hasParallelStates: Bool
    let isFinal: [Bool]
    /// Per state: the last state of its subtree in document order (a descendant of `s` is a state
    /// `d` with `s < d <= subtreeEnd[s]`: states are numbered parents first, in document order).
    let subtreeEnd: [Int]
    /// Per compound state: the states its default entry targets.
    let initialTargets: [[Int]]
    let entry: [Block]
    let exit: [Block]
    let initialBlock: [Block]
    /// Per state: the `done.state.<id>` event raised when it completes, -1 when it cannot complete.
    let doneEvent: [Int]
    /// Per event: whether it is some state's `done.state.<id>` event (the engine raises it on
    /// completion; nobody sends it).
    let isDoneEvent: [Bool]
    /// The top-level states the machine starts in.
    let startTargets: [Int]

    /// Per state: the leaf that a plain default entry ends in (the first region's, for parallel states).
    let leaf: [Int]
    /// Per state: the transitions declared on it, in document order.
    let declared: [[Int]]
    /// Per state: the events some transition on the way up handles, in event order.
    let handledEvents: [[Int]]
    /// Per state: whether some transition on the way up is eventless. After every microstep the
    /// engine asks for eventless transitions; most configurations have none to offer, and this
    /// answers that without walking each active state's ancestors.
    let hasEventlessOnWayUp: [Bool]
    /// Per transition: its first event, or -1 for an eventless one.
    let trigger: [Int]
    /// Per transition: the events its descriptors match, ascending; `matchesAll` for `*`.
    let eventMatches: [[Int]]
    let matchesAll: [Bool]
    /// Per transition: its targets (history states included), empty when targetless.
    let targets: [[Int]]
    let isInternalType: [Bool]
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
        states: [StateNode], initial: [String], transitions: [Transition], events: [LifecycleEvent],
        flags: [LifecycleFlag],
        callbacks: [LifecycleCallback], stateIndex: [String: Int], callbackIndex: [String: Int],
        notificationIndex: [String: Int], eventIndex: [String: Int], flagIndex: [String: Int]
    ) throws(MachineError) {
        var startTargets: [Int] = []
        for id in initial {
            guard let index = stateIndex[id] else { throw .unknown(kind: .state, id: id, context: "machine initial") }
            startTargets.append(index)
        }
        let stateCount = states.count
        var parent = [Int](repeating: -1, count: stateCount)
        for (offset, state) in states.enumerated() {
            if let parentID = state.parent {
                guard let index = stateIndex[parentID] else {
                    throw .unknown(kind: .state, id: parentID, context: "parent of '\(state.id)'")
                }
                // Document order is what exit and entry order, conflicts and `subtreeEnd` rest on.
                guard index < offset else { throw .notInDocumentOrder(state.id) }
                parent[offset] = index
            }
            // The runner numbers states, so a child must be one (entering a compound state could
            // otherwise end in a state the machine does not have).
            for child in state.children where stateIndex[child] == nil {
                throw .unknown(kind: .state, id: child, context: "child of '\(state.id)'")
            }
        }
        var kind = [UInt8](repeating: 0, count: stateCount)
        var children = [[Int]](repeating: [], count: stateCount)
        var historyChildren = [[Int]](repeating: [], count: stateCount)
        for (offset, state) in states.enumerated() {
            if let depth = state.history {
                kind[offset] = depth == .shallow ? 3 : 4
                guard parent[offset] >= 0 else { throw .historyOutsideCompound(state.id) }
                historyChildren[parent[offset]].append(offset)
            } else if parent[offset] >= 0 {
                children[parent[offset]].append(offset)
            }
        }
        for (offset, state) in states.enumerated() where state.history == nil && !children[offset].isEmpty {
            kind[offset] = state.isParallel ? 2 : 1
        }
        var subtreeEnd = Array(0..<stateCount)
        for state in stride(from: stateCount - 1, through: 0, by: -1) where parent[state] >= 0 {
            subtreeEnd[parent[state]] = max(subtreeEnd[parent[state]], subtreeEnd[state])
        }
        func isDescendant(_ state: Int, of ancestor: Int) -> Bool { state > ancestor && state <= subtreeEnd[ancestor] }
        var initialTargets = [[Int]](repeating: [], count: stateCount)
        for (offset, state) in states.enumerated() where kind[offset] == 1 {
            var targets: [Int] = []
            for id in state.initialTargets {
                guard let index = stateIndex[id], isDescendant(index, of: offset) else {
                    throw .compoundWithoutInitial(state.id)
                }
                targets.append(index)
            }
            guard !targets.isEmpty else { throw .compoundWithoutInitial(state.id) }
            initialTargets[offset] = targets
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
            while walk[current] != state {
                walk[current] = state
                if kind[current] == 1 {
                    current = initialTargets[current][0]
                } else if kind[current] == 2 {
                    current = children[current][0]
                } else {
                    break
                }
            }
            leaf[state] = current
        }

        // Events: the declared ones, then `done.state.<id>` for every state that can complete.
        var allEvents = events.map(\.id)
        var eventNumbers = eventIndex
        let canComplete = Machine.canComplete(kind: kind, children: children, isFinal: states.map(\.isFinal))
        var doneEvent = [Int](repeating: -1, count: stateCount)
        for state in 0..<stateCount where canComplete[state] {
            let name = "done.state." + states[state].id
            if let existing = eventNumbers[name] {
                doneEvent[state] = existing
            } else {
                eventNumbers[name] = allEvents.count
                doneEvent[state] = allEvents.count
                allEvents.append(name)
            }
        }

        func compile(_ actions: [Action], context: () -> String) throws(MachineError) -> [Step] {
            var steps: [Step] = []
            for action in actions {
                switch action {
                case .callback(let id):
                    guard let index = callbackIndex[id] else {
                        throw .unknown(kind: .callback, id: id, context: context())
                    }
                    steps += Machine.expand(action) { _ in callbacks[index].posts }
                case .notify(let id):
                    guard notificationIndex[id] != nil else {
                        throw .unknown(kind: .notification, id: id, context: context())
                    }
                    steps += Machine.expand(action) { _ in nil }
                }
            }
            return steps
        }
        func compile(_ list: [FlagAssignment], context: () -> String) throws(MachineError) -> [Assignment] {
            var result: [Assignment] = []
            for assignment in list {
                guard let index = flagIndex[assignment.flag] else {
                    throw .unknown(kind: .flag, id: assignment.flag, context: context())
                }
                result.append(Assignment(flag: index, value: assignment.value))
            }
            return result
        }
        func compile(raises list: [String], context: () -> String) throws(MachineError) -> [Int] {
            var result: [Int] = []
            for event in list {
                guard let index = eventNumbers[event] else {
                    throw .unknown(kind: .event, id: event, context: context())
                }
                result.append(index)
            }
            return result
        }
        func compile(_ block: ActionBlock, context: () -> String) throws(MachineError) -> Block {
            if block.isEmpty { return .empty }
            return Block(
                steps: try compile(block.actions, context: context),
                assignments: try compile(block.assignments, context: context),
                raises: try compile(raises: block.raises, context: context))
        }
        var entry: [Block] = []
        var exit: [Block] = []
        var initialBlock: [Block] = []
        entry.reserveCapacity(stateCount)
        exit.reserveCapacity(stateCount)
        initialBlock.reserveCapacity(stateCount)
        for state in states {
            entry.append(try compile(state.entry) { "entry of '\(state.id)'" })
            exit.append(try compile(state.exit) { "exit of '\(state.id)'" })
            initialBlock.append(try compile(state.initialActions) { "initial of '\(state.id)'" })
        }

        var declared = [[Int]](repeating: [], count: stateCount)
        var trigger: [Int] = []
        var guards: [FlagGuard?] = []
        var eventMatches: [[Int]] = []
        var matchesAll: [Bool] = []
        var targets: [[Int]] = []
        var isInternalType: [Bool] = []
        var assignments: [[Assignment]] = []
        var raises: [[Int]] = []
        var actionSteps: [[Step]] = []
        trigger.reserveCapacity(transitions.count)
        // Fields, not whole transitions: a copy of one retains every array in it.
        for position in transitions.indices {
            // Named only when thrown: building it for every transition cost more than the checks.
            func context(_ part: String = "") -> String { "transition \(position)" + part }
            for source in transitions[position].sources {
                guard let index = stateIndex[source] else {
                    throw .unknown(kind: .state, id: source, context: context(" source"))
                }
                declared[index].append(position)
            }
            var targetList: [Int] = []
            for target in transitions[position].targets {
                guard let index = stateIndex[target] else {
                    throw .unknown(kind: .state, id: target, context: context(" target"))
                }
                targetList.append(index)
            }
            targets.append(targetList)
            isInternalType.append(transitions[position].type == .internal)
            var matched: [Int] = []
            var all = false
            for descriptor in transitions[position].events {
                if descriptor == "*" {
                    all = true
                } else if let exact = eventNumbers[descriptor], !descriptor.hasSuffix(".") {
                    // Declared names are checked exactly (and extensions of them below).
                    matched.append(exact)
                    let prefix = descriptor + "."
                    for (number, name) in allEvents.enumerated() where name.hasPrefix(prefix) { matched.append(number) }
                } else {
                    var any = false
                    for (number, name) in allEvents.enumerated() where Transition.descriptor(descriptor, matches: name)
                    {
                        matched.append(number)
                        any = true
                    }
                    // A descriptor no event matches is an unknown event of a YAML spec; SCXML
                    // machines declare every event their transitions name.
                    if !any { throw .unknown(kind: .event, id: descriptor, context: context()) }
                }
            }
            matched = Array(Set(matched)).sorted()
            eventMatches.append(matched)
            matchesAll.append(all)
            trigger.append(
                transitions[position].events.isEmpty ? -1 : (all ? (matched.first ?? 0) : matched.first ?? -1))
            actionSteps.append(try compile(transitions[position].actions) { context() })
            if let expression = transitions[position].guardExpression {
                guards.append(
                    try FlagGuard(
                        compiling: expression, flagIndex: flagIndex, stateIndex: stateIndex, context: context(" guard"))
                )
            } else {
                guards.append(nil)
            }
            assignments.append(try compile(transitions[position].assignments) { context(" set") })
            raises.append(try compile(raises: transitions[position].raises) { context(" raise") })
        }
        for callback in callbacks {
            if let posted = callback.posts, notificationIndex[posted.notification] == nil {
                throw .unknown(kind: .notification, id: posted.notification, context: "callback '\(callback.id)'")
            }
        }
        for history in 0..<stateCount where kind[history] >= 3 {
            // The default transition: eventless, unguarded, with targets inside the parent.
            guard let transition = declared[history].first, transitions[transition].events.isEmpty,
                transitions[transition].guardExpression == nil, !targets[transition].isEmpty,
                targets[transition].allSatisfy({ isDescendant($0, of: parent[history]) })
            else {
                throw .historyWithoutDefault(states[history].id)
            }
        }
        var eventSeen = [Int](repeating: -1, count: allEvents.count)
        var handledEvents: [[Int]] = []
        handledEvents.reserveCapacity(stateCount)
        for state in 0..<stateCount {
            var handled: [Int] = []
            for ancestor in ancestry[state] {
                for index in declared[ancestor] {
                    if matchesAll[index] {
                        for event in 0..<allEvents.count where eventSeen[event] != state {
                            eventSeen[event] = state
                            handled.append(event)
                        }
                    }
                    for event in eventMatches[index] where eventSeen[event] != state {
                        eventSeen[event] = state
                        handled.append(event)
                    }
                }
            }
            handledEvents.append(handled.sorted())
        }
        hasEventlessOnWayUp = ancestry.map { line in
            line.contains { ancestor in declared[ancestor].contains { trigger[$0] == -1 } }
        }
        self.parent = parent
        self.ancestry = ancestry
        self.children = children
        self.historyChildren = historyChildren
        self.kind = kind
        hasParallelStates = kind.contains(2)
        self.isFinal = states.map(\.isFinal)
        self.subtreeEnd = subtreeEnd
        self.initialTargets = initialTargets
        self.entry = entry
        self.exit = exit
        self.initialBlock = initialBlock
        self.doneEvent = doneEvent
        var isDoneEvent = [Bool](repeating: false, count: allEvents.count)
        for event in doneEvent where event >= 0 { isDoneEvent[event] = true }
        self.isDoneEvent = isDoneEvent
        self.startTargets = startTargets
        self.leaf = leaf
        self.declared = declared
        self.handledEvents = handledEvents
        self.trigger = trigger
        self.eventMatches = eventMatches
        self.matchesAll = matchesAll
        self.targets = targets
        self.isInternalType = isInternalType
        self.guards = guards
        self.assignments = assignments
        self.raises = raises
        self.actionSteps = actionSteps
        flagDefaults = flags.map(\.defaultValue)
        self.eventNames = allEvents
        self.eventNumbers = eventNumbers
    }

    /// Declared events, then the synthesized `done.state.*` events.
    let eventNames: [String]
    let eventNumbers: [String: Int]

    @inline(__always) func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        state > ancestor && state <= subtreeEnd[ancestor]
    }

    /// Whether transition `transition` is triggered by event number `event` (-1: eventless; -2: an
    /// event the machine does not know, which only `*` matches).
    @inline(__always) func matches(_ transition: Int, event: Int) -> Bool {
        if event == -1 { return trigger[transition] == -1 }
        if trigger[transition] == -1 { return false }
        if matchesAll[transition] { return true }
        let list = eventMatches[transition]
        if list.count == 1 { return list[0] == event }
        return list.contains(event)
    }
}

/// A guard over flag and state positions, evaluated on `[Bool]` flag values and the sorted active states.
indirect enum FlagGuard: Sendable {
    case flag(Int)
    case constant(Bool)
    case inState(Int)
    case not(FlagGuard)
    case and(FlagGuard, FlagGuard)
    case or(FlagGuard, FlagGuard)

    /// Throws for the first unknown flag or state in reading order.
    init(
        compiling expression: GuardExpression, flagIndex: [String: Int], stateIndex: [String: Int],
        context: @autoclosure () -> String
    ) throws(MachineError) {
        switch expression {
        case .flag(let id):
            guard let index = flagIndex[id] else { throw .unknown(kind: .flag, id: id, context: context()) }
            self = .flag(index)
        case .constant(let value): self = .constant(value)
        case .inState(let id):
            guard let index = stateIndex[id] else { throw .unknown(kind: .state, id: id, context: context()) }
            self = .inState(index)
        case .not(let inner):
            self = .not(
                try FlagGuard(compiling: inner, flagIndex: flagIndex, stateIndex: stateIndex, context: context()))
        case .and(let lhs, let rhs):
            self = .and(
                try FlagGuard(compiling: lhs, flagIndex: flagIndex, stateIndex: stateIndex, context: context()),
                try FlagGuard(compiling: rhs, flagIndex: flagIndex, stateIndex: stateIndex, context: context()))
        case .or(let lhs, let rhs):
            self = .or(
                try FlagGuard(compiling: lhs, flagIndex: flagIndex, stateIndex: stateIndex, context: context()),
                try FlagGuard(compiling: rhs, flagIndex: flagIndex, stateIndex: stateIndex, context: context()))
        }
    }

    func evaluate(_ values: [Bool], active: [Int]) -> Bool {
        switch self {
        case .flag(let index): values[index]
        case .constant(let value): value
        case .inState(let index): active.contains(index)
        case .not(let inner): !inner.evaluate(values, active: active)
        case .and(let lhs, let rhs): lhs.evaluate(values, active: active) && rhs.evaluate(values, active: active)
        case .or(let lhs, let rhs): lhs.evaluate(values, active: active) || rhs.evaluate(values, active: active)
        }
    }
}

/// The kinds of element a machine numbers by id.
public enum ElementKind: String, Sendable, Hashable, CaseIterable {
    case state, event, flag, callback, notification
}

public enum MachineError: Error, Hashable, Sendable, CustomStringConvertible {
    case duplicate(kind: ElementKind, id: String)
    case unknown(kind: ElementKind, id: String, context: String)
    case compoundWithoutInitial(String)
    /// A history pseudo-state at the top level (it must be the child of a compound or parallel state).
    case historyOutsideCompound(String)
    /// A history pseudo-state needs one eventless, unguarded default transition to states inside its parent.
    case historyWithoutDefault(String)
    /// A child listed before its parent: states must be in document order.
    case notInDocumentOrder(String)

    public var description: String {
        switch self {
        case .duplicate(let kind, let id): "duplicate \(kind.rawValue) id '\(id)'"
        case .unknown(let kind, let id, let context): "unknown \(kind.rawValue) '\(id)' in \(context)"
        case .compoundWithoutInitial(let id): "compound state '\(id)' has no valid initial child"
        case .historyOutsideCompound(let id): "history state '\(id)' is not inside a compound or parallel state"
        case .historyWithoutDefault(let id):
            "history state '\(id)' needs one eventless, unguarded default transition to states inside its parent"
        case .notInDocumentOrder(let id): "state '\(id)' comes before its parent: states must be in document order"
        }
    }
}

public struct StateNode: Sendable, Hashable {
    public let id: String
    public let parent: String?
    /// Child states in document order, history pseudo-states included.
    public let children: [String]
    /// The child entered when this compound state is entered.
    public let initial: String?
    public let isFinal: Bool
    /// Every child region is active at once (SCXML `<parallel>`).
    public let isParallel: Bool
    /// Set for a history pseudo-state: it remembers its parent's active children (shallow) or
    /// active atomic descendants (deep) when the parent is exited. Its default transition is the
    /// eventless transition declared on it.
    public let history: HistoryDepth?
    /// Run when the state is entered, after its ancestors' entry and before its children's.
    public let entry: ActionBlock
    /// Run when the state is exited, after its children's exit and before its ancestors'.
    public let exit: ActionBlock
    /// The states a default entry of this compound state enters, when not just `initial` (SCXML's
    /// `<initial>` transition may name descendants, one per region of a parallel descendant).
    public let initialTargets: [String]
    /// What the default entry's `<initial>` transition does, after this state's entry actions.
    public let initialActions: ActionBlock

    public init(
        id: String, parent: String? = nil, children: [String] = [], initial: String? = nil, isFinal: Bool = false,
        isParallel: Bool = false, history: HistoryDepth? = nil, entry: ActionBlock = .init(),
        exit: ActionBlock = .init(),
        initialTargets: [String] = [], initialActions: ActionBlock = .init()
    ) {
        self.id = id
        self.parent = parent
        self.children = children
        self.initial = initial ?? initialTargets.first
        self.isFinal = isFinal
        self.isParallel = isParallel
        self.history = history
        self.entry = entry
        self.exit = exit
        self.initialTargets = initialTargets.isEmpty ? (initial.map { [$0] } ?? []) : initialTargets
        self.initialActions = initialActions
    }

    /// An atomic state: no children, and not a history pseudo-state.
    public var isLeaf: Bool { children.isEmpty && history == nil }
    public var isCompound: Bool { !children.isEmpty && !isParallel }
    public var isHistory: Bool { history != nil }
}

public enum HistoryDepth: String, Sendable, Hashable, CaseIterable {
    case shallow, deep
}

/// Executable content of an entry, an exit or an initial transition: callbacks and notifications
/// emitted in order, flags set, events raised onto the internal queue in order.
public struct ActionBlock: Sendable, Hashable {
    public var actions: [Action]
    public var assignments: [FlagAssignment]
    public var raises: [String]

    public init(actions: [Action] = [], assignments: [FlagAssignment] = [], raises: [String] = []) {
        self.actions = actions
        self.assignments = assignments
        self.raises = raises
    }

    public var isEmpty: Bool { actions.isEmpty && assignments.isEmpty && raises.isEmpty }
}

/// What an event no enabled transition takes does.
public enum UnhandledEventPolicy: String, Sendable, Hashable, CaseIterable {
    /// An error that changes nothing (YAML specs' default: a lifecycle that gets an event it cannot
    /// take is a bug worth reporting).
    case error
    /// Discarded, as in SCXML.
    case ignore
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

public enum TransitionType: String, Sendable, Hashable, CaseIterable {
    /// Exits and re-enters its source when it targets the source or a descendant (SCXML's default).
    case external
    /// Does not exit its compound source when every target is a descendant of it.
    case `internal`
}

public struct Transition: Sendable, Hashable {
    /// Position in `Machine.transitions`; assigned by `Machine.init`.
    public internal(set) var index: Int
    /// The states this transition is declared on; it applies in their descendants too.
    public let sources: [String]
    /// Event descriptors (SCXML matching: `a.b` matches `a.b` and `a.b.c`, `*` matches every event);
    /// empty for an eventless transition.
    public let events: [String]
    public let guardExpression: GuardExpression?
    /// Empty for a targetless transition: actions run, no state is exited or entered.
    public let targets: [String]
    public let type: TransitionType
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
        self.init(
            sources: sources, events: trigger.eventID.map { [$0] } ?? [], guardExpression: guardExpression,
            targets: target.map { [$0] } ?? [], actions: actions, assignments: assignments, raises: raises)
    }

    public init(
        sources: [String],
        events: [String],
        guardExpression: GuardExpression? = nil,
        targets: [String],
        type: TransitionType = .external,
        actions: [Action] = [],
        assignments: [FlagAssignment] = [],
        raises: [String] = []
    ) {
        self.index = -1
        self.sources = sources
        self.events = events
        self.guardExpression = guardExpression
        self.targets = targets
        self.type = type
        self.actions = actions
        self.assignments = assignments
        self.raises = raises
    }

    /// The first event descriptor, or `.always` for an eventless transition.
    public var trigger: Trigger { events.first.map(Trigger.event) ?? .always }
    /// The first target; `nil` for a targetless transition.
    public var target: String? { targets.first }
    /// Targetless: actions run, the configuration does not change.
    public var isInternal: Bool { targets.isEmpty }
    public var isTargetless: Bool { targets.isEmpty }
    public var isEventless: Bool { events.isEmpty }

    /// `isActive` answers the guard's `in(…)` tests.
    public func isEnabled(flags: [String: Bool], isActive: (String) -> Bool = { _ in false }) -> Bool {
        guardExpression?.evaluate(flags, isActive: isActive) ?? true
    }

    /// SCXML's event matching: a descriptor matches the event named by it or by one of its
    /// dot-separated extensions; `*` matches every event.
    public static func descriptor(_ descriptor: String, matches event: String) -> Bool {
        var descriptor = Substring(descriptor)
        if descriptor == "*" { return true }
        // `a.*` and `a.` mean `a`.
        if descriptor.hasSuffix(".*") {
            descriptor = descriptor.dropLast(2)
        } else if descriptor.hasSuffix(".") {
            descriptor = descriptor.dropLast()
        }
        guard event.hasPrefix(descriptor) else { return false }
        let rest = event.dropFirst(descriptor.count)
        return rest.isEmpty || rest.hasPrefix(".")
    }
}
