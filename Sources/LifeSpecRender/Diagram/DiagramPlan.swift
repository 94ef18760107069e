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
    /// The ranks arrows cross beyond their own, summed: every one is a virtual node `dot` lays out
    /// (and orders in every rank it crosses). A ring whose states all return to its first state
    /// has few arrows but a quadratic sum; it, not the count of arrows, made `dot` take minutes.
    package let longEdgeSpan: Int
    /// The sum over ranks of the square of their width (real and virtual nodes): what ordering the
    /// ranks to reduce crossings costs, roughly.
    package let rankWork: Int

    init(
        nodes: Int, clusters: Int, arrows: Int, eventLines: Int, fullLines: Int, longEdgeSpan: Int = 0,
        rankWork: Int = 0
    ) {
        self.nodes = nodes
        self.clusters = clusters
        self.arrows = arrows
        self.eventLines = eventLines
        self.fullLines = fullLines
        self.longEdgeSpan = longEdgeSpan
        self.rankWork = rankWork
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
        (longEdgeSpan, rankWork) = Self.longEdges(of: topology)
    }

    /// The ranks the arrows cross, estimated as `dot` ranks them: arrows against the flow turned
    /// round, the arrows that still close a cycle (found depth first, as `dot` breaks cycles)
    /// dropped, each node on the longest path to it, and every arrow's span past one rank summed.
    /// Iterative, and linear in the arrows.
    static func longEdges(of topology: DiagramTopology) -> (span: Int, rankWork: Int) {
        var numbers: [String: Int] = [:]
        var successors: [[Int]] = []
        func number(_ name: String) -> Int {
            if let known = numbers[name] { return known }
            numbers[name] = successors.count
            successors.append([])
            return successors.count - 1
        }
        for group in topology.arrows {
            guard case .arrow(let tail, let head, _, _, let backward) = group.placement, tail != head else { continue }
            let (from, to) = backward ? (number(head), number(tail)) : (number(tail), number(head))
            successors[from].append(to)
        }
        // Depth first from every node in order: an arrow to a node still on the path is dropped;
        // the finishing order, reversed, is a topological order of what is left.
        var state = [UInt8](repeating: 0, count: successors.count)  // 0 new, 1 on the path, 2 done
        var kept = [[Int]](repeating: [], count: successors.count)
        var finished: [Int] = []
        for root in successors.indices where state[root] == 0 {
            var stack = [(node: root, next: 0)]
            state[root] = 1
            while let top = stack.last {
                if top.next < successors[top.node].count {
                    stack[stack.count - 1].next += 1
                    let target = successors[top.node][top.next]
                    switch state[target] {
                    case 0:
                        kept[top.node].append(target)
                        state[target] = 1
                        stack.append((target, 0))
                    case 2: kept[top.node].append(target)
                    default: break
                    }
                } else {
                    state[top.node] = 2
                    finished.append(top.node)
                    stack.removeLast()
                }
            }
        }
        var rank = [Int](repeating: 0, count: successors.count)
        for node in finished.reversed() {
            for target in kept[node] { rank[target] = max(rank[target], rank[node] + 1) }
        }
        var span = 0
        // Nodes per rank, real and virtual: ordering a rank costs about the square of its width.
        let ranks = (rank.max() ?? 0) + 2
        var real = [Int](repeating: 0, count: ranks)
        var virtualChange = [Int](repeating: 0, count: ranks)
        for node in kept.indices {
            real[rank[node]] += 1
            for target in kept[node] where rank[target] > rank[node] + 1 {
                span += rank[target] - rank[node] - 1
                virtualChange[rank[node] + 1] += 1
                virtualChange[rank[target]] -= 1
            }
        }
        var crossing = 0
        var rankWork = 0
        for position in 0..<ranks {
            crossing += virtualChange[position]
            rankWork += (real[position] + crossing) * (real[position] + crossing)
        }
        return (span, rankWork)
    }

    /// `rankWork` at `detail`: a labelled arrow takes two ranks per rank it crosses (its label
    /// takes a rank of its own), so the ranks to order double.
    package func rankWork(at detail: DiagramOptions.Detail) -> Int {
        detail == .states ? rankWork : 2 * rankWork
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

    /// Above this `DiagramSize.rankWork(at:)` a detail level is dropped for a coarser one, and
    /// above `maximumRankWork` at `states` detail the diagram is refused: the shape's cost, where
    /// the weight counts only nodes and arrows. Measured (Graphviz 2.43, `diagram` to SVG) on rings
    /// whose every state also returns to the first, few arrows but long ones: 100 states (0.33 M,
    /// 0.66 M at `full`) 6.4 s at `full`, 250 states (5.2 M) 74 s, 400 states (21 M) past 70 s and a
    /// crash in the layout; `lifespec synth --states 500 --regions 4` (3.3 M) lays out at `states`
    /// in 4.7 s. Every spec under `Spec/` is below 1,000.
    package var comfortableRankWork: Int
    package var maximumRankWork: Int

    package init(
        comfortableWeight: Int = 2_500, maximumWeight: Int = 5_000, comfortableRankWork: Int = 1_500_000,
        maximumRankWork: Int = 4_000_000
    ) {
        self.comfortableWeight = comfortableWeight
        self.maximumWeight = maximumWeight
        self.comfortableRankWork = comfortableRankWork
        self.maximumRankWork = maximumRankWork
    }

    package static let standard = DiagramLimits()

    /// No budget: for DOT text, which is written but not laid out.
    package static let unlimited = DiagramLimits(
        comfortableWeight: .max, maximumWeight: .max, comfortableRankWork: .max, maximumRankWork: .max)
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
        let fitting = levels.first {
            size.weight(at: $0) <= limits.comfortableWeight && size.rankWork(at: $0) <= limits.comfortableRankWork
        }
        let describe = size.summary
        let longEdges = size.rankWork(at: .states) > limits.maximumRankWork
        if let fitting {
            effectiveDetail = fitting
            isRefused = false
            message =
                fitting == requested
                ? nil
                : "the diagram has \(describe): drawing it at '\(fitting.rawValue)' detail instead of '\(requested.rawValue)' to keep the layout fast"
        } else if size.weight(at: .states) <= limits.maximumWeight, !longEdges {
            effectiveDetail = .states
            isRefused = false
            message =
                requested == .states
                ? "the diagram has \(describe): the layout may take several seconds"
                : "the diagram has \(describe): drawing it at 'states' detail instead of '\(requested.rawValue)'; the layout may take several seconds"
        } else {
            effectiveDetail = .states
            isRefused = true
            // Too many nodes and arrows says it first; the long arrows only when they alone are the cause.
            message =
                longEdges && size.weight(at: .states) <= limits.maximumWeight
                ? "the diagram has \(describe), and its arrows cross about \(size.longEdgeSpan) ranks beyond their own (arrows back across a long chain of states), too long for Graphviz to lay out in reasonable time even at 'states' detail; "
                    + "draw one group of states at a time (the group option), split the spec, or use the Mermaid or Markdown output"
                : "the diagram has \(describe), too many for Graphviz to lay out in reasonable time even at 'states' detail; "
                    + "draw one group of states at a time (the group option), split the spec, or use the Mermaid or Markdown output"
        }
    }
}
