/// Event paths that together take every transition the engine can take, planned over the engine's
/// own exploration of the machine (`StateSpace`), with the reason for each transition no path can take.
///
/// The walk is greedy: from a starting configuration (the initial state settled under some flag
/// values, the declared defaults first), repeatedly go by breadth-first search to the nearest event
/// that takes a transition not yet covered; when nothing uncovered is reachable any more, end the path
/// and restart from the starting configuration nearest to an uncovered transition. Every step is an
/// edge the engine itself produced, so a path replayed through `Runner` takes exactly the transitions
/// recorded here.
package struct CoveragePlan: Sendable, Hashable {
    /// One event of a path and what the engine does with it.
    package struct Step: Sendable, Hashable {
        package let event: String
        package let from: Configuration
        package let to: Configuration
        /// Every transition taken while processing the event (raised and eventless ones included).
        package let transitions: [Int]
    }

    /// Events sent in order from `start`, a settled starting configuration.
    package struct Path: Sendable, Hashable {
        package let start: Configuration
        package let steps: [Step]
        /// What this path takes that no earlier path took, ascending: transition indices, and past
        /// them a transition from a later source of its `from:` list (each counts on its own).
        package let newlyCovered: [Int]
    }

    /// A transition no event path can take, and why.
    package struct Uncoverable: Sendable, Hashable, CustomStringConvertible {
        package let transition: Int
        package let reason: UncoverableReason
        /// The source state no path takes it from while others do; `nil` when no path takes it at all.
        package let source: String?

        package init(transition: Int, reason: UncoverableReason, source: String? = nil) {
            self.transition = transition
            self.reason = reason
            self.source = source
        }

        package var description: String {
            "transition \(transition)\(source.map { " from '\($0)'" } ?? ""): \(reason)"
        }
    }

    package let paths: [Path]
    /// Ascending by transition index (a transition taken from some of its sources but not all: one
    /// entry per source no path takes it from).
    package let uncoverable: [Uncoverable]
    /// Every transition of the machine as the format counts them (the target of full coverage): one
    /// per source state of a `from:` list, and per target of a multi-target transition.
    package let transitionCount: Int
    /// Of `transitionCount`, those some path takes (from that source, so to every target).
    package let coveredCount: Int
    /// Transitions some path takes from at least one of their sources, ascending.
    package let covered: [Int]
    /// A lower bound on the events any covering set of paths must send: each event directly triggers
    /// exactly one transition from one source, so every coverable transition (from each source)
    /// whose event is never `raise`d needs an event of its own.
    package let lowerBound: Int

    package var stepCount: Int { paths.reduce(0) { $0 + $1.steps.count } }
    package var isComplete: Bool { uncoverable.isEmpty }

    package init(machine: Machine) {
        self.init(space: StateSpace(machine: machine))
    }

    package init(space: StateSpace) {
        if space.isComposed {
            self = Self.composed(space).plan
        } else {
            self = CoveragePlan(space: space, graph: CoverageGraph(space: space))
        }
    }

    /// `coveredUnits`: the `CoverageUnits` some path takes; `uncoverable`: the transitions no path
    /// takes from any source.
    private init(
        paths: [Path], coveredUnits: Set<Int>, units: CoverageUnits, uncoverable: [Uncoverable], space: StateSpace,
        explain: (_ transition: Int, _ source: String) -> UncoverableReason
    ) {
        let machine = space.machine
        self.paths = paths
        transitionCount = units.weightedCount
        coveredCount = coveredUnits.reduce(0) { $0 + units.weight(of: $1) }
        covered = Set(coveredUnits.map(units.transition(of:))).sorted()
        let raised = Set(machine.transitions.flatMap(\.raises))
        lowerBound =
            coveredUnits.filter { unit in
                guard let event = machine.transitions[units.transition(of: unit)].trigger.eventID else { return false }
                return !raised.contains(event)
            }.count
        // A transition some path takes from one source but not another: the sources missed.
        var partly: [Uncoverable] = []
        if units.count > units.transitionCount {
            for transition in covered where units.sources[transition].count > 1 {
                for position in units.sources[transition].indices
                where !coveredUnits.contains(units.unit(of: transition, sourcePosition: position)) {
                    let source = machine.transitions[transition].sources[position]
                    partly.append(
                        Uncoverable(transition: transition, reason: explain(transition, source), source: source))
                }
            }
        }
        self.uncoverable = (uncoverable + partly).sorted {
            ($0.transition, $0.source ?? "") < ($1.transition, $1.source ?? "")
        }
    }

    /// The plan of a machine whose independent regions were explored one by one: each region's own
    /// plan, its paths replayed through the whole machine from the matching start (an event moves
    /// every region that takes it, so a path may cover other regions' transitions on the way; a
    /// region's path that covers nothing new by then is dropped). It covers exactly the transitions
    /// the product's plan covers — a region's transition is taken in the product exactly when it is
    /// taken in the region alone — though in other paths.
    /// A path of a composed plan as `composed` replayed it through the whole machine: the runner
    /// it started from and what each step was seen to do (`Runner.send`'s observations).
    struct Replay {
        let start: Runner
        let observations: [[Observation]]
    }

    /// The plan, and per path its replay: the conformance planner replays every path from its
    /// start, and reads them instead where it starts from the same runner.
    static func composed(_ space: StateSpace) -> (plan: CoveragePlan, replays: [Replay]) {
        let machine = space.machine
        let units = CoverageUnits(machine: machine)
        var covered: Set<Int> = []
        var paths: [Path] = []
        var replays: [Replay] = []
        let initial = (try? Runner(machine: machine))?.active ?? []
        for region in space.regionSpaces {
            // Only the events of a region's walks and their starts are used below.
            let graph = CoverageGraph(space: region, namesNodes: false, indexes: false)
            // A path starts in a settled start; the flags it was settled from, not the flags it holds
            // once its eventless transitions set some, lead the whole machine there.
            var assignmentOf: [Configuration: [Bool]] = [:]
            for (start, assignment) in zip(region.starts, region.startAssignments) where assignmentOf[start] == nil {
                assignmentOf[start] = assignment
            }
            // What earlier regions' paths took on the way is not looked for again: an event every
            // region handles (`next` of the synthetic family) moves them all, and the later regions'
            // walks went around for those transitions again. At 2,000 states in 4 regions the
            // replayed steps fell from 12,164 to 9,669, and the suite covers the same transitions
            // with 38,000 sends instead of 51,000.
            for walk in walks(in: graph, skipping: covered).walks
            where walk.newlyCovered.contains(where: { !covered.contains($0) }) {
                // The product's start under these flags (the other regions' flags at their defaults).
                guard let assignment = assignmentOf[graph.node(walk.start)] else { continue }
                var runner = Runner(machine: machine, active: initial, flagValues: assignment, historyValues: [:])
                var trace = TransitionTrace()
                guard (try? runner.settle(into: &trace)) != nil else { continue }
                let start = runner.configuration
                let startRunner = runner
                var steps: [Step] = []
                var observations: [[Observation]] = []
                var newlyCovered: Set<Int> = []
                // Where the runner stands before each event: the start, then each step's end.
                var from = start
                for edge in walk.edges {
                    let event = graph.edgeEvent[edge]
                    let name = machine.events[event].id
                    var taken = ObservingTrace(readsSources: units.hasSeveralSources)
                    do {
                        try runner.process(event: event, into: &taken)
                    } catch {
                        break
                    }
                    for (position, transition) in taken.transitions.enumerated() {
                        let unit =
                            taken.sources.isEmpty
                            ? transition : units.unit(of: transition, foundFrom: taken.sources[position], in: machine)
                        if !covered.contains(unit) { newlyCovered.insert(unit) }
                    }
                    let to = runner.configuration
                    steps.append(Step(event: name, from: from, to: to, transitions: taken.transitions))
                    observations.append(taken.observations)
                    from = to
                }
                // A path that cannot be replayed whole covers nothing: what it took before it
                // stopped is in no path the suite runs.
                guard steps.count == walk.edges.count, !newlyCovered.isEmpty else { continue }
                covered.formUnion(newlyCovered)
                paths.append(Path(start: start, steps: steps, newlyCovered: newlyCovered.sorted()))
                replays.append(Replay(start: startRunner, observations: observations))
            }
        }
        // What the paths take, so the plan never claims a transition its paths miss; the regions'
        // plans say the same (`ComposedStateSpaceTests` holds both to the product's plan).
        let plan = CoveragePlan(
            paths: paths, coveredUnits: covered, units: units, uncoverable: uncoverableTransitions(in: space),
            space: space
        ) { transition, source in
            // Every transition of independent regions is declared inside one (`RegionDecomposition`).
            let number = space.regionOfTransition[transition]
            guard space.regionSpaces.indices.contains(number) else { return .neverEnabled }
            return explainer(in: space.regionSpaces[number]).explain(transition, sources: [source])
        }
        return (plan, replays)
    }

    /// One path of the greedy walk, by position in its graph: its start node, its edges and the
    /// transitions it covers first, ascending.
    struct Walk {
        let start: Int
        let edges: [Int]
        let newlyCovered: [Int]
    }

    /// With the graph the caller built already (the conformance planner searches it too).
    init(space: StateSpace, graph: CoverageGraph) {
        let machine = space.machine
        let (walks, coverableSet) = Self.walks(in: graph)
        var paths: [Path] = []
        for walk in walks {
            // A path's edges follow each other: each step starts where the one before it ended.
            let startNode = graph.node(walk.start)
            var last = (position: walk.start, node: startNode)
            let steps = walk.edges.map { index in
                let edge = graph.edges[index]
                let from = edge.from == last.position ? last.node : graph.node(edge.from)
                last = (edge.to, graph.node(edge.to))
                return Step(event: edge.event, from: from, to: last.node, transitions: edge.transitions)
            }
            paths.append(Path(start: startNode, steps: steps, newlyCovered: walk.newlyCovered))
        }
        let units = graph.units
        let coveredTransitions = Set(coverableSet.map(units.transition(of:)))
        let explainer = UncoverableReason.Explainer(space: space) { state in
            (graph.nodesByState[state] ?? []).map { graph.node($0) }
        }
        self.init(
            paths: paths, coveredUnits: coverableSet, units: units,
            uncoverable: machine.transitions.indices.filter { !coveredTransitions.contains($0) }.map { index in
                Uncoverable(transition: index, reason: explainer.explain(index))
            },
            space: space
        ) { transition, source in
            explainer.explain(transition, sources: [source])
        }
    }

    /// The greedy walk over `graph` (see the type's summary), and every `CoverageUnits` unit its
    /// edges take (a walk's `newlyCovered` are units too).
    /// Apart from the paths it names nothing: a composed plan replays the walks of its regions'
    /// graphs through the whole machine, and naming each step's two ends (with the region plan's
    /// unused reasons for what it cannot cover) cost a 4-region 2,000-state suite 0.15 G (callgrind).
    /// `skipping`: transitions already covered, which no walk goes out of its way for.
    static func walks(in graph: CoverageGraph, skipping: Set<Int> = []) -> (walks: [Walk], coverable: Set<Int>) {
        // Flags first: inserting every edge's transitions into the set cost a 4-region 2,000-state
        // suite 0.03 G (callgrind).
        var isCoverable = [Bool](repeating: false, count: graph.units.count)
        var coverableSet: Set<Int> = []
        for edge in 0..<graph.edgeCount {
            for unit in graph.units(of: edge) {
                if unit < isCoverable.count {
                    isCoverable[unit] = true
                } else {
                    coverableSet.insert(unit)
                }
            }
        }
        for transition in isCoverable.indices where isCoverable[transition] { coverableSet.insert(transition) }
        var uncovered = CoverageGraph.Targets(
            coverableSet.sorted().filter { !skipping.contains($0) }, transitionCount: graph.units.count)
        var search = graph.makeSearch()
        let walks = greedyWalks(
            graph: graph, starts: graph.orderedStarts, isDone: { uncovered.isEmpty },
            route: { node, _ in graph.route(from: node, toAnyOf: uncovered, using: &search) },
            take: { edge, _, newlyCovered in
                for transition in graph.units(of: edge) where uncovered.remove(transition) {
                    newlyCovered.append(transition)
                }
            })
        return (walks, coverableSet)
    }

    /// The greedy walk of both kinds of coverage: from the start nearest to something still wanted,
    /// leg after leg from where the last one ended while something wanted is in reach, then again
    /// from a start. `route(node, lastEdge)` finds the next leg (`nil`: nothing wanted in reach);
    /// `take(edge, previousEdge, &newlyCovered)` marks what taking the edge covers.
    static func greedyWalks(
        graph: CoverageGraph, starts: [Int], isDone: () -> Bool, route: (_ from: Int, _ after: Int?) -> [Int]?,
        take: (_ edge: Int, _ previous: Int?, _ newlyCovered: inout [Int]) -> Void
    ) -> [Walk] {
        var walks: [Walk] = []
        while !isDone() {
            var best: (start: Int, route: [Int])?
            for start in starts {
                guard let found = route(start, nil) else { continue }
                if best == nil || found.count < best!.route.count { best = (start, found) }
            }
            guard let (start, firstRoute) = best else { break }
            var edges: [Int] = []
            var newlyCovered: [Int] = []
            var leg: [Int]? = firstRoute
            while let legEdges = leg {
                for edge in legEdges {
                    take(edge, edges.last, &newlyCovered)
                    edges.append(edge)
                }
                guard !isDone(), let last = edges.last else { break }
                leg = route(graph.edgeTo[last], last)
            }
            // A route always ends on something it takes; this only guards against looping forever.
            guard !newlyCovered.isEmpty else { break }
            walks.append(Walk(start: start, edges: edges, newlyCovered: newlyCovered.sorted()))
        }
        return walks
    }

    /// The transitions of `machine` that no sequence of events can take, with reasons (LS122).
    package static func uncoverableTransitions(in machine: Machine) -> [Uncoverable] {
        uncoverableTransitions(in: StateSpace(machine: machine))
    }

    /// The same from an explored space, without planning the covering walk (the validator's path).
    /// Needs only which configurations a test reaches, not the indexed graph a walk searches.
    package static func uncoverableTransitions(in space: StateSpace) -> [Uncoverable] {
        if space.isComposed {
            return space.uncoverableInRegions ?? uncoverableTransitions(inRegionsOf: space)
        }
        return uncoverableTransitions(in: space) { _ in true }
    }

    /// The same for a composed space, region by region.
    static func uncoverableTransitions(inRegionsOf space: StateSpace) -> [Uncoverable] {
        // A region's transition is taken in the product exactly where it is taken in the region.
        var result: [Uncoverable] = []
        for (number, region) in space.regionSpaces.enumerated() {
            result += uncoverableTransitions(in: region) { space.regionOfTransition[$0] == number }
        }
        return result.sorted { $0.transition < $1.transition }
    }

    /// The same for the transitions `isAsked` selects (a region's own, in a region's space).
    private static func uncoverableTransitions(in space: StateSpace, where isAsked: (Int) -> Bool) -> [Uncoverable] {
        let reach = space.reach ?? CoverageGraph.reachable(in: space)
        let transitionCount = space.machine.transitions.count
        var coverable = [Bool](repeating: false, count: transitionCount)
        for offset in space.edgeEnds.indices
        where reach.isExternal[offset] && reach.isReachable[space.edgeEnds[offset].from] {
            for transition in space.edgeTransitions[offset] where transition < transitionCount {
                coverable[transition] = true
            }
        }
        let missing = coverable.indices.filter { !coverable[$0] && isAsked($0) }
        guard !missing.isEmpty else { return [] }
        let explainer = explainer(in: space)
        return missing.map { index in Uncoverable(transition: index, reason: explainer.explain(index)) }
    }

    /// Reasons over an explored space without an indexed graph.
    static func explainer(in space: StateSpace) -> UncoverableReason.Explainer {
        let reach = space.reach ?? CoverageGraph.reachable(in: space)
        // Asked only about the states under a few transitions' sources: a scan each is cheaper
        // than grouping every configuration by state up front.
        let tables = space.machine.tables
        return UncoverableReason.Explainer(space: space) { state in
            // A configuration's `states` are its active atomic states.
            guard let position = space.machine.stateIndex(of: state), tables.kind[position] == .atomic else {
                return []
            }
            return space.runners.indices.filter {
                reach.isReachable[$0] && space.runners[$0].active.contains(position)
            }
            .map { space.configuration(at: $0) }
        }
    }
}

/// Why a transition can never be taken by sending events.
package enum UncoverableReason: Sendable, Hashable, CustomStringConvertible {
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
    /// The transition is the one the event selects, but the macrostep it starts always fails (a
    /// raised event nothing takes, say), so the engine undoes it: the engine's error, in words.
    case failsItsStep(String)
    /// The machine has too many flags or configurations to explore exactly.
    case explorationIncomplete

    package var description: String {
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
        case .failsItsStep(let error):
            "the step it starts always fails, so the engine undoes it (\(error))"
        case .explorationIncomplete:
            "the machine is too large to explore exactly, so no path was planned"
        }
    }

    /// Explains uncoverable transitions of one explored space, with what the explanations share
    /// looked up once.
    struct Explainer {
        let space: StateSpace
        /// The configurations a test can reach in a state (a leaf), in any order.
        let reachableIn: (String) -> [Configuration]

        /// `sources`: of the transition's sources, those asked about (all when `nil`).
        func explain(_ index: Int, sources asked: [String]? = nil) -> UncoverableReason {
            let machine = space.machine
            let transition = machine.transitions[index]
            let declared = asked ?? transition.sources
            if let expression = transition.guardExpression, !expression.isSatisfiable() {
                return .unsatisfiableGuard(expression)
            }
            guard space.isExact else { return .explorationIncomplete }
            if space.startTransitions.contains(index) { return .onlyWhileStarting }
            if let event = transition.trigger.eventID, machine.event(event)?.kind == .internal,
                space.takenTransitions.contains(index)
            {
                return .internalEventNeverRaised(event)
            }
            // The nodes where the transition applies: those in a source state or below one. Walking
            // down from the sources costs their subtrees, not the whole graph, per transition.
            var applying: [Configuration] = []
            var visited: Set<String> = []
            var pending = declared
            while let state = pending.popLast() {
                guard visited.insert(state).inserted else { continue }
                applying += reachableIn(state)
                pending += machine.state(state)?.children ?? []
            }
            if applying.isEmpty { return .unreachableSource }
            guard let event = transition.trigger.eventID else { return .neverEnabled }
            var winners: Set<Int> = []
            if machine.hasParallelRegions {
                // The configuration as it is (every region), and of the microstep's transitions only
                // those found from a leaf under the transition's sources: the other regions' are no
                // rivals.
                let sources = declared.compactMap(machine.stateIndex(of:))
                let tables = machine.tables
                for node in applying where transition.isEnabled(flags: node.flags(in: machine)) {
                    guard let runner = try? Runner(machine: machine, configuration: node),
                        let number = machine.eventIndex(of: event)
                    else { continue }
                    // A transition declared on several states is selected once, found from the
                    // first: one declared on this transition's source too is a rival all the same.
                    for enabled in runner.select(event: number)
                    where sources.contains(where: { enabled.from == $0 || tables.isDescendant(enabled.from, of: $0) })
                        || machine.transitions[enabled.transition].sources.contains(where: declared.contains)
                    {
                        winners.insert(enabled.transition)
                    }
                }
            } else {
                for node in applying {
                    let flags = node.flags(in: machine)
                    guard transition.isEnabled(flags: flags),
                        let runner = try? Runner(machine: machine, state: node.state, flags: flags),
                        let winner = runner.transition(for: event)
                    else { continue }
                    winners.insert(winner.index)
                }
            }
            if winners.contains(index) {
                // Selected, yet never taken: the macrostep it starts fails wherever it applies.
                for node in applying where transition.isEnabled(flags: node.flags(in: machine)) {
                    guard var runner = try? Runner(machine: machine, configuration: node) else { continue }
                    do { _ = try runner.send(event) } catch { return .failsItsStep(error.description) }
                }
            }
            winners.remove(index)
            return winners.isEmpty ? .neverEnabled : .preempted(by: winners.sorted())
        }
    }
}

/// `StateSpace` as an indexed graph for path search.
struct CoverageGraph {
    struct Edge {
        let from: Int
        let event: String
        let to: Int
        let transitions: [Int]
        /// `transitions` without repeats (a raise or eventless hop can take one twice): what an edge
        /// gains for a route is how many distinct targets it takes.
        let distinctTransitions: [Int]
    }

    /// Configurations reachable by sending events, in the space's discovery order; empty for a graph
    /// built with `namesNodes: false`, whose `node(_:)` builds each when asked. A coverage plan of
    /// independent regions replays only its paths' events: naming every node of the 4 regions of
    /// 2,000 states (and each step's two ends) cost 0.36 G of the suite's 6.69 G instructions.
    let nodes: [Configuration]
    /// How many nodes (`nodes.count` when they are named).
    let nodeCount: Int
    /// The space's runners (`StateSpace.runners`), and per node the position of its own there.
    /// Copying each node's runner retained its three arrays, touching each: with the edge arrays
    /// grown one by one, building the graphs of a 4-region 2,000-state suite cost 72.7 M
    /// instructions (callgrind) and 673,000 first-level data cache read misses (cachegrind);
    /// 47.8 M and 482,000 now.
    private let spaceRunners: [Runner]
    private let runnerOffsets: [Int]
    /// Empty for a graph built with `indexes: false`: `edgeFrom`, `edgeTo`, `edgeEvent` and
    /// `distinctTransitions(of:)` say the same of every graph.
    let edges: [Edge]
    /// Per edge: its ends and its event's position in `machine.events`.
    let edgeFrom: [Int]
    let edgeTo: [Int]
    let edgeEvent: [Int]
    /// How many edges.
    var edgeCount: Int { edgeFrom.count }
    /// Distinct starting nodes, the declared flag defaults first, then by how many flags differ.
    let orderedStarts: [Int]
    /// Per transition index, the edges that take it, ascending (empty when built with `indexes: false`).
    let edgesByTransition: [[Int]]
    /// Per state id, its nodes in discovery order (every node is a leaf at rest; empty when built
    /// with `indexes: false`).
    let nodesByState: [String: [Int]]
    let transitionCount: Int
    /// Outgoing edges, `Edge.to` and `Edge.distinctTransitions` as flat arrays for the searches'
    /// inner loops, which would otherwise copy (and reference-count) an array or an edge per edge
    /// looked at: node `n`'s edges are `outgoingList[outgoingStart[n]..<outgoingStart[n + 1]]`,
    /// ascending (the order the space recorded them: machine event order; only edges for events that
    /// are not internal: those are what a test can send), edge `e`'s transitions
    /// `distinctList[distinctStart[e]..<distinctStart[e + 1]]`.
    private let outgoingStart: [Int]
    private let outgoingList: [Int]
    private let distinctStart: [Int]
    private let distinctList: [Int]

    /// Edge `edge`'s `Edge.distinctTransitions`, in place.
    func distinctTransitions(of edge: Int) -> ArraySlice<Int> {
        distinctList[distinctStart[edge]..<distinctStart[edge + 1]]
    }

    /// What the walk covers: each transition from each of its sources.
    let units: CoverageUnits
    /// Per edge, the units it takes, as `distinctStart`/`distinctList` (the same arrays when no
    /// transition has several sources, where unit and transition are one).
    private let unitStart: [Int]
    private let unitList: [Int]

    /// Edge `edge`'s units without repeats (`CoverageUnits`), in place.
    func units(of edge: Int) -> ArraySlice<Int> {
        unitList[unitStart[edge]..<unitStart[edge + 1]]
    }

    /// Node `node`'s outgoing edges, ascending, in place.
    func outgoing(of node: Int) -> ArraySlice<Int> {
        outgoingList[outgoingStart[node]..<outgoingStart[node + 1]]
    }

    /// `indexes: false` leaves `edgesByTransition` and `nodesByState` empty: a coverage plan's walk
    /// reads neither. Building them, with an array of outgoing edges per node (which `outgoingList`
    /// replaced), for the 4 regions of a composed 2,000-state suite cost 0.1 G (callgrind).
    init(space: StateSpace, namesNodes: Bool = true, indexes: Bool = true) {
        let machine = space.machine
        transitionCount = machine.transitions.count
        let units = CoverageUnits(machine: machine)
        var unitStart = [0]
        var unitList: [Int] = []
        // Every configuration the space found, then only those reachable from a start by events a
        // test can send: internal events are the machine's own (raised by transitions), so a system
        // under test is sent only user and system events.
        // The space numbers its configurations already (`edgeEnds`, `startPositions`).
        let reach = space.reach ?? Self.reachable(in: space)
        let startIndices = reach.starts
        let reachable = reach.isReachable
        var renumber = Array(repeating: -1, count: space.configurationCount)
        var runnerOffsets: [Int] = []
        for offset in renumber.indices where reachable[offset] {
            renumber[offset] = runnerOffsets.count
            runnerOffsets.append(offset)
        }
        let spaceRunners = space.runners
        // The edges as flat arrays, and as `Edge`s only for a graph with indexes (a composed plan's
        // walks read the arrays alone): building an `Edge`, with its event's name, for each of the
        // 190,000 edges of the 4 regions of a composed 2,000-state suite cost 0.1 G (callgrind).
        let events = machine.events
        var edges: [Edge] = []
        var edgeFrom: [Int] = []
        var edgeTo: [Int] = []
        var edgeEvent: [Int] = []
        var distinctStart = [0]
        var distinctList: [Int] = []
        // At most one entry per edge of the space, and mostly one transition each: room once.
        let edgeCapacity = space.edgeEnds.count
        edgeFrom.reserveCapacity(edgeCapacity)
        edgeTo.reserveCapacity(edgeCapacity)
        edgeEvent.reserveCapacity(edgeCapacity)
        distinctStart.reserveCapacity(edgeCapacity + 1)
        distinctList.reserveCapacity(edgeCapacity)
        for offset in space.edgeEnds.indices where reach.isExternal[offset] {
            let from = renumber[space.edgeEnds[offset].from]
            let to = renumber[space.edgeEnds[offset].to]
            guard from >= 0, to >= 0 else { continue }
            let transitions = space.edgeTransitions[offset]
            // Without repeats, first occurrences in order (an edge takes a few transitions).
            let listStart = distinctList.count
            for (position, transition) in transitions.enumerated()
            where position == 0 || !distinctList[listStart...].contains(transition) {
                distinctList.append(transition)
            }
            distinctStart.append(distinctList.count)
            if units.hasSeveralSources {
                // Which source a transition was taken from is not in the space: the step is run
                // again where one of its transitions has several.
                var found = Array(distinctList[listStart...])
                if transitions.contains(where: { $0 < units.transitionCount && units.sources[$0].count > 1 }) {
                    var runner = spaceRunners[space.edgeEnds[offset].from]
                    var trace = ObservingTrace(readsSources: true)
                    if (try? runner.process(event: space.edgeEvents[offset], into: &trace)) != nil,
                        trace.transitions == transitions
                    {
                        found = []
                        for (transition, atomic) in zip(trace.transitions, trace.sources) {
                            let unit = units.unit(of: transition, foundFrom: atomic, in: machine)
                            if !found.contains(unit) { found.append(unit) }
                        }
                    }
                }
                unitList += found
                unitStart.append(unitList.count)
            }
            edgeFrom.append(from)
            edgeTo.append(to)
            edgeEvent.append(space.edgeEvents[offset])
            if indexes {
                edges.append(
                    Edge(
                        from: from, event: events[space.edgeEvents[offset]].id, to: to, transitions: transitions,
                        distinctTransitions: transitions.count < 2 ? transitions : Array(distinctList[listStart...])))
            }
        }
        // Outgoing edges counted per node, then placed in edge order (so each node's are ascending).
        var edgeStarts = [Int](repeating: 0, count: runnerOffsets.count + 1)
        for from in edgeFrom { edgeStarts[from + 1] += 1 }
        for node in runnerOffsets.indices { edgeStarts[node + 1] += edgeStarts[node] }
        var fill = edgeStarts
        var list = [Int](repeating: 0, count: edgeFrom.count)
        for (offset, from) in edgeFrom.enumerated() {
            list[fill[from]] = offset
            fill[from] += 1
        }
        var byTransition: [[Int]] = []
        var byState: [String: [Int]] = [:]
        if indexes {
            byTransition = Array(repeating: [Int](), count: transitionCount)
            for (offset, edge) in edges.enumerated() {
                for transition in edge.distinctTransitions where byTransition.indices.contains(transition) {
                    byTransition[transition].append(offset)
                }
            }
            // Every leaf of a node's configuration (one per region) finds it: its `states` are its
            // active atomic states.
            let kind = machine.tables.kind
            var byPosition = Array(repeating: [Int](), count: machine.states.count)
            for (node, offset) in runnerOffsets.enumerated() {
                for state in spaceRunners[offset].active where kind[state] == .atomic { byPosition[state].append(node) }
            }
            for (state, list) in byPosition.enumerated() where !list.isEmpty {
                byState[machine.states[state].id] = list
            }
        }
        let defaults = machine.flags.map(\.defaultValue)
        let starts = startIndices.map { renumber[$0] }.filter { $0 >= 0 }
        let distance = { (start: Int) in
            zip(spaceRunners[runnerOffsets[start]].flagValues, defaults).filter { $0 != $1 }.count
        }
        orderedStarts = starts.enumerated()
            .sorted { (distance($0.element), $0.offset) < (distance($1.element), $1.offset) }
            .map(\.element)
        nodes = namesNodes ? runnerOffsets.map { spaceRunners[$0].configuration } : []
        nodeCount = runnerOffsets.count
        self.spaceRunners = spaceRunners
        self.runnerOffsets = runnerOffsets
        self.edges = edges
        self.edgeFrom = edgeFrom
        self.edgeTo = edgeTo
        self.edgeEvent = edgeEvent
        outgoingStart = edgeStarts
        outgoingList = list
        self.distinctStart = distinctStart
        self.distinctList = distinctList
        self.units = units
        self.unitStart = units.hasSeveralSources ? unitStart : distinctStart
        self.unitList = units.hasSeveralSources ? unitList : distinctList
        edgesByTransition = byTransition
        nodesByState = byState
    }

    /// Which edges a test can send (not internal events) and which configurations those reach from
    /// the distinct starts (in `startPositions` order).
    static func reachable(in space: StateSpace) -> (isExternal: [Bool], isReachable: [Bool], starts: [Int]) {
        let events = space.machine.events
        let isExternal = space.edgeEvents.map { events[$0].kind != .internal }
        let count = space.configurationCount
        // Successors as one flat list (`successorList[successorStart[n]..<successorStart[n + 1]]`):
        // an array per configuration cost an allocation per configuration and more per edge.
        var successorStart = [Int](repeating: 0, count: count + 1)
        for (offset, ends) in space.edgeEnds.enumerated() where isExternal[offset] {
            successorStart[ends.from + 1] += 1
        }
        for index in 0..<count { successorStart[index + 1] += successorStart[index] }
        var fill = successorStart
        var successorList = [Int](repeating: 0, count: successorStart[count])
        for (offset, ends) in space.edgeEnds.enumerated() where isExternal[offset] {
            successorList[fill[ends.from]] = ends.to
            fill[ends.from] += 1
        }
        var seenStarts: Set<Int> = []
        let starts = space.startPositions.filter { seenStarts.insert($0).inserted }
        var isReachable = [Bool](repeating: false, count: count)
        for start in starts { isReachable[start] = true }
        var queue = starts
        while let current = queue.popLast() {
            for slot in successorStart[current]..<successorStart[current + 1] where !isReachable[successorList[slot]] {
                isReachable[successorList[slot]] = true
                queue.append(successorList[slot])
            }
        }
        return (isExternal, isReachable, starts)
    }

    /// Transition indices still to reach, as flags over the machine's transitions: a route asks about
    /// every edge it looks at, so membership must not hash.
    struct Targets {
        private var flags: [Bool]
        private(set) var count = 0

        init(_ indices: some Sequence<Int>, transitionCount: Int) {
            flags = Array(repeating: false, count: transitionCount)
            for index in indices where !flags[index] {
                flags[index] = true
                count += 1
            }
        }

        var isEmpty: Bool { count == 0 }
        func contains(_ index: Int) -> Bool { flags[index] }
        /// True when `index` was a target.
        @discardableResult
        mutating func remove(_ index: Int) -> Bool {
            guard flags[index] else { return false }
            flags[index] = false
            count -= 1
            return true
        }
    }

    /// Breadth-first search buffers sized to the graph once and reused by every route: a node counts
    /// as visited when its stamp is the current search's, so starting a search costs nothing and a
    /// search costs what it visits, not the size of the graph.
    struct Search {
        fileprivate var stamp: [UInt32]
        /// The edge that first reached each node visited in the current search.
        fileprivate var parent: [Int]
        fileprivate var current: UInt32 = 0
        fileprivate var level: [Int] = []
        fileprivate var next: [Int] = []

        init(nodeCount: Int) {
            stamp = Array(repeating: 0, count: nodeCount)
            parent = Array(repeating: -1, count: nodeCount)
        }

        fileprivate mutating func begin() {
            if current == UInt32.max {
                for index in stamp.indices { stamp[index] = 0 }
                current = 0
            }
            current += 1
            level.removeAll(keepingCapacity: true)
            next.removeAll(keepingCapacity: true)
        }

        /// Marks `node` visited; false when it already was.
        fileprivate mutating func visit(_ node: Int) -> Bool {
            guard stamp[node] != current else { return false }
            stamp[node] = current
            return true
        }
    }

    /// Node `position`'s configuration: `nodes[position]`, built when the nodes are not named.
    func node(_ position: Int) -> Configuration {
        nodes.isEmpty ? spaceRunners[runnerOffsets[position]].configuration : nodes[position]
    }

    func makeSearch() -> Search { Search(nodeCount: nodeCount) }

    /// The shortest edge sequence from `start` whose last edge takes one of `targets` (units, see
    /// `units(of:)`); `nil` when none
    /// is reachable. Among the nearest, the last edge taking the most targets wins, then the first found
    /// in breadth-first, event order.
    func route(from start: Int, toAnyOf targets: Targets, using search: inout Search) -> [Int]? {
        search.begin()
        _ = search.visit(start)
        search.level.append(start)
        while !search.level.isEmpty {
            // One pass per level both scores the level's edges and collects the next level; the
            // next level is only used when no edge here takes a target.
            var best: (edge: Int, gain: Int)?
            for node in search.level {
                for slot in outgoingStart[node]..<outgoingStart[node + 1] {
                    let edge = outgoingList[slot]
                    var gain = 0
                    for entry in unitStart[edge]..<unitStart[edge + 1]
                    where targets.contains(unitList[entry]) { gain += 1 }
                    if gain > 0, gain > best?.gain ?? 0 { best = (edge, gain) }
                    let to = edgeTo[edge]
                    if best == nil, search.stamp[to] != search.current {
                        search.stamp[to] = search.current
                        search.parent[to] = edge
                        search.next.append(to)
                    }
                }
            }
            if let best {
                return path(to: edgeFrom[best.edge], from: start, parent: search.parent) + [best.edge]
            }
            swap(&search.level, &search.next)
            search.next.removeAll(keepingCapacity: true)
        }
        return nil
    }

    /// Edges from `start` to `node` along a search's parent links.
    private func path(to node: Int, from start: Int, parent: [Int]) -> [Int] {
        var result: [Int] = []
        var current = node
        while current != start {
            let edge = parent[current]
            result.append(edge)
            current = edgeFrom[edge]
        }
        return result.reversed()
    }

    /// A complete breadth-first search from one node: for every node reached, its depth, its position
    /// in discovery order and the edge that first reached it. `route(from:toAnyOf:)` explores exactly
    /// this tree up to the level where it stops, so a route can be read off the tree for any target
    /// set, which is how many small target sets (one per callback) share one search per start.
    struct Tree {
        let start: Int
        /// -1 for a node not reached.
        fileprivate(set) var depth: [Int]
        fileprivate(set) var order: [Int]
        fileprivate(set) var parent: [Int]
    }

    func tree(from start: Int) -> Tree {
        var tree = Tree(
            start: start, depth: Array(repeating: -1, count: nodeCount),
            order: Array(repeating: -1, count: nodeCount), parent: Array(repeating: -1, count: nodeCount))
        tree.depth[start] = 0
        tree.order[start] = 0
        var queue = [start]
        var cursor = 0
        while cursor < queue.count {
            let node = queue[cursor]
            cursor += 1
            for slot in outgoingStart[node]..<outgoingStart[node + 1] {
                let edge = outgoingList[slot]
                let to = edgeTo[edge]
                guard tree.depth[to] < 0 else { continue }
                tree.depth[to] = tree.depth[node] + 1
                tree.order[to] = queue.count
                tree.parent[to] = edge
                queue.append(to)
            }
        }
        return tree
    }

    /// What `route(from: tree.start, toAnyOf: targets)` returns, read off the tree: the reachable edge
    /// taking a target whose source is shallowest, then takes the most targets, then was met first
    /// (source in discovery order, then the source's edges in order, which is ascending).
    func route(in tree: Tree, toAnyOf targets: Targets, candidates: some Sequence<Int>) -> [Int]? {
        var best: (depth: Int, gain: Int, order: Int, edge: Int)?
        for edge in candidates {
            let from = edgeFrom[edge]
            let depth = tree.depth[from]
            guard depth >= 0 else { continue }
            var gain = 0
            for transition in distinctTransitions(of: edge) where targets.contains(transition) { gain += 1 }
            guard gain > 0 else { continue }
            let key = (depth, -gain, tree.order[from], edge)
            if let current = best, key >= (current.depth, -current.gain, current.order, current.edge) { continue }
            best = (depth, gain, tree.order[from], edge)
        }
        guard let best else { return nil }
        return path(to: edgeFrom[best.edge], from: tree.start, parent: tree.parent) + [best.edge]
    }
}

/// Transitions as coverage counts them. The format reads `from: [a, b]` as one transition per
/// source, so a path must take each from each of its sources: a unit is a transition and one of its
/// sources. Transition `t` from its first source is unit `t` (a machine without source lists has
/// one unit per transition, numbered as its transitions); its other sources follow every transition.
/// Taken from a source, a multi-target transition enters each of its targets: a unit counts once
/// per target (`weight(of:)`).
struct CoverageUnits: Sendable {
    let transitionCount: Int
    /// Per transition: its sources' positions in `machine.states`, as declared.
    let sources: [[Int]]
    /// Per transition: the unit of its second source, when it has several.
    private let secondSource: [Int]
    private let unitTransition: [Int]
    private let weights: [Int]
    let count: Int

    init(machine: Machine) {
        transitionCount = machine.transitions.count
        sources = machine.transitions.map { $0.sources.compactMap(machine.stateIndex(of:)) }
        var next = transitionCount
        var secondSource: [Int] = []
        var unitTransition = Array(0..<transitionCount)
        for (transition, list) in sources.enumerated() {
            secondSource.append(next)
            if list.count > 1 {
                next += list.count - 1
                unitTransition += Array(repeating: transition, count: list.count - 1)
            }
        }
        self.secondSource = secondSource
        self.unitTransition = unitTransition
        weights = machine.transitions.map { max(1, $0.targets.count) }
        count = next
    }

    var hasSeveralSources: Bool { count > transitionCount }
    /// Every unit counted once per target: what full coverage takes.
    var weightedCount: Int { (0..<count).reduce(0) { $0 + weight(of: $1) } }

    func transition(of unit: Int) -> Int { unitTransition[unit] }
    func weight(of unit: Int) -> Int { weights[unitTransition[unit]] }

    func unit(of transition: Int, sourcePosition position: Int) -> Int {
        position == 0 ? transition : secondSource[transition] + position - 1
    }

    /// The position in its transition's `from:` list of the source unit `unit` stands for.
    func sourcePosition(of unit: Int) -> Int {
        unit < transitionCount ? 0 : unit - secondSource[unitTransition[unit]] + 1
    }

    /// The unit of `transition` taken as the runner found it: on the way up from the atomic state
    /// `from` (`Runner.Enabled.from`), the first of its sources met.
    func unit(of transition: Int, foundFrom from: Int, in machine: Machine) -> Int {
        guard transition < transitionCount, sources[transition].count > 1 else { return transition }
        let list = sources[transition]
        for state in machine.tables.ancestry[from] {
            if let position = list.firstIndex(of: state) { return unit(of: transition, sourcePosition: position) }
        }
        return transition
    }
}
