/// One test of a generated conformance suite, as data: reset a system, send events, compare what it
/// does with what the engine does. `run(on:)` is the one checker every generated test calls, so a
/// generated file holds no logic, only cases.
public struct ConformanceCase: Sendable, Hashable, Identifiable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A spec scenario: its exact trace and final state.
        case scenario
        /// A path of the transition-coverage plan: every step's trace and state.
        case coverage
        /// Every event a reachable state does not handle is rejected, and nothing changes.
        case rejection
        /// A callback's notification is observed on the declared side of it.
        case ordering
    }

    /// Unique within a suite.
    public let id: String
    public let kind: Kind
    /// One line for people: what the case shows.
    public let summary: String
    /// The leaf state the system is reset to.
    public let start: String
    /// Flags that differ from their declared defaults at the start.
    public let flags: [String: Bool]
    public let steps: [ConformanceStep]
    /// Checked after the last step, over the whole trace.
    public let checks: [ConformanceCheck]

    public init(
        id: String,
        kind: Kind,
        summary: String,
        start: String,
        flags: [String: Bool] = [:],
        steps: [ConformanceStep],
        checks: [ConformanceCheck] = []
    ) {
        self.id = id
        self.kind = kind
        self.summary = summary
        self.start = start
        self.flags = flags
        self.steps = steps
        self.checks = checks
    }

    /// Runs the case on `system` and returns every way it differs from the spec (empty: it conforms).
    /// A step that leaves the system somewhere unexpected ends the run, so one fault is not reported
    /// again by every later step.
    public func run<System: LifecycleSystem>(on system: inout System) -> [ConformanceFailure] {
        var failures: [ConformanceFailure] = []
        func fail(_ step: Int?, _ message: String) {
            failures.append(ConformanceFailure(caseID: id, step: step, message: message))
        }
        do {
            try system.reset(to: start, flags: flags)
        } catch {
            fail(nil, "reset to '\(start)'\(Self.describe(flags)) failed: \(error)")
            return failures
        }
        guard system.currentState == start else {
            fail(nil, "after reset to '\(start)' the system is in '\(system.currentState)'")
            return failures
        }
        var trace: [Observation] = []
        stepping: for (offset, step) in steps.enumerated() {
            let number = offset + 1
            let before = system.currentState
            let outcome: EventOutcome
            do {
                outcome = try system.send(step.event)
            } catch {
                fail(number, "sending '\(step.event)' in '\(before)' threw: \(error)")
                break stepping
            }
            switch (step.expectation, outcome) {
            case (.handled, .rejected):
                fail(number, "'\(step.event)' was rejected in '\(before)', but the spec handles it there")
                break stepping
            case (.handled(let expected, let state), .handled(let observed)):
                trace += observed
                if let expected, observed != expected {
                    fail(
                        number,
                        "'\(step.event)' in '\(before)' was observed as [\(Observation.describe(observed))], expected [\(Observation.describe(expected))]"
                    )
                }
                if let state, system.currentState != state {
                    fail(
                        number,
                        "after '\(step.event)' from '\(before)' the system is in '\(system.currentState)', expected '\(state)'"
                    )
                    break stepping
                }
            case (.rejected, .handled(let observed)):
                trace += observed
                fail(
                    number,
                    "'\(step.event)' was handled in '\(before)' (observed [\(Observation.describe(observed))], now in '\(system.currentState)'), but the spec rejects it there"
                )
                break stepping
            case (.rejected, .rejected):
                if system.currentState != before {
                    fail(
                        number,
                        "rejecting '\(step.event)' moved the system from '\(before)' to '\(system.currentState)'")
                    break stepping
                }
            }
        }
        if failures.isEmpty {
            for check in checks {
                if let problem = check.problem(trace: trace, state: system.currentState) { fail(nil, problem) }
            }
        }
        return failures
    }

    /// How a suite names a configuration: its active atomic states joined by `+` (just the state
    /// without parallel regions).
    public static func configurationName(_ states: [String]) -> String { states.joined(separator: "+") }

    /// The states a configuration name stands for: the name itself when it is a state of `machine`,
    /// else its `+`-separated parts.
    public static func configurationStates(_ name: String, in machine: Machine) -> [String] {
        if machine.state(name) != nil || !name.contains("+") { return [name] }
        return name.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
    }

    /// ` with a=true, b=false`: how messages and summaries name flags that differ from their defaults.
    public static func describe(_ flags: [String: Bool]) -> String {
        guard !flags.isEmpty else { return "" }
        return " with " + flags.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    }
}

/// One event of a case and what must become of it.
public struct ConformanceStep: Sendable, Hashable {
    public enum Expectation: Sendable, Hashable {
        /// Handled; when given, exactly these observations and this state afterwards.
        case handled(observations: [Observation]?, state: String?)
        /// Rejected, and the state is unchanged.
        case rejected
    }

    public let event: String
    public let expectation: Expectation

    public init(event: String, expectation: Expectation) {
        self.event = event
        self.expectation = expectation
    }

    /// The event must be handled; `expect` and `state`, when given, must match exactly.
    public static func send(_ event: String, expect: [Observation]? = nil, state: String? = nil) -> ConformanceStep {
        ConformanceStep(event: event, expectation: .handled(observations: expect, state: state))
    }

    /// The event must be rejected, changing nothing.
    public static func reject(_ event: String) -> ConformanceStep {
        ConformanceStep(event: event, expectation: .rejected)
    }
}

/// A property of the whole run, checked after the last step.
public enum ConformanceCheck: Sendable, Hashable {
    /// Everything observed, in order.
    case trace([Observation])
    /// The active leaf state at the end.
    case state(String)
    /// The callback runs at least once, and every time it runs the notification is observed right
    /// on the declared side of it.
    case order(callback: String, notification: String, PostedNotification.Order)

    func problem(trace: [Observation], state: String) -> String? {
        switch self {
        case .trace(let expected):
            guard trace != expected else { return nil }
            let shared = min(trace.count, expected.count)
            let row = (0..<shared).first { trace[$0] != expected[$0] } ?? shared
            return
                "the trace differs from entry \(row + 1) on: observed [\(Observation.describe(trace))], expected [\(Observation.describe(expected))]"
        case .state(let expected):
            return state == expected ? nil : "the run ends in '\(state)', expected '\(expected)'"
        case .order(let callback, let notification, let order):
            let runs = trace.indices.filter { trace[$0] == .callback(callback) }
            guard !runs.isEmpty else {
                return
                    "'\(callback)' was never called, so its notification '\(notification)' cannot be checked (observed [\(Observation.describe(trace))])"
            }
            for index in runs {
                let neighbour = order == .before ? index - 1 : index + 1
                if !trace.indices.contains(neighbour) || trace[neighbour] != .notification(notification) {
                    return
                        "'\(notification)' must be observed right \(order.rawValue) '\(callback)' (observed [\(Observation.describe(trace))])"
                }
            }
            return nil
        }
    }
}

/// One way a system differs from the spec in one case.
public struct ConformanceFailure: Sendable, Hashable, CustomStringConvertible {
    public let caseID: String
    /// 1-based step number; `nil` for the reset or an end-of-run check.
    public let step: Int?
    public let message: String

    public init(caseID: String, step: Int?, message: String) {
        self.caseID = caseID
        self.step = step
        self.message = message
    }

    public var description: String {
        "[\(caseID)]" + (step.map { " step \($0):" } ?? "") + " " + message
    }

    /// All failures, one a line; for test messages.
    public static func report(_ failures: [ConformanceFailure]) -> String {
        failures.map(\.description).joined(separator: "\n")
    }
}

/// What a generated suite declares (`enum <Spec>Conformance: ConformanceSuite`): its spec and its
/// cases. The test target that compiles the generated file provides `makeSystem()`, the system under
/// test, in an extension; every generated test then calls `run(_:)`.
public protocol ConformanceSuite {
    associatedtype System: LifecycleSystem
    /// The spec's `id`.
    static var specID: String { get }
    /// The spec file the suite was generated from, as given to the generator (normally relative to
    /// the package root, e.g. `Spec/ios-app-lifecycle.yaml`).
    static var specPath: String { get }
    static var cases: [ConformanceCase] { get }
    /// A fresh system under test; each case resets it before use.
    static func makeSystem() throws -> System
}

extension ConformanceSuite {
    /// Runs the case with this id on a fresh system.
    public static func run(_ caseID: String) throws -> [ConformanceFailure] {
        guard let found = cases.first(where: { $0.id == caseID }) else {
            return [ConformanceFailure(caseID: caseID, step: nil, message: "\(Self.self) has no case with this id")]
        }
        var system = try makeSystem()
        return found.run(on: &system)
    }

    /// Runs every case, each on a fresh system.
    public static func runAll() throws -> [ConformanceFailure] {
        var failures: [ConformanceFailure] = []
        for conformanceCase in cases {
            var system = try makeSystem()
            failures += conformanceCase.run(on: &system)
        }
        return failures
    }
}
