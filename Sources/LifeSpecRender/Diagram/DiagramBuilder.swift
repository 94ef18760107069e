import LifeSpec
import LifecycleEngine

/// Turns a loaded spec into a `DOTGraph` state diagram.
///
/// - Compound states are clusters, nested as deep as the spec nests; each has a filled dot
///   pointing at its initial child, and so does the machine. Final states are double circles.
/// - Every transition is one arrow per declared source, labelled `event [guard]` and, at `full`
///   detail, the callbacks and notifications it triggers in the order the engine emits them
///   (`Machine.expand`). Eventless transitions are dashed. A transition declared on a compound
///   state leaves the cluster's border once (`ltail`), rather than being copied to each child.
/// - Internal transitions (no state change) are listed inside their state, not drawn as loops;
///   a compound state's transitions into itself or its own children are listed in its header.
/// - With a scenario, the scenario is run with the engine's `Runner`: the arrows it takes carry
///   their step numbers and everything it does not touch is faded.
package enum DiagramBuilder {
    /// Decides the detail the diagram can be drawn at, without building it.
    package static func plan(for spec: LoadedSpec, options: DiagramOptions, limits: DiagramLimits = .standard)
        -> DiagramPlan
    {
        DiagramPlan(size: DiagramSize(spec: spec, options: options), requested: options.detail, limits: limits)
    }

    /// The plan and the graph. Throws when the scenario does not exist or does not run, or when
    /// the machine is too large to draw even at `states` detail.
    package static func build(for spec: LoadedSpec, options: DiagramOptions, limits: DiagramLimits = .standard)
        throws(DiagramError) -> Diagram
    {
        // A group is any state drawn as a cluster: compound or parallel.
        if let group = options.group, spec.machine.state(group).map({ $0.isCompound || $0.isParallel }) != true {
            throw .unknownGroup(
                group, available: spec.machine.states.filter { $0.isCompound || $0.isParallel }.map(\.id))
        }
        // One topology for the plan and the drawing: it is the costliest part of both.
        let topology = DiagramTopology(machine: spec.machine, group: options.group)
        let plan = DiagramPlan(
            size: DiagramSize(spec: spec, options: options, topology: topology), requested: options.detail,
            limits: limits)
        guard !plan.isRefused else { throw .tooLarge(plan) }
        var effective = options
        effective.detail = plan.effectiveDetail
        let path = try options.scenario.map { id throws(DiagramError) in
            try ScenarioPath(spec: spec, scenario: id, locale: options.locale)
        }
        let composer = DiagramComposer(spec: spec, options: effective, path: path, topology: topology)
        let steps = composer.stepBadges()
        return Diagram(
            plan: plan, graph: composer.graph(),
            overlays: steps.map {
                Overlay(
                    edgeID: $0.edgeID, html: $0.badge.markup, fontSize: DiagramStyle.badgeSize,
                    fontName: DiagramStyle.font, linesAbove: $0.linesAbove?.markup)
            }
                + (composer.heading().map {
                    [
                        Overlay(
                            edgeID: $0.edgeID, html: $0.html.markup, fontSize: DiagramStyle.headingSize,
                            fontName: DiagramStyle.font, isHeading: true)
                    ]
                } ?? []),
            // DOT places one external label per arrow: there, an arrow's numbers share one badge.
            stepBadges: Dictionary(
                grouping: steps, by: \.edgeID
            ).mapValues { DiagramComposer.badge($0.flatMap(\.numbers).sorted()) })
    }

    /// The graph alone (at the plan's effective detail).
    package static func graph(for spec: LoadedSpec, options: DiagramOptions, limits: DiagramLimits = .standard)
        throws(DiagramError) -> DOTGraph
    {
        try build(for: spec, options: options, limits: limits).graph
    }
}

/// A built diagram: what was decided and what was drawn.
package struct Diagram: Sendable, Hashable {
    package let plan: DiagramPlan
    package let graph: DOTGraph
    /// A scenario's step numbers, drawn over the laid-out graph.
    package let overlays: [Overlay]
    let stepBadges: [String: DOTHTML]
    /// The graph, as laid out and drawn.
    package var dot: String { DOTEncoder.encode(graph) }

    /// DOT text that shows everything the drawing does on its own: the step numbers as external
    /// labels (what `diagram --format dot` writes; Graphviz places them itself).
    package var standaloneDOT: String {
        guard !overlays.isEmpty else { return dot }
        var copy = graph
        copy.statements = copy.statements.map { statement in
            guard case .edge(var edge) = statement, case .string(let id)? = edge.attributes["id"],
                let badge = stepBadges[id]
            else { return statement }
            edge.attributes["xlabel"] = .html(badge)
            return .edge(edge)
        }
        return DOTEncoder.encode(copy)
    }

    /// What `lifespec diagram` draws: the graph laid out and the overlays placed over it.
    package func render(_ format: GraphvizFormat) throws(GraphvizError) -> [UInt8] {
        if format == .dot { return try GraphvizRenderer.shared.render(dot: standaloneDOT, format: .dot) }
        return try GraphvizRenderer.shared.render(
            layout: dot, requests: [DrawingRequest(overlays: overlays, formats: [format])])[0][0].data
    }
}

// MARK: - Scenario path

/// The steps a scenario takes, found by running it with the engine.
struct ScenarioPath {
    struct EdgeKey: Hashable {
        let transition: Int
        let source: String
    }

    let id: String
    let title: String?
    let startsAtInitial: Bool
    let start: String
    let end: String
    let flags: [(String, Bool)]
    /// Step numbers (1-based) per drawn transition element.
    var numbers: [EdgeKey: [Int]] = [:]
    /// Leaf states the scenario is in at some point.
    var visited: Set<String> = []
    var stepCount = 0

    init(spec: LoadedSpec, scenario id: String, locale: String?) throws(DiagramError) {
        let document = spec.document
        let machine = spec.machine
        guard let scenario = document.scenario(id) else {
            throw .unknownScenario(id, available: document.scenarios.map(\.id))
        }
        self.id = id
        title = document.text(scenario.title, locale: locale)
        startsAtInitial = scenario.from == nil
        flags = scenario.flags.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var runner: Runner
        let startSteps: [Step]
        do {
            // As the validator replays it: without `from`, the machine starts as SCXML does.
            (runner, startSteps) = try Runner.begin(machine: machine, from: scenario.from, flags: scenario.flags)
        } catch {
            throw .scenarioFailed(scenario: id, step: 0, message: error.description)
        }
        start = runner.state
        // Every region's state, not only the first.
        visited.formUnion(runner.states)
        var number = 0
        for (offset, event) in ([nil] + scenario.events.map(Optional.some)).enumerated() {
            var steps = startSteps
            do {
                if let event { steps = try runner.send(event) }
            } catch {
                throw .scenarioFailed(scenario: id, step: offset, message: error.description)
            }
            visited.formUnion(runner.states)
            for case .transition(let step) in steps {
                number += 1
                visited.insert(step.from)
                visited.insert(step.to)
                let transition = machine.transitions[step.transitionIndex]
                // A history state the step went through is on the path too.
                for target in transition.targets where machine.state(target)?.isHistory == true {
                    visited.insert(target)
                }
                // The source that matched is the innermost declared source around the state left.
                let ancestry = machine.ancestry(of: step.from)
                let source = ancestry.first(where: transition.sources.contains) ?? transition.sources[0]
                numbers[EdgeKey(transition: step.transitionIndex, source: source), default: []].append(number)
            }
        }
        stepCount = number
        end = runner.state
    }
}
