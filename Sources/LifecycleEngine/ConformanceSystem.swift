/// A system under test for generated conformance suites: anything that can be put in a state, fed
/// events, and observed. Structs and classes both conform (a class implements the `mutating`
/// requirements with ordinary methods).
///
/// The engine conforms through `EngineLifecycleSystem`; an app harness, a simulator or a
/// hand-written state machine conforms the same way and is checked against the spec by the cases of a
/// generated suite (`ConformanceCase.run(on:)`).
public protocol LifecycleSystem {
    /// Puts the system in `state` (entering its initial leaf when it is compound; a configuration
    /// `a+b` names one leaf per region) with `flags`; flags not
    /// listed take their declared defaults. Eventless transitions are not taken until the next event: a
    /// reset system starts *in* the state, it does not arrive there. Throw when the system cannot be
    /// put there.
    mutating func reset(to state: String, flags: [String: Bool]) throws

    /// Delivers one event and reports what the app would observe: `.handled` with the callbacks and
    /// notifications in order, or `.rejected` when the current state does not handle the event, in
    /// which case nothing may change. Throw only when the system itself fails.
    mutating func send(_ event: String) throws -> EventOutcome

    /// The id of the active leaf state; with parallel regions, the active leaf of every region in
    /// document order, joined by `+` (e.g. `playing+muted`).
    var currentState: String { get }
}

/// What became of one event sent to a `LifecycleSystem`.
public enum EventOutcome: Sendable, Hashable, CustomStringConvertible {
    /// A transition was taken; these were observed, in order (possibly nothing).
    case handled([Observation])
    /// The event is not handled in the current state; the system is unchanged.
    case rejected

    public var description: String {
        switch self {
        case .handled(let observations): "handled: " + Observation.describe(observations)
        case .rejected: "rejected"
        }
    }
}

extension Observation {
    /// `a, notify: b` — or `(nothing)` for an empty trace.
    public static func describe(_ observations: [Observation]) -> String {
        observations.isEmpty ? "(nothing)" : observations.map(\.description).joined(separator: ", ")
    }
}

/// The shared engine as a `LifecycleSystem`: an adapter over `Runner`. It is the reference every
/// generated suite passes against, and the base that other implementations can wrap.
public struct EngineLifecycleSystem: LifecycleSystem, Sendable {
    public private(set) var runner: Runner

    /// Starts in the machine's initial state with default flags.
    public init(machine: Machine) throws(RunError) {
        runner = try Runner(machine: machine)
    }

    public var machine: Machine { runner.machine }
    /// The active leaf state; with parallel regions, one per region joined by `+` (`playing+muted`).
    public var currentState: String { ConformanceCase.configurationName(runner.states) }
    public var flags: [String: Bool] { runner.flags }

    /// `state` is a state id, or a configuration named as `currentState` names it.
    public mutating func reset(to state: String, flags: [String: Bool]) throws(RunError) {
        runner = try Runner(
            machine: runner.machine, states: ConformanceCase.configurationStates(state, in: runner.machine),
            flags: flags)
    }

    /// `.rejected` exactly when the engine reports `RunError.unhandledEvent` (the runner is then
    /// unchanged); an unknown event or an eventless loop is thrown.
    public mutating func send(_ event: String) throws(RunError) -> EventOutcome {
        do {
            return .handled(try runner.send(event).compactMap(\.observation))
        } catch .unhandledEvent {
            return .rejected
        }
    }
}
