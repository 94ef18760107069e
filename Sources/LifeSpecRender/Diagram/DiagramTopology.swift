import LifecycleEngine

/// Where each transition goes in the drawing, and the DOT names of states, clusters and initial
/// markers. Shared by the composer and the size estimate so both count the same arrows.
struct DiagramTopology {
    enum Placement: Hashable {
        /// An arrow from `tail` to `head`; `ltail`/`lhead` name the clusters it is clipped to.
        /// `backward` arrows go against the lifecycle's flow (see `flowOrder`).
        case arrow(tail: String, head: String, ltail: String?, lhead: String?, backward: Bool)
        /// Listed inside `owner` (a leaf's node or a compound's header): no state change.
        case internalRow(owner: String)
        /// A compound state's transition into itself or one of its own descendants: Graphviz
        /// cannot draw an arrow from a cluster's border to something inside it, so it is listed
        /// in the compound's header with its target.
        case headerRow(owner: String)
    }

    struct Entry {
        let transition: Transition
        let source: String
        let placement: Placement
    }

    /// Arrows that share their ends, clipping, direction and style are drawn as one arrow whose
    /// label lists every transition: a lifecycle often has several events with the same effect
    /// (the flagship has four ways from Inactive to Background), and parallel arrows with long
    /// labels would spread the layout and cross each other.
    struct ArrowGroup {
        let placement: Placement
        let isEventless: Bool
        var entries: [Entry]
    }

    let machine: Machine
    /// The compound state drawn alone (per-group rendering), or `nil` for the whole machine.
    let group: String?
    /// With a group: the states outside it that its transitions come from or go to, in
    /// document order. They are drawn as small stand-in boxes.
    let outsideStates: [String]
    /// Every transition once per declared source, in document order (with a group, only those
    /// that leave from or arrive in it).
    let entries: [Entry]
    /// The arrows to draw, in order of their first transition.
    let arrows: [ArrowGroup]
    /// Compound states in document order.
    let compounds: [StateNode]

    /// Each state's position in the lifecycle's flow: leaves by their distance (in transitions)
    /// from the initial state, ties and unreachable states by document order; a compound state
    /// spans from its first to its last leaf.
    let flowOrder: [String: (first: Int, last: Int)]

    /// Entries listed inside each state (internal rows and header rows), in entry order. Built
    /// once: the composer and the Mermaid writer ask for every state.
    private let listedByOwner: [String: [Entry]]

    init(machine: Machine, group: String? = nil) {
        self.machine = machine
        self.group = group
        let included = group.map { group in Set(machine.states.map(\.id).filter { machine.ancestry(of: $0).contains(group) }) }
        func isIncluded(_ state: String) -> Bool { included?.contains(state) ?? true }
        compounds = machine.states.filter { $0.isCompound && isIncluded($0.id) }
        let leaves = Self.leavesByState(machine)
        let flow = Self.flowOrder(machine, leavesByState: leaves)
        flowOrder = flow.order
        let context = PlacementContext(machine: machine, flow: flow.order, flowLeaves: flow.leaves, leavesByState: leaves)
        var entries: [Entry] = []
        var outside: Set<String> = []
        for transition in machine.transitions {
            for source in transition.sources {
                let sourceInside = isIncluded(source)
                let targetInside = transition.target.map(isIncluded) ?? sourceInside
                guard sourceInside || targetInside else { continue }
                if !sourceInside { outside.insert(source) }
                if !targetInside, let target = transition.target { outside.insert(target) }
                let placement = Self.place(transition, source: source, context: context,
                                           sourceOutside: !sourceInside, targetOutside: !targetInside)
                entries.append(Entry(transition: transition, source: source, placement: placement))
            }
        }
        outsideStates = machine.states.map(\.id).filter(outside.contains)
        self.entries = entries
        // Grouping by a hashed key keeps this linear; the groups stay in order of first entry.
        struct ArrowKey: Hashable {
            let placement: Placement
            let isEventless: Bool
        }
        var arrows: [ArrowGroup] = []
        var arrowIndex: [ArrowKey: Int] = [:]
        var listed: [String: [Entry]] = [:]
        for entry in entries {
            switch entry.placement {
            case .arrow:
                let key = ArrowKey(placement: entry.placement, isEventless: entry.transition.isEventless)
                if let index = arrowIndex[key] {
                    arrows[index].entries.append(entry)
                } else {
                    arrowIndex[key] = arrows.count
                    arrows.append(ArrowGroup(placement: entry.placement, isEventless: key.isEventless, entries: [entry]))
                }
            case .internalRow(let owner), .headerRow(let owner):
                listed[owner, default: []].append(entry)
            }
        }
        self.arrows = arrows
        listedByOwner = listed
    }

    /// Entries listed inside `state` (a leaf's node or a compound's header).
    func listed(on state: String) -> [Entry] {
        listedByOwner[state] ?? []
    }

    /// What placing an arrow needs to know about the machine, computed once per topology.
    private struct PlacementContext {
        let machine: Machine
        let flow: [String: (first: Int, last: Int)]
        /// The leaf at each flow position.
        let flowLeaves: [String]
        /// Every state's leaves (itself for a leaf), in document order.
        let leavesByState: [String: [String]]
    }

    /// Every state's leaves in document order, from one pass over the leaves' ancestries (asking
    /// each compound "which leaves are mine?" made the topology quadratic).
    private static func leavesByState(_ machine: Machine) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for state in machine.states where state.isLeaf {
            for id in machine.ancestry(of: state.id) { result[id, default: []].append(state.id) }
        }
        return result
    }

    /// Breadth-first distances over leaf states (a transition declared on a compound leaves from
    /// each of its leaves; entering a compound enters its initial leaf), turned into one ordinal
    /// per leaf. Arrows from a later to an earlier state are drawn as `backward`: Graphviz then
    /// ranks them against their direction, so the layout reads from the initial state onwards
    /// instead of depending on which cycle edge `dot` happens to reverse.
    private static func flowOrder(
        _ machine: Machine, leavesByState: [String: [String]]
    ) -> (order: [String: (first: Int, last: Int)], leaves: [String]) {
        let leaves = machine.states.filter(\.isLeaf).map(\.id)
        var documentIndex: [String: Int] = [:]
        for (offset, state) in machine.states.enumerated() { documentIndex[state.id] = offset }
        var successors: [String: [String]] = [:]
        for transition in machine.transitions {
            guard let target = transition.target else { continue }
            let entered = machine.leaf(entering: target)
            for source in transition.sources {
                for leaf in leavesByState[source] ?? [] {
                    successors[leaf, default: []].append(entered)
                }
            }
        }
        var distance: [String: Int] = [machine.initialLeaf: 0]
        var queue = [machine.initialLeaf]
        var cursor = 0
        while cursor < queue.count {
            let current = queue[cursor]
            cursor += 1
            for next in successors[current] ?? [] where distance[next] == nil {
                distance[next] = distance[current]! + 1
                queue.append(next)
            }
        }
        // Sort keys computed once rather than looked up on every comparison.
        let ordered = leaves.map { (leaf: $0, key: (distance[$0] ?? Int.max, documentIndex[$0] ?? 0)) }
            .sorted { $0.key < $1.key }
            .map(\.leaf)
        var order: [String: (first: Int, last: Int)] = [:]
        for (position, leaf) in ordered.enumerated() {
            for id in machine.ancestry(of: leaf) {
                let current = order[id] ?? (position, position)
                order[id] = (min(current.first, position), max(current.last, position))
            }
        }
        return (order, ordered)
    }

    private static func place(
        _ transition: Transition, source: String, context: PlacementContext,
        sourceOutside: Bool = false, targetOutside: Bool = false
    ) -> Placement {
        let machine = context.machine
        let flow = context.flow
        guard let target = transition.target else { return .internalRow(owner: source) }
        // A state outside the drawn group is one stand-in node, never a cluster.
        let sourceIsCompound = !sourceOutside && (machine.state(source)?.isCompound ?? false)
        let targetIsCompound = !targetOutside && (machine.state(target)?.isCompound ?? false)
        if sourceIsCompound, machine.ancestry(of: target).contains(source) { return .headerRow(owner: source) }
        let from = flow[source] ?? (0, 0)
        let to = flow[target] ?? (0, 0)
        let backward = to.first <= from.last && source != target
        // Re-entering an enclosing compound: the arrow goes to its initial dot, not its border.
        let reentering = targetIsCompound && machine.ancestry(of: source).contains(target)
        // Arrows clipped to a cluster border start and end at a node inside the cluster that is
        // near the other end in the flow, so the clipped-away part (and with it the offset
        // between the visible arrow and its label, which dot places on the unclipped path) stays
        // short.
        // Going back up, the arrow leaves from the compound's initial dot, which sits at the top
        // of its cluster; going on, from its last leaf.
        let tail = sourceOutside ? outsideID(source)
            : !sourceIsCompound ? nodeID(source)
            : backward ? markerID(source)
            : nodeID(Self.leaf(in: source, atFlowPosition: from.last, context: context))
        let head: String
        if targetOutside {
            head = outsideID(target)
        } else if !targetIsCompound {
            head = nodeID(target)
        } else if backward && !reentering {
            head = nodeID(Self.leaf(in: target, atFlowPosition: to.last, context: context))
        } else {
            head = markerID(target)
        }
        let ltail = sourceIsCompound ? clusterID(source) : nil
        let lhead = targetIsCompound && !reentering ? clusterID(target) : nil
        return .arrow(tail: tail, head: head, ltail: ltail, lhead: lhead, backward: backward)
    }

    /// The leaf inside `compound` at a flow position (its first or last), falling back to the
    /// compound's last leaf in document order. Each flow position holds exactly one leaf, so the
    /// answer is that leaf when it lies inside `compound`.
    private static func leaf(in compound: String, atFlowPosition position: Int, context: PlacementContext) -> String {
        if context.flowLeaves.indices.contains(position) {
            let candidate = context.flowLeaves[position]
            if context.machine.ancestry(of: candidate).contains(compound) { return candidate }
        }
        return context.leavesByState[compound]?.last ?? compound
    }

    /// Each state's children in document order, keyed by parent (`nil`: the top level), so
    /// walking the tree does not scan every state for every compound.
    static func childrenByParent(_ machine: Machine) -> [String?: [StateNode]] {
        var result: [String?: [StateNode]] = [:]
        for state in machine.states { result[state.parent, default: []].append(state) }
        return result
    }

    // MARK: Names
    //
    // State nodes are named by their id (so SVG titles read naturally); the synthetic initial
    // markers start with "@", and a state id that itself starts with "@" gets a second one, so
    // the two never collide. Clusters live in their own namespace.

    static func nodeID(_ state: String) -> String { state.hasPrefix("@") ? "@" + state : state }
    /// The filled dot pointing at `compound`'s initial child; `nil` for the machine's own.
    static func markerID(_ compound: String?) -> String { compound.map { "@initial:" + $0 } ?? "@initial" }
    static func clusterID(_ compound: String) -> String { "cluster_" + compound }
    /// The stand-in for a state outside the drawn group.
    static func outsideID(_ state: String) -> String { "@outside:" + state }
}
