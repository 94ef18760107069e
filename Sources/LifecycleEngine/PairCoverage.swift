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
        for node in 0..<graph.nodeCount where !incoming[node].isEmpty {
            // Units are numbered per graph, so the pairs of every edge into a node with every edge
            // out of it, without repeats.
            var before: Set<Int> = []
            for edge in incoming[node] { before.formUnion(graph.units(of: edge).filter { $0 < unitCount }) }
            var after: Set<Int> = []
            for edge in graph.outgoing(of: node) { after.formUnion(graph.units(of: edge).filter { $0 < unitCount }) }
            for first in before {
                for second in after { feasible.insert(first * unitCount + second) }
            }
        }
        self.feasible = feasible
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
        var uncovered = targets.intersection(feasible)
        var search = Search(edgeCount: graph.edgeCount)
        var walks: [CoveragePlan.Walk] = []
        while !uncovered.isEmpty {
            var best: (start: Int, route: [Int])?
            for start in starts ?? graph.orderedStarts {
                guard let route = route(from: start, after: nil, toAnyOf: uncovered, using: &search) else { continue }
                if best == nil || route.count < best!.route.count { best = (start, route) }
            }
            guard let (start, firstRoute) = best else { break }
            var edges: [Int] = []
            var newlyCovered: [Int] = []
            var leg: [Int]? = firstRoute
            while let route = leg {
                for edge in route {
                    if let previous = edges.last {
                        for first in graph.units(of: previous) where first < unitCount {
                            for second in graph.units(of: edge) where second < unitCount {
                                if uncovered.remove(first * unitCount + second) != nil {
                                    newlyCovered.append(first * unitCount + second)
                                }
                            }
                        }
                    }
                    edges.append(edge)
                }
                guard !uncovered.isEmpty, let last = edges.last else { break }
                leg = self.route(from: graph.edgeTo[last], after: last, toAnyOf: uncovered, using: &search)
            }
            // A route always ends on a pair it takes; this only guards against looping forever.
            guard !newlyCovered.isEmpty else { break }
            walks.append(CoveragePlan.Walk(start: start, edges: edges, newlyCovered: newlyCovered.sorted()))
        }
        return walks
    }

    /// Breadth-first search buffers over edges, reused by every route.
    struct Search {
        var stamp: [UInt32]
        var parent: [Int]
        var current: UInt32 = 0

        init(edgeCount: Int) {
            stamp = Array(repeating: 0, count: edgeCount)
            parent = Array(repeating: -1, count: edgeCount)
        }
    }

    /// How many pairs of `targets` taking `second` right after `first` takes.
    private func gain(_ first: Int, _ second: Int, _ targets: Set<Int>) -> Int {
        var gain = 0
        for one in graph.units(of: first) where one < unitCount {
            for other in graph.units(of: second) where other < unitCount && targets.contains(one * unitCount + other) {
                gain += 1
            }
        }
        return gain
    }

    /// The shortest edge sequence from `node` (reached by edge `last`, or a start when nil) whose last
    /// two edges (the first with `last`) take a pair of `targets`; nil when none is reachable. Among
    /// the nearest, the last edge taking the most pairs wins, then the first found in breadth-first,
    /// event order.
    func route(from node: Int, after last: Int?, toAnyOf targets: Set<Int>, using search: inout Search) -> [Int]? {
        if search.current == UInt32.max {
            for index in search.stamp.indices { search.stamp[index] = 0 }
            search.current = 0
        }
        search.current += 1
        var level: [Int] = []
        var best: (edge: Int, gain: Int)?
        for edge in graph.outgoing(of: node) {
            if let last {
                let gain = gain(last, edge, targets)
                if gain > 0, gain > best?.gain ?? 0 { best = (edge, gain) }
            }
            search.stamp[edge] = search.current
            search.parent[edge] = -1
            level.append(edge)
        }
        if let best { return [best.edge] }
        while !level.isEmpty {
            var next: [Int] = []
            var found: (edge: Int, via: Int, gain: Int)?
            for first in level {
                for second in graph.outgoing(of: graph.edgeTo[first]) {
                    let gain = gain(first, second, targets)
                    if gain > 0, gain > found?.gain ?? 0 { found = (second, first, gain) }
                    if found == nil, search.stamp[second] != search.current {
                        search.stamp[second] = search.current
                        search.parent[second] = first
                        next.append(second)
                    }
                }
            }
            if let found {
                var route = [found.edge]
                var current = found.via
                while current >= 0 {
                    route.append(current)
                    current = search.parent[current]
                }
                return route.reversed()
            }
            level = next
        }
        return nil
    }
}
