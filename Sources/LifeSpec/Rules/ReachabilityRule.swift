import LifecycleEngine

/// States no sequence of events reaches, and transitions no run can take.
struct ReachabilityRule: SpecRule {
    static func check(_ context: RuleContext) -> [Finding] {
        // A run that never settles is not explored past the loop, so what lies beyond it would be
        // misreported as unreachable; the eventless cycle (LS131) is the problem to fix first.
        guard context.space.eventlessLoops.isEmpty else { return [] }
        var findings: [Finding] = []
        // History pseudo-states are never active: whether one is ever restored is another question.
        // States inside a region nothing enters are reported once, for the region (LS123).
        let regions = UnreachableRegionRule.unreachableRegions(context)
        for state in context.document.states
        where context.machine.state(state.id)?.isHistory == false && !context.space.isReachable(state.id)
            && !UnreachableRegionRule.isInsideUnreachableRegion(state.id, context, regions: regions)
        {
            findings.append(
                Finding(.unreachableState, .unreachable(state.id, initial: context.machine.initial), at: state.location)
            )
        }
        // The coverage planner's own verdict, so validate warns exactly where a generated suite
        // reports a transition it cannot cover.
        for item in CoveragePlan.uncoverableTransitions(in: context.space) {
            switch item.reason {
            case .unreachableSource, .unsatisfiableGuard, .explorationIncomplete:
                continue  // reported as errors above, or unknown on a machine too large to explore
            default:
                let transition = context.machine.transitions[item.transition]
                var reason = item.reason.description
                if case .preempted(let winners) = item.reason {
                    reason = Finding.Message.preempted(byLines: winners.map { context.location(ofTransition: $0).line })
                }
                findings.append(
                    Finding(
                        .uncoverableTransition, .neverTaken(context.describe(transition), reason: reason),
                        at: context.location(ofTransition: item.transition)))
            }
        }
        return findings
    }
}

extension Finding.Message {
    static func unreachable(_ state: String, initial: String) -> Self {
        Self("state '\(state)' cannot be reached from the initial state '\(initial)'")
    }

    static func neverTaken(_ transition: String, reason: String) -> Self {
        Self("\(transition) can never be taken: \(reason)")
    }

    /// Why a transition never fires: others declared before it (by line) always handle its event.
    static func preempted(byLines lines: [Int]) -> String {
        let list = lines.map(String.init).joined(separator: ", ")
        return lines.count == 1
            ? "wherever it applies, the transition at line \(list) handles the event first"
            : "wherever it applies, the transitions at lines \(list) handle the event first"
    }
}
