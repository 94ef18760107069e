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
        case let .unhandledEvent(event, state, accepted):
            let list = accepted.isEmpty ? "none" : accepted.joined(separator: ", ")
            return "event '\(event)' is not handled in state '\(state)' (it accepts: \(list))"
        case .unknownEvent(let id): return "unknown event '\(id)'"
        case .unknownState(let id): return "unknown state '\(id)'"
        case .unknownFlag(let id): return "unknown flag '\(id)'"
        case let .eventlessLoop(state, steps):
            return "eventless transitions did not settle after \(steps) steps (last state '\(state)')"
        }
    }
}

/// Runs a `Machine`: send events, get the ordered trace.
///
/// Semantics (SCXML-like, run to completion):
/// - the current configuration is one leaf state plus its ancestors;
/// - for an event, the innermost state that has an enabled transition for it wins; among
///   transitions declared on the same state, the first in document order wins (the validator
///   reports the overlap as nondeterminism);
/// - taking a transition emits a `.transition` step, then its actions in order (each callback
///   expanded with its posted notification on the declared side), then applies `set`, then moves to
///   the target's initial leaf;
/// - then eventless transitions are taken until none is enabled, and only then the next event
///   queued by `raise` is processed, until the queue is empty;
/// - an event the current state does not handle is an error and changes nothing.
public struct Runner: Sendable {
    public let machine: Machine
    /// The active leaf, as a position in `machine.states`.
    private(set) var stateIndex: Int
    /// Every flag's value, in `machine.flags` order.
    private(set) var flagValues: [Bool]
    /// The eventless steps one macrostep may take before the runner declares a loop.
    public var eventlessLimit: Int = 10_000

    /// The active leaf state.
    public var state: String { machine.states[stateIndex].id }
    /// Every declared flag's current value.
    public var flags: [String: Bool] {
        var values: [String: Bool] = [:]
        for (flag, value) in zip(machine.flags, flagValues) { values[flag.id] = value }
        return values
    }

    /// Places the machine in `state` (entering its initial leaf) without taking eventless transitions:
    /// a scenario that starts in a state starts *in* it, not by entering it.
    public init(machine: Machine, state: String? = nil, flags: [String: Bool] = [:]) throws(RunError) {
        let start = state ?? machine.initial
        guard let index = machine.stateIndex(of: start) else { throw .unknownState(start) }
        // Sorted only to name the first unknown flag: the common case has none and skips the sort.
        if flags.keys.contains(where: { machine.flagIndex(of: $0) == nil }) {
            for flag in flags.keys.sorted() where machine.flag(flag) == nil { throw .unknownFlag(flag) }
        }
        self.init(machine: machine, stateIndex: index, flagValues: machine.flags.map { flags[$0.id] ?? $0.defaultValue })
    }

    /// The same by position: enters the leaf of state `stateIndex` with these flag values (in
    /// `machine.flags` order).
    init(machine: Machine, stateIndex: Int, flagValues: [Bool]) {
        self.machine = machine
        self.stateIndex = machine.tables.leaf[stateIndex]
        self.flagValues = flagValues
    }

    /// The transition the event would take now, if any.
    public func transition(for event: String) -> Transition? {
        guard let index = machine.eventIndex(of: event) else { return nil }
        return selectTransition(trigger: index).map { machine.transitions[$0] }
    }

    public func accepts(_ event: String) -> Bool { transition(for: event) != nil }

    /// Events that have an enabled transition in the current state.
    public var acceptedEvents: [String] {
        machine.tables.handledEvents[stateIndex].filter { selectTransition(trigger: $0) != nil }.map { machine.events[$0].id }
    }

    @discardableResult
    public mutating func send(_ event: String) throws(RunError) -> [Step] {
        guard let index = machine.eventIndex(of: event) else { throw .unknownEvent(event) }
        var copy = self
        var trace = StepTrace()
        try copy.process(event: index, into: &trace)
        self = copy
        return trace.steps
    }

    /// Sends events in order; on error nothing changes.
    public mutating func send(_ events: [String]) throws(RunError) -> [Step] {
        var copy = self
        var steps: [Step] = []
        for event in events { steps += try copy.send(event) }
        self = copy
        return steps
    }

    /// Takes enabled eventless transitions from the current state until none is left.
    public mutating func settle() throws(RunError) -> [Step] {
        var copy = self
        var trace = StepTrace()
        let queue = try copy.takeEventless(into: &trace)
        var cursor = 0
        while cursor < queue.count {
            let event = queue[cursor]
            cursor += 1
            try copy.process(event: event, into: &trace)
        }
        self = copy
        return trace.steps
    }

    /// The eventless transition that would fire now, if any.
    public var enabledEventlessTransition: Transition? { selectTransition(trigger: -1).map { machine.transitions[$0] } }

    /// Takes one eventless transition, if one is enabled, without processing what it raises.
    @discardableResult
    public mutating func takeEventlessTransition() -> [Step] {
        guard let transition = selectTransition(trigger: -1) else { return [] }
        var trace = StepTrace()
        take(transition, event: -1, into: &trace)
        return trace.steps
    }

    /// Handles one event (by position in `machine.events`) and what it raises, recording into `trace`.
    /// Not atomic: on error `self` is left mid-run, so callers run it on a copy they can drop.
    mutating func process<Trace: RunTrace>(event: Int, into trace: inout Trace) throws(RunError) {
        // The queue holds only what is raised, so an event that raises nothing allocates nothing.
        var queue: [Int] = []
        var cursor = 0
        var current = event
        while true {
            guard let transition = selectTransition(trigger: current) else {
                throw .unhandledEvent(event: machine.events[current].id, state: state, accepted: acceptedEvents)
            }
            take(transition, event: current, into: &trace)
            queue += machine.tables.raises[transition]
            queue += try takeEventless(into: &trace)
            guard cursor < queue.count else { return }
            current = queue[cursor]
            cursor += 1
        }
    }

    /// Returns the events raised by the eventless transitions it took, for the caller's queue.
    private mutating func takeEventless<Trace: RunTrace>(into trace: inout Trace) throws(RunError) -> [Int] {
        var raised: [Int] = []
        var count = 0
        while let transition = selectTransition(trigger: -1) {
            count += 1
            if count > eventlessLimit { throw .eventlessLoop(state: state, steps: count - 1) }
            take(transition, event: -1, into: &trace)
            raised += machine.tables.raises[transition]
        }
        return raised
    }

    private mutating func take<Trace: RunTrace>(_ transition: Int, event: Int, into trace: inout Trace) {
        let tables = machine.tables
        let from = stateIndex
        let target = tables.targetLeaf[transition]
        let to = target >= 0 ? target : from
        trace.took(transition, event: event, from: from, to: to, in: machine)
        for assignment in tables.assignments[transition] { flagValues[assignment.flag] = assignment.value }
        stateIndex = to
    }

    /// The transition `trigger` (an event's position, -1 for eventless) takes now: the innermost
    /// state's first enabled one.
    private func selectTransition(trigger: Int) -> Int? {
        let tables = machine.tables
        for state in tables.ancestry[stateIndex] {
            for transition in tables.declared[state] where tables.trigger[transition] == trigger {
                if let guardExpression = tables.guards[transition], !guardExpression.evaluate(flagValues) { continue }
                return transition
            }
        }
        return nil
    }
}

/// What a run records of each transition it takes: the public API keeps the whole trace; state
/// exploration needs only which transitions were taken, and skips building the rest.
protocol RunTrace {
    /// `event` is a position in `machine.events`, -1 for an eventless transition; `from` and `to` are
    /// positions in `machine.states`.
    mutating func took(_ transition: Int, event: Int, from: Int, to: Int, in machine: Machine)
}

/// The whole trace: the transition step, then its actions as emitted.
struct StepTrace: RunTrace {
    var steps: [Step] = []

    mutating func took(_ transition: Int, event: Int, from: Int, to: Int, in machine: Machine) {
        let states = machine.states
        steps.append(.transition(TransitionStep(
            event: event >= 0 ? machine.events[event].id : nil, from: states[from].id, to: states[to].id,
            transitionIndex: transition, isInternal: machine.tables.targetLeaf[transition] < 0
        )))
        steps += machine.tables.actionSteps[transition]
    }
}

/// Only the transitions taken, in order.
struct TransitionTrace: RunTrace {
    var transitions: [Int] = []

    mutating func took(_ transition: Int, event: Int, from: Int, to: Int, in machine: Machine) {
        transitions.append(transition)
    }
}
