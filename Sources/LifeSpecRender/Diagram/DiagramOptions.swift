import LifeSpec

/// What a state diagram shows and how it is laid out. Each option is a property with its default
/// beside it, set by name (the style of swift-format's `Configuration`); only the locale, which
/// every drawing of a page is asked in, is an initializer argument.
package struct DiagramOptions: Sendable, Hashable {
    /// How much each transition says.
    package enum Detail: String, Sendable, Hashable, CaseIterable, Comparable {
        /// States and arrows only: no transition labels, no internal transitions.
        case states
        /// Each arrow labelled with the titles of its events, each once, without guards; nothing
        /// listed inside states. A page's first drawing: sized to be read at a page's width.
        case overview
        /// Each arrow labelled `event [guard]`; internal transitions listed by event.
        case events
        /// As `events`, plus the callbacks (and notifications) each transition triggers, in order.
        case full

        package static func < (lhs: Detail, rhs: Detail) -> Bool { lhs.rank < rhs.rank }
        private var rank: Int {
            switch self {
            case .states: 0
            case .overview: 1
            case .events: 2
            case .full: 3
            }
        }
    }

    package enum Direction: String, Sendable, Hashable, CaseIterable {
        case topToBottom = "TB"
        case leftToRight = "LR"
    }

    package var detail: Detail = .full
    package var direction: Direction = .topToBottom
    /// At `full` detail, list the notifications callbacks post (and `notify` actions).
    package var showNotifications = true
    /// Highlight one scenario's path (by scenario id), numbering its steps.
    package var scenario: String?
    /// The locale for titles; `nil` uses the spec's default locale.
    package var locale: String?
    /// Draw the legend under the diagram.
    package var legend = true
    /// Draw only this compound state and what is inside it (per-group rendering, for machines
    /// too large to draw whole); the states its transitions lead to or come from outside it
    /// appear as dashed stand-ins. Graphviz diagrams only; Mermaid always draws the whole machine.
    package var group: String?

    package init(locale: String? = nil) { self.locale = locale }

    /// A page's first drawing, readable at a page's width (`OverviewTests`): overview detail,
    /// without the legend.
    package static let pageOverview = {
        var options = DiagramOptions()
        options.detail = .overview
        options.legend = false
        return options
    }()
}

/// Why a diagram could not be built.
package enum DiagramError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownScenario(String, available: [String])
    /// The group to draw alone is not a compound state of the machine.
    case unknownGroup(String, available: [String])
    /// The scenario does not run on the machine (the spec validator reports this too).
    case scenarioFailed(scenario: String, step: Int, message: String)
    /// The machine is too large for Graphviz to lay out in reasonable time, even at `states`.
    case tooLarge(DiagramPlan)

    package var description: String {
        switch self {
        case .unknownScenario(let id, let available):
            let list =
                available.isEmpty ? "the spec has no scenarios" : "scenarios: " + available.joined(separator: ", ")
            return "unknown scenario '\(id)'\(Suggestion.didYouMean(id, among: available)) (\(list))"
        case .unknownGroup(let id, let available):
            let list =
                available.isEmpty
                ? "the spec has no compound states" : "compound states: " + available.joined(separator: ", ")
            return "'\(id)' is not a compound state\(Suggestion.didYouMean(id, among: available)) (\(list))"
        case .scenarioFailed(let scenario, let step, let message):
            return step == 0
                ? "scenario '\(scenario)' cannot start: \(message)"
                : "scenario '\(scenario)' step \(step): \(message)"
        case .tooLarge(let plan):
            return plan.message ?? "the diagram is too large to lay out"
        }
    }
}
