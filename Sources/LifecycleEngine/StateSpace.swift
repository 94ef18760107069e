/// A configuration the engine can be in between events: the active atomic states (their ancestors
/// are active with them), every flag's value, and what history states remember.
public struct Configuration: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// What a history pseudo-state remembers.
    public struct HistoryEntry: Sendable, Hashable {
        public let state: String
        public let remembered: [String]
        public init(state: String, remembered: [String]) {
            self.state = state
            self.remembered = remembered
        }
    }

    /// The same by position in the machine it came from, so placing a runner needs no lookups.
    struct Positions: Sendable {
        let active: [Int]
        /// Ascending by history state (`Runner.configuration`'s sorted history, not copied again).
        let history: [(key: Int, value: [Int])]
    }

    /// Active atomic states in document order: one, without parallel regions.
    public let states: [String]
    /// Values of the machine's flags, in `Machine.flags` order.
    public let flagValues: [Bool]
    /// Recorded history, by history state id.
    public let history: [HistoryEntry]
    let positions: Positions?

    /// The first active atomic state (the only one without parallel regions).
    public var state: String { states.first ?? "" }

    public init(state: String, flagValues: [Bool]) {
        self.init(states: [state], flagValues: flagValues)
    }

    public init(states: [String], flagValues: [Bool], history: [HistoryEntry] = []) {
        self.init(states: states, flagValues: flagValues, history: history, positions: nil)
    }

    init(states: [String], flagValues: [Bool], history: [HistoryEntry], positions: Positions?) {
        self.states = states
        self.flagValues = flagValues
        self.history = history
        self.positions = positions
    }

    public func flags(in machine: Machine) -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: zip(machine.flags.map(\.id), flagValues))
    }

    /// The atomic states joined with `+` (one per region), e.g. `playing+visible`.
    public var description: String { states.joined(separator: "+") }

    public static func == (lhs: Configuration, rhs: Configuration) -> Bool {
        lhs.states == rhs.states && lhs.flagValues == rhs.flagValues && lhs.history == rhs.history
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(states)
        hasher.combine(flagValues)
        hasher.combine(history)
    }

    public static func < (lhs: Configuration, rhs: Configuration) -> Bool {
        if lhs.states != rhs.states { return lhs.states.lexicographicallyPrecedes(rhs.states) }
        if lhs.flagValues != rhs.flagValues {
            return lhs.flagValues.lexicographicallyPrecedes(rhs.flagValues) { !$0 && $1 }
        }
        return lhs.history.map { $0.state + ":" + $0.remembered.joined(separator: ",") }
            .lexicographicallyPrecedes(rhs.history.map { $0.state + ":" + $0.remembered.joined(separator: ",") })
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
    /// Configurations reached, in discovery (breadth-first) order. Built on each call from the
    /// runners the search kept: the search itself and the validator need none of their names.
    public var configurations: [Configuration] { runners.map(\.configuration) }
    /// Settled starting configurations (one per starting flag assignment), the roots of the search.
    public var starts: [Configuration] { startPositions.map { runners[$0].configuration } }
    /// Built on each call, as `configurations`.
    public var edges: [Edge] {
        let configurations = configurations
        let events = machine.events
        return edgeEnds.indices.map { offset in
            Edge(
                from: configurations[edgeEnds[offset].from], event: events[edgeEvents[offset]].id,
                to: configurations[edgeEnds[offset].to], transitions: edgeTransitions[offset])
        }
    }
    /// How many configurations were reached (`configurations.count`, without building them).
    public var configurationCount: Int { runners.count }
    /// The configuration at `position` in `configurations`, built alone.
    public func configuration(at position: Int) -> Configuration { runners[position].configuration }
    /// Atomic states some run is in.
    public let reachableLeaves: Set<String>
    /// Every state (atomic, compound, parallel) some run enters.
    public let reachableStates: Set<String>
    public let takenTransitions: Set<Int>
    /// Starting configurations whose eventless transitions never settle.
    public let eventlessLoops: [Configuration]
    /// False when the space was too large and the search fell back to ignoring guards and flags
    /// (an over-approximation: it may call reachable what is not).
    public let isExact: Bool
    /// Transitions taken while settling the starts (eventless transitions out of the initial state).
    public let startTransitions: Set<Int>
    /// History states some reachable configuration has recorded.
    public let recordedHistory: Set<String>
    /// With independent parallel regions whose product is too large to enumerate, the exploration of
    /// each region alone (`RegionDecomposition`), in document order; `configurations`, `starts` and
    /// `edges` are then empty, and every other answer is the product's, exactly. Empty otherwise.
    public let regionSpaces: [StateSpace]
    /// Per transition: the position in `regionSpaces` of the region it belongs to (when composed).
    let regionOfTransition: [Int]
    /// Whether the space is the product of `regionSpaces` rather than enumerated.
    public var isComposed: Bool { !regionSpaces.isEmpty }
    /// With a composed space, `CoveragePlan.uncoverableTransitions(in:)` found with the regions:
    /// both the validator and the composed coverage plan ask for it (each finding it again cost a
    /// 4-region 2,000-state suite 0.04 G, callgrind). Nil otherwise.
    private(set) var uncoverableInRegions: [CoveragePlan.Uncoverable]?
    /// For a region's space, `CoverageGraph.reachable(in:)` found with it: its uncoverable
    /// transitions and its coverage graph both start from it (finding it twice cost a 4-region
    /// 2,000-state suite 0.02 G, callgrind). Nil otherwise.
    private(set) var reach: (isExternal: [Bool], isReachable: [Bool], starts: [Int])?

    /// How to explore a machine with parallel regions.
    public enum Strategy: Sendable {
        /// Region by region when they are independent and their product would not fit the limit;
        /// the product otherwise.
        case automatic
        /// Every configuration of the product (today's exploration), whatever the regions.
        case product
        /// Region by region whenever the regions are independent, however small the product.
        case composed
    }

    /// `configurations` as the runners the search placed there: a configuration's names are built
    /// only when asked for. Building them for every configuration found, with an `Edge` of two
    /// configurations per step, cost a 4-region 2,000-state validate 0.45 G of its 3.85 G
    /// instructions (callgrind).
    let runners: [Runner]
    /// `edges` by position in `configurations`, for `CoverageGraph` (which would otherwise hash every
    /// configuration again to number them).
    let edgeEnds: [(from: Int, to: Int)]
    /// Per edge: `Edge.transitions`.
    let edgeTransitions: [[Int]]
    /// `starts` by position in `configurations`.
    let startPositions: [Int]
    /// Per start: the flag values it was settled from. A start's own `flagValues` are those after its
    /// eventless transitions ran (which may set flags), so settling them again can end elsewhere.
    let startAssignments: [[Bool]]
    /// `edges` by event position in `machine.events`, so the coverage search tells internal events
    /// apart without looking each edge's event up by id.
    let edgeEvents: [Int]

    /// Explores at most `limit` configurations exactly; beyond that, or beyond `maxFlags` flags,
    /// falls back to guard-free graph reachability.
    public init(machine: Machine, maxFlags: Int = 10, limit: Int? = nil, strategy: Strategy = .automatic) {
        self.init(machine: machine, maxFlags: maxFlags, limit: limit, strategy: strategy, reusesSteps: true)
    }

    /// `reusesSteps: false` runs the engine for every event from every configuration, as the
    /// tests compare the reuse against (see `explore`).
    init(machine: Machine, maxFlags: Int = 10, limit: Int? = nil, strategy: Strategy, reusesSteps: Bool) {
        // Regions multiply configurations, so a large parallel machine is out of reach of the exact
        // search whatever the limit; giving up at 10,000 leaves the same over-approximation in a
        // tenth of the time (validate of `lifespec synth --states 500 --regions 4`: 18 s to 1.9 s).
        let limit = limit ?? (machine.states.contains(where: \.isParallel) ? 10_000 : 100_000)
        var composed: (regions: [StateSpace], regionOfTransition: [Int])?
        var product: Exploration?
        if strategy != .product, machine.flags.count <= maxFlags, machine.hasParallelRegions,
            let decomposition = RegionDecomposition(machine: machine),
            let regions = Self.exploreRegions(machine, decomposition: decomposition, reusesSteps: reusesSteps)
        {
            // Enumerated, the product holds at least every combination of the regions' parts
            // reachable from the default flags: past the limit, the product search would fail.
            var lowerBound = 1
            for region in regions {
                let (value, overflow) = lowerBound.multipliedReportingOverflow(by: max(1, region.countFromDefaults))
                lowerBound = overflow ? .max : value
            }
            if strategy == .automatic, lowerBound <= limit {
                product = Self.explore(machine, limit: limit, reusesSteps: reusesSteps)
            }
            if product == nil {
                composed = (
                    regions.map { $0.space },
                    machine.transitions.indices.map { transition in
                        machine.transitions[transition].sources.first.flatMap(machine.stateIndex(of:)).map {
                            decomposition.regionOf[$0]
                        } ?? -1
                    }
                )
            }
        }
        if let composed {
            let regions = composed.regions
            self.init(
                machine: machine, exploration: Exploration(), isExact: true,
                regionSpaces: regions, regionOfTransition: composed.regionOfTransition,
                startTransitions: regions.reduce(into: Set<Int>()) { $0.formUnion($1.startTransitions) },
                takenTransitions: regions.reduce(into: Set<Int>()) { $0.formUnion($1.takenTransitions) },
                reachableStates: regions.reduce(into: Set<String>()) { $0.formUnion($1.reachableStates) },
                recordedHistory: regions.reduce(into: Set<String>()) { $0.formUnion($1.recordedHistory) }
            )
            uncoverableInRegions = CoveragePlan.uncoverableTransitions(inRegionsOf: self)
        } else if machine.flags.count <= maxFlags,
            let exact = product ?? Self.explore(machine, limit: limit, reusesSteps: reusesSteps)
        {
            self.init(machine: machine, exploration: exact)
        } else {
            let (reachableStates, takenTransitions) = Self.approximate(machine)
            self.init(
                machine: machine, exploration: Exploration(), isExact: false, regionSpaces: [], regionOfTransition: [],
                startTransitions: [], takenTransitions: takenTransitions, reachableStates: reachableStates,
                recordedHistory: []
            )
        }
    }

    /// An exact exploration as a space (of the whole machine, or of a region explored alone from a
    /// partial initial set, whose configurations hold its states and the states above the parallel state).
    private init(machine: Machine, exploration exact: Exploration) {
        // Flags by transition first: inserting every edge's transitions into the set cost a
        // 4-region 2,000-state validate 0.04 G (callgrind).
        var isTaken = [Bool](repeating: false, count: machine.transitions.count)
        var taken = exact.startTransitions
        for transitions in exact.edgeTransitions {
            for transition in transitions {
                if transition < isTaken.count { isTaken[transition] = true } else { taken.insert(transition) }
            }
        }
        for transition in isTaken.indices where isTaken[transition] { taken.insert(transition) }
        let states = machine.states
        let recorded = Set(exact.recordedHistory.map { states[$0].id })
        self.init(
            machine: machine, exploration: exact, isExact: true, regionSpaces: [], regionOfTransition: [],
            startTransitions: exact.startTransitions, takenTransitions: taken,
            // Every state some run entered, including those eventless transitions pass straight through.
            reachableStates: Set(exact.entered.map { states[$0].id }), recordedHistory: recorded
        )
    }

    /// Sets every stored answer: the exploration's lists (empty when the space is
    /// approximated or composed) and what the caller derived.
    private init(
        machine: Machine, exploration: Exploration, isExact: Bool, regionSpaces: [StateSpace],
        regionOfTransition: [Int],
        startTransitions: Set<Int>, takenTransitions: Set<Int>, reachableStates: Set<String>,
        recordedHistory: Set<String>
    ) {
        self.machine = machine
        runners = exploration.runners
        eventlessLoops = exploration.loops
        edgeEnds = exploration.edgeEnds
        edgeTransitions = exploration.edgeTransitions
        startPositions = exploration.startPositions
        startAssignments = exploration.startAssignments
        edgeEvents = exploration.edgeEvents
        self.isExact = isExact
        self.regionSpaces = regionSpaces
        self.regionOfTransition = regionOfTransition
        self.startTransitions = startTransitions
        self.takenTransitions = takenTransitions
        self.reachableStates = reachableStates
        self.recordedHistory = recordedHistory
        reachableLeaves = reachableStates.filter { machine.state($0)?.isLeaf == true }
    }

    /// Each region of `decomposition` explored alone, with the flags it reads or writes ranging over
    /// every assignment (the others keep their defaults: it never sees them); nil when a region
    /// loops, fails on an event it takes, or exceeds the flat machine's limit, so the product
    /// decides. `countFromDefaults`: configurations reachable from the start under default flags.
    private static func exploreRegions(_ machine: Machine, decomposition: RegionDecomposition, reusesSteps: Bool)
        -> [(
            space: StateSpace, countFromDefaults: Int
        )]?
    {
        let initial = (try? Runner(machine: machine))?.active ?? []
        let defaults = machine.tables.flagDefaults
        // The same for every region (it reads the whole machine's tables), so found once.
        let historyReads = reusesSteps ? historyReadingEvents(machine) : nil
        var result: [(space: StateSpace, countFromDefaults: Int)] = []
        for (number, flags) in decomposition.flagsOf.enumerated() {
            let regionInitial = initial.filter {
                decomposition.regionOf[$0] == -1 || decomposition.regionOf[$0] == number
            }
            // The default assignment first: it is the first start, whose reach is counted below.
            let assignments = (0..<(1 << flags.count)).map { bits in
                var values = defaults
                for (offset, flag) in flags.enumerated() {
                    values[flag] = (bits & (1 << offset) != 0) != defaults[flag]
                }
                return values
            }
            guard
                let exploration = explore(
                    machine, limit: 100_000, initial: regionInitial, assignments: assignments, isRegion: true,
                    historyReads: historyReads),
                exploration.loops.isEmpty
            else { return nil }
            var space = StateSpace(machine: machine, exploration: exploration)
            space.reach = CoverageGraph.reachable(in: space)
            // Reach from the first start (the defaults) by events.
            var count = 0
            if let first = space.startPositions.first {
                // Successors as one flat list (`successorList[successorStart[n]..<successorStart[n + 1]]`):
                // an array per configuration cost a 4-region 2,000-state validate 0.06 G (callgrind).
                let configurationCount = space.configurationCount
                var successorStart = [Int](repeating: 0, count: configurationCount + 1)
                for ends in space.edgeEnds { successorStart[ends.from + 1] += 1 }
                for index in 0..<configurationCount { successorStart[index + 1] += successorStart[index] }
                var fill = successorStart
                var successorList = [Int](repeating: 0, count: space.edgeEnds.count)
                for ends in space.edgeEnds {
                    successorList[fill[ends.from]] = ends.to
                    fill[ends.from] += 1
                }
                var seen = [Bool](repeating: false, count: configurationCount)
                seen[first] = true
                var queue = [first]
                while let next = queue.popLast() {
                    count += 1
                    for slot in successorStart[next]..<successorStart[next + 1] where !seen[successorList[slot]] {
                        seen[successorList[slot]] = true
                        queue.append(successorList[slot])
                    }
                }
            }
            result.append((space, count))
        }
        return result
    }

    private struct Exploration {
        var loops: [Configuration] = []
        var startTransitions: Set<Int> = []
        var edgeEnds: [(from: Int, to: Int)] = []
        var edgeTransitions: [[Int]] = []
        var startPositions: [Int] = []
        var startAssignments: [[Bool]] = []
        var edgeEvents: [Int] = []
        /// The configurations found, as runners placed there, so the search never looks a state up by id.
        var runners: [Runner] = []
        /// Every state some run enters or starts in, including states eventless transitions pass through.
        var entered: Set<Int> = []
        /// History states some configuration found has recorded (`HistoryTable.recorded`).
        var recordedHistory: Set<Int> = []
    }

    /// What a configuration holds besides its history: its active states (by position), its flag
    /// values as bits and whether it runs. Each is numbered once as met, so that configurations and
    /// steps are keyed by small numbers and a step reused across histories never hashes the active
    /// states again: keyed by these arrays instead, the lookups cost a 4-region 2,000-state
    /// exploration 0.5 G of its 1.5 G instructions (callgrind).
    private struct Core: Hashable {
        let active: [Int]
        let bits: Int
        let isRunning: Bool
        /// A mix of the three, all a lookup hashes: a `Hasher` fed every active state cost a
        /// 4-region 2,000-state validate 0.02 G (callgrind) over 79,000 lookups.
        let mix: Int

        init(_ runner: Runner) {
            active = runner.active
            isRunning = runner.isRunning
            var bits = 0
            for (offset, value) in runner.flagValues.enumerated() where value { bits |= 1 << offset }
            self.bits = bits
            var mix = bits &* 31 &+ (isRunning ? 1 : 0)
            for state in active { mix = mix &* 1_000_003 &+ state }
            self.mix = mix
        }

        func hash(into hasher: inout Hasher) { hasher.combine(mix) }
    }

    /// What a step that reads history depends on once its exits have run, besides the history,
    /// when they record no history and run no action that sets a flag or raises an event: its event
    /// and transitions, the states that stay and the flags. The exploration records only the
    /// transitions a step takes, not the callbacks its exits run, so configurations that agree on
    /// these and on their history take the same step to the same end.
    private struct SharedPrefix: Hashable {
        let event: Int
        /// The first transition, and the others (usually none: no array to build).
        let transition: Int
        let otherTransitions: [Int]
        let staying: [Int]
        let flagValues: [Bool]
        /// All a lookup hashes, as in `Core`.
        let mix: Int

        init(event: Int, transitions: [Runner.Enabled], staying: [Int], flagValues: [Bool]) {
            self.event = event
            transition = transitions[0].transition
            otherTransitions = transitions.count > 1 ? transitions.dropFirst().map(\.transition) : []
            self.staying = staying
            self.flagValues = flagValues
            var mix = event &* 1_000_003 &+ transition
            for transition in otherTransitions { mix = mix &* 1_000_003 &+ transition }
            for state in staying { mix = mix &* 1_000_003 &+ state }
            for value in flagValues { mix = mix &* 3 &+ (value ? 1 : 0) }
            self.mix = mix
        }

        func hash(into hasher: inout Hasher) { hasher.combine(mix) }
    }

    /// A configuration: its core's number and its history's (from `HistoryTable`). Hashing the
    /// history dictionary itself for every step made a 4-region 2,000-state exploration 7% slower
    /// (callgrind: 2.35 G instructions instead of 2.20 G). The two numbers are packed in one `Int`
    /// (the core's in the high 32 bits: each numbers configurations, far fewer than 2^32), which
    /// the standard library hashes in one call where a struct of two goes through a `Hasher`.
    private static func key(core: Int, history: Int) -> Int { core << 32 | history }

    /// Configurations by their core's number and their history's. Most cores are met with a few
    /// histories, so the first few of each are a row of positions and the rest a dictionary:
    /// keyed by one `Int` in a dictionary alone, the lookups and its growth cost a 4-region
    /// 2,000-state validate 0.05 G (callgrind).
    private struct PositionTable {
        private static let rowLength = 16
        /// `core * rowLength + history`: a position, or -1.
        private var rows: [Int32] = []
        private var beyondRows: [Int: Int] = [:]

        subscript(core: Int, history: Int) -> Int? {
            get {
                guard history < Self.rowLength else { return beyondRows[StateSpace.key(core: core, history: history)] }
                let index = core * Self.rowLength + history
                guard index < rows.count, rows[index] >= 0 else { return nil }
                return Int(rows[index])
            }
            set {
                guard history < Self.rowLength, let newValue else {
                    beyondRows[StateSpace.key(core: core, history: history)] = newValue
                    return
                }
                let index = core * Self.rowLength + history
                if index >= rows.count {
                    rows.append(contentsOf: repeatElement(-1, count: (core + 1) * Self.rowLength - rows.count))
                }
                rows[index] = Int32(newValue)
            }
        }
    }

    /// Distinct recorded histories, numbered as met. Only a step that records history (the trace
    /// says which) can change it, so a step that records none keeps its configuration's number
    /// without hashing the dictionary again.
    private struct HistoryTable {
        private var numbers: [[Int: [Int]]: Int] = [:]
        /// The history states the histories numbered record. Every configuration's history is one
        /// of them (a step that records none keeps its configuration's), so these are the states
        /// the configurations record: collecting them from every configuration instead cost a
        /// 4-region 2,000-state validate 0.05 G (callgrind).
        private(set) var recorded: Set<Int> = []

        mutating func number(of history: [Int: [Int]]) -> Int {
            if let known = numbers[history] { return known }
            numbers[history] = numbers.count
            recorded.formUnion(history.keys)
            return numbers.count - 1
        }
    }

    /// A step reused across history values: where it starts (its core's number) and on which event
    /// (of `eventCount`), as one `Int` for the same reason as `key(core:history:)`.
    private static func stepKey(core: Int, event: Int, eventCount: Int) -> Int { core * eventCount + event }

    /// Per event (by position): whether a step on it may read recorded history, i.e. take a
    /// transition into a history state; `nil` when any step might (a history state entered by an
    /// eventless transition, a raised or done event, `*`, or a default entry), so none is reused,
    /// and for a machine without history, where every configuration is its own and reuse only costs.
    static func historyReadingEvents(_ machine: Machine) -> [Bool]? {
        let tables = machine.tables
        func isHistory(_ state: Int) -> Bool { tables.kind[state].isHistory }
        guard tables.kind.contains(where: \.isHistory) else { return nil }
        var reading = [Bool](repeating: false, count: machine.events.count)
        for transition in tables.targets.indices where tables.targets[transition].contains(where: isHistory) {
            if tables.trigger[transition] < 0 || tables.matchesAll[transition] { return nil }
            for event in tables.eventMatches[transition] { reading[event] = true }
        }
        if tables.startTargets.contains(where: isHistory) { return nil }
        for targets in tables.initialTargets where targets.contains(where: isHistory) { return nil }
        for (event, isReading) in reading.enumerated() where isReading && tables.isDoneEvent[event] { return nil }
        let blocks = tables.entry + tables.exit + tables.initialBlock
        for raised in tables.raises + blocks.map(\.raises) where raised.contains(where: { reading[$0] }) {
            return nil
        }
        return reading
    }

    /// Per event (by position): whether every transition it can trigger has the same domain
    /// whatever history remembers, so that the transitions a step on it selects (conflicts are
    /// settled by domains) and the states it exits follow from the active states and flags alone.
    /// A domain reads history only through a history target, which stands for what it remembers
    /// or its default (SCXML's `getEffectiveTargetStates`): states below the history's parent, as
    /// the history state itself is. A common ancestor of the source either holds that parent (and
    /// all of them) or none of them, unless the source lies below the parent too.
    static func historyIgnoringDomains(_ machine: Machine) -> [Bool] {
        let tables = machine.tables
        var ignoring = [Bool](repeating: true, count: machine.events.count)
        for (source, transitions) in tables.declared.enumerated() {
            for transition in transitions {
                let readsHistory = tables.targets[transition].contains { target in
                    guard tables.kind[target].isHistory else { return false }
                    let parent = tables.parent[target]
                    let defaults = tables.targets[tables.declared[target][0]]
                    return tables.isDescendant(source, of: parent)
                        || !defaults.allSatisfy { tables.isDescendant($0, of: parent) }
                }
                guard readsHistory else { continue }
                if tables.matchesAll[transition] { return ignoring.map { _ in false } }
                for event in tables.eventMatches[transition] { ignoring[event] = false }
            }
        }
        return ignoring
    }

    /// Breadth-first over configurations, running the engine (`Runner`) on every event handled where
    /// it stands. Runs on copies of one runner per configuration and records only the transitions
    /// taken: the callbacks and notifications of each step are the engine's to replay later.
    private static func explore(_ machine: Machine, limit: Int, reusesSteps: Bool) -> Exploration? {
        let flagCount = machine.flags.count
        let initial = (try? Runner(machine: machine))?.active ?? []
        let assignments = (0..<(1 << flagCount)).map { bits in (0..<flagCount).map { bits & (1 << $0) != 0 } }
        return explore(
            machine, limit: limit, initial: initial, assignments: assignments, isRegion: false,
            historyReads: reusesSteps ? historyReadingEvents(machine) : nil)
    }

    /// The search from `initial` settled under each flag assignment. For a region explored alone
    /// (`isRegion`), an event it takes whose run then fails ends the search with nil: in the product
    /// that failure would block the other regions' moves too. `historyReads`: `historyReadingEvents`
    /// of the machine, or nil to run every step anew.
    private static func explore(
        _ machine: Machine, limit: Int, initial: [Int], assignments: [[Bool]], isRegion: Bool, historyReads: [Bool]?
    ) -> Exploration? {
        var result = Exploration()
        // History multiplies configurations (a region remembering one of ten leaves has ten copies
        // of every other configuration), but only a step into a history state reads it: every
        // other step ends in the same states with the same flags whatever was remembered, and
        // records the same history. Such a step is run once per active states, flags and event,
        // and given to the other copies (`Runner.take(stepOf:recorded:)`).
        // By `stepKey`, -1 (or past the end) for a step not run yet. A dictionary cost a 4-region
        // 2,000-state validate 0.02 G of lookups (callgrind).
        var stepNumbers: [Int32] = []
        let eventCount = machine.events.count
        /// Per step run for reuse (numbered in `stepNumbers`): where it ends, as the runner, the trace
        /// and the core's number. Looked up in place, not copied out of a dictionary as a whole.
        var stepEnds: [(runner: Runner, trace: TransitionTrace, core: Int)] = []
        // Steps that read history, shared by where their exits leave the machine: per core and
        // event (by `stepKey`), the number of that place (`SharedPrefix`), -1 before it is found
        // and -2 for a step not shared. Then by that number and the history (as `key`), the step's
        // end in `sharedEnds`: the runner, its transitions, core and history numbers.
        let historyIgnoringDomains = historyReads.map { _ in Self.historyIgnoringDomains(machine) }
        var prefixNumbers: [Int32] = []
        var prefixes: [SharedPrefix: Int] = [:]
        var sharedSteps: [Int: Int] = [:]
        var sharedEnds: [(runner: Runner, transitions: [Int], core: Int, history: Int)] = []
        var position = PositionTable()
        var cores: [Core: Int] = [:]
        var histories = HistoryTable()
        /// Per configuration: its core's number in `cores` and its history's in `histories`.
        var coreOf: [Int] = []
        var historyOf: [Int] = []
        func coreNumber(of runner: Runner) -> Int {
            let core = Core(runner)
            let number = cores[core, default: cores.count]
            if number == cores.count { cores[core] = number }
            return number
        }
        // `result.entered` as flags by state, set at the end: inserting each step's entered states
        // into the set cost a 4-region 2,000-state validate 0.025 G (callgrind).
        var isEntered = [Bool](repeating: false, count: machine.states.count)
        // Every run starts in these, even one whose eventless transitions leave them at once.
        for state in initial { isEntered[state] = true }
        for flagValues in assignments {
            var runner = Runner(machine: machine, active: initial, flagValues: flagValues, historyValues: [:])
            var trace = TransitionTrace()
            do {
                try runner.settle(into: &trace)
            } catch {
                result.loops.append(runner.configuration)
                continue
            }
            result.startTransitions.formUnion(trace.transitions)
            for state in trace.enteredStates { isEntered[state] = true }
            for state in runner.active { isEntered[state] = true }
            // Starts are never refused for the limit (only configurations found by events are).
            let history = histories.number(of: runner.historyValues)
            let core = coreNumber(of: runner)
            let start: Int
            if let existing = position[core, history] {
                start = existing
            } else {
                start = result.runners.count
                position[core, history] = start
                result.runners.append(runner)
                coreOf.append(core)
                historyOf.append(history)
            }
            result.startPositions.append(start)
            result.startAssignments.append(flagValues)
        }
        var cursor = 0
        while cursor < result.runners.count {
            let current = cursor
            cursor += 1
            let runner = result.runners[current]
            let core = coreOf[current]
            // Only events some transition on the way up handles can do anything here.
            for event in runner.handledEventNumbers {
                let transitions: [Int]
                let nextCore: Int
                var history = historyOf[current]
                // Where the step ends, unless it is a step reused that records no history: that
                // runner is built only for a configuration not placed yet (most steps end in one
                // placed already). Building it for every step, and placing through a local function
                // (its captured dictionary cost an exclusivity check per access), cost a 4-region
                // 2,000-state validate 0.07 G of its 2.57 G instructions (callgrind).
                var next: Runner?
                var reused: Int?
                var shared: Int?
                let reuse = historyReads.flatMap {
                    $0[event] ? nil : Self.stepKey(core: core, event: event, eventCount: eventCount)
                }
                // A step that reads history is still the same from every configuration its exits
                // leave in the same place (`Runner.statesStayingThroughExits`) with the same history:
                // a region's `resume` leaves only the region's ancestors, whatever state it left.
                // Where the domains ignore history, that place follows from the core, so it is found
                // once per core and event. Run once per place and history, a 4-region 2,000-state
                // validate takes 1.91 G instructions instead of 2.24 G, 22,000 microsteps instead of
                // 74,000 (callgrind).
                var sharing: Int?
                if let historyIgnoringDomains, reuse == nil, historyIgnoringDomains[event] {
                    let slot = Self.stepKey(core: core, event: event, eventCount: eventCount)
                    if slot >= prefixNumbers.count {
                        prefixNumbers.append(
                            contentsOf: repeatElement(-1, count: (cores.count * eventCount) - prefixNumbers.count))
                    }
                    var prefix = Int(prefixNumbers[slot])
                    if prefix == -1 {
                        prefix = -2
                        if runner.isRunning, case let enabled = runner.select(event: event), !enabled.isEmpty,
                            let staying = runner.statesStayingThroughExits(of: enabled)
                        {
                            let place = SharedPrefix(
                                event: event, transitions: enabled, staying: staying, flagValues: runner.flagValues)
                            prefix = prefixes[place, default: prefixes.count]
                            if prefix == prefixes.count { prefixes[place] = prefix }
                        }
                        prefixNumbers[slot] = Int32(prefix)
                    }
                    if prefix >= 0 { sharing = Self.key(core: prefix, history: history) }
                }
                if let sharing, let known = sharedSteps[sharing] {
                    transitions = sharedEnds[known].transitions
                    nextCore = sharedEnds[known].core
                    history = sharedEnds[known].history
                    shared = known
                } else if let reuse, reuse < stepNumbers.count, case let known = Int(stepNumbers[reuse]), known >= 0 {
                    // It ran before: the states it enters are counted, and an ignored event is no edge.
                    if stepEnds[known].trace.transitions.isEmpty { continue }
                    transitions = stepEnds[known].trace.transitions
                    nextCore = stepEnds[known].core
                    reused = known
                    if !stepEnds[known].trace.recordedHistory.isEmpty {
                        var moved = runner
                        moved.take(stepOf: stepEnds[known].runner, recorded: stepEnds[known].trace.recordedHistory)
                        history = histories.number(of: moved.historyValues)
                        next = moved
                    }
                } else {
                    var moved = runner
                    var trace = TransitionTrace()
                    do {
                        // `moved` is a copy dropped on failure, so the non-atomic `process` is enough.
                        try moved.process(event: event, into: &trace)
                    } catch .eventlessLoop {
                        result.loops.append(runner.configuration)
                        continue
                    } catch {
                        if isRegion, !runner.select(event: event).isEmpty { return nil }
                        continue
                    }
                    nextCore = trace.transitions.isEmpty ? -1 : coreNumber(of: moved)
                    if let reuse {
                        if reuse >= stepNumbers.count {
                            // Room for every event of the cores numbered so far.
                            stepNumbers.append(
                                contentsOf: repeatElement(-1, count: (cores.count * eventCount) - stepNumbers.count))
                        }
                        stepNumbers[reuse] = Int32(stepEnds.count)
                        stepEnds.append((moved, trace, nextCore))
                    }
                    // An ignored event (SCXML's policy) changes nothing: no edge.
                    if trace.transitions.isEmpty { continue }
                    for state in trace.enteredStates { isEntered[state] = true }
                    transitions = trace.transitions
                    if !trace.recordedHistory.isEmpty { history = histories.number(of: moved.historyValues) }
                    if let sharing {
                        sharedSteps[sharing] = sharedEnds.count
                        sharedEnds.append((moved, trace.transitions, nextCore, history))
                    }
                    next = moved
                }
                let target: Int
                if let existing = position[nextCore, history] {
                    target = existing
                } else {
                    // Every configuration placed has a key, so this counts the keys.
                    if result.runners.count + 1 > limit { return nil }
                    target = result.runners.count
                    position[nextCore, history] = target
                    if let next {
                        result.runners.append(next)
                    } else if let shared {
                        result.runners.append(sharedEnds[shared].runner)
                    } else {
                        var built = runner
                        built.take(stepOf: stepEnds[reused!].runner, recorded: [])
                        result.runners.append(built)
                    }
                    coreOf.append(nextCore)
                    historyOf.append(history)
                }
                result.edgeTransitions.append(transitions)
                result.edgeEnds.append((current, target))
                result.edgeEvents.append(event)
            }
        }
        result.recordedHistory = histories.recorded
        result.entered = Set(isEntered.indices.filter { isEntered[$0] })
        return result
    }

    /// Guard-free reachability: every transition counts as enabled, and a state is reached when a
    /// transition from one reached enters it (with every region of a parallel state it enters).
    private static func approximate(_ machine: Machine) -> (Set<String>, Set<Int>) {
        let tables = machine.tables
        var reached = Set((try? Runner(machine: machine))?.active ?? [])
        var queue = Array(reached)
        var taken: Set<Int> = []
        while let state = queue.popLast() {
            for transition in tables.declared[state] {
                taken.insert(transition)
                for target in tables.targets[transition] {
                    let entered = Runner(machine: machine, stateIndex: target, flagValues: tables.flagDefaults).active
                    for member in entered where reached.insert(member).inserted { queue.append(member) }
                }
            }
        }
        return (Set(reached.map { machine.states[$0].id }), taken)
    }

    /// A state is reachable when some leaf below it (or itself) is.
    public func isReachable(_ state: String) -> Bool {
        reachableStates.contains(state)
    }
}
