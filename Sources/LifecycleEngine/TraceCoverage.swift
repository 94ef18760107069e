/// What the explanations of a log exercised (`lifespec check-trace --coverage`): the states they
/// entered, the transitions they took and the scenarios they ran through, each either taken by
/// every explanation left (certain) or by at least one of them (possible).
///
/// `TraceChecker` keeps one explanation per node (the first found): the others reaching the same
/// node are the same from there on. With coverage tracked, each node instead carries what all of
/// the explanations merged into it did (the intersection) and what any of them did (the union), so
/// the frontier's size, and the configuration budget, are what they were without it. Continuing
/// every merged explanation by the same event adds the same transitions to each, and
/// `(A ∩ B) ∪ E = (A ∪ E) ∩ (B ∪ E)`: merging early loses nothing. A scenario's progress (how many
/// of its events an explanation has just taken in a row) merges the same way, which can only
/// under-claim a certain scenario, never over-claim one.
extension TraceChecker {
    /// A scenario to look for: from `start` (as `Runner.begin` leaves it; `nil`: never matched),
    /// `events` taken one after another.
    package struct ScenarioWatch: Sendable {
        package let start: Configuration?
        package let events: [String]

        package init(start: Configuration?, events: [String]) {
            self.start = start
            self.events = events
        }
    }

    /// A transition taken from one of its sources: the unit the conformance suite's coverage counts
    /// (`from: [a, b]` is two).
    package struct TransitionUse: Sendable, Hashable, Comparable {
        package let transition: Int
        package let source: String

        package init(transition: Int, source: String) {
            self.transition = transition
            self.source = source
        }

        package static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.transition, lhs.source) < (rhs.transition, rhs.source)
        }
    }

    /// What the explanations left did. The possible sets hold the certain ones.
    package struct Exercised: Sendable, Hashable {
        package var states: Set<String> = []
        package var possibleStates: Set<String> = []
        package var transitions: Set<TransitionUse> = []
        package var possibleTransitions: Set<TransitionUse> = []
        /// Positions in the watched scenarios.
        package var scenarios: Set<Int> = []
        package var possibleScenarios: Set<Int> = []
        /// The regions this check did not tell apart (`TraceChecker.untoldRegions`): nothing in
        /// them is claimed.
        package var untoldRegions: [String] = []

        package init() {}
    }

    /// Every transition of `machine` as coverage counts it, in the suite's order (by transition,
    /// then source), with its weight: one per target of a multi-target transition.
    package static func coverageUnits(of machine: Machine) -> [(use: TransitionUse, weight: Int)] {
        let units = CoverageUnits(machine: machine)
        return (0..<units.count).map { unit in
            let transition = units.transition(of: unit)
            let position = (0..<units.sources[transition].count).first {
                units.unit(of: transition, sourcePosition: $0) == unit
            }
            let source = machine.transitions[transition].sources[position ?? 0]
            return (TransitionUse(transition: transition, source: source), units.weight(of: unit))
        }
    }
}

/// A fixed-size set of small integers.
struct CoverageBits: Hashable {
    private(set) var words: [UInt64]

    init(count: Int) { words = [UInt64](repeating: 0, count: (count + 63) / 64) }

    subscript(bit: Int) -> Bool { words[bit >> 6] & (1 << UInt64(bit & 63)) != 0 }

    mutating func insert(_ bit: Int) { words[bit >> 6] |= 1 << UInt64(bit & 63) }
    mutating func remove(_ bit: Int) { words[bit >> 6] &= ~(1 << UInt64(bit & 63)) }

    func union(_ other: Self) -> Self {
        var result = self
        for index in words.indices { result.words[index] |= other.words[index] }
        return result
    }

    func intersection(_ other: Self) -> Self {
        var result = self
        for index in words.indices { result.words[index] &= other.words[index] }
        return result
    }
}

/// The coverage side of a `TraceChecker`: what each node's explanations did, interned, so that a
/// hypothesis carries one number and copying it stays cheap.
struct CoverageTracker {
    /// What the explanations merged into a node did: all of them, and at least one of them.
    struct Cover: Hashable {
        var certain: CoverageBits
        var possible: CoverageBits
    }

    /// What an event from a configuration does, whoever takes it.
    struct Effect {
        /// Transition units taken and states entered (bit positions).
        var bits: [Int]
        var event: String
        /// Scenarios whose start is the configuration the event leaves and whose first event it is.
        var starts: [Int]
        /// Scenarios without events whose start is the configuration the event leads to.
        var arrivals: [Int]
    }

    let units: CoverageUnits
    let stateCount: Int
    let scenarios: [TraceChecker.ScenarioWatch]
    /// The bit of scenario `s` having taken its first `k` events (`1 ≤ k < count`) is
    /// `progressBase[s] + k - 1`.
    private let progressBase: [Int]
    let bitCount: Int

    private(set) var covers: [Cover] = []
    private var coverIndex: [Cover: Int32] = [:]
    private(set) var effects: [Effect] = []
    private var extended: [Int: Int32] = [:]
    private var merged: [Int: Int32] = [:]

    init(machine: Machine, scenarios: [TraceChecker.ScenarioWatch]) {
        units = CoverageUnits(machine: machine)
        stateCount = machine.states.count
        self.scenarios = scenarios
        var next = units.count + stateCount + scenarios.count
        var bases: [Int] = []
        for scenario in scenarios {
            bases.append(next)
            next += max(0, scenario.events.count - 1)
        }
        progressBase = bases
        bitCount = next
    }

    func stateBit(_ state: Int) -> Int { units.count + state }
    func scenarioBit(_ scenario: Int) -> Int { units.count + stateCount + scenario }

    mutating func intern(_ cover: Cover) -> Int32 {
        if let known = coverIndex[cover] { return known }
        covers.append(cover)
        let index = Int32(covers.count - 1)
        coverIndex[cover] = index
        return index
    }

    mutating func addEffect(_ effect: Effect) -> Int32 {
        effects.append(effect)
        return Int32(effects.count - 1)
    }

    /// A start's cover: every explanation from it did `bits` (states it is in, what settling took).
    mutating func start(_ bits: [Int]) -> Int32 {
        var set = CoverageBits(count: bitCount)
        for bit in bits { set.insert(bit) }
        return intern(Cover(certain: set, possible: set))
    }

    /// `cover` followed by the event of `effect`.
    mutating func extend(_ cover: Int32, with effect: Int32) -> Int32 {
        let key = Int(cover) << 32 | Int(effect)
        if let known = extended[key] { return known }
        let rule = effects[Int(effect)]
        let old = covers[Int(cover)]
        let result = intern(Cover(certain: applied(rule, to: old.certain), possible: applied(rule, to: old.possible)))
        extended[key] = result
        return result
    }

    private func applied(_ effect: Effect, to bits: CoverageBits) -> CoverageBits {
        var result = bits
        for bit in effect.bits { result.insert(bit) }
        for (scenario, watch) in scenarios.enumerated() where watch.events.count > 1 {
            for taken in 1..<watch.events.count {
                let bit = progressBase[scenario] + taken - 1
                guard bits[bit] else { continue }
                result.remove(bit)
                guard watch.events[taken] == effect.event else { continue }
                if taken + 1 == watch.events.count {
                    result.insert(scenarioBit(scenario))
                } else {
                    result.insert(bit + 1)
                }
            }
        }
        for scenario in effect.starts {
            if scenarios[scenario].events.count == 1 {
                result.insert(scenarioBit(scenario))
            } else {
                result.insert(progressBase[scenario])
            }
        }
        for scenario in effect.arrivals { result.insert(scenarioBit(scenario)) }
        return result
    }

    /// Two sets of explanations reaching the same node, as one.
    mutating func merge(_ first: Int32, _ second: Int32) -> Int32 {
        guard first != second else { return first }
        let key = Int(min(first, second)) << 32 | Int(max(first, second))
        if let known = merged[key] { return known }
        let a = covers[Int(first)]
        let b = covers[Int(second)]
        let result = intern(
            Cover(certain: a.certain.intersection(b.certain), possible: a.possible.union(b.possible)))
        merged[key] = result
        return result
    }

    /// Forgets every cover but `kept` (renumbered in that order) once the tables have grown well
    /// past what the frontier uses: memory stays bounded by the frontier, not the log's length.
    mutating func compact(keeping kept: inout [Int32]) {
        guard covers.count > 4 * kept.count + 1024 else { return }
        let old = covers
        covers = []
        coverIndex = [:]
        extended = [:]
        merged = [:]
        for index in kept.indices { kept[index] = intern(old[Int(kept[index])]) }
    }

    func exercised(_ frontier: [Int32], machine: Machine) -> TraceChecker.Exercised {
        var result = TraceChecker.Exercised()
        guard let first = frontier.first else { return result }
        var certain = covers[Int(first)].certain
        var possible = covers[Int(first)].possible
        for cover in frontier.dropFirst() {
            certain = certain.intersection(covers[Int(cover)].certain)
            possible = possible.union(covers[Int(cover)].possible)
        }
        for unit in 0..<units.count where possible[unit] {
            let transition = units.transition(of: unit)
            let position = (0..<units.sources[transition].count).first {
                units.unit(of: transition, sourcePosition: $0) == unit
            }
            let use = TraceChecker.TransitionUse(
                transition: transition, source: machine.transitions[transition].sources[position ?? 0])
            result.possibleTransitions.insert(use)
            if certain[unit] { result.transitions.insert(use) }
        }
        for state in 0..<stateCount where possible[stateBit(state)] {
            result.possibleStates.insert(machine.states[state].id)
            if certain[stateBit(state)] { result.states.insert(machine.states[state].id) }
        }
        for scenario in scenarios.indices where possible[scenarioBit(scenario)] {
            result.possibleScenarios.insert(scenario)
            if certain[scenarioBit(scenario)] { result.scenarios.insert(scenario) }
        }
        return result
    }
}

/// The steps `send` returns, and what coverage needs of them: each transition taken with the
/// atomic state whose walk up found it, and each state entered.
struct CoveringTrace: StepTraceExtending {
    var steps = StepTrace()
    var taken: [(transition: Int, from: Int)] = []
    var entered: [Int] = []

    mutating func took(_ transition: Int, event: Int, from: Int, to: Int, in machine: Machine) {
        steps.took(transition, event: event, from: from, to: to, in: machine)
        taken.append((transition, from))
    }
    mutating func entered(_ state: Int) { entered.append(state) }

    /// The bits of what this trace took and entered, less what happened in regions the check does
    /// not tell apart (their part there is a stand-in, not what the app did).
    func bits(in tracker: CoverageTracker, machine: Machine, untold: UntoldRegions?) -> [Int] {
        var result: [Int] = []
        for (transition, from) in taken where transition < tracker.units.transitionCount {
            guard untold?.contains(from) != true else { continue }
            result.append(tracker.units.unit(of: transition, foundFrom: from, in: machine))
        }
        for state in entered where untold?.contains(state) != true && !machine.states[state].isHistory {
            result.append(tracker.stateBit(state))
        }
        return result
    }
}
