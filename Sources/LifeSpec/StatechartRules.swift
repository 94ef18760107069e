import LifecycleEngine

/// A region of a parallel state that no run enters: reported once for the region, instead of
/// once for every state inside it (LS120 skips those).
struct UnreachableRegionRule: SpecRule {
    static func check(_ context: RuleContext) -> [Diagnostic] {
        guard context.space.eventlessLoops.isEmpty else { return [] }
        return unreachableRegions(context).compactMap { region in
            let machine = context.machine
            guard let location = context.location(ofState: machine.states[region].id),
                  let parallel = machine.parentPosition(of: region) else { return nil }
            let inside = machine.states.indices.filter { machine.isDescendant($0, of: region) && !isHistory(machine, $0) }.count
            let what = inside == 0 ? "" : inside == 1 ? " (1 state inside it)" : " (\(inside) states inside it)"
            return .error(.unreachableRegion,
                          "region '\(machine.states[region].id)' of parallel state '\(machine.states[parallel].id)' is never active\(what): no run from the initial state '\(machine.initial)' enters it",
                          at: location)
        }
    }

    /// Regions (children of a parallel state, by position) the exploration never finds active.
    static func unreachableRegions(_ context: RuleContext) -> [Int] {
        let machine = context.machine
        return machine.states.indices.filter { position in
            guard let parent = machine.parentPosition(of: position), machine.kind(at: parent) == .parallel,
                  !isHistory(machine, position) else { return false }
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

/// A history state that can never be restored: nothing targets it, or its parent is never exited
/// while active, so it never records anything and every entry through it takes its default.
struct UnrestorableHistoryRule: SpecRule {
    static func check(_ context: RuleContext) -> [Diagnostic] {
        let machine = context.machine
        var diagnostics: [Diagnostic] = []
        for state in machine.states where state.isHistory {
            guard let location = context.location(ofState: state.id), let parent = state.parent else { continue }
            let targeted = machine.transitions.contains { $0.targets.contains(state.id) && !$0.sources.contains(state.id) }
            if !targeted {
                diagnostics.append(.warning(.unrestorableHistory,
                                            "history state '\(state.id)' is never restored: no transition targets it",
                                            at: location))
                continue
            }
            // Exact only when the engine explored every configuration; recorded history is part of it.
            guard context.space.isExact, context.space.eventlessLoops.isEmpty, context.space.isReachable(parent) else { continue }
            if !context.space.recordedHistory.contains(state.id) {
                diagnostics.append(.warning(.unrestorableHistory,
                                            "history state '\(state.id)' is never restored: '\(parent)' is never exited while active, so it records nothing and every entry through it takes its default",
                                            at: location))
            }
        }
        return diagnostics
    }
}

/// A compound or parallel state that completes (a final state is entered) while no transition
/// handles its `done.state.<id>` event: the completion has no effect, which is usually a
/// forgotten transition. A region's completion counts toward its parallel state's, which is what
/// is reported when unhandled: a region's own done event is optional.
struct UnhandledDoneEventRule: SpecRule {
    static func check(_ context: RuleContext) -> [Diagnostic] {
        let machine = context.machine
        func isHandled(_ event: String) -> Bool { machine.transitions.indices.contains { machine.transition($0, matches: event) } }
        var diagnostics: [Diagnostic] = []
        for state in machine.states {
            let feedsParallel = state.parent.flatMap(machine.state).map { $0.isParallel && machine.doneEvent(of: $0.id) != nil } ?? false
            guard let event = machine.doneEvent(of: state.id), let location = context.location(ofState: state.id),
                  context.space.isReachable(state.id), !feedsParallel else { continue }
            // Only a completion some run reaches is worth a word.
            let completes = state.isParallel || state.children.contains { child in
                machine.state(child)?.isFinal == true && context.space.isReachable(child)
            }
            guard completes else { continue }
            if !isHandled(event) {
                diagnostics.append(.warning(.unhandledDoneEvent,
                                            "state '\(state.id)' completes, but no transition handles '\(event)'",
                                            at: location))
            }
        }
        return diagnostics
    }
}
