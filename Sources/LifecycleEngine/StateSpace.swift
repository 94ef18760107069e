/// A configuration the engine can be in between events: the active leaf and every flag's value.
public struct Configuration: Sendable, Hashable, Comparable {
    public let state: String
    /// Values of the machine's flags, in `Machine.flags` order.
    public let flagValues: [Bool]

    public init(state: String, flagValues: [Bool]) {
        self.state = state
        self.flagValues = flagValues
    }

    public func flags(in machine: Machine) -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: zip(machine.flags.map(\.id), flagValues))
    }

    public static func < (lhs: Configuration, rhs: Configuration) -> Bool {
        if lhs.state != rhs.state { return lhs.state < rhs.state }
        return lhs.flagValues.lexicographicallyPrecedes(rhs.flagValues) { !$0 && $1 }
    }
}

/// The part of a machine's behaviour reachable from its initial state, found by running the engine
/// itself on every event from every configuration it reaches. Starting flag values range over every
/// assignment (an app's Info.plist or situation decides them), so "reachable" means "reachable for
/// some app".
public struct StateSpace: Sendable {
    public struct Edge: Sendable, Hashable {
        public let from: Configuration
        public let event: String
        public let to: Configuration
        /// Every transition taken while processing the event (raised and eventless ones included).
        public let transitions: [Int]
    }

    public let machine: Machine
    /// Configurations reached, in discovery (breadth-first) order.
    public let configurations: [Configuration]
    /// Settled starting configurations (one per starting flag assignment), the roots of the search.
    public let starts: [Configuration]
    public let edges: [Edge]
    public let reachableLeaves: Set<String>
    public let takenTransitions: Set<Int>
    /// Starting configurations whose eventless transitions never settle.
    public let eventlessLoops: [Configuration]
    /// False when the space was too large and the search fell back to ignoring guards and flags
    /// (an over-approximation: it may call reachable what is not).
    public let isExact: Bool
    /// Transitions taken while settling the starts (eventless transitions out of the initial state).
    public let startTransitions: Set<Int>

    /// `edges` by position in `configurations`, for `CoverageGraph` (which would otherwise hash every
    /// configuration again to number them).
    let edgeEnds: [(from: Int, to: Int)]
    /// `starts` by position in `configurations`.
    let startPositions: [Int]
    /// `edges` by event position in `machine.events`, so the coverage search tells internal events
    /// apart without looking each edge's event up by id.
    let edgeEvents: [Int]

    /// Explores at most `limit` configurations exactly; beyond that, or beyond `maxFlags` flags,
    /// falls back to guard-free graph reachability.
    public init(machine: Machine, maxFlags: Int = 10, limit: Int = 100_000) {
        self.machine = machine
        if machine.flags.count <= maxFlags, let exact = Self.explore(machine, limit: limit) {
            configurations = exact.configurations
            starts = exact.starts
            edges = exact.edges
            eventlessLoops = exact.loops
            startTransitions = exact.startTransitions
            edgeEnds = exact.edgeEnds
            startPositions = exact.startPositions
            edgeEvents = exact.edgeEvents
            isExact = true
        } else {
            configurations = []
            starts = []
            edges = []
            eventlessLoops = []
            startTransitions = []
            edgeEnds = []
            startPositions = []
            edgeEvents = []
            isExact = false
        }
        if isExact {
            var taken: Set<Int> = []
            for edge in edges { taken.formUnion(edge.transitions) }
            taken.formUnion(startTransitions)
            takenTransitions = taken
            // Settled configurations miss leaves that eventless transitions pass straight through
            // (the initial state included): every run starts in the initial leaf, and every taken
            // transition lands in its target's initial leaf.
            var leaves = Set(configurations.map(\.state))
            leaves.insert(machine.initialLeaf)
            for index in taken {
                if let target = machine.transitions[index].target { leaves.insert(machine.leaf(entering: target)) }
            }
            reachableLeaves = leaves
        } else {
            (reachableLeaves, takenTransitions) = Self.approximate(machine)
        }
    }

    private struct Exploration {
        var configurations: [Configuration] = []
        var starts: [Configuration] = []
        var edges: [Edge] = []
        var loops: [Configuration] = []
        var startTransitions: Set<Int> = []
        var edgeEnds: [(from: Int, to: Int)] = []
        var startPositions: [Int] = []
        var edgeEvents: [Int] = []
        /// `configurations` by state position, so the search never looks a state up by id.
        var stateIndices: [Int] = []
    }

    /// A configuration by position (its state in `machine.states`, its flag values as bits), so the
    /// search hashes two integers per step instead of a string and an array.
    private struct Key: Hashable {
        let state: Int
        let bits: Int

        init(state: Int, flagValues: [Bool]) {
            self.state = state
            var bits = 0
            for (offset, value) in flagValues.enumerated() where value { bits |= 1 << offset }
            self.bits = bits
        }
    }

    /// Breadth-first over configurations, running the engine (`Runner`) on every event handled where
    /// it stands. Runs on copies of one runner per configuration and records only the transitions
    /// taken: the callbacks and notifications of each step are the engine's to replay later.
    private static func explore(_ machine: Machine, limit: Int) -> Exploration? {
        var result = Exploration()
        var position: [Key: Int] = [:]
        let events = machine.events
        let handled = machine.tables.handledEvents
        let flagCount = machine.flags.count
        // When every configuration fits a small table, positions are looked up by index there
        // instead of hashed (-1: not found yet).
        let usesTable = flagCount < 16 && machine.states.count <= (1 << 18) >> flagCount
        var table = [Int32](repeating: -1, count: usesTable ? machine.states.count << flagCount : 0)
        /// The configuration's position, adding it when new; nil once the space exceeds `limit`.
        func place(_ runner: Runner, countsTowardLimit: Bool) -> (position: Int, isNew: Bool)? {
            let key = Key(state: runner.stateIndex, flagValues: runner.flagValues)
            let slot = key.state << flagCount | key.bits
            if usesTable {
                if table[slot] >= 0 { return (Int(table[slot]), false) }
            } else if let existing = position[key] {
                return (existing, false)
            }
            // Every configuration placed has a key, so this counts the keys.
            if countsTowardLimit, result.configurations.count + 1 > limit { return nil }
            if usesTable { table[slot] = Int32(result.configurations.count) } else { position[key] = result.configurations.count }
            result.configurations.append(Configuration(state: runner.state, flagValues: runner.flagValues))
            result.stateIndices.append(runner.stateIndex)
            return (result.configurations.count - 1, true)
        }
        guard let initial = machine.stateIndex(of: machine.initial) else { return result }
        for bits in 0..<(1 << flagCount) {
            var runner = Runner(machine: machine, stateIndex: initial, flagValues: (0..<flagCount).map { bits & (1 << $0) != 0 })
            do {
                for case .transition(let taken) in try runner.settle() { result.startTransitions.insert(taken.transitionIndex) }
            } catch {
                result.loops.append(Configuration(state: runner.state, flagValues: runner.flagValues))
                continue
            }
            // Starts are never refused for the limit (only configurations found by events are).
            guard let start = place(runner, countsTowardLimit: false) else { continue }
            result.starts.append(result.configurations[start.position])
            result.startPositions.append(start.position)
        }
        var cursor = 0
        while cursor < result.configurations.count {
            let current = cursor
            cursor += 1
            let configuration = result.configurations[current]
            let runner = Runner(machine: machine, stateIndex: result.stateIndices[current], flagValues: configuration.flagValues)
            // Only events some transition on the way up handles can do anything here.
            for event in handled[runner.stateIndex] {
                var next = runner
                var trace = TransitionTrace()
                do {
                    // `next` is a copy dropped on failure, so the non-atomic `process` is enough.
                    try next.process(event: event, into: &trace)
                } catch .eventlessLoop {
                    result.loops.append(configuration)
                    continue
                } catch {
                    continue
                }
                guard let target = place(next, countsTowardLimit: true) else { return nil }
                result.edges.append(Edge(from: configuration, event: events[event].id, to: result.configurations[target.position],
                                         transitions: trace.transitions))
                result.edgeEnds.append((current, target.position))
                result.edgeEvents.append(event)
            }
        }
        return result
    }

    /// Guard-free reachability: every transition counts as enabled.
    private static func approximate(_ machine: Machine) -> (Set<String>, Set<Int>) {
        var reachable: Set<String> = [machine.initialLeaf]
        var queue = [machine.initialLeaf]
        var taken: Set<Int> = []
        while let state = queue.popLast() {
            for id in machine.ancestry(of: state) {
                for transition in machine.transitions(declaredOn: id) {
                    taken.insert(transition.index)
                    let target = transition.target.map(machine.leaf(entering:)) ?? state
                    if reachable.insert(target).inserted { queue.append(target) }
                }
            }
        }
        return (reachable, taken)
    }

    /// A state is reachable when some leaf below it (or itself) is.
    public func isReachable(_ state: String) -> Bool {
        if reachableLeaves.contains(state) { return true }
        guard let node = machine.state(state) else { return false }
        return node.children.contains(where: isReachable)
    }
}
