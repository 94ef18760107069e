/// A transition as coverage counts it: taken from one source of its `from:` list (`source` is that
/// source's position in the list, 0 for a transition declared on one state).
package struct TakenTransition: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let transition: Int
    package let source: Int

    package init(transition: Int, source: Int) {
        self.transition = transition
        self.source = source
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { (lhs.transition, lhs.source) < (rhs.transition, rhs.source) }
    package var description: String { source == 0 ? "\(transition)" : "\(transition)/\(source)" }
}

/// Two transitions taken by two events in a row (see `PairCoverage`).
package struct TransitionPair: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let first: TakenTransition
    package let second: TakenTransition

    package init(_ first: TakenTransition, _ second: TakenTransition) {
        self.first = first
        self.second = second
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { (lhs.first, lhs.second) < (rhs.first, rhs.second) }
    package var description: String { "(\(first), \(second))" }
}

/// Transition-pair (1-switch) coverage over the engine's exploration of a machine.
///
/// A pair (t1, t2) is taken when the macrostep of one event takes t1 and the macrostep of the very
/// next event takes t2. Eventless and raised transitions belong to the macrostep of the event that
/// led to them, so they pair with the events before and after it, not with each other; an event
/// that takes no transition changes nothing and is no step. Transitions count as transition
/// coverage counts them (`CoverageUnits`): once per source of a `from:` list, and a multi-target
/// transition once per target, so a pair counts the product of its two transitions' targets.
///
/// A pair is feasible when, in some configuration a test reaches by sending events (from a start
/// under some flag values), an event takes t1 into a configuration where an event takes t2: the
/// pairs of the space's edges that meet at a configuration. Every other pair is infeasible and is
/// not counted.
///
/// The walk that takes them is greedy, like the transition walk: from where the last event left the
/// machine, breadth-first over (last edge, next edge) to the nearest event that completes a pair not
/// yet taken; when none is reachable, a new path from the start nearest to one.
package struct PairCoverage {
    let machine: Machine
    let graph: CoverageGraph
    /// Feasible pairs of units (`CoverageUnits`), each encoded `first * unitCount + second`.
    let feasible: Set<Int>
    /// Per node: the units the edges into it take, and those the edges out of it take.
    private let before: [[Int]]
    private let after: [[Int]]
    /// Per unit: the nodes an edge taking it leaves.
    private let nodesLeavingBy: [[Int]]

    var units: CoverageUnits { graph.units }
    var unitCount: Int { graph.units.count }

    /// Nil for a space explored region by region (no graph of configurations to pair edges on) or
    /// one too large to explore exactly.
    package init?(space: StateSpace) {
        guard !space.isComposed, space.isExact else { return nil }
        self.init(machine: space.machine, graph: CoverageGraph(space: space))
    }

    /// With the graph the caller built already (the conformance planner searches it too).
    init(machine: Machine, graph: CoverageGraph) {
        self.machine = machine
        self.graph = graph
        var incoming = [[Int]](repeating: [], count: graph.nodeCount)
        for edge in 0..<graph.edgeCount { incoming[graph.edgeTo[edge]].append(edge) }
        let unitCount = graph.units.count
        var feasible: Set<Int> = []
        var beforeList = [[Int]](repeating: [], count: graph.nodeCount)
        var afterList = [[Int]](repeating: [], count: graph.nodeCount)
        var nodesLeavingBy = [[Int]](repeating: [], count: unitCount)
        for node in 0..<graph.nodeCount {
            // The pairs of every edge into a node with every edge out of it, without repeats.
            var before: Set<Int> = []
            for edge in incoming[node] { before.formUnion(graph.units(of: edge).filter { $0 < unitCount }) }
            var after: Set<Int> = []
            for edge in graph.outgoing(of: node) { after.formUnion(graph.units(of: edge).filter { $0 < unitCount }) }
            beforeList[node] = before.sorted()
            afterList[node] = after.sorted()
            for unit in afterList[node] { nodesLeavingBy[unit].append(node) }
            for first in before {
                for second in after { feasible.insert(first * unitCount + second) }
            }
        }
        self.feasible = feasible
        before = beforeList
        after = afterList
        self.nodesLeavingBy = nodesLeavingBy
    }

    /// How many feasible pairs there are, each counted per target of its two transitions.
    package var feasibleCount: Int { weight(of: feasible) }

    /// Every feasible pair, ascending.
    package var feasiblePairs: [TransitionPair] { feasible.map(pair(of:)).sorted() }

    package func pair(of code: Int) -> TransitionPair {
        TransitionPair(taken(code / unitCount), taken(code % unitCount))
    }

    func taken(_ unit: Int) -> TakenTransition {
        TakenTransition(transition: units.transition(of: unit), source: units.sourcePosition(of: unit))
    }

    /// `pairs` counted per target of their transitions (as `CoveragePlan.transitionCount` counts one).
    package func weight(of pairs: Set<Int>) -> Int {
        pairs.reduce(0) { $0 + units.weight(of: $1 / unitCount) * units.weight(of: $1 % unitCount) }
    }

    /// One event sent to `runner`, as the engine runs it: the units its macrostep takes (without
    /// repeats) and what an app observes. Nil when the step fails or takes no transition, which
    /// leaves `runner` where it was.
    package func send(_ event: String, to runner: inout Runner) -> (units: [Int], observations: [Observation])? {
        guard let number = machine.eventIndex(of: event) else { return nil }
        var moved = runner
        var trace = ObservingTrace(readsSources: true)
        guard (try? moved.process(event: number, into: &trace)) != nil, !trace.transitions.isEmpty else { return nil }
        runner = moved
        var found: [Int] = []
        for (transition, atomic) in zip(trace.transitions, trace.sources) where transition < units.transitionCount {
            let unit = units.unit(of: transition, foundFrom: atomic, in: machine)
            if !found.contains(unit) { found.append(unit) }
        }
        return (found, trace.observations)
    }

    /// The pairs consecutive steps take, given each step's units.
    package func pairs(of steps: [[Int]]) -> Set<Int> {
        var result: Set<Int> = []
        for (before, after) in zip(steps, steps.dropFirst()) {
            for first in before {
                for second in after { result.insert(first * unitCount + second) }
            }
        }
        return result
    }

    /// Of `pairs`, the feasible ones.
    package func feasible(in pairs: Set<Int>) -> Set<Int> { pairs.intersection(feasible) }

    /// Walks (by position in the graph) that together take every pair of `targets` that is feasible
    /// and reachable from `starts` (graph nodes, by preference; all starts when nil): the type's
    /// greedy walk. A walk's `newlyCovered` are pair codes.
    func walks(covering targets: Set<Int>, from starts: [Int]? = nil) -> [CoveragePlan.Walk] {
        var pending = Pending(self, targets: targets.intersection(feasible))
        var search = Search(nodeCount: graph.nodeCount)
        let unitCount = unitCount
        return CoveragePlan.greedyWalks(
            graph: graph, starts: starts ?? graph.orderedStarts, isDone: { pending.count == 0 },
            route: { node, last in route(from: node, after: last, pending: pending, using: &search) },
            take: { edge, previous, newlyCovered in
                guard let previous else { return }
                for first in graph.units(of: previous) where first < unitCount {
                    for second in graph.units(of: edge) where second < unitCount {
                        let code = first * unitCount + second
                        if pending.cover(code, in: self) { newlyCovered.append(code) }
                    }
                }
            })
    }

    /// The pairs a walk still looks for, indexed so that a search tells in constant time whether an
    /// edge leads to one: per node, for each unit an edge into it takes, how many pairs still looked
    /// for start with that unit and go on by an edge out of it. A search over edges pairs (every
    /// edge with every edge after it) took minutes for the 984 configurations of
    /// `uikit-navigation-stack`; this one visits each node once.
    struct Pending {
        private var isPending: [Bool]
        private(set) var count = 0
        /// Per node: unit taken into it → pairs pending from there.
        private var open: [[Int: Int]]

        init(_ coverage: PairCoverage, targets: Set<Int>) {
            let unitCount = coverage.unitCount
            isPending = Array(repeating: false, count: unitCount * unitCount)
            for code in targets where !isPending[code] {
                isPending[code] = true
                count += 1
            }
            open = Array(repeating: [:], count: coverage.graph.nodeCount)
            for node in 0..<coverage.graph.nodeCount {
                for first in coverage.before[node] {
                    var pairs = 0
                    for second in coverage.after[node] where isPending[first * unitCount + second] { pairs += 1 }
                    if pairs > 0 { open[node][first] = pairs }
                }
            }
        }

        func contains(_ code: Int) -> Bool { isPending[code] }

        /// Whether `edge` ends where a pair still looked for goes on.
        func leadsToPair(_ edge: Int, in coverage: PairCoverage) -> Bool {
            let node = coverage.graph.edgeTo[edge]
            guard !open[node].isEmpty else { return false }
            return coverage.graph.units(of: edge).contains { open[node][$0] != nil }
        }

        /// True when `code` was still looked for.
        mutating func cover(_ code: Int, in coverage: PairCoverage) -> Bool {
            guard isPending[code] else { return false }
            isPending[code] = false
            count -= 1
            let unitCount = coverage.unitCount
            let first = code / unitCount
            for node in coverage.nodesLeavingBy[code % unitCount] {
                guard let pairs = open[node][first] else { continue }
                open[node][first] = pairs > 1 ? pairs - 1 : nil
            }
            return true
        }
    }

    /// Breadth-first search buffers over nodes, reused by every route.
    struct Search {
        var stamp: [UInt32]
        var parent: [Int]
        var current: UInt32 = 0

        init(nodeCount: Int) {
            stamp = Array(repeating: 0, count: nodeCount)
            parent = Array(repeating: -1, count: nodeCount)
        }
    }

    /// How many pending pairs taking `second` right after `first` takes.
    private func gain(_ first: Int, _ second: Int, _ pending: Pending) -> Int {
        var gain = 0
        for one in graph.units(of: first) where one < unitCount {
            for other in graph.units(of: second) where other < unitCount && pending.contains(one * unitCount + other) {
                gain += 1
            }
        }
        return gain
    }

    /// Of the edges out of `edge`'s end, the one taking the most pending pairs after it (the first
    /// in event order among equals), with how many.
    private func bestNext(after edge: Int, _ pending: Pending) -> (edge: Int, gain: Int)? {
        var best: (edge: Int, gain: Int)?
        for next in graph.outgoing(of: graph.edgeTo[edge]) {
            let gain = gain(edge, next, pending)
            if gain > 0, gain > best?.gain ?? 0 { best = (next, gain) }
        }
        return best
    }

    /// The shortest edge sequence from `node` (reached by edge `last`, or a start when nil) whose last
    /// two edges (the first with `last`) take a pending pair; nil when none is reachable. Among the
    /// nearest, the pair of edges taking the most pending pairs wins, then the first found in
    /// breadth-first, event order.
    func route(from node: Int, after last: Int?, pending: Pending, using search: inout Search) -> [Int]? {
        if let last, pending.leadsToPair(last, in: self), let next = bestNext(after: last, pending) {
            return [next.edge]
        }
        if search.current == UInt32.max {
            for index in search.stamp.indices { search.stamp[index] = 0 }
            search.current = 0
        }
        search.current += 1
        search.stamp[node] = search.current
        var level = [node]
        while !level.isEmpty {
            var next: [Int] = []
            var found: (first: Int, second: Int, gain: Int)?
            for from in level {
                for edge in graph.outgoing(of: from) {
                    if pending.leadsToPair(edge, in: self), let best = bestNext(after: edge, pending),
                        best.gain > found?.gain ?? 0
                    {
                        found = (edge, best.edge, best.gain)
                    }
                    let to = graph.edgeTo[edge]
                    if found == nil, search.stamp[to] != search.current {
                        search.stamp[to] = search.current
                        search.parent[to] = edge
                        next.append(to)
                    }
                }
            }
            if let found {
                var route = [found.second, found.first]
                var current = graph.edgeFrom[found.first]
                while current != node {
                    let edge = search.parent[current]
                    route.append(edge)
                    current = graph.edgeFrom[edge]
                }
                return route.reversed()
            }
            level = next
        }
        return nil
    }
}
