/// Event paths that together take every transition the engine can take, planned over the engine's
/// own exploration of the machine (`StateSpace`), with the reason for each transition no path can take.
///
/// The walk is greedy: from a starting configuration (the initial state settled under some flag
/// values, the declared defaults first), repeatedly go by breadth-first search to the nearest event
/// that takes a transition not yet covered; when nothing uncovered is reachable any more, end the path
/// and restart from the starting configuration nearest to an uncovered transition. Every step is an
/// edge the engine itself produced, so a path replayed through `Runner` takes exactly the transitions
/// recorded here.
public struct CoveragePlan: Sendable, Hashable {
    /// One event of a path and what the engine does with it.
    public struct Step: Sendable, Hashable {
        public let event: String
        public let from: Configuration
        public let to: Configuration
        /// Every transition taken while processing the event (raised and eventless ones included).
        public let transitions: [Int]
    }

    /// Events sent in order from `start`, a settled starting configuration.
    public struct Path: Sendable, Hashable {
        public let start: Configuration
        public let steps: [Step]
        /// The transitions this path takes that no earlier path took, ascending.
        public let newlyCovered: [Int]
    }

    /// A transition no event path can take, and why.
    public struct Uncoverable: Sendable, Hashable, CustomStringConvertible {
        public let transition: Int
        public let reason: UncoverableReason
        public var description: String { "transition \(transition): \(reason)" }
    }

    public let paths: [Path]
    /// Ascending by transition index.
    public let uncoverable: [Uncoverable]
    /// Every transition of the machine (the target of full coverage).
    public let transitionCount: Int
    /// Transitions some path takes, ascending.
    public let covered: [Int]
    /// A lower bound on the events any covering set of paths must send: each event directly triggers
    /// exactly one transition, so every coverable transition whose event is never `raise`d needs an
    /// event of its own.
    public let lowerBound: Int

    public var stepCount: Int { paths.reduce(0) { $0 + $1.steps.count } }
    public var isComplete: Bool { uncoverable.isEmpty }

    public init(machine: Machine) {
        self.init(space: StateSpace(machine: machine))
    }

    public init(space: StateSpace) {
        let machine = space.machine
        let graph = CoverageGraph(space: space)
        var uncovered = Set(graph.edges.flatMap(\.transitions))
        let coverable = uncovered
        var paths: [Path] = []
        while !uncovered.isEmpty {
            // Restart from the starting configuration nearest to something uncovered.
            var best: (start: Int, route: [Int])?
            for start in graph.orderedStarts {
                guard let route = graph.route(from: start, toAnyOf: uncovered) else { continue }
                if best == nil || route.count < best!.route.count { best = (start, route) }
            }
            guard let (start, firstRoute) = best else { break }
            var edgeIndices: [Int] = []
            var newlyCovered: Set<Int> = []
            var route: [Int]? = firstRoute
            while let leg = route {
                for edge in leg {
                    edgeIndices.append(edge)
                    for transition in graph.edges[edge].transitions where uncovered.remove(transition) != nil {
                        newlyCovered.insert(transition)
                    }
                }
                guard !uncovered.isEmpty, let last = leg.last else { break }
                route = graph.route(from: graph.edges[last].to, toAnyOf: uncovered)
            }
            let steps = edgeIndices.map { index in
                let edge = graph.edges[index]
                return Step(event: edge.event, from: graph.nodes[edge.from], to: graph.nodes[edge.to], transitions: edge.transitions)
            }
            paths.append(Path(start: graph.nodes[start], steps: steps, newlyCovered: newlyCovered.sorted()))
        }
        self.paths = paths
        transitionCount = machine.transitions.count
        covered = coverable.sorted()
        let raised = Set(machine.transitions.flatMap(\.raises))
        lowerBound = coverable.filter { index in
            guard let event = machine.transitions[index].trigger.eventID else { return false }
            return !raised.contains(event)
        }.count
        uncoverable = machine.transitions.indices.filter { !coverable.contains($0) }.map { index in
            Uncoverable(transition: index, reason: UncoverableReason.explain(index, in: space, graph: graph))
        }
    }

    /// The transitions of `machine` that no sequence of events can take, with reasons (LS122).
    public static func uncoverableTransitions(in machine: Machine) -> [Uncoverable] {
        uncoverableTransitions(in: StateSpace(machine: machine))
    }

    /// The same from an explored space, without planning the covering walk (the validator's path).
    public static func uncoverableTransitions(in space: StateSpace) -> [Uncoverable] {
        let graph = CoverageGraph(space: space)
        let coverable = Set(graph.edges.flatMap(\.transitions))
        return space.machine.transitions.indices.filter { !coverable.contains($0) }.map { index in
            Uncoverable(transition: index, reason: UncoverableReason.explain(index, in: space, graph: graph))
        }
    }
}

/// Why a transition can never be taken by sending events.
public enum UncoverableReason: Sendable, Hashable, CustomStringConvertible {
    /// No flag values make the guard true.
    case unsatisfiableGuard(GuardExpression)
    /// No state the transition is declared on (nor any state below one) is ever active.
    case unreachableSource
    /// An eventless transition out of the initial state, taken only while the machine starts;
    /// a system reset into a state starts *in* it and never takes it.
    case onlyWhileStarting
    /// Wherever it applies with its guard true, other transitions (inner states' first, then earlier
    /// ones in document order) win: these, ascending.
    case preempted(by: [Int])
    /// Its source state is active, but never with flag values that make its guard true (for an
    /// eventless transition: it is never enabled while its source is active).
    case neverEnabled
    /// Its event is internal and never raised where the transition applies; only sending the internal
    /// event from outside would take it.
    case internalEventNeverRaised(String)
    /// The machine has too many flags or configurations to explore exactly.
    case explorationIncomplete

    public var description: String {
        switch self {
        case .unsatisfiableGuard(let guardExpression):
            "its guard '\(guardExpression)' can never hold"
        case .unreachableSource:
            "unreachable: no state it is declared on is ever active"
        case .onlyWhileStarting:
            "it is eventless from the initial state, so it is taken only while the machine starts, never after an event"
        case .preempted(let winners):
            "wherever it applies, another transition handles the event first (transition\(winners.count == 1 ? "" : "s") \(winners.map(String.init).joined(separator: ", ")))"
        case .neverEnabled:
            "its guard never holds while its source state is active"
        case .internalEventNeverRaised(let event):
            "its event '\(event)' is internal and never raised where the transition applies"
        case .explorationIncomplete:
            "the machine is too large to explore exactly, so no path was planned"
        }
    }

    static func explain(_ index: Int, in space: StateSpace, graph: CoverageGraph) -> UncoverableReason {
        let machine = space.machine
        let transition = machine.transitions[index]
        if let expression = transition.guardExpression, !expression.isSatisfiable() { return .unsatisfiableGuard(expression) }
        guard space.isExact else { return .explorationIncomplete }
        if space.startTransitions.contains(index) { return .onlyWhileStarting }
        if let event = transition.trigger.eventID, machine.event(event)?.kind == .internal, space.takenTransitions.contains(index) {
            return .internalEventNeverRaised(event)
        }
        let sources = Set(transition.sources)
        let applying = graph.nodes.filter { node in machine.ancestry(of: node.state).contains(where: sources.contains) }
        if applying.isEmpty { return .unreachableSource }
        guard let event = transition.trigger.eventID else { return .neverEnabled }
        var winners: Set<Int> = []
        for node in applying where transition.isEnabled(flags: node.flags(in: machine)) {
            guard let runner = try? Runner(machine: machine, state: node.state, flags: node.flags(in: machine)),
                  let winner = runner.transition(for: event) else { continue }
            winners.insert(winner.index)
        }
        return winners.isEmpty ? .neverEnabled : .preempted(by: winners.sorted())
    }
}

/// `StateSpace` as an indexed graph for path search.
struct CoverageGraph {
    struct Edge {
        let from: Int
        let event: String
        let to: Int
        let transitions: [Int]
    }

    /// Configurations reachable by sending events, in the space's discovery order.
    let nodes: [Configuration]
    let edges: [Edge]
    /// Outgoing edge indices per node, in the order the space recorded them (machine event order).
    /// Only edges for events that are not internal: those are what a test can send.
    let outgoing: [[Int]]
    /// Distinct starting nodes, the declared flag defaults first, then by how many flags differ.
    let orderedStarts: [Int]

    init(space: StateSpace) {
        let machine = space.machine
        // Every configuration the space found, then only those reachable from a start by events a
        // test can send: internal events are the machine's own (raised by transitions), so a system
        // under test is sent only user and system events.
        var allIndex: [Configuration: Int] = [:]
        var all: [Configuration] = []
        func index(_ configuration: Configuration) -> Int {
            if let existing = allIndex[configuration] { return existing }
            allIndex[configuration] = all.count
            all.append(configuration)
            return all.count - 1
        }
        for configuration in space.configurations { _ = index(configuration) }
        let external = space.edges.filter { machine.event($0.event)?.kind != .internal }
            .map { (from: index($0.from), event: $0.event, to: index($0.to), transitions: $0.transitions) }
        var successors = Array(repeating: [Int](), count: all.count)
        for edge in external { successors[edge.from].append(edge.to) }
        var seenStarts: Set<Int> = []
        let startIndices = space.starts.map(index).filter { seenStarts.insert($0).inserted }
        var reachable = Set(startIndices)
        var queue = startIndices
        while let current = queue.popLast() {
            for next in successors[current] where reachable.insert(next).inserted { queue.append(next) }
        }
        var renumber: [Int: Int] = [:]
        var nodes: [Configuration] = []
        for (offset, configuration) in all.enumerated() where reachable.contains(offset) {
            renumber[offset] = nodes.count
            nodes.append(configuration)
        }
        let edges = external.compactMap { edge -> Edge? in
            guard let from = renumber[edge.from], let to = renumber[edge.to] else { return nil }
            return Edge(from: from, event: edge.event, to: to, transitions: edge.transitions)
        }
        var outgoing = Array(repeating: [Int](), count: nodes.count)
        for (offset, edge) in edges.enumerated() { outgoing[edge.from].append(offset) }
        let defaults = machine.flags.map(\.defaultValue)
        let starts = startIndices.compactMap { renumber[$0] }
        let distance = { (start: Int) in zip(nodes[start].flagValues, defaults).filter { $0 != $1 }.count }
        orderedStarts = starts.enumerated()
            .sorted { (distance($0.element), $0.offset) < (distance($1.element), $1.offset) }
            .map(\.element)
        self.nodes = nodes
        self.edges = edges
        self.outgoing = outgoing
    }

    /// The shortest edge sequence from `start` whose last edge takes one of `targets`; `nil` when none
    /// is reachable. Among the nearest, the last edge taking the most targets wins, then the first found
    /// in breadth-first, event order.
    func route(from start: Int, toAnyOf targets: Set<Int>) -> [Int]? {
        var parent: [Int: Int] = [:]  // node → edge that first reached it
        var visited: Set<Int> = [start]
        var level = [start]
        func path(to node: Int) -> [Int] {
            var result: [Int] = []
            var current = node
            while current != start, let edge = parent[current] {
                result.append(edge)
                current = edges[edge].from
            }
            return result.reversed()
        }
        while !level.isEmpty {
            var best: (edge: Int, gain: Int)?
            for node in level {
                for edge in outgoing[node] {
                    let gain = Set(edges[edge].transitions).intersection(targets).count
                    if gain > 0, gain > best?.gain ?? 0 { best = (edge, gain) }
                }
            }
            if let best { return path(to: edges[best.edge].from) + [best.edge] }
            var next: [Int] = []
            for node in level {
                for edge in outgoing[node] where visited.insert(edges[edge].to).inserted {
                    parent[edges[edge].to] = edge
                    next.append(edges[edge].to)
                }
            }
            level = next
        }
        return nil
    }
}
