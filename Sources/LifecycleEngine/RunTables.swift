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
    /// What each state is, by position: one byte, read on every step of the runner.
    enum Kind: UInt8, Sendable {
        case atomic, compound, parallel, shallowHistory, deepHistory
        var isHistory: Bool { self == .shallowHistory || self == .deepHistory }
    }

    /// Per state: what it is.
    let kind: [Kind]
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
        var kind = [RunTables.Kind](repeating: .atomic, count: stateCount)
        var children = [[Int]](repeating: [], count: stateCount)
        var historyChildren = [[Int]](repeating: [], count: stateCount)
        for (offset, state) in states.enumerated() {
            if let depth = state.history {
                kind[offset] = depth == .shallow ? .shallowHistory : .deepHistory
                guard parent[offset] >= 0 else { throw .historyOutsideCompound(state.id) }
                historyChildren[parent[offset]].append(offset)
            } else if parent[offset] >= 0 {
                children[parent[offset]].append(offset)
            }
        }
        for (offset, state) in states.enumerated() where state.history == nil && !children[offset].isEmpty {
            kind[offset] = state.isParallel ? .parallel : .compound
        }
        var subtreeEnd = Array(0..<stateCount)
        for state in stride(from: stateCount - 1, through: 0, by: -1) where parent[state] >= 0 {
            subtreeEnd[parent[state]] = max(subtreeEnd[parent[state]], subtreeEnd[state])
        }
        func isDescendant(_ state: Int, of ancestor: Int) -> Bool { state > ancestor && state <= subtreeEnd[ancestor] }
        var initialTargets = [[Int]](repeating: [], count: stateCount)
        for (offset, state) in states.enumerated() where kind[offset] == .compound {
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
                if kind[current] == .compound {
                    current = initialTargets[current][0]
                } else if kind[current] == .parallel {
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
        for history in 0..<stateCount where kind[history].isHistory {
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
        hasParallelStates = kind.contains(.parallel)
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
