import LifeSpec
import LifecycleEngine

/// What the explorer page walks: every configuration the engine reaches from the page's starts
/// (the machine started as `simulate` starts it, each scenario's start, and the starts
/// `check-trace` assumes, one per assignment of the flags), and for each configuration and event
/// the engine's next configuration and the callbacks and notifications of that step, or that the
/// engine refuses the event there. The page only looks these up; it runs no statechart of its own.
package struct ExplorerGraph: Sendable {
    package struct Node: Sendable {
        /// Every active state (positions in `machine.states`), in document order: `simulate --json`'s
        /// `configurations` entry.
        package let active: [Int]
        package let flagValues: [Bool]
        /// Per event (position in `machine.events`): `nil` where the engine refuses it, else the
        /// next node and the step's observations (a position in `sequences`). Empty for a node left
        /// unexpanded because the budget ran out.
        package var edges: [(target: Int, sequence: Int)?]
        package var isExpanded: Bool
    }

    /// A configuration as the engine tells configurations apart, and whether the machine still runs.
    private struct Key: Hashable {
        let configuration: Configuration
        let isRunning: Bool
    }

    package let machine: Machine
    package private(set) var nodes: [Node] = []
    /// Distinct observation sequences (an edge names one by position): callbacks and notifications.
    package private(set) var sequences: [[Observation]] = [[]]
    /// `simulate`'s start: the node and the start's observations (a position in `sequences`).
    package private(set) var start: (node: Int, sequence: Int) = (0, 0)
    /// Per scenario of the spec (in order), its start, or `nil` when the engine cannot start it.
    package private(set) var scenarioStarts: [(node: Int, sequence: Int)?] = []
    /// Where `check-trace` (without `--from` and `--set`) may begin, in its order.
    package private(set) var traceStarts: [Int] = []
    /// Whether every configuration was expanded, the log check's starts and what they reach
    /// included (else the budget stopped exploration, and the page turns the log check off).
    package private(set) var isComplete = true
    /// Whether everything a click can reach was expanded: from the start and the scenarios' starts.
    package private(set) var isReachableComplete = true

    /// `nodeLimit`: the most configurations expanded; past it the graph is incomplete and says so.
    package init(spec: LoadedSpec, nodeLimit: Int = ExplorerGraph.defaultNodeLimit) {
        let machine = spec.machine
        self.machine = machine
        var nodes: [Node] = []
        var sequences: [[Observation]] = [[]]
        var keys: [Key: Int] = [:]
        var runners: [Runner] = []
        var sequenceIndex: [[Observation]: Int] = [[]: 0]
        func sequence(_ steps: [Step]) -> Int {
            let observed = steps.compactMap(\.observation)
            if let known = sequenceIndex[observed] { return known }
            sequences.append(observed)
            sequenceIndex[observed] = sequences.count - 1
            return sequences.count - 1
        }
        let positions = Dictionary(
            machine.states.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        func node(_ runner: Runner) -> Int {
            let key = Key(configuration: runner.configuration, isRunning: runner.isRunning)
            if let known = keys[key] { return known }
            let index = nodes.count
            keys[key] = index
            nodes.append(
                Node(
                    active: runner.activeStates.compactMap { positions[$0] },
                    flagValues: machine.flags.map { runner.flags[$0.id] ?? false }, edges: [], isExpanded: false))
            runners.append(runner)
            return index
        }
        var start = (node: 0, sequence: 0)
        var scenarioStarts: [(node: Int, sequence: Int)?] = []
        var traceStarts: [Int] = []
        var isComplete = true
        var isReachableComplete = true
        if let (runner, steps) = try? Runner.start(machine: machine) {
            start = (node(runner), sequence(steps))
        }
        for scenario in spec.document.scenarios {
            if let (runner, steps) = try? Runner.begin(machine: machine, from: scenario.from, flags: scenario.flags) {
                scenarioStarts.append((node(runner), sequence(steps)))
            } else {
                scenarioStarts.append(nil)
            }
        }
        let events = machine.events.map(\.id)
        let ignores = machine.unhandledEvents == .ignore
        var cursor = 0
        /// Expands nodes breadth-first until every one is expanded or the budget is spent.
        func expand() -> Bool {
            while cursor < nodes.count {
                if cursor >= nodeLimit { return false }
                let runner = runners[cursor]
                var edges: [(target: Int, sequence: Int)?] = []
                edges.reserveCapacity(events.count)
                // A machine that refuses unhandled events refuses every event it does not accept
                // now (`acceptedEvents`: an enabled transition), but for the internal ones it
                // leaves out.
                let accepted = ignores ? nil : Set(runner.acceptedEvents)
                for (position, event) in events.enumerated() {
                    if let accepted, !accepted.contains(event), machine.events[position].kind != .internal {
                        edges.append(nil)
                        continue
                    }
                    var copy = runner
                    if let steps = try? copy.send(event) {
                        edges.append((node(copy), sequence(steps)))
                    } else {
                        edges.append(nil)
                    }
                }
                nodes[cursor].edges = edges
                nodes[cursor].isExpanded = true
                cursor += 1
            }
            return true
        }
        // First what a click can reach (from the start and the scenarios' starts), so that a
        // budget spent on the log check's starts never takes a configuration from the clicks.
        isReachableComplete = expand()
        if isReachableComplete {
            // As `TraceChecker` begins without `--from`: the initial states entered with each
            // assignment of the (at most 16) free flags, then settled.
            let flagIDs = machine.flags.map(\.id)
            for bits in 0..<(1 << min(flagIDs.count, 16)) {
                var flags: [String: Bool] = [:]
                for (offset, id) in flagIDs.enumerated() { flags[id] = offset < 16 && bits & (1 << offset) != 0 }
                guard var runner = try? Runner(machine: machine, states: machine.initialTargets, flags: flags),
                    (try? runner.settle()) != nil
                else { continue }
                let start = node(runner)
                if !traceStarts.contains(start) { traceStarts.append(start) }
            }
            isComplete = expand()
        } else {
            isComplete = false
        }
        self.nodes = nodes
        self.sequences = sequences
        self.start = start
        self.scenarioStarts = scenarioStarts
        self.traceStarts = traceStarts
        self.isComplete = isComplete
        self.isReachableComplete = isReachableComplete
    }

    /// The configurations a page embeds at most: measured so that the pages of `Spec/` stay under
    /// `ExplorerPage.sizeBudget` (see the README, "The explorer").
    package static let defaultNodeLimit = 4_000
}
