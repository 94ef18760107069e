import LifecycleEngine

/// The words a generated suite shows for the engine's plan: a case's one-line summary and the
/// header's list of what was not tested. The plan holds only data (`ConformancePlan.Origin`,
/// `ConformancePlan.Note`); the wording is the suite's.
enum ConformanceText {
    static func summary(_ item: ConformancePlan.Case) -> String {
        switch item.origin {
        case .scenario(let id, let title):
            return "Scenario: \(title ?? id)"
        case .coveragePath(let number, let count, let newlyCovered):
            let events = item.steps.count
            return "Coverage path \(number) of \(count): \(events) \(plural(events, "event")) from '\(item.start)'"
                + "\(ConformanceCase.describe(item.flags)), first to take \(newlyCovered) \(plural(newlyCovered, "transition"))"
        case .pairPath(let number, let count, let newlyCovered):
            let events = item.steps.count
            return "Pair path \(number) of \(count): \(events) \(plural(events, "event")) from '\(item.start)'"
                + "\(ConformanceCase.describe(item.flags)), first to take \(newlyCovered) \(plural(newlyCovered, "transition pair"))"
        case .rejection(let configuration, let events):
            return
                "In '\(configuration)'\(ConformanceCase.describe(item.flags)), unhandled events are rejected and change nothing: "
                + events.joined(separator: ", ")
        case .notificationOrder(let callback, let notification, let order):
            return "'\(notification)' is observed \(order.rawValue) '\(callback)'"
        case .actionOrder(let state, let entry):
            return
                "The \(entry ? "entry" : "exit") actions of '\(state)' run in the engine's order: exits (innermost first), "
                + "then the transition's actions, then entries (outermost first)"
        }
    }

    static func note(_ note: ConformancePlan.Note) -> String {
        switch note {
        case .scenarioCannotStart(let scenario, let error):
            "scenario '\(scenario)' is not tested: it cannot start (\(error))"
        case .scenarioRejects(let scenario, let event, let state):
            "scenario '\(scenario)': the engine rejects '\(event)' in '\(state)'; the case expects that rejection"
        case .scenarioFails(let scenario, let error):
            "scenario '\(scenario)' is not tested: \(error)"
        case .coveragePathCannotStart(let number, let state):
            "coverage path \(number) cannot start in '\(state)'"
        case .neverAtRest(let configuration):
            "state '\(configuration)' is never at rest after an event (unreachable, or only passed through by eventless "
                + "transitions); no rejection test for it"
        case .callbackNeverCalled(let callback):
            "callback '\(callback)' is never called on a reachable path; no ordering test for it"
        case .actionsNeverRun(let state, let entry):
            "state '\(state)' is never \(entry ? "entered" : "exited") on a reachable path; no ordering test for its "
                + "\(entry ? "entry" : "exit") actions"
        case .pairsNotPlanned:
            "transition pairs: not planned, the machine is too large to explore exactly"
        }
    }

    static func plural(_ count: Int, _ noun: String) -> String { count == 1 ? noun : noun + "s" }
}
