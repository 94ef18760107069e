/// The regions of a parallel state that run independently of each other, so the machine's
/// behaviour is the product of theirs and each can be explored on its own (`StateSpace`).
///
/// Regions are independent when, for the parallel state `P` the machine starts in:
/// - every transition is declared strictly inside one region of `P` (a region itself included)
///   and stays there: its targets (a history state standing for its parent and its default's
///   targets) lie inside the same region, and its domain — the state SCXML exits and re-enters —
///   is that region or a state inside it (an external transition from the region itself exits `P`:
///   not independent). So `P` is never exited, every configuration holds one part per region, and
///   SCXML's conflict resolution never sets two regions' transitions against each other;
/// - no flag written in one region (by a transition, or an entry, exit or initial block inside
///   it) is read or written in another; flags nobody writes are constants of a run and may be
///   read anywhere;
/// - no guard of one region reads `in()` of a state inside another;
/// - no event raised inside one region (`raise`, or the `done.state.*` event of a state inside
///   it) is matched by a transition of another region, and nothing handles `done.state.P`
///   (`P` completes only when every region does).
///
/// Then an event offered to the whole configuration moves each region exactly as it moves that
/// region alone: the regions' transitions are found on their own atomic states, their exits and
/// entries stay inside them, and what they read is their own. Two more conditions are checked
/// while exploring, since they depend on where runs go: a region whose enabled event fails
/// (a raised event nobody handles, under `unhandled: error`) would block every other region's
/// move on that event, and an eventless loop ends the whole macrostep; either sends the space
/// back to the product exploration.
struct RegionDecomposition {
    /// The parallel state, by position.
    let parallel: Int
    /// Its regions (history children aside), by position, in document order.
    let regions: [Int]
    /// Per state: the position in `regions` of the region it lies in (a region counts as inside
    /// itself); -1 outside every region.
    let regionOf: [Int]
    /// Per region: the flags its transitions and blocks read or write, ascending.
    let flagsOf: [[Int]]

    init?(machine: Machine) {
        let tables = machine.tables
        let stateCount = machine.states.count
        guard stateCount > 0 else { return nil }
        // The outermost parallel state of the configuration the machine starts in.
        guard let initial = (try? Runner(machine: machine))?.active else { return nil }
        guard let parallel = initial.first(where: { tables.kind[$0] == .parallel }) else { return nil }
        let regions = tables.children[parallel]
        guard regions.count > 1 else { return nil }
        var regionOf = [Int](repeating: -1, count: stateCount)
        for (number, region) in regions.enumerated() {
            for state in region...tables.subtreeEnd[region] { regionOf[state] = number }
        }
        // Outside the regions only `P` and its ancestors may be active: any other state is a
        // sibling nothing can enter (no transition leaves `P`), which the exploration shows.
        func isInside(_ state: Int, _ ancestor: Int) -> Bool {
            state == ancestor || tables.isDescendant(state, of: ancestor)
        }

        var readFlags = [Set<Int>](repeating: [], count: regions.count)
        var writtenFlags = [Set<Int>](repeating: [], count: regions.count)
        var raised = [Set<Int>](repeating: [], count: regions.count)
        /// In-guards' states, by region.
        var readStates = [Set<Int>](repeating: [], count: regions.count)

        /// The states a target stands for: itself, or for a history state its parent and what its default targets.
        func anchors(of target: Int, into result: inout [Int], depth: Int = 0) {
            guard tables.kind[target].isHistory else {
                result.append(target)
                return
            }
            result.append(tables.parent[target])
            guard depth < 8, let transition = tables.declared[target].first else { return }
            for next in tables.targets[transition] { anchors(of: next, into: &result, depth: depth + 1) }
        }

        for transition in machine.transitions.indices {
            // Every source is one region's.
            let sources = machine.transitions[transition].sources.compactMap(machine.stateIndex(of:))
            guard let first = sources.first else { return nil }
            let region = regionOf[first]
            guard region >= 0, sources.allSatisfy({ regionOf[$0] == region }) else { return nil }
            let regionState = regions[region]
            var targets: [Int] = []
            for target in tables.targets[transition] { anchors(of: target, into: &targets) }
            if !targets.isEmpty {
                guard targets.allSatisfy({ tables.isDescendant($0, of: regionState) }) else { return nil }
                for source in sources {
                    // SCXML's transition domain, with every state a history target may stand for.
                    let domain: Int
                    if tables.isInternalType[transition], tables.kind[source] == .compound,
                        targets.allSatisfy({ tables.isDescendant($0, of: source) })
                    {
                        domain = source
                    } else {
                        domain =
                            tables.ancestry[source].dropFirst().first { ancestor in
                                tables.kind[ancestor] == .compound
                                    && targets.allSatisfy { tables.isDescendant($0, of: ancestor) }
                            } ?? -1
                    }
                    guard domain >= 0, isInside(domain, regionState) else { return nil }
                }
            }
            if let guardExpression = tables.guards[transition] {
                guardExpression.collectReads(flags: &readFlags[region], states: &readStates[region])
            }
            for assignment in tables.assignments[transition] { writtenFlags[region].insert(assignment.flag) }
            raised[region].formUnion(tables.raises[transition])
        }
        for state in 0..<stateCount where regionOf[state] >= 0 {
            let region = regionOf[state]
            for block in [tables.entry[state], tables.exit[state], tables.initialBlock[state]] {
                for assignment in block.assignments { writtenFlags[region].insert(assignment.flag) }
                raised[region].formUnion(block.raises)
            }
            if tables.doneEvent[state] >= 0 { raised[region].insert(tables.doneEvent[state]) }
        }
        // `P` completes only when every region does: its done event must change nothing.
        if tables.doneEvent[parallel] >= 0 {
            let done = tables.doneEvent[parallel]
            guard !machine.transitions.indices.contains(where: { tables.matches($0, event: done) }) else { return nil }
        }
        var transitionsOf = [[Int]](repeating: [], count: regions.count)
        for transition in machine.transitions.indices {
            if let source = machine.transitions[transition].sources.first.flatMap(machine.stateIndex(of:)) {
                transitionsOf[regionOf[source]].append(transition)
            }
        }
        for region in regions.indices {
            for other in regions.indices where other != region {
                guard writtenFlags[region].isDisjoint(with: readFlags[other]),
                    writtenFlags[region].isDisjoint(with: writtenFlags[other])
                else { return nil }
                for event in raised[region]
                where transitionsOf[other].contains(where: { tables.matches($0, event: event) }) { return nil }
            }
            // `in()` of the region's own states, or of `P` and its ancestors (active throughout).
            for state in readStates[region] where regionOf[state] != region && !isInside(parallel, state) { return nil }
        }
        self.parallel = parallel
        self.regions = regions
        self.regionOf = regionOf
        flagsOf = regions.indices.map { readFlags[$0].union(writtenFlags[$0]).sorted() }
    }
}

extension FlagGuard {
    /// The flags and the states (`in()`) the guard reads.
    func collectReads(flags: inout Set<Int>, states: inout Set<Int>) {
        switch self {
        case .flag(let index): flags.insert(index)
        case .constant: break
        case .inState(let index): states.insert(index)
        case .not(let inner): inner.collectReads(flags: &flags, states: &states)
        case .and(let lhs, let rhs), .or(let lhs, let rhs):
            lhs.collectReads(flags: &flags, states: &states)
            rhs.collectReads(flags: &flags, states: &states)
        }
    }
}
