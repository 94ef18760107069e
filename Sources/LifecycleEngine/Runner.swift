/// One item of a trace, in the order the app would observe it.
public enum Step: Sendable, Hashable {
    /// A transition was taken. `event` is `nil` for an eventless one; `to == from` for an internal one.
    case transition(TransitionStep)
    case callback(String)
    case notification(String)

    /// The observable part of a trace: callbacks and notifications, without transitions.
    public var observation: Observation? {
        switch self {
        case .transition: nil
        case .callback(let id): .callback(id)
        case .notification(let id): .notification(id)
        }
    }
}

public struct TransitionStep: Sendable, Hashable {
    public let event: String?
    public let from: String
    public let to: String
    public let transitionIndex: Int
    public let isInternal: Bool

    public init(event: String?, from: String, to: String, transitionIndex: Int, isInternal: Bool) {
        self.event = event
        self.from = from
        self.to = to
        self.transitionIndex = transitionIndex
        self.isInternal = isInternal
    }
}

/// What an app can see of its own lifecycle: a callback ran or a notification was posted.
public enum Observation: Sendable, Hashable, CustomStringConvertible {
    case callback(String)
    case notification(String)

    public var description: String {
        switch self {
        case .callback(let id): id
        case .notification(let id): "notify: \(id)"
        }
    }
}

public enum RunError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The current state (and its ancestors) has no transition for the event whose guard holds.
    case unhandledEvent(event: String, state: String, accepted: [String])
    case unknownEvent(String)
    case unknownState(String)
    case unknownFlag(String)
    /// Eventless transitions kept firing past the step budget: the spec has an eventless cycle.
    case eventlessLoop(state: String, steps: Int)

    public var description: String {
        switch self {
        case .unhandledEvent(let event, let state, let accepted):
            let list = accepted.isEmpty ? "none" : accepted.joined(separator: ", ")
            return "event '\(event)' is not handled in state '\(state)' (it accepts: \(list))"
        case .unknownEvent(let id): return "unknown event '\(id)'"
        case .unknownState(let id): return "unknown state '\(id)'"
        case .unknownFlag(let id): return "unknown flag '\(id)'"
        case .eventlessLoop(let state, let steps):
            return "eventless transitions did not settle after \(steps) steps (last state '\(state)')"
        }
    }
}

/// Runs a `Machine`: send events, get the ordered trace.
///
/// Semantics: the W3C SCXML recommendation's algorithm (Appendix D), with flags for its data model.
/// - The configuration is a set of states: each active compound state has one active child, each
///   active parallel state all its child regions.
/// - For an event, every active atomic state (in document order) offers the first enabled
///   transition found on it or its nearest ancestor; of these, a transition that exits a state
///   another one exits wins over it only when its source is a descendant of the other's (else the
///   one found first wins). The winners form one microstep: exit the states they leave (children
///   before parents, reverse document order; history recorded first), run each transition's actions
///   in document order, enter the states they target (parents before children, document order),
///   running entry actions, initial-transition actions and `done.state.*` events.
/// - Then eventless transitions are taken until none is enabled, and only then the next event on the
///   internal queue (`raise`, `done.state.*`) is processed, until the queue is empty (a macrostep).
/// - An event nothing takes is an error that changes nothing (`UnhandledEventPolicy.error`, YAML
///   specs' default) or is ignored (`.ignore`, SCXML's). `done.state.*` events are always optional.
/// - Entering a top-level final state halts the machine: the active states' exit actions run, and
///   later events are unhandled.
///
/// In a trace, a microstep lists each transition as a `.transition` step followed by its actions;
/// the exit actions of the microstep follow its first transition step, the entry actions follow its
/// last transition's actions. A history state entered with nothing recorded takes its default
/// transition there: an eventless `.transition` step from the history state, then its actions,
/// right after its parent's entry actions.
public struct Runner: Sendable {
    public let machine: Machine
    /// Every active state, ascending (document order).
    private(set) var active: [Int]
    /// Every flag's value, in `machine.flags` order.
    private(set) var flagValues: [Bool]
    /// Per history state with a recorded value: what it remembers, ascending.
    private(set) var historyValues: [Int: [Int]]
    /// False once a top-level final state was entered.
    public private(set) var isRunning: Bool = true
    /// The microsteps one macrostep may take before the runner declares a loop.
    public var eventlessLimit: Int = 10_000

    /// The first active atomic state in document order: the only one, without parallel regions.
    public var state: String { machine.states[stateIndex].id }
    /// Every active atomic state, in document order.
    public var states: [String] {
        let tables = machine.tables
        return active.filter { tables.kind[$0] == .atomic }.map { machine.states[$0].id }
    }
    /// Every active state (atomic, compound and parallel), in document order.
    public var activeStates: [String] { active.map { machine.states[$0].id } }
    /// Every declared flag's current value.
    public var flags: [String: Bool] {
        var values: [String: Bool] = [:]
        for (flag, value) in zip(machine.flags, flagValues) { values[flag.id] = value }
        return values
    }
    /// Where the runner stands between events: active atomic states, flags and recorded history.
    public var configuration: Configuration {
        let tables = machine.tables
        let states = machine.states
        // One sorted walk of the history for both lists, and each value looked up once.
        let recorded = historyValues.sorted { $0.key < $1.key }
        let history = recorded.map { entry in
            Configuration.HistoryEntry(state: states[entry.key].id, remembered: entry.value.map { states[$0].id })
        }
        var atomic: [String] = []
        atomic.reserveCapacity(active.count)
        for state in active where tables.kind[state] == .atomic { atomic.append(states[state].id) }
        return Configuration(
            states: atomic, flagValues: flagValues, history: history,
            positions: Configuration.Positions(active: active, history: recorded)
        )
    }

    /// The first active atomic state, by position.
    var stateIndex: Int {
        let kind = machine.tables.kind
        return active.first { kind[$0] == .atomic } ?? active.first ?? 0
    }

    /// Places the machine in `state` (entering its default descendants, and every region of a
    /// parallel ancestor) without running entry actions or eventless transitions: a scenario that
    /// starts in a state starts *in* it, not by entering it.
    public init(machine: Machine, state: String? = nil, flags: [String: Bool] = [:]) throws(RunError) {
        try self.init(machine: machine, states: state.map { [$0] } ?? machine.initialTargets, flags: flags)
    }

    /// Places the machine in these states at once (e.g. one per region of a parallel state).
    public init(machine: Machine, states: [String], flags: [String: Bool] = [:]) throws(RunError) {
        var indices: [Int] = []
        for id in states {
            guard let index = machine.stateIndex(of: id) else { throw .unknownState(id) }
            indices.append(index)
        }
        // Sorted only to name the first unknown flag: the common case has none and skips the sort.
        if flags.keys.contains(where: { machine.flagIndex(of: $0) == nil }) {
            for flag in flags.keys.sorted() where machine.flag(flag) == nil { throw .unknownFlag(flag) }
        }
        self.init(machine: machine, placing: indices, flagValues: machine.flags.map { flags[$0.id] ?? $0.defaultValue })
    }

    /// Places the machine in a configuration it reported (`Runner.configuration`), history included.
    public init(machine: Machine, configuration: Configuration) throws(RunError) {
        if let positions = configuration.positions, configuration.flagValues.count == machine.flags.count {
            self.init(
                machine: machine, active: positions.active, flagValues: configuration.flagValues,
                historyValues: Dictionary(uniqueKeysWithValues: positions.history.map { ($0.0, $0.1) }))
            return
        }
        var flags: [String: Bool] = [:]
        for (flag, value) in zip(machine.flags, configuration.flagValues) { flags[flag.id] = value }
        try self.init(machine: machine, states: configuration.states, flags: flags)
        for entry in configuration.history {
            guard let history = machine.stateIndex(of: entry.state) else { throw .unknownState(entry.state) }
            var remembered: [Int] = []
            for id in entry.remembered {
                guard let index = machine.stateIndex(of: id) else { throw .unknownState(id) }
                remembered.append(index)
            }
            historyValues[history] = remembered.sorted()
        }
    }

    /// The same by position: enters state `stateIndex` (as `init(machine:state:flags:)`) with these
    /// flag values (in `machine.flags` order).
    init(machine: Machine, stateIndex: Int, flagValues: [Bool]) {
        self.init(machine: machine, placing: [stateIndex], flagValues: flagValues)
    }

    /// Puts this runner where `other` stands after a step that read no history: `other`'s active
    /// states, flags and running state, and this runner's history with what the step recorded.
    mutating func take(stepOf other: Runner, recorded: [Int]) {
        active = other.active
        flagValues = other.flagValues
        isRunning = other.isRunning
        for history in recorded { historyValues[history] = other.historyValues[history] }
    }

    /// Whether `other` stands exactly where this runner does (same machine assumed): the same
    /// events then do the same from both.
    func standsWhere(_ other: Runner) -> Bool {
        active == other.active && flagValues == other.flagValues && historyValues == other.historyValues
            && isRunning == other.isRunning && eventlessLimit == other.eventlessLimit
    }

    init(machine: Machine, active: [Int], flagValues: [Bool], historyValues: [Int: [Int]]) {
        self.machine = machine
        self.active = active
        self.flagValues = flagValues
        self.historyValues = historyValues
    }

    private init(machine: Machine, placing targets: [Int], flagValues: [Bool]) {
        self.machine = machine
        self.active = []
        self.flagValues = flagValues
        self.historyValues = [:]
        var entry = EntrySet()
        computeEntry(targets: targets, domain: -1, into: &entry)
        active = entry.states.sorted()
    }

    /// Starts the machine as SCXML does: enters the initial states, running entry actions, then
    /// runs the first macrostep (eventless transitions and raised events) to completion.
    public static func start(machine: Machine, flags: [String: Bool] = [:]) throws(RunError) -> (
        runner: Runner, steps: [Step]
    ) {
        if flags.keys.contains(where: { machine.flagIndex(of: $0) == nil }) {
            for flag in flags.keys.sorted() where machine.flag(flag) == nil { throw .unknownFlag(flag) }
        }
        var runner = Runner(
            machine: machine, active: [], flagValues: machine.flags.map { flags[$0.id] ?? $0.defaultValue },
            historyValues: [:])
        var trace = StepTrace()
        var queue = EventQueue()
        runner.enterInitial(queue: &queue, into: &trace)
        try runner.runMacrostep(queue: &queue, into: &trace)
        return (runner, trace.steps)
    }

    /// How a scenario, a walkthrough or a generated case starts: *in* `from` when given (as
    /// `init(machine:state:flags:)`), else as SCXML starts (`start(machine:flags:)`, whose steps are
    /// part of the scenario's trace).
    public static func begin(machine: Machine, from state: String?, flags: [String: Bool] = [:]) throws(RunError) -> (
        runner: Runner, steps: [Step]
    ) {
        if let state { return (try Runner(machine: machine, state: state, flags: flags), []) }
        return try start(machine: machine, flags: flags)
    }

    /// The transition the event would take now, if any (the first of the microstep's, in document order).
    public func transition(for event: String) -> Transition? {
        guard let index = machine.eventIndex(of: event) else { return nil }
        return select(event: index).first.map { machine.transitions[$0.transition] }
    }

    /// Every transition the event would take now (one microstep), in document order.
    public func transitions(for event: String) -> [Transition] {
        guard let index = machine.eventIndex(of: event) else { return [] }
        return select(event: index).map { machine.transitions[$0.transition] }
    }

    public func accepts(_ event: String) -> Bool { transition(for: event) != nil }

    /// The transitions the event would take from here but for their guards, which are false now:
    /// on the way up from each active atomic state, those matching the event, in document order.
    public func guardedTransitions(for event: String) -> [Transition] {
        guard isRunning, let index = machine.eventIndex(of: event) else { return [] }
        let tables = machine.tables
        var found: [Int] = []
        for atomic in active where tables.kind[atomic] == .atomic {
            for state in tables.ancestry[atomic] {
                for transition in tables.declared[state] where tables.matches(transition, event: index) {
                    if let guardExpression = tables.guards[transition],
                        !guardExpression.evaluate(flagValues, active: active), !found.contains(transition)
                    {
                        found.append(transition)
                    }
                }
            }
        }
        return found.sorted().map { machine.transitions[$0] }
    }

    /// Events a caller can send that have an enabled transition in the current configuration, in
    /// event order. `done.state.*` events are left out: the engine raises them when a state
    /// completes, so listing them beside the events an app receives would invite sending one by
    /// hand (`send` still takes one, as SCXML's external queue would).
    public var acceptedEvents: [String] {
        let isDoneEvent = machine.tables.isDoneEvent
        return handledEventNumbers.filter { !isDoneEvent[$0] && hasEnabledTransition(event: $0) }.map {
            machine.events[$0].id
        }
    }

    /// Whether `select(event:)` finds anything: some transition on the way up from an active atomic
    /// state matches with its guard true (resolving conflicts only drops later ones). Selecting
    /// every handled event in full, exit sets included, cost the rejection cases of a 4-region
    /// 2,000-state suite 0.08 G (callgrind).
    func hasEnabledTransition(event: Int) -> Bool {
        let tables = machine.tables
        for atomic in active where tables.kind[atomic] == .atomic {
            for state in tables.ancestry[atomic] {
                for transition in tables.declared[state] where tables.matches(transition, event: event) {
                    if let guardExpression = tables.guards[transition],
                        !guardExpression.evaluate(flagValues, active: active)
                    {
                        continue
                    }
                    return true
                }
            }
        }
        return false
    }

    /// Events some transition on the way up from an active atomic state handles, guard permitting.
    var handledEventNumbers: [Int] {
        guard isRunning else { return [] }
        let tables = machine.tables
        var result: [Int] = []
        var atomicCount = 0
        for state in active where tables.kind[state] == .atomic {
            atomicCount += 1
            if atomicCount == 1 { result = tables.handledEvents[state] } else { result += tables.handledEvents[state] }
        }
        return atomicCount > 1 ? Array(Set(result)).sorted() : result
    }

    @discardableResult
    public mutating func send(_ event: String) throws(RunError) -> [Step] {
        var trace = StepTrace()
        try deliver(event, into: &trace)
        return trace.steps
    }

    /// `send(_:)`, also telling which states the event's microsteps exited and entered: each once,
    /// in document order. A state the event exits and enters again (a transition out of and back
    /// into it) is in both.
    package mutating func sendRecordingStates(_ event: String) throws(RunError) -> (
        steps: [Step], exited: [String], entered: [String]
    ) {
        var trace = StateChangeTrace()
        try deliver(event, into: &trace)
        let states = machine.states
        func named(_ positions: [Int]) -> [String] { Set(positions).sorted().map { states[$0].id } }
        return (trace.steps.steps, named(trace.exitedStates), named(trace.enteredStates))
    }

    /// Processes `event` into `trace`; on error nothing changes.
    private mutating func deliver(_ event: String, into trace: inout some StepRecording) throws(RunError) {
        let index: Int
        if let known = machine.eventIndex(of: event) {
            index = known
        } else if machine.unhandledEvents == .ignore {
            index = -2
        } else {
            throw .unknownEvent(event)
        }
        var copy = self
        if index == -2 { trace.unknownEventName = event }
        try copy.process(event: index, into: &trace)
        self = copy
    }

    /// Sends events in order; on error nothing changes.
    public mutating func send(_ events: [String]) throws(RunError) -> [Step] {
        var copy = self
        var steps: [Step] = []
        for event in events { steps += try copy.send(event) }
        self = copy
        return steps
    }

    /// Takes enabled eventless transitions from the current configuration until none is left.
    public mutating func settle() throws(RunError) -> [Step] {
        var trace = StepTrace()
        try settle(into: &trace)
        return trace.steps
    }

    /// The same, recording into `trace`; on error nothing changes.
    mutating func settle<Trace: RunTrace>(into trace: inout Trace) throws(RunError) {
        var copy = self
        var queue = EventQueue()
        try copy.runMacrostep(queue: &queue, into: &trace)
        self = copy
    }

    /// The eventless transition that would fire now, if any.
    public var enabledEventlessTransition: Transition? {
        select(event: -1).first.map { machine.transitions[$0.transition] }
    }

    /// Takes one eventless microstep, if one is enabled, without processing what it raises.
    @discardableResult
    public mutating func takeEventlessTransition() -> [Step] {
        let enabled = select(event: -1)
        guard !enabled.isEmpty else { return [] }
        var trace = StepTrace()
        var queue = EventQueue()
        microstep(enabled, event: -1, queue: &queue, into: &trace)
        return trace.steps
    }

    /// Handles one external event (by position in the machine's events; -2 for one it does not know)
    /// and its macrostep, recording into `trace`. Not atomic: on error `self` is left mid-run, so
    /// callers run it on a copy they can drop.
    mutating func process<Trace: RunTrace>(event: Int, into trace: inout Trace) throws(RunError) {
        let enabled = isRunning ? select(event: event) : []
        if enabled.isEmpty {
            if machine.unhandledEvents == .ignore { return }
            throw unhandled(event)
        }
        var queue = EventQueue()
        microstep(enabled, event: event, queue: &queue, into: &trace)
        try runMacrostep(queue: &queue, into: &trace)
    }

    private func unhandled(_ event: Int) -> RunError {
        .unhandledEvent(event: event >= 0 ? machine.events[event].id : "?", state: state, accepted: acceptedEvents)
    }

    /// Eventless transitions until none is enabled, then the next queued event, until the queue is empty.
    private mutating func runMacrostep<Trace: RunTrace>(queue: inout EventQueue, into trace: inout Trace)
        throws(RunError)
    {
        var count = 0
        while isRunning {
            var enabled = select(event: -1)
            var event = -1
            if enabled.isEmpty {
                guard let next = queue.next() else { return }
                enabled = select(event: next.event)
                event = next.event
                if enabled.isEmpty {
                    if next.isOptional || machine.unhandledEvents == .ignore { continue }
                    throw unhandled(next.event)
                }
            }
            count += 1
            if count > eventlessLimit { throw .eventlessLoop(state: state, steps: count - 1) }
            microstep(enabled, event: event, queue: &queue, into: &trace)
        }
    }

    // MARK: Selection

    /// A transition chosen for a microstep: the state it is declared on that was found active, and
    /// the atomic state whose walk up found it.
    struct Enabled {
        let transition: Int
        let source: Int
        let from: Int
        /// `domain(of:)` when `select` found it to remove conflicts (`.some(nil)` for a targetless
        /// transition): the microstep reads it instead of finding it again while no history was
        /// recorded, which can change it. Regions side by side select a transition each: with
        /// ends skipped (`RunTrace.readsEnds`), the composed plan's replay of a 4-region 2,000-state
        /// suite spent 109 M instructions in microsteps instead of 133 M (callgrind).
        var domain: Int?? = nil
    }

    /// SCXML's `selectTransitions` / `selectEventlessTransitions`, then `removeConflictingTransitions`.
    func select(event: Int) -> [Enabled] {
        let tables = machine.tables
        if event == -1, !active.contains(where: { tables.kind[$0] == .atomic && tables.hasEventlessOnWayUp[$0] }) {
            return []
        }
        let found = candidates(event: event)
        guard found.count > 1 else { return found }
        // Conflicts: two transitions that exit a common state, found by their domains
        // (`exitsOverlap`) rather than by building every candidate's exit set: with regions side by
        // side most events select a transition in each, and each set was an allocation.
        var kept: [(enabled: Enabled, domain: Int?)] = []
        for candidate in found {
            let domain = domain(of: candidate)
            var preempted = false
            var removed: [Int] = []
            for (position, other) in kept.enumerated() where exitsOverlap(domain, other.domain) {
                if tables.isDescendant(candidate.source, of: other.enabled.source) {
                    removed.append(position)
                } else {
                    preempted = true
                    break
                }
            }
            if !preempted {
                for position in removed.reversed() { kept.remove(at: position) }
                var known = candidate
                known.domain = .some(domain)
                kept.append((known, domain))
            }
        }
        return kept.map(\.enabled)
    }

    /// SCXML's `selectTransitions` before conflicts are removed: per active atomic state, the first
    /// enabled transition on its way up.
    func candidates(event: Int) -> [Enabled] {
        let tables = machine.tables
        var found: [Enabled] = []
        for atomic in active where tables.kind[atomic] == .atomic {
            search: for state in tables.ancestry[atomic] {
                for transition in tables.declared[state] where tables.matches(transition, event: event) {
                    if let guardExpression = tables.guards[transition],
                        !guardExpression.evaluate(flagValues, active: active)
                    {
                        continue
                    }
                    if !found.contains(where: { $0.transition == transition && $0.source == state }) {
                        found.append(Enabled(transition: transition, source: state, from: atomic))
                    }
                    break search
                }
            }
        }
        return found
    }

    /// Whether two transitions with these domains (`domain(of:)`) exit a common state. A
    /// transition with a domain exits the active states below it, never none (the atomic state
    /// its source was found from is one), so two exit sets meet exactly when one domain holds
    /// the other (-1, the root, holds every state). Tests hold it to `exitSet`.
    func exitsOverlap(_ lhs: Int?, _ rhs: Int?) -> Bool {
        guard let lhs, let rhs else { return false }
        let tables = machine.tables
        return lhs == rhs || lhs < 0 || rhs < 0 || tables.isDescendant(lhs, of: rhs)
            || tables.isDescendant(rhs, of: lhs)
    }

    /// The active states a transition exits, ascending: what `exitsOverlap` stands for.
    func exitSet(_ enabled: Enabled) -> [Int] {
        guard let domain = domain(of: enabled) else { return [] }
        if domain < 0 { return active }
        let tables = machine.tables
        return active.filter { tables.isDescendant($0, of: domain) }
    }

    /// The active states that stay through the exits of the microstep `enabled` (from `select`)
    /// begins, ascending; nil when an exited state has history to record or exit actions that set
    /// flags or raise events. When it is not nil, nothing of the states that leave is left once
    /// they have: the rest of that microstep and its macrostep read only these states, the
    /// transitions, the flags and the history, as the microstep below shows (its exit set, then
    /// what it records and runs on the way out).
    func statesStayingThroughExits(of enabled: [Enabled]) -> [Int]? {
        let tables = machine.tables
        // One transition (the usual step) needs no list of domains.
        let first = enabled.first.flatMap { $0.domain ?? domain(of: $0) }
        let others = enabled.dropFirst().compactMap { $0.domain ?? domain(of: $0) }
        func exits(_ state: Int) -> Bool {
            if let first, first < 0 || tables.isDescendant(state, of: first) { return true }
            return others.contains { $0 < 0 || tables.isDescendant(state, of: $0) }
        }
        var staying: [Int] = []
        staying.reserveCapacity(active.count)
        for state in active {
            guard exits(state) else {
                staying.append(state)
                continue
            }
            let exit = tables.exit[state]
            guard tables.historyChildren[state].isEmpty, exit.assignments.isEmpty, exit.raises.isEmpty else {
                return nil
            }
        }
        return staying
    }

    /// SCXML's `getEffectiveTargetStates`: history states replaced by what they remember or their default.
    private func effectiveTargets(_ transition: Int) -> [Int] {
        effectiveTargets(of: machine.tables.targets[transition])
    }

    /// The same for a list of targets.
    private func effectiveTargets(of targets: [Int]) -> [Int] {
        // Most transitions have one target. When it is no history state it is its own effective
        // target; for a history state, what it remembers (distinct when there is one state at most)
        // or its default's single plain target is. Sharing those arrays spares an allocation each of
        // the three or four times a microstep asks (a 4-region 2,000-state validate asks 300,000 times).
        if targets.count == 1 {
            let tables = machine.tables
            let target = targets[0]
            if !tables.kind[target].isHistory { return targets }
            if let remembered = historyValues[target] {
                if remembered.count <= 1 { return remembered }
            } else {
                let defaults = tables.targets[tables.declared[target][0]]
                if defaults.count == 1, !tables.kind[defaults[0]].isHistory { return defaults }
            }
        }
        var result: [Int] = []
        appendEffectiveTargets(of: targets, into: &result)
        return result
    }

    private func appendEffectiveTargets(of targets: [Int], into result: inout [Int]) {
        let tables = machine.tables
        for target in targets {
            if tables.kind[target].isHistory {
                if let remembered = historyValues[target] {
                    for state in remembered where !result.contains(state) { result.append(state) }
                } else {
                    appendEffectiveTargets(of: tables.targets[tables.declared[target][0]], into: &result)
                }
            } else if !result.contains(target) {
                result.append(target)
            }
        }
    }

    /// SCXML's `getTransitionDomain`: nil for a targetless transition, -1 for the document root.
    func domain(of enabled: Enabled) -> Int? {
        let tables = machine.tables
        let targets = effectiveTargets(enabled.transition)
        if targets.isEmpty { return nil }
        let source = enabled.source
        if tables.isInternalType[enabled.transition], tables.kind[source] == .compound,
            targets.allSatisfy({ tables.isDescendant($0, of: source) })
        {
            return source
        }
        return leastCommonCompoundAncestor(source, targets)
    }

    /// SCXML's `findLCCA` of `first` and `rest`: the innermost compound proper ancestor of `first`
    /// that contains every state of `rest`; -1 for the document root.
    private func leastCommonCompoundAncestor(_ first: Int, _ rest: [Int]) -> Int {
        let tables = machine.tables
        for ancestor in tables.ancestry[first].dropFirst() where tables.kind[ancestor] == .compound {
            if rest.allSatisfy({ tables.isDescendant($0, of: ancestor) }) { return ancestor }
        }
        return -1
    }

    // MARK: Microstep

    struct EntrySet {
        var states: [Int] = []
        var defaultEntry: [Int] = []
        /// History states whose default transition's actions run, by their parent.
        var defaultHistory: [(parent: Int, history: Int)] = []

        mutating func add(_ state: Int) { if !states.contains(state) { states.append(state) } }
    }

    /// Exits, transition actions, entries: one SCXML microstep.
    private mutating func microstep<Trace: RunTrace>(
        _ enabled: [Enabled], event: Int, queue: inout EventQueue, into trace: inout Trace
    ) {
        let tables = machine.tables
        // Exit set, before anything changes.
        var exiting: [Int] = []
        // At most every active state: one allocation instead of growing state by state.
        exiting.reserveCapacity(active.count)
        // The first transition's domain, kept for its entry set when no history is recorded in
        // between (the common case: one transition, nothing recorded).
        var firstDomain: Int?
        for (position, transition) in enabled.enumerated() {
            let domain = transition.domain ?? domain(of: transition)
            if position == 0 { firstDomain = domain }
            guard let domain else { continue }
            for state in active where domain < 0 || tables.isDescendant(state, of: domain) {
                if !exiting.contains(state) { exiting.append(state) }
            }
        }
        // One transition's exit set was collected ascending, as `active` is.
        if enabled.count == 1 { exiting.reverse() } else { exiting.sort(by: >) }
        // History is recorded before any state is exited (and before the entry set is computed,
        // which may target the history just recorded).
        var recordsHistory = false
        for state in exiting {
            for history in tables.historyChildren[state] {
                recordsHistory = true
                trace.recorded(history: history)
                historyValues[history] = active.filter { member in
                    tables.kind[history] == .deepHistory
                        ? tables.kind[member] == .atomic && tables.isDescendant(member, of: state)
                        : tables.parent[member] == state
                }
            }
        }
        var entry = EntrySet()
        for (position, transition) in enabled.enumerated() where !tables.targets[transition.transition].isEmpty {
            // Room for a typical entry (a leaf, its group and a region or two) at once, rather than
            // growing the array on the way.
            entry.states.reserveCapacity(8)
            // A domain reads history only through the transition's targets: recorded history can
            // change it.
            let domain =
                recordsHistory
                ? domain(of: transition) : position == 0 ? firstDomain : transition.domain ?? domain(of: transition)
            computeEntry(targets: tables.targets[transition.transition], domain: domain ?? -1, into: &entry)
        }
        entry.states.sort()
        for (position, transition) in enabled.enumerated() {
            var to = transition.from
            if Trace.readsEnds, let first = effectiveTargets(transition.transition).first {
                to = firstAtomicState(atOrBelow: first, remaining: exiting, entering: entry.states) ?? first
            }
            trace.took(transition.transition, event: event, from: transition.from, to: to, in: machine)
            if position == 0 {
                for state in exiting {
                    trace.exited(state)
                    run(tables.exit[state], queue: &queue, into: &trace)
                }
                // Exit actions never read the active states, so they can all leave at once; the
                // array is built anew with room for the entries (it is usually shared with the
                // runner this one was copied from, so removing in place would copy it anyway).
                if !exiting.isEmpty {
                    var remaining: [Int] = []
                    remaining.reserveCapacity(active.count + entry.states.count)
                    for state in active where !exiting.contains(state) { remaining.append(state) }
                    active = remaining
                }
            }
            trace.emit(tables.actionSteps[transition.transition])
            let assignments = tables.assignments[transition.transition]
            if !assignments.isEmpty { assign(assignments) }
            for event in tables.raises[transition.transition] { queue.append(event, isOptional: false) }
        }
        enter(entry, queue: &queue, into: &trace)
    }

    /// Sets flags. Out of line: with the loop in `microstep`, the compiler made `flagValues` unique
    /// ahead of the loop over the transitions, copying it (shared with the runner this one was
    /// copied from) on 71,544 of the 74,427 microsteps of a 4-region 2,000-state validate, whether a
    /// transition set a flag or not (callgrind: 0.02 G instructions).
    @inline(never)
    private mutating func assign(_ assignments: [RunTables.Assignment]) {
        for assignment in assignments { flagValues[assignment.flag] = assignment.value }
    }

    /// The first atomic state, in document order, that is `state` or below it once the microstep is
    /// done: of the active states not `leaving`, and of `entering` (ascending). Searching both
    /// spares building that configuration as an array for every transition taken.
    private func firstAtomicState(atOrBelow state: Int, remaining leaving: [Int], entering: [Int]) -> Int? {
        let tables = machine.tables
        func qualifies(_ candidate: Int) -> Bool {
            tables.kind[candidate] == .atomic && (candidate == state || tables.isDescendant(candidate, of: state))
        }
        let staying = active.first { qualifies($0) && !leaving.contains($0) }
        guard let entered = entering.first(where: qualifies) else { return staying }
        guard let staying else { return entered }
        return min(staying, entered)
    }

    /// Enters the machine's initial states (the start of `Runner.start`).
    private mutating func enterInitial<Trace: RunTrace>(queue: inout EventQueue, into trace: inout Trace) {
        var entry = EntrySet()
        computeEntry(targets: machine.tables.startTargets, domain: -1, into: &entry)
        entry.states.sort()
        enter(entry, queue: &queue, into: &trace)
    }

    /// SCXML's `enterStates` after `computeEntrySet`: adds each state in entry order, runs its entry
    /// actions, its initial transition's or history default's actions, and raises `done.state.*`.
    private mutating func enter<Trace: RunTrace>(_ entry: EntrySet, queue: inout EventQueue, into trace: inout Trace) {
        let tables = machine.tables
        for state in entry.states {
            if let position = active.firstIndex(where: { $0 > state }) {
                active.insert(state, at: position)
            } else if active.last != state {
                active.append(state)
            }
            trace.entered(state)
            run(tables.entry[state], queue: &queue, into: &trace)
            if entry.defaultEntry.contains(state) { run(tables.initialBlock[state], queue: &queue, into: &trace) }
            for (parent, history) in entry.defaultHistory where parent == state {
                let transition = tables.declared[history][0]
                // The default is a transition the machine takes (SCXML runs its content here): the
                // trace reports it like any other, so coverage and walkthroughs count it.
                let first = tables.targets[transition].first
                let to =
                    first.flatMap { first in
                        entry.states.first {
                            tables.kind[$0] == .atomic && ($0 == first || tables.isDescendant($0, of: first))
                        }
                    } ?? first ?? history
                trace.took(transition, event: -1, from: history, to: to, in: machine)
                trace.emit(tables.actionSteps[transition])
                for assignment in tables.assignments[transition] { flagValues[assignment.flag] = assignment.value }
                for event in tables.raises[transition] { queue.append(event, isOptional: false) }
            }
            guard tables.isFinal[state] else { continue }
            let parent = tables.parent[state]
            if parent < 0 {
                isRunning = false
                continue
            }
            if tables.doneEvent[parent] >= 0 { queue.append(tables.doneEvent[parent], isOptional: true) }
            let grandparent = tables.parent[parent]
            if grandparent >= 0, tables.kind[grandparent] == .parallel, tables.doneEvent[grandparent] >= 0,
                tables.children[grandparent].allSatisfy(isInFinalState)
            {
                queue.append(tables.doneEvent[grandparent], isOptional: true)
            }
        }
        if !isRunning {
            // SCXML's exitInterpreter: the halted machine's states run their exit actions.
            for state in active.reversed() {
                trace.exited(state)
                run(tables.exit[state], queue: &queue, into: &trace)
            }
        }
    }

    private func isInFinalState(_ state: Int) -> Bool {
        let tables = machine.tables
        switch tables.kind[state] {
        case .compound: return tables.children[state].contains { tables.isFinal[$0] && active.contains($0) }
        case .parallel: return tables.children[state].allSatisfy(isInFinalState)
        default: return false
        }
    }

    private mutating func run<Trace: RunTrace>(
        _ block: RunTables.Block, queue: inout EventQueue, into trace: inout Trace
    ) {
        if block.isEmpty { return }
        trace.emit(block.steps)
        for assignment in block.assignments { flagValues[assignment.flag] = assignment.value }
        for event in block.raises { queue.append(event, isOptional: false) }
    }

    /// SCXML's `computeEntrySet` for one transition's targets and domain.
    private func computeEntry(targets: [Int], domain: Int, into entry: inout EntrySet) {
        for target in targets { addDescendants(target, into: &entry) }
        for target in effectiveTargets(of: targets) { addAncestors(target, upTo: domain, into: &entry) }
    }

    private func addDescendants(_ state: Int, into entry: inout EntrySet) {
        let tables = machine.tables
        switch tables.kind[state] {
        case .shallowHistory, .deepHistory:
            let parent = tables.parent[state]
            let remembered: [Int]
            if let value = historyValues[state] {
                remembered = value
            } else {
                entry.defaultHistory.append((parent, state))
                remembered = tables.targets[tables.declared[state][0]]
            }
            for member in remembered { addDescendants(member, into: &entry) }
            for member in remembered { addAncestors(member, upTo: parent, into: &entry) }
        case .compound:
            entry.add(state)
            // Only an initial block to run makes a default entry matter (`enter` runs nothing else
            // for it), so most entries need no list at all.
            if !tables.initialBlock[state].isEmpty, !entry.defaultEntry.contains(state) {
                entry.defaultEntry.append(state)
            }
            for target in tables.initialTargets[state] { addDescendants(target, into: &entry) }
            for target in tables.initialTargets[state] { addAncestors(target, upTo: state, into: &entry) }
        case .parallel:
            entry.add(state)
            for child in tables.children[state]
            where !entry.states.contains(where: { $0 == child || tables.isDescendant($0, of: child) }) {
                addDescendants(child, into: &entry)
            }
        default:
            entry.add(state)
        }
    }

    private func addAncestors(_ state: Int, upTo ancestor: Int, into entry: inout EntrySet) {
        let tables = machine.tables
        for proper in tables.ancestry[state].dropFirst() {
            if proper == ancestor { break }
            entry.add(proper)
            if tables.kind[proper] == .parallel {
                for child in tables.children[proper]
                where !entry.states.contains(where: { $0 == child || tables.isDescendant($0, of: child) }) {
                    addDescendants(child, into: &entry)
                }
            }
        }
    }
}

/// The internal event queue of one macrostep. `done.state.*` events are optional: nothing need take them.
struct EventQueue {
    private var events: [(event: Int, isOptional: Bool)] = []
    private var cursor = 0

    mutating func append(_ event: Int, isOptional: Bool) { events.append((event, isOptional)) }

    mutating func next() -> (event: Int, isOptional: Bool)? {
        guard cursor < events.count else { return nil }
        cursor += 1
        return events[cursor - 1]
    }
}

/// What a run records of each transition it takes: the public API keeps the whole trace; state
/// exploration needs only which transitions were taken, and skips building the rest.
protocol RunTrace {
    /// Whether `took` reads its `from` and `to` (a requirement, so generic code asks the trace).
    static var readsEnds: Bool { get }
    /// `from` and `to` are positions in `machine.states`.
    mutating func took(_ transition: Int, event: Int, from: Int, to: Int, in machine: Machine)
    /// Callbacks and notifications emitted (actions of a transition, an entry or an exit).
    mutating func emit(_ steps: [Step])
    /// A state was entered (by position).
    mutating func entered(_ state: Int)
    /// A state was exited (by position), before its exit actions ran.
    mutating func exited(_ state: Int)
    /// A history state recorded what its parent held, the parent being exited.
    mutating func recorded(history: Int)
}

extension RunTrace {
    /// Whether `took` reads `from` and `to`: a trace that ignores them spares the microstep finding
    /// the state a transition leads to (`firstAtomicState` alone cost the exploration of a 4-region
    /// 2,000-state spec 11 M instructions, callgrind).
    static var readsEnds: Bool { true }
    mutating func entered(_ state: Int) {}
    mutating func exited(_ state: Int) {}
    mutating func recorded(history: Int) {}
}

/// A trace that keeps the steps `send` returns.
protocol StepRecording: RunTrace {
    /// The name of an event the machine does not know (position -2), which a `*` transition took.
    var unknownEventName: String? { get set }
}

/// The whole trace: each transition step, then what is emitted.
struct StepTrace: StepRecording {
    var steps: [Step] = []
    /// The name of an event the machine does not know (position -2), which a `*` transition took.
    var unknownEventName: String?

    mutating func took(_ transition: Int, event: Int, from: Int, to: Int, in machine: Machine) {
        let states = machine.states
        let name: String? = event >= 0 ? machine.events[event].id : event == -2 ? unknownEventName : nil
        steps.append(
            .transition(
                TransitionStep(
                    event: name, from: states[from].id, to: states[to].id,
                    transitionIndex: transition, isInternal: machine.tables.targets[transition].isEmpty
                )))
    }

    mutating func emit(_ emitted: [Step]) { steps += emitted }
}

/// A trace that keeps `StepTrace`'s steps and records more beside them.
protocol StepTraceExtending: StepRecording {
    var steps: StepTrace { get set }
}

extension StepTraceExtending {
    var unknownEventName: String? {
        get { steps.unknownEventName }
        set { steps.unknownEventName = newValue }
    }

    mutating func took(_ transition: Int, event: Int, from: Int, to: Int, in machine: Machine) {
        steps.took(transition, event: event, from: from, to: to, in: machine)
    }

    mutating func emit(_ emitted: [Step]) { steps.emit(emitted) }
}

/// `StepTrace`, and the states exited and entered (the walkthroughs' "leaves … enters …").
struct StateChangeTrace: StepTraceExtending {
    var steps = StepTrace()
    var exitedStates: [Int] = []
    var enteredStates: [Int] = []

    mutating func entered(_ state: Int) { enteredStates.append(state) }
    mutating func exited(_ state: Int) { exitedStates.append(state) }
}

/// The transitions taken and what an app observes, in order: `StepTrace`'s steps less the
/// transitions, without naming their states.
struct ObservingTrace: RunTrace {
    var transitions: [Int] = []
    var observations: [Observation] = []
    /// Per transition, the atomic state whose walk up found it (`readsSources` only): coverage
    /// tells a transition's sources apart by it.
    var sources: [Int] = []
    var readsSources = false

    init(readsSources: Bool = false) { self.readsSources = readsSources }

    static var readsEnds: Bool { false }

    mutating func took(_ transition: Int, event: Int, from: Int, to: Int, in machine: Machine) {
        transitions.append(transition)
        if readsSources { sources.append(from) }
    }

    mutating func emit(_ steps: [Step]) {
        // Room for a step's few observations at once rather than growing one by one.
        if observations.isEmpty, !steps.isEmpty { observations.reserveCapacity(8) }
        for step in steps {
            if let observation = step.observation { observations.append(observation) }
        }
    }
}

/// Only the transitions taken, in order, and the states entered.
struct TransitionTrace: RunTrace {
    var transitions: [Int] = []
    var enteredStates: [Int] = []
    /// History states recorded on the way (a state with history children was exited).
    var recordedHistory: [Int] = []

    mutating func entered(_ state: Int) {
        // A step enters a few states: room for them at once rather than growing one by one.
        if enteredStates.isEmpty { enteredStates.reserveCapacity(8) }
        enteredStates.append(state)
    }
    mutating func recorded(history: Int) { recordedHistory.append(history) }

    static var readsEnds: Bool { false }

    mutating func took(_ transition: Int, event: Int, from: Int, to: Int, in machine: Machine) {
        transitions.append(transition)
    }

    mutating func emit(_ steps: [Step]) {}
}
