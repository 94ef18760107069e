import LifecycleEngine

/// What each event does in each leaf state, asked of the engine.
///
/// A cell is a `Runner` placed in the leaf and sent the event: the outcome is every transition the
/// engine takes until it settles (raised events and eventless transitions included), or "not
/// handled". Where guards matter, the cell is run once per assignment of the flags that guards
/// read, and each distinct outcome is shown with the exact flag condition that produces it.
/// Assignments under which the leaf is not at rest (an eventless transition would leave it at
/// once) are left out of event rows: an event never finds the app there. The eventless row
/// shows exactly those.
struct EventStateMatrix: Sendable, Hashable {
    /// The flag condition under which a branch happens.
    enum Condition: Sendable, Hashable {
        /// The only outcome: flags do not matter.
        case always
        /// Exactly when every listed flag has the listed value (a conjunction, declaration order).
        case when([Literal])
        /// Exactly when one of the conjunctions holds.
        case whenAny([[Literal]])
        /// Every other assignment (the last branch, when its condition is no simple conjunction).
        case otherwise
    }

    struct Literal: Sendable, Hashable {
        let flag: String
        let value: Bool
    }

    struct Branch: Sendable, Hashable {
        /// The transitions taken, in order; `nil` when the event is not handled.
        let steps: [TransitionStep]?
        let condition: Condition
        /// The active atomic states the run ends in (one per region), for a machine with parallel
        /// regions; `nil` otherwise and when not handled.
        var end: [String]? = nil
    }

    struct Row: Sendable, Hashable {
        /// `nil` for the eventless row: what happens on its own in each state.
        let event: String?
        /// One cell per leaf state, in `leaves` order; each cell has at least one branch.
        let cells: [[Branch]]
    }

    /// Leaf states, in document order; for a machine with parallel regions, each column's label
    /// (its states joined by ` + `).
    let leaves: [String]
    /// The active atomic states of each column: one leaf each, or one reachable configuration
    /// each (a state per region, in document order) when the machine has parallel regions.
    let columns: [[String]]
    let rows: [Row]
    /// The flags whose assignments were enumerated, in declaration order.
    let flags: [String]

    /// How many reachable configurations were left out (all of them, when more than
    /// `configurationLimit`); 0 when the matrix is whole.
    let columnsLeftOut: Int
    static let configurationLimit = 40

    /// More guard flags than this and only the flags read by a cell's own candidate transitions
    /// are enumerated (the others keep their defaults).
    static let flagLimit = 8

    init(machine: Machine, stateSpace: StateSpace? = nil) {
        if machine.hasParallelRegions {
            // A leaf alone is no situation the machine can be in: the columns are the distinct
            // sets of active atomic states the engine reaches, in the order it finds them.
            var seen: Set<[String]> = []
            let all = (stateSpace ?? StateSpace(machine: machine)).configurations.map(\.states).filter {
                seen.insert($0).inserted
            }
            // Configurations multiply across regions: past a page's worth of columns the table
            // would be unreadable (and slow to compute), so it is left out with a note.
            columnsLeftOut = all.count > Self.configurationLimit ? all.count : 0
            columns = columnsLeftOut > 0 ? [] : all
        } else {
            columns = machine.leafStates.map { [$0.id] }
            columnsLeftOut = 0
        }
        leaves = columns.map { $0.joined(separator: " + ") }
        let guardFlags = Set(machine.transitions.flatMap { $0.guardExpression?.flags ?? [] })
        let allFlags = machine.flags.map(\.id).filter(guardFlags.contains)
        flags = allFlags.count <= Self.flagLimit ? allFlags : []
        // A history state's default is eventless but never taken on its own: no row for it.
        let eventless = machine.transitions.contains { transition in
            transition.isEventless && !transition.sources.contains { machine.state($0)?.isHistory == true }
        }
        let events: [String?] = machine.events.map(\.id) + (eventless ? [nil] : [])
        // Column by column (one leaf, every event), so each leaf's runners are placed once and
        // dropped before the next leaf; then turned into rows.
        var cells: [[[Branch]]] = []
        let defaults = machine.flagValues()
        let reads = GuardReads(machine: machine, flags: allFlags)
        let reached = Self.reachedAssignments(stateSpace: stateSpace, machine: machine, flags: allFlags)
        for column in columns {
            let leaf = column[0]
            // Guard reads are followed from one state; a configuration's runs enumerate every flag.
            var runners = LeafRunners(
                machine: machine, states: column, position: column.count == 1 ? reads.position(leaf) : nil)
            cells.append(
                events.map { event in
                    Self.branches(
                        machine: machine, leaf: leaf, event: event, flags: allFlags, defaults: defaults, reads: reads,
                        reached: reached?[column] ?? [], runners: &runners)
                })
        }
        rows = events.indices.map { row in
            Row(event: events[row], cells: cells.map { $0[row] })
        }
    }

    /// Runners placed in one leaf, one per flag assignment, each copied for every event sent:
    /// placing a runner costs about as much as a short run, and a leaf's column asks for the
    /// same assignments for every event. Which assignments leave the leaf at rest does not
    /// depend on the event either, so it is asked once too. Runners are placed when first
    /// asked for: a cell whose flags cannot matter runs only one.
    struct LeafRunners {
        let machine: Machine
        let leaf: String
        /// The events handled on the way up from the leaf (`Machine.handledEvents(in:)`).
        let handled: [String]
        /// The leaf's position in `machine.states`.
        let position: Int?
        /// Per flag list, the runner (or `nil` when the engine refuses to place one) per bit mask;
        /// the list asked for last is kept apart, so asking again does not hash it.
        private var lastFlags: [String]?
        private var lastPlaced: [Runner??] = []
        private var placed: [[String]: [Runner??]] = [:]
        private var resting: [[String]: [Int]] = [:]

        /// The active atomic states (one per region).
        let states: [String]

        init(machine: Machine, states: [String], position: Int?) {
            self.machine = machine
            self.leaf = states[0]
            self.states = states
            self.position = position
            if states.count == 1 {
                handled = machine.handledEvents(in: leaf)
            } else {
                var handled: [String] = []
                for state in states {
                    for event in machine.handledEvents(in: state) where !handled.contains(event) {
                        handled.append(event)
                    }
                }
                self.handled = handled
            }
        }

        mutating func runner(_ mask: Int, flags: [String]) -> Runner? {
            if flags != lastFlags {
                if let lastFlags { placed[lastFlags] = lastPlaced }
                lastPlaced = placed[flags] ?? Array(repeating: nil, count: 1 << flags.count)
                lastFlags = flags
            }
            if let runner = lastPlaced[mask] { return runner }
            let runner = try? Runner(
                machine: machine, states: states, flags: EventStateMatrix.assignment(mask, flags: flags))
            lastPlaced[mask] = .some(runner)
            return runner
        }

        mutating func runners(flags: [String]) -> [Runner?] {
            (0..<(1 << flags.count)).map { runner($0, flags: flags) }
        }

        /// The masks under which no eventless transition would leave the leaf at once.
        mutating func restingMasks(flags: [String]) -> [Int] {
            if let masks = resting[flags] { return masks }
            let runners = runners(flags: flags)
            let masks = runners.indices.filter { runners[$0]?.enabledEventlessTransition == nil }
            resting[flags] = masks
            return masks
        }
    }

    /// Which of the enumerated flags the engine can read on its way through a cell, as bit masks
    /// over them, asked of the engine (`Machine.guardFlags(for:onAncestryOf:)`): the guards it may
    /// evaluate are those of the transitions on the ancestry of each state it selects a transition
    /// in, for the event being processed (or eventless ones). A run that could read none of them
    /// takes the same transitions under every assignment.
    struct GuardReads {
        let machine: Machine
        /// Per flag position in `machine.flags`: its bit over the enumerated flags (0 if not enumerated).
        let bit: [Int]
        /// Per state position: the bits read by eventless guards on its ancestry, and whether
        /// its ancestry has an eventless transition at all.
        let eventless: [Int]
        let hasEventless: [Bool]

        init(machine: Machine, flags: [String]) {
            self.machine = machine
            var bit = Array(repeating: 0, count: machine.flags.count)
            for (offset, flag) in flags.enumerated() {
                if let index = machine.flags.firstIndex(where: { $0.id == flag }) { bit[index] = 1 << offset }
            }
            self.bit = bit
            eventless = machine.states.indices.map { state in
                machine.guardFlags(for: nil, onAncestryOf: state).reduce(0) { $0 | bit[$1] }
            }
            hasEventless = machine.states.indices.map { machine.hasEventlessTransition(onAncestryOf: $0) }
        }

        func position(_ state: String) -> Int? { machine.position(of: state) }

        /// Whether a transition raises events (a run that raises is not followed here).
        func raises(_ transition: Int) -> Bool { !machine.transitions[transition].raises.isEmpty }

        /// The bits read by the guards of `event`'s transitions on the ancestry of `state`.
        func reads(_ event: String, in state: Int) -> Int {
            machine.guardFlags(for: event, onAncestryOf: state).reduce(0) { $0 | bit[$1] }
        }
    }

    /// The one branch of a cell the engine does not handle (shared: most cells are such cells).
    private static let notHandled = [Branch(steps: nil, condition: .always)]

    /// The flag values a bit mask over `flags` stands for.
    static func assignment(_ mask: Int, flags: [String]) -> [String: Bool] {
        var values: [String: Bool] = [:]
        for (offset, flag) in flags.enumerated() { values[flag] = mask & (1 << offset) != 0 }
        return values
    }

    /// Per column (its active atomic states), the assignments of `flags` (bit masks) the engine's
    /// state space reaches it with; `nil` when the space is not exact (too large, or composed
    /// region by region), and every assignment is then shown.
    static func reachedAssignments(stateSpace: StateSpace?, machine: Machine, flags: [String]) -> [[String]: Set<Int>]?
    {
        guard let stateSpace, stateSpace.isExact, !stateSpace.isComposed, !flags.isEmpty else { return nil }
        let positions = flags.map { flag in machine.flags.firstIndex { $0.id == flag } }
        var reached: [[String]: Set<Int>] = [:]
        for position in 0..<stateSpace.configurationCount {
            let configuration = stateSpace.configuration(at: position)
            var mask = 0
            for (offset, index) in positions.enumerated() {
                if let index, configuration.flagValues.indices.contains(index), configuration.flagValues[index] {
                    mask |= 1 << offset
                }
            }
            reached[configuration.states, default: []].insert(mask)
        }
        return reached
    }

    /// `defaults` is `machine.flagValues()`, made once per matrix rather than once per cell;
    /// `reads` is over `allFlags`; `reached` holds the assignments of `allFlags` the state space
    /// reaches the column with (empty when unknown).
    static func branches(
        machine: Machine, leaf: String, event: String?, flags allFlags: [String], defaults: [String: Bool],
        reads: GuardReads, reached: Set<Int> = [], runners: inout LeafRunners
    ) -> [Branch] {
        // No transition for the event anywhere on the way up from the leaf: the engine rejects
        // it whatever the flags say (`Machine.handledEvents` ignores guards), so there is
        // nothing to run. Most cells of a large machine's matrix are such cells.
        if let event, !runners.handled.contains(event) { return notHandled }
        var flags = allFlags
        if flags.count > flagLimit {
            // Only the guards this leaf can meet first; the rest stay at their defaults.
            let local = Set(
                runners.position.map { machine.guardFlags(for: event, onAncestryOf: $0).map { machine.flags[$0].id } }
                    ?? [])
            flags = flags.filter(local.contains)
            if flags.count > flagLimit { flags = [] }
        }

        var defaultMask = 0
        for (offset, flag) in flags.enumerated() where defaults[flag] == true { defaultMask |= 1 << offset }
        var universe = Array(0..<(1 << flags.count))
        // The flags' bits mean the same in `reads` when every guard flag is enumerated.
        let leafPosition = flags.count == allFlags.count && !flags.isEmpty ? runners.position : nil
        let independentRest = leafPosition.map { reads.eventless[$0] == 0 } ?? false
        // On its own, a leaf with no eventless transition on the way up does nothing.
        if event == nil, let leafPosition, !reads.hasEventless[leafPosition] { return notHandled }
        // An event finds the app at rest: flag values under which the leaf would leave on its own
        // at once (an enabled eventless transition) are not a situation the event can meet. When
        // no eventless guard on the way up reads a flag, every assignment is at rest or none is,
        // and either way the universe stays whole.
        if event != nil, !independentRest {
            let stable = runners.restingMasks(flags: flags)
            if !stable.isEmpty { universe = stable }
        }
        // Nor can an event meet the column with flag values no run reaches it with (an app that
        // never launched the legacy way is never in the background having launched so): only the
        // combinations the state space reaches are shown. Every reached configuration is at rest.
        if event != nil, flags.count == allFlags.count, !reached.isEmpty {
            let shown = universe.filter(reached.contains)
            if !shown.isEmpty { universe = shown }
        }
        // On its own, a leaf at rest does nothing: `settle()` has no eventless transition to take.
        let resting: Set<Int>
        if event != nil {
            resting = []
        } else if independentRest {
            resting = runners.runner(0, flags: flags)?.enabledEventlessTransition == nil ? Set(universe) : []
        } else {
            resting = Set(runners.restingMasks(flags: flags))
        }
        // A run that can only have read some flags (the guards for the events it processed on
        // the way up from each state it selected a transition in) is the run under every
        // assignment that agrees on those flags: it is made once for all of them.
        var known = Array(repeating: [TransitionStep]??.none, count: 1 << flags.count)
        var ends: [[TransitionStep]: [String]] = [:]
        for mask in universe where known[mask] == nil {
            let outcome =
                resting.contains(mask) ? nil : run(runners.runner(mask, flags: flags), event: event, ends: &ends)
            known[mask] = .some(outcome)
            guard let leafPosition, let outcome, !resting.contains(mask) else { continue }
            var read = event.map { reads.reads($0, in: leafPosition) } ?? reads.eventless[leafPosition]
            for step in outcome {
                if reads.raises(step.transitionIndex) {
                    read = ~0
                    break
                }
                read |= reads.position(step.to).map { reads.eventless[$0] } ?? ~0
            }
            for other in universe where known[other] == nil && (other ^ mask) & read == 0 && !resting.contains(other) {
                known[other] = .some(outcome)
            }
        }
        // Outcome → the assignments (as bit masks over `flags`) that produce it, in first-seen order.
        // Outcomes are told apart by what a cell shows (the states passed through, or the
        // configuration ended in): two transitions to the same states are one outcome.
        func shown(_ steps: [TransitionStep]?) -> [String?]? {
            guard let steps else { return nil }
            if let end = ends[steps] { return steps.allSatisfy(\.isInternal) ? [nil] : end }
            return steps.map { $0.isInternal ? nil : $0.to }
        }
        var outcomes: [[TransitionStep]?] = []
        var shownOutcomes: [[String?]?] = []
        var masks: [[Int]] = []
        for mask in universe {
            let outcome = known[mask]!
            let seen = shown(outcome)
            if let index = shownOutcomes.firstIndex(where: { $0 == seen }) {
                masks[index].append(mask)
            } else {
                outcomes.append(outcome)
                shownOutcomes.append(seen)
                masks.append([mask])
            }
        }
        if outcomes.count == 1 {
            return [Branch(steps: outcomes[0], condition: .always, end: outcomes[0].flatMap { ends[$0] })]
        }

        // The outcome under the default flag values first, then first-seen order; outcomes whose
        // condition is no simple conjunction go last, so the very last one can read "otherwise".
        var order = Array(outcomes.indices)
        if let first = order.firstIndex(where: { masks[$0].contains(defaultMask) }) {
            order.insert(order.remove(at: first), at: 0)
        }
        let cubes = order.map { cube(masks[$0], within: universe, flags: flags) }
        let ranked = zip(order, cubes).enumerated()
            .sorted { ($0.element.1 == nil ? 1 : 0, $0.offset) < ($1.element.1 == nil ? 1 : 0, $1.offset) }
            .map(\.element)
        return ranked.enumerated().map { position, item in
            let (index, literals) = item
            let condition: Condition
            if let literals {
                condition = .when(literals)
            } else if position == ranked.count - 1 {
                condition = .otherwise
            } else {
                condition = .whenAny(masks[index].map { minterm($0, flags: flags) })
            }
            return Branch(steps: outcomes[index], condition: condition, end: outcomes[index].flatMap { ends[$0] })
        }
    }

    /// The shortest conjunction (dropping literals greedily, in declaration order) that picks
    /// exactly `masks` out of `universe`, if there is one.
    static func cube(_ masks: [Int], within universe: [Int], flags: [String]) -> [Literal]? {
        // `masks` is a subsequence of `universe` (both ascending), so the masks a conjunction
        // picks out of `universe` are exactly `masks` when the two lists are equal.
        func selects(_ literals: [(offset: Int, value: Bool)]) -> Bool {
            universe.filter { mask in literals.allSatisfy { (mask & (1 << $0.offset) != 0) == $0.value } } == masks
        }
        var literals: [(offset: Int, value: Bool)] = []
        for offset in flags.indices {
            let value = masks[0] & (1 << offset) != 0
            if masks.allSatisfy({ ($0 & (1 << offset) != 0) == value }) { literals.append((offset, value)) }
        }
        guard selects(literals) else { return nil }
        var index = 0
        while index < literals.count {
            var shorter = literals
            shorter.remove(at: index)
            if selects(shorter) { literals = shorter } else { index += 1 }
        }
        return literals.map { Literal(flag: flags[$0.offset], value: $0.value) }
    }

    private static func minterm(_ mask: Int, flags: [String]) -> [Literal] {
        flags.enumerated().map { offset, flag in Literal(flag: flag, value: mask & (1 << offset) != 0) }
    }

    /// The transitions the engine takes for `event` (or on its own, for `nil`) from where
    /// `placed` stands; `placed` itself is left as it is (runners are values).
    private static func run(_ placed: Runner?, event: String?, ends: inout [[TransitionStep]: [String]])
        -> [TransitionStep]?
    {
        guard var runner = placed else { return nil }
        let steps: [Step]
        do {
            if let event {
                steps = try runner.send(event)
            } else {
                steps = try runner.settle()
            }
        } catch {
            return nil
        }
        let transitions = steps.compactMap { step -> TransitionStep? in
            if case .transition(let taken) = step { return taken }
            return nil
        }
        // Nothing happening on its own is "not handled" too.
        if transitions.isEmpty { return nil }
        // The same transitions from the same states end in the same states.
        if runner.machine.hasParallelRegions { ends[transitions] = runner.states }
        return transitions
    }
}
