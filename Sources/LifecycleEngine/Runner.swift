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
    public private(set) var state: String
    public private(set) var flags: [String: Bool]
    /// The eventless steps one macrostep may take before the runner declares a loop.
    public var eventlessLimit: Int = 10_000

    /// Places the machine in `state` (entering its initial leaf) without taking eventless transitions:
    /// a scenario that starts in a state starts *in* it, not by entering it.
    public init(machine: Machine, state: String? = nil, flags: [String: Bool] = [:]) throws(RunError) {
        self.machine = machine
        let start = state ?? machine.initial
        guard machine.state(start) != nil else { throw .unknownState(start) }
        for flag in flags.keys.sorted() where machine.flag(flag) == nil { throw .unknownFlag(flag) }
        self.state = machine.leaf(entering: start)
        self.flags = machine.flagValues(flags)
    }

    /// The transition the event would take now, if any.
    public func transition(for event: String) -> Transition? {
        selectTransition(trigger: .event(event))
    }

    public func accepts(_ event: String) -> Bool { transition(for: event) != nil }

    /// Events that have an enabled transition in the current state.
    public var acceptedEvents: [String] {
        machine.handledEvents(in: state).filter(accepts)
    }

    @discardableResult
    public mutating func send(_ event: String) throws(RunError) -> [Step] {
        guard machine.event(event) != nil else { throw .unknownEvent(event) }
        var copy = self
        var steps: [Step] = []
        try copy.process(event: event, into: &steps)
        self = copy
        return steps
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
        var steps: [Step] = []
        var queue = try copy.takeEventless(into: &steps)
        while !queue.isEmpty {
            let event = queue.removeFirst()
            try copy.process(event: event, into: &steps)
        }
        self = copy
        return steps
    }

    /// The eventless transition that would fire now, if any.
    public var enabledEventlessTransition: Transition? { selectTransition(trigger: .always) }

    /// Takes one eventless transition, if one is enabled, without processing what it raises.
    @discardableResult
    public mutating func takeEventlessTransition() -> [Step] {
        guard let transition = selectTransition(trigger: .always) else { return [] }
        var steps: [Step] = []
        take(transition, event: nil, into: &steps)
        return steps
    }

    private mutating func process(event: String, into steps: inout [Step]) throws(RunError) {
        var queue: [String] = [event]
        var cursor = 0
        while cursor < queue.count {
            let current = queue[cursor]
            cursor += 1
            guard let transition = selectTransition(trigger: .event(current)) else {
                throw .unhandledEvent(event: current, state: state, accepted: acceptedEvents)
            }
            take(transition, event: current, into: &steps)
            queue += transition.raises
            queue += try takeEventless(into: &steps)
        }
    }

    /// Returns the events raised by the eventless transitions it took, for the caller's queue.
    private mutating func takeEventless(into steps: inout [Step]) throws(RunError) -> [String] {
        var raised: [String] = []
        var count = 0
        while let transition = selectTransition(trigger: .always) {
            count += 1
            if count > eventlessLimit { throw .eventlessLoop(state: state, steps: count - 1) }
            take(transition, event: nil, into: &steps)
            raised += transition.raises
        }
        return raised
    }

    private mutating func take(_ transition: Transition, event: String?, into steps: inout [Step]) {
        let from = state
        let to = transition.target.map(machine.leaf(entering:)) ?? from
        steps.append(.transition(TransitionStep(
            event: event, from: from, to: to, transitionIndex: transition.index, isInternal: transition.isInternal
        )))
        for action in transition.actions { steps += machine.expand(action) }
        for assignment in transition.assignments { flags[assignment.flag] = assignment.value }
        state = to
    }

    private func selectTransition(trigger: Trigger) -> Transition? {
        for id in machine.ancestry(of: state) {
            for transition in machine.transitions(declaredOn: id)
            where transition.trigger == trigger && transition.isEnabled(flags: flags) {
                return transition
            }
        }
        return nil
    }
}
