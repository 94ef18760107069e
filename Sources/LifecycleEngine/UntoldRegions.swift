/// Parallel regions a log of observations cannot tell apart (#37 break 3): regions independent of
/// the rest (`RegionDecomposition`, and each explored alone without a failing event or an
/// eventless loop, so an event moves each region as it moves that region alone) that emit nothing
/// the log records. What such a region does changes neither what the log may hold next nor how any
/// other region moves, so `TraceChecker` keeps every configuration with these regions at their
/// starting part: configurations that differ only there are one. Without it, independent regions
/// whose events the log does not record multiplied the configurations to track even for a
/// one-line log (16 two-state regions: 65,536 of them, 7 s and 137 MB; 18: 46 s and 500 MB).
struct UntoldRegions {
    /// Per state, by position: inside one of these regions.
    private let isInside: [Bool]
    /// Their active states at the start (the initial configuration, default flags), ascending.
    private let startActive: [Int]
    /// The flags only these regions read or write, with their values at that start.
    private let startFlags: [(flag: Int, value: Bool)]
    /// The regions' ids, in document order.
    let regionIDs: [String]
    /// Their atomic states' ids: not told apart, so not reported as where the app may be.
    let atomicStates: Set<String>

    /// `nil` when no region qualifies (or the machine has no independent regions).
    init?(machine: Machine, observed: Set<Observation>?) {
        guard machine.hasParallelRegions, let decomposition = RegionDecomposition(machine: machine) else {
            return nil
        }
        let tables = machine.tables
        func emitsNothingObserved(_ steps: [Step]) -> Bool {
            !steps.contains { step in step.observation.map { observed?.contains($0) ?? true } ?? false }
        }
        var silent = [Bool](repeating: true, count: decomposition.regions.count)
        for state in machine.states.indices where decomposition.regionOf[state] >= 0 {
            let region = decomposition.regionOf[state]
            for block in [tables.entry[state], tables.exit[state], tables.initialBlock[state]]
            where !emitsNothingObserved(block.steps) {
                silent[region] = false
            }
        }
        for transition in machine.transitions.indices {
            guard let source = machine.transitions[transition].sources.first.flatMap(machine.stateIndex(of:)),
                decomposition.regionOf[source] >= 0
            else { continue }
            if !emitsNothingObserved(tables.actionSteps[transition]) { silent[decomposition.regionOf[source]] = false }
        }
        guard silent.contains(true) else { return nil }
        // The decomposition is static; a failing event or an eventless loop inside one region
        // would still couple the others to it. The composed exploration rules both out.
        guard StateSpace(machine: machine, strategy: .composed).isComposed,
            var start = try? Runner(machine: machine, states: machine.initialTargets), (try? start.settle()) != nil
        else { return nil }
        var isInside = [Bool](repeating: false, count: machine.states.count)
        for state in machine.states.indices where decomposition.regionOf[state] >= 0 {
            isInside[state] = silent[decomposition.regionOf[state]]
        }
        let keptFlags = Set(decomposition.flagsOf.indices.filter { !silent[$0] }.flatMap { decomposition.flagsOf[$0] })
        let ownFlags = Set(decomposition.flagsOf.indices.filter { silent[$0] }.flatMap { decomposition.flagsOf[$0] })
            .subtracting(keptFlags)
        self.isInside = isInside
        startActive = start.active.filter { isInside[$0] }
        startFlags = ownFlags.sorted().map { ($0, start.flagValues[$0]) }
        regionIDs = decomposition.regions.indices.filter { silent[$0] }.map {
            machine.states[decomposition.regions[$0]].id
        }
        atomicStates = Set(
            machine.states.indices.filter { isInside[$0] && tables.kind[$0] == .atomic }.map { machine.states[$0].id })
    }

    /// Whether the state at `state` (a position) is inside one of these regions.
    func contains(_ state: Int) -> Bool { isInside[state] }

    /// `runner` with these regions put back at their starting part (history they record forgotten).
    func standIn(for runner: Runner) -> Runner {
        var active = runner.active.filter { !isInside[$0] }
        active += startActive
        active.sort()
        var flags = runner.flagValues
        for (flag, value) in startFlags { flags[flag] = value }
        return Runner(
            machine: runner.machine, active: active, flagValues: flags,
            historyValues: runner.historyValues.filter { !isInside[$0.key] })
    }
}
