import LifecycleEngine

/// A region of a parallel state that no run enters: reported once for the region, instead of
/// once for every state inside it (LS120 skips those).
struct UnreachableRegionRule: SpecRule {
    static func check(_ context: RuleContext) -> [Finding] {
        guard context.space.eventlessLoops.isEmpty else { return [] }
        return unreachableRegions(context).compactMap { region in
            let machine = context.machine
            guard let location = context.location(ofState: machine.states[region].id),
                let parallel = machine.parentPosition(of: region)
            else { return nil }
            let inside = machine.states.indices.filter {
                machine.isDescendant($0, of: region) && !isHistory(machine, $0)
            }.count
            return Finding(
                .unreachableRegion,
                .regionNeverActive(
                    machine.states[region].id, of: machine.states[parallel].id,
                    statesInside: inside, initial: machine.initial),
                at: location)
        }
    }

    /// Regions (children of a parallel state, by position) the exploration never finds active.
    static func unreachableRegions(_ context: RuleContext) -> [Int] {
        let machine = context.machine
        return machine.states.indices.filter { position in
            guard let parent = machine.parentPosition(of: position), machine.kind(at: parent) == .parallel,
                !isHistory(machine, position)
            else { return false }
            return !context.space.isReachable(machine.states[position].id)
        }
    }

    /// Whether a state is a region this rule reports or lies inside one.
    static func isInsideUnreachableRegion(_ state: String, _ context: RuleContext, regions: [Int]) -> Bool {
        guard let position = context.machine.position(of: state) else { return false }
        return regions.contains { context.machine.isWithin(position, $0) }
    }

    private static func isHistory(_ machine: Machine, _ position: Int) -> Bool {
        if case .history = machine.kind(at: position) { true } else { false }
    }
}

extension Finding.Message {
    static func regionNeverActive(_ region: String, of parallel: String, statesInside inside: Int, initial: String)
        -> Self
    {
        let what = inside == 0 ? "" : inside == 1 ? " (1 state inside it)" : " (\(inside) states inside it)"
        return Self(
            "region '\(region)' of parallel state '\(parallel)' is never active\(what): no run from the initial state '\(initial)' enters it"
        )
    }
}
