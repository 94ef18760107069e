import LifeSpec
import LifecycleEngine

/// How big a diagram is, in the units that drive Graphviz's `dot` layout time.
package struct DiagramSize: Sendable, Hashable {
    /// Drawn nodes: leaf states plus initial dots.
    package let nodes: Int
    /// Clusters (compound states).
    package let clusters: Int
    /// Drawn arrows: transitions (once per source) plus initial arrows.
    package let arrows: Int
    /// Label lines on arrows and in states at `events` and at `full` detail.
    package let eventLines: Int
    package let fullLines: Int

    init(nodes: Int, clusters: Int, arrows: Int, eventLines: Int, fullLines: Int) {
        self.nodes = nodes
        self.clusters = clusters
        self.arrows = arrows
        self.eventLines = eventLines
        self.fullLines = fullLines
    }

    init(spec: LoadedSpec, options: DiagramOptions) {
        self.init(spec: spec, options: options, topology: DiagramTopology(machine: spec.machine, group: options.group))
    }

    /// The size of `topology` (which must be the one for `options.group`), so a build can plan
    /// and draw from one topology.
    init(spec: LoadedSpec, options: DiagramOptions, topology: DiagramTopology) {
        let machine = spec.machine
        let leaves = machine.leafStates.filter { leaf in
            options.group.map { machine.ancestry(of: leaf.id).contains($0) } ?? true
        }
        let rootMarker = options.group == nil ? 1 : 0
        // History circles and fork bars are nodes too; each fork fans out into an arrow per target.
        let histories = machine.states.filter { state in
            state.isHistory && (options.group.map { machine.ancestry(of: state.id).contains($0) } ?? true)
        }.count
        let forks = topology.entries.filter { $0.transition.targets.count > 1 }
        nodes =
            leaves.count + topology.compounds.count + rootMarker + topology.outsideStates.count + histories
            + forks.count
        clusters = topology.compounds.count
        let arrows =
            topology.compounds.count + rootMarker + topology.arrows.count
            + forks.reduce(0) { $0 + $1.transition.targets.count }
        var eventLines = 0
        var fullLines = 0
        for entry in topology.entries {
            let effectLines = machine.effects(of: entry.transition).filter { effect in
                if case .notification = effect { return options.showNotifications }
                return true
            }.count
            let head = entry.transition.trigger.eventID != nil || entry.transition.guardExpression != nil ? 1 : 0
            eventLines += head
            fullLines += head + effectLines
        }
        self.arrows = arrows
        self.eventLines = eventLines
        self.fullLines = fullLines
    }

    /// "12 nodes, 3 groups and 20 arrows", for messages.
    package var summary: String { "\(nodes) nodes, \(clusters) groups and \(arrows) arrows" }

    /// A layout-cost estimate. `dot` puts a virtual node for every labelled arrow in its own rank,
    /// so labels roughly double the graph; tall labels widen ranks, which costs less.
    package func weight(at detail: DiagramOptions.Detail) -> Int {
        switch detail {
        case .states: nodes + arrows + clusters
        case .overview, .events: nodes + 2 * arrows + clusters + eventLines / 2
        case .full: nodes + 2 * arrows + clusters + fullLines / 2
        }
    }
}

/// The layout budget a plan is made against.
package struct DiagramLimits: Sendable, Hashable {
    /// Above this weight a detail level is dropped for a coarser one. Measured with Graphviz 2.43
    /// `dot` and the layout bounds the composer sets, on `lifespec synth` machines (about four
    /// transitions per state, nested groups): weight ≈1,100 lays out in 0.4 s, ≈2,300 in 0.9 s,
    /// ≈3,200–4,500 in 2.5–3.5 s, ≈6,500 at `events` in 31 s.
    package var comfortableWeight: Int
    /// Above this weight even `states` detail is refused: ≈4,800 took 7.5 s, ≈6,400 took 99 s
    /// and Graphviz reported errors ("lost edge").
    package var maximumWeight: Int

    package init(comfortableWeight: Int = 2_500, maximumWeight: Int = 5_000) {
        self.comfortableWeight = comfortableWeight
        self.maximumWeight = maximumWeight
    }

    package static let standard = DiagramLimits()

    /// No budget: for DOT text, which is written but not laid out.
    package static let unlimited = DiagramLimits(comfortableWeight: .max, maximumWeight: .max)
}

/// What will be drawn: the detail asked for, the detail that keeps layout fast, and why they
/// differ. The CLI prints `message` when there is one.
package struct DiagramPlan: Sendable, Hashable {
    package let size: DiagramSize
    package let requestedDetail: DiagramOptions.Detail
    package let effectiveDetail: DiagramOptions.Detail
    package let isRefused: Bool
    package let message: String?

    /// The plan for the same diagram against other limits (sizing a diagram is the costly part).
    package func replanned(with limits: DiagramLimits) -> DiagramPlan {
        DiagramPlan(size: size, requested: requestedDetail, limits: limits)
    }

    init(size: DiagramSize, requested: DiagramOptions.Detail, limits: DiagramLimits = .standard) {
        self.size = size
        requestedDetail = requested
        let levels = DiagramOptions.Detail.allCases.filter { $0 <= requested }.reversed()
        let fitting = levels.first { size.weight(at: $0) <= limits.comfortableWeight }
        let describe = size.summary
        if let fitting {
            effectiveDetail = fitting
            isRefused = false
            message =
                fitting == requested
                ? nil
                : "the diagram has \(describe): drawing it at '\(fitting.rawValue)' detail instead of '\(requested.rawValue)' to keep the layout fast"
        } else if size.weight(at: .states) <= limits.maximumWeight {
            effectiveDetail = .states
            isRefused = false
            message =
                requested == .states
                ? "the diagram has \(describe): the layout may take several seconds"
                : "the diagram has \(describe): drawing it at 'states' detail instead of '\(requested.rawValue)'; the layout may take several seconds"
        } else {
            effectiveDetail = .states
            isRefused = true
            message =
                "the diagram has \(describe), too many for Graphviz to lay out in reasonable time even at 'states' detail; "
                + "draw one group of states at a time (the group option), split the spec, or use the Mermaid or Markdown output"
        }
    }
}
