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

    /// Entries listed inside each state (internal rows and header rows), in entry order, by
    /// state position. Built once: the composer and the Mermaid writer ask for every state.
    private let listedByOwner: [[Entry]]

    init(machine: Machine, group: String? = nil) {
        self.machine = machine
        self.group = group
        // Everything below works on state positions (`machine.states` order): the plan and the
        // drawing each build a topology, and hashing ids for every lookup cost more than the rest.
        // `Machine` refuses sources, targets and parents that are not states, so every id has one.
        let tree = StateTree(machine)
        let states = machine.states
        var included = Array(repeating: group == nil, count: states.count)
        if let group, let groupIndex = tree.machine.position(of: group) {
            for state in states.indices { included[state] = tree.isWithin(state, groupIndex) }
        }
        compounds = states.indices.filter { tree.isCompound[$0] && included[$0] }.map { states[$0] }
        let flow = Self.flowOrder(machine, tree: tree)
        let entryCount = machine.transitions.reduce(0) { $0 + $1.sources.count }
        var entries: [Entry] = []
        entries.reserveCapacity(entryCount)
        var keys: [ArrowKey?] = []
        keys.reserveCapacity(entryCount)
        var outside = Array(repeating: false, count: states.count)
        for transition in machine.transitions {
            let target = transition.target.map { tree.index($0) }
            for sourceID in transition.sources {
                let source = tree.index(sourceID)
                let sourceInside = included[source]
                let targetInside = target.map { included[$0] } ?? sourceInside
                guard sourceInside || targetInside else { continue }
                if !sourceInside { outside[source] = true }
                if !targetInside, let target { outside[target] = true }
                let (placement, key) = Self.place(
                    transition, source: source, target: target, tree: tree, flow: flow,
                    sourceOutside: !sourceInside, targetOutside: !targetInside)
                entries.append(Entry(transition: transition, source: sourceID, placement: placement))
                keys.append(key)
            }
        }
        outsideStates = states.indices.filter { outside[$0] }.map { tree.ids[$0] }
        self.entries = entries
        // Grouping by a hashed key keeps this linear; the groups stay in order of first entry.
        var arrows: [ArrowGroup] = []
        var arrowIndex: [ArrowKey: Int] = [:]
        arrowIndex.reserveCapacity(entries.count)
        var listed = Array(repeating: [Entry](), count: states.count)
        for (entry, key) in zip(entries, keys) {
            switch entry.placement {
            case .arrow:
                let key = key!
                if let index = arrowIndex[key] {
                    arrows[index].entries.append(entry)
                } else {
                    arrowIndex[key] = arrows.count
                    arrows.append(
                        ArrowGroup(placement: entry.placement, isEventless: key.isEventless, entries: [entry]))
                }
            case .internalRow(let owner), .headerRow(let owner):
                listed[tree.index(owner)].append(entry)
            }
        }
        self.arrows = arrows
        listedByOwner = listed
    }

    /// Entries listed inside `state` (a leaf's node or a compound's header).
    func listed(on state: String) -> [Entry] {
        machine.position(of: state).map { listedByOwner[$0] } ?? []
    }

    /// The machine's states by position, as the engine numbers them (`Machine.position(of:)` and
    /// friends): which are drawn as clusters (compound and parallel states), and each cluster's
    /// leaves in document order.
    private struct StateTree {
        let machine: Machine
        let ids: [String]
        /// -1 at the top level.
        let parent: [Int]
        /// Drawn as a cluster: a compound or a parallel state.
        let isCompound: [Bool]
        /// Each cluster's leaves in document order (empty for a leaf, whose only leaf is itself).
        let leaves: [[Int]]
        /// A parallel state: a cluster without an initial dot of its own.
        let isParallel: [Bool]
        let isHistory: [Bool]

        init(_ machine: Machine) {
            self.machine = machine
            let states = machine.states
            ids = states.map(\.id)
            parent = states.indices.map { machine.parentPosition(of: $0) ?? -1 }
            isCompound = states.indices.map { position in
                switch machine.kind(at: position) {
                case .compound, .parallel: true
                case .atomic, .history: false
                }
            }
            isParallel = states.indices.map { machine.kind(at: $0) == .parallel }
            isHistory = states.indices.map { if case .history = machine.kind(at: $0) { true } else { false } }
            var leaves = Array(repeating: [Int](), count: states.count)
            // A history pseudo-state is no place for an arrow clipped to its cluster to start or end.
            for leaf in states.indices where !isCompound[leaf] && !isHistory[leaf] {
                for ancestor in machine.ancestryPositions(of: leaf).dropFirst() { leaves[ancestor].append(leaf) }
            }
            self.leaves = leaves
        }

        /// The position of a state the machine declares (`Machine` refuses sources, targets and
        /// parents that are not states).
        func index(_ id: String) -> Int { machine.position(of: id)! }

        /// Whether `ancestor` is `state` or encloses it.
        func isWithin(_ state: Int, _ ancestor: Int) -> Bool { machine.isWithin(state, ancestor) }

        func lastLeaf(of state: Int) -> Int { isCompound[state] ? leaves[state].last ?? state : state }
    }

    /// Each state's span in the lifecycle's flow, by position; `nil` for a state with no leaf.
    private struct Flow {
        let span: [(first: Int, last: Int)?]
        /// The leaf at each flow position.
        let leaves: [Int]
    }

    /// Breadth-first distances over leaf states (a transition declared on a compound leaves from
    /// each of its leaves; entering a compound enters its initial leaf), turned into one ordinal
    /// per leaf: leaves by their distance (in transitions) from the initial state, ties and
    /// unreachable states by document order; a compound state spans from its first to its last
    /// leaf. Arrows from a later to an earlier state are drawn as `backward`: Graphviz then
    /// ranks them against their direction, so the layout reads from the initial state onwards
    /// instead of depending on which cycle edge `dot` happens to reverse.
    private static func flowOrder(_ machine: Machine, tree: StateTree) -> Flow {
        let count = tree.parent.count
        var successors = Array(repeating: [Int](), count: count)
        for transition in machine.transitions {
            guard let target = transition.target else { continue }
            let entered = tree.index(machine.leaf(entering: target))
            for source in transition.sources {
                let source = tree.index(source)
                if tree.isCompound[source] {
                    for leaf in tree.leaves[source] { successors[leaf].append(entered) }
                } else {
                    successors[source].append(entered)
                }
            }
        }
        var distance = Array(repeating: Int.max, count: count)
        let initial = tree.index(machine.initialLeaf)
        distance[initial] = 0
        var queue = [initial]
        var cursor = 0
        while cursor < queue.count {
            let current = queue[cursor]
            cursor += 1
            for next in successors[current] where distance[next] == Int.max {
                distance[next] = distance[current] + 1
                queue.append(next)
            }
        }
        let ordered = (0..<count).filter { !tree.isCompound[$0] }.sorted { (distance[$0], $0) < (distance[$1], $1) }
        var span = Array(repeating: (first: Int, last: Int)?.none, count: count)
        for (position, leaf) in ordered.enumerated() {
            var current = leaf
            var depth = 0
            while current >= 0, depth < count {
                let existing = span[current] ?? (position, position)
                span[current] = (min(existing.first, position), max(existing.last, position))
                current = tree.parent[current]
                depth += 1
            }
        }
        return Flow(span: span, leaves: ordered)
    }

    /// What makes two arrows one: their placement, by state positions instead of the DOT names
    /// (which follow from them one to one) so grouping hashes integers, not strings.
    private struct ArrowKey: Hashable {
        let tail: Int
        let head: Int
        /// Which name each end has: node, marker, outside stand-in (see `End`).
        let ends: UInt8
        let ltail: Int
        let lhead: Int
        let backward: Bool
        let isEventless: Bool
    }

    private enum End: UInt8 {
        case node, marker, outside
        func name(_ state: String) -> String {
            switch self {
            case .node: DiagramTopology.nodeID(state)
            case .marker: DiagramTopology.markerID(state)
            case .outside: DiagramTopology.outsideID(state)
            }
        }
    }

    private static func place(
        _ transition: Transition, source: Int, target: Int?, tree: StateTree, flow: Flow,
        sourceOutside: Bool = false, targetOutside: Bool = false
    ) -> (Placement, ArrowKey?) {
        let sourceID = tree.ids[source]
        guard let target else { return (.internalRow(owner: sourceID), nil) }
        // Several targets (one per region): an arrow into a fork bar, which the composer fans out.
        if transition.targets.count > 1, !sourceOutside {
            let sourceIsCompound = tree.isCompound[source]
            let tailState = sourceIsCompound ? tree.lastLeaf(of: source) : source
            let placement = Placement.arrow(
                tail: nodeID(tree.ids[tailState]), head: forkID(transition: transition.index, source: sourceID),
                ltail: sourceIsCompound ? clusterID(sourceID) : nil, lhead: nil, backward: false
            )
            let key = ArrowKey(
                tail: tailState, head: -2 - transition.index, ends: End.node.rawValue << 4 | End.outside.rawValue + 1,
                ltail: sourceIsCompound ? source : -1, lhead: -1, backward: false, isEventless: transition.isEventless)
            return (placement, key)
        }
        let targetID = tree.ids[target]
        // A state outside the drawn group is one stand-in node, never a cluster.
        let sourceIsCompound = !sourceOutside && tree.isCompound[source]
        let targetIsCompound = !targetOutside && tree.isCompound[target]
        if sourceIsCompound, tree.isWithin(target, source) { return (.headerRow(owner: sourceID), nil) }
        let from = flow.span[source] ?? (0, 0)
        let to = flow.span[target] ?? (0, 0)
        let backward = to.first <= from.last && source != target
        // Re-entering an enclosing compound: the arrow goes to its initial dot, not its border.
        let reentering = targetIsCompound && tree.isWithin(source, target)
        // Arrows clipped to a cluster border start and end at a node inside the cluster that is
        // near the other end in the flow, so the clipped-away part (and with it the offset
        // between the visible arrow and its label, which dot places on the unclipped path) stays
        // short.
        // Going back up, the arrow leaves from the compound's initial dot, which sits at the top
        // of its cluster; going on, from its last leaf.
        let tail: (end: End, state: Int)
        if sourceOutside {
            tail = (.outside, source)
        } else if !sourceIsCompound {
            tail = (.node, source)
        } else if backward && !tree.isParallel[source] {
            tail = (.marker, source)
        } else if backward {
            // A parallel state has no initial dot: the arrow leaves from its first leaf in the flow.
            tail = (.node, Self.leaf(in: source, atFlowPosition: from.first, tree: tree, flow: flow))
        } else {
            tail = (.node, Self.leaf(in: source, atFlowPosition: from.last, tree: tree, flow: flow))
        }
        let head: (end: End, state: Int)
        if targetOutside {
            head = (.outside, target)
        } else if !targetIsCompound {
            head = (.node, target)
        } else if backward && !reentering {
            head = (.node, Self.leaf(in: target, atFlowPosition: to.last, tree: tree, flow: flow))
        } else if tree.isParallel[target] {
            head = (.node, Self.leaf(in: target, atFlowPosition: to.first, tree: tree, flow: flow))
        } else {
            head = (.marker, target)
        }
        let clipsHead = targetIsCompound && !reentering
        let placement = Placement.arrow(
            tail: tail.end.name(tree.ids[tail.state]), head: head.end.name(tree.ids[head.state]),
            ltail: sourceIsCompound ? clusterID(sourceID) : nil, lhead: clipsHead ? clusterID(targetID) : nil,
            backward: backward
        )
        let key = ArrowKey(
            tail: tail.state, head: head.state, ends: tail.end.rawValue << 4 | head.end.rawValue,
            ltail: sourceIsCompound ? source : -1, lhead: clipsHead ? target : -1,
            backward: backward, isEventless: transition.isEventless
        )
        return (placement, key)
    }

    /// The leaf inside `compound` at a flow position (its first or last), falling back to the
    /// compound's last leaf in document order. Each flow position holds exactly one leaf, so the
    /// answer is that leaf when it lies inside `compound`.
    private static func leaf(in compound: Int, atFlowPosition position: Int, tree: StateTree, flow: Flow) -> Int {
        if flow.leaves.indices.contains(position) {
            let candidate = flow.leaves[position]
            if tree.isWithin(candidate, compound), !tree.isHistory[candidate] { return candidate }
        }
        return tree.lastLeaf(of: compound)
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
    /// The fork bar of a transition with several targets, declared on `source`.
    static func forkID(transition: Int, source: String) -> String { "@fork:\(transition):" + source }
    /// The dashed frame around an atomic region of a parallel state.
    static func regionClusterID(_ state: String) -> String { "cluster_region:" + state }
}
