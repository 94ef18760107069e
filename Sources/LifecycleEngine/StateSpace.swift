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

    /// Explores at most `limit` configurations exactly; beyond that, or beyond `maxFlags` flags,
    /// falls back to guard-free graph reachability.
    public init(machine: Machine, maxFlags: Int = 10, limit: Int = 100_000) {
        self.machine = machine
        let flagIDs = machine.flags.map(\.id)
        if flagIDs.count <= maxFlags, let exact = Self.explore(machine, flagIDs: flagIDs, limit: limit) {
            configurations = exact.configurations
            starts = exact.starts
            edges = exact.edges
            eventlessLoops = exact.loops
            startTransitions = exact.startTransitions
            isExact = true
        } else {
            configurations = []
            starts = []
            edges = []
            eventlessLoops = []
            startTransitions = []
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

    private static func explore(_ machine: Machine, flagIDs: [String], limit: Int)
        -> (configurations: [Configuration], starts: [Configuration], edges: [Edge], loops: [Configuration], startTransitions: Set<Int>)?
    {
        var seen: Set<Configuration> = []
        var order: [Configuration] = []
        var starts: [Configuration] = []
        var edges: [Edge] = []
        var loops: [Configuration] = []
        var queue: [Configuration] = []
        var startTransitions: Set<Int> = []
        func configuration(of runner: Runner) -> Configuration {
            Configuration(state: runner.state, flagValues: flagIDs.map { runner.flags[$0] ?? false })
        }
        for bits in 0..<(1 << flagIDs.count) {
            var assignment: [String: Bool] = [:]
            for (offset, id) in flagIDs.enumerated() { assignment[id] = bits & (1 << offset) != 0 }
            guard var runner = try? Runner(machine: machine, flags: assignment) else { continue }
            do {
                for case .transition(let taken) in try runner.settle() { startTransitions.insert(taken.transitionIndex) }
            } catch {
                loops.append(configuration(of: runner))
                continue
            }
            let start = configuration(of: runner)
            starts.append(start)
            if seen.insert(start).inserted {
                order.append(start)
                queue.append(start)
            }
        }
        var cursor = 0
        while cursor < queue.count {
            let current = queue[cursor]
            cursor += 1
            guard let runner = try? Runner(machine: machine, state: current.state, flags: current.flags(in: machine)) else { continue }
            // Only events some transition on the way up handles can do anything here.
            for event in machine.handledEvents(in: current.state) {
                var next = runner
                let steps: [Step]
                do {
                    steps = try next.send(event)
                } catch .eventlessLoop {
                    loops.append(current)
                    continue
                } catch {
                    continue
                }
                var transitions: [Int] = []
                for case .transition(let taken) in steps { transitions.append(taken.transitionIndex) }
                let target = configuration(of: next)
                edges.append(Edge(from: current, event: event, to: target, transitions: transitions))
                if seen.insert(target).inserted {
                    if seen.count > limit { return nil }
                    order.append(target)
                    queue.append(target)
                }
            }
        }
        return (order, starts, edges, loops, startTransitions)
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
