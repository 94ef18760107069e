import LifecycleEngine

/// What a rule sees: the lowered spec, the raw one (for the locations of individual tokens), and
/// the engine's exploration of the machine, computed once for every rule.
struct RuleContext {
    let spec: LoadedSpec
    let raw: RawSpec
    let space: StateSpace
    var machine: Machine { spec.machine }
    var document: SpecDocument { spec.document }

    func location(ofTransition index: Int) -> SourceLocation { raw.transitions[index].location }
    func location(ofState id: String) -> SourceLocation? { document.state(id)?.location }

    func describe(_ transition: Transition) -> String {
        let trigger = transition.trigger.eventID.map { "on '\($0)'" } ?? "always"
        let target = transition.target.map { " → '\($0)'" } ?? " (internal)"
        return "transition from \(transition.sources.map { "'\($0)'" }.joined(separator: ", ")) \(trigger)\(target)"
    }
}

/// One check over a lowered spec. Each rule owns its messages.
protocol SpecRule: Sendable {
    static func check(_ context: RuleContext) -> [Diagnostic]
}

/// One check that needs only the spec as read, so it runs even when references are broken.
protocol RawSpecRule: Sendable {
    static func check(_ raw: RawSpec) -> [Diagnostic]
}

enum SpecRules {
    static var all: [any SpecRule.Type] {
        [
            NondeterminismRule.self,
            EventlessCycleRule.self,
            ReachabilityRule.self,
            DeadEndRule.self,
            ScenarioReplayRule.self,
            UnreachableRegionRule.self,
            UnrestorableHistoryRule.self,
            UnhandledDoneEventRule.self,
        ]
    }

    static var rawRules: [any RawSpecRule.Type] { [UnsatisfiableGuardRule.self, PlatformNamesRule.self, ChinesePunctuationRule.self] }

    static func check(raw: RawSpec) -> [Diagnostic] {
        rawRules.flatMap { $0.check(raw) }
    }

    /// The diagnostics, and the exploration the rules shared (for `LoadedSpec.stateSpace`).
    static func check(_ spec: LoadedSpec, raw: RawSpec) -> (diagnostics: [Diagnostic], space: StateSpace) {
        let context = RuleContext(spec: spec, raw: raw, space: StateSpace(machine: spec.machine))
        return (all.flatMap { $0.check(context) }, context.space)
    }
}

/// A guard no flag assignment makes true: the transition can never be taken.
struct UnsatisfiableGuardRule: RawSpecRule {
    static func check(_ raw: RawSpec) -> [Diagnostic] {
        raw.transitions.indices.compactMap { index in
            guard let expression = raw.transitions[index].guardExpression, let text = raw.transitions[index].guardText,
                  !expression.isSatisfiable() else { return nil }
            return .error(.unsatisfiableGuard, "guard '\(expression)' can never hold, so this transition is never taken", at: text.location)
        }
    }
}

/// Two transitions declared on the same state for the same trigger whose guards can hold at once.
struct NondeterminismRule: SpecRule {
    static func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var reported: Set<Int> = []
        for state in context.machine.states {
            let declared = context.machine.transitions(declaredOn: state.id)
            for (offset, first) in declared.enumerated() {
                for second in declared[(offset + 1)...] where second.trigger == first.trigger && !reported.contains(second.index) {
                    let guards = [first.guardExpression, second.guardExpression].compactMap { $0 }
                    guard let witness = GuardExpression.satisfyingAssignment(all: guards) else { continue }
                    reported.insert(second.index)
                    let trigger = first.trigger.eventID.map { "event '\($0)'" } ?? "eventless transitions"
                    let when = witness.isEmpty ? "" : " (e.g. when " + witness.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
                    diagnostics.append(.error(
                        .nondeterminism,
                        "nondeterministic: state '\(state.id)' has two transitions for \(trigger) whose guards can both hold\(when); make the guards exclusive",
                        at: context.location(ofTransition: second.index),
                        notes: ["the other transition is at \(context.location(ofTransition: first.index))"]
                    ))
                }
            }
        }
        return diagnostics
    }
}

/// Eventless transitions that can fire forever. Checked from every leaf under every flag
/// assignment (reachable or not) by running the engine, so the verdict is the engine's own.
struct EventlessCycleRule: SpecRule {
    static let maxFlags = 10

    static func check(_ context: RuleContext) -> [Diagnostic] {
        let machine = context.machine
        guard machine.transitions.contains(where: \.isEventless) else { return [] }
        let flagIDs = machine.flags.map(\.id)
        guard flagIDs.count <= maxFlags else { return staticCheck(context) }
        let budget = machine.leafStates.count * (1 << flagIDs.count) + 1
        var reported: Set<Int> = []
        var diagnostics: [Diagnostic] = []
        // A leaf with no eventless transition on its way up settles at once under any flags: only
        // the others need the engine run.
        let eventlessSources = Set(machine.transitions.lazy.filter(\.isEventless).flatMap(\.sources))
        for leaf in machine.leafStates where machine.ancestry(of: leaf.id).contains(where: eventlessSources.contains) {
            for bits in 0..<(1 << flagIDs.count) {
                var flags: [String: Bool] = [:]
                for (offset, id) in flagIDs.enumerated() { flags[id] = bits & (1 << offset) != 0 }
                guard var runner = try? Runner(machine: machine, state: leaf.id, flags: flags) else { continue }
                runner.eventlessLimit = budget
                var probe = runner
                guard case .failure = Result(catching: { () throws(RunError) in try probe.settle() }) else { continue }
                // Walk the loop once more to find the transitions that form it. The same cycle is
                // met again from each of its states: report it once, at its first transition in
                // document order.
                var seen: [Configuration: Int] = [:]
                var taken: [Int] = []
                var cycle: [Int]?
                while let transition = runner.enabledEventlessTransition {
                    let configuration = Configuration(state: runner.state, flagValues: flagIDs.map { runner.flags[$0] ?? false })
                    if let start = seen[configuration] {
                        cycle = Array(taken[start...])
                        break
                    }
                    seen[configuration] = taken.count
                    taken.append(transition.index)
                    runner.takeEventlessTransition()
                }
                guard let cycle, let index = cycle.min(), reported.insert(index).inserted else { continue }
                diagnostics.append(.error(
                    .eventlessCycle,
                    "eventless transitions can loop forever starting from state '\(leaf.id)'\(describe(flags))",
                    at: context.location(ofTransition: index)
                ))
            }
        }
        return diagnostics
    }

    private static func describe(_ flags: [String: Bool]) -> String {
        guard !flags.isEmpty else { return "" }
        return " with " + flags.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    }

    /// Too many flags to enumerate: a cycle among eventless transitions with satisfiable guards.
    private static func staticCheck(_ context: RuleContext) -> [Diagnostic] {
        let machine = context.machine
        var successors: [String: [(target: String, index: Int)]] = [:]
        for leaf in machine.leafStates {
            for id in machine.ancestry(of: leaf.id) {
                for transition in machine.transitions(declaredOn: id) where transition.isEventless && transition.guardExpression?.isSatisfiable() ?? true {
                    successors[leaf.id, default: []].append((transition.target.map(machine.leaf(entering:)) ?? leaf.id, transition.index))
                }
            }
        }
        var color: [String: Int] = [:]
        var diagnostics: [Diagnostic] = []
        func visit(_ state: String) {
            color[state] = 1
            for (target, index) in successors[state] ?? [] {
                if color[target] == 1 {
                    diagnostics.append(.error(.eventlessCycle, "eventless transitions form a cycle through state '\(target)' and may loop forever", at: context.location(ofTransition: index)))
                } else if color[target] == nil {
                    visit(target)
                }
            }
            color[state] = 2
        }
        for leaf in machine.leafStates where color[leaf.id] == nil { visit(leaf.id) }
        return diagnostics
    }
}

/// States no sequence of events reaches, and transitions no run can take.
struct ReachabilityRule: SpecRule {
    static func check(_ context: RuleContext) -> [Diagnostic] {
        // A run that never settles is not explored past the loop, so what lies beyond it would be
        // misreported as unreachable; the eventless cycle (LS131) is the problem to fix first.
        guard context.space.eventlessLoops.isEmpty else { return [] }
        var diagnostics: [Diagnostic] = []
        // History pseudo-states are never active: whether one is ever restored is another question.
        // States inside a region nothing enters are reported once, for the region (LS123).
        let regions = UnreachableRegionRule.unreachableRegions(context)
        for state in context.document.states where context.machine.state(state.id)?.isHistory == false && !context.space.isReachable(state.id)
            && !UnreachableRegionRule.isInsideUnreachableRegion(state.id, context, regions: regions) {
            diagnostics.append(.error(.unreachableState, "state '\(state.id)' cannot be reached from the initial state '\(context.machine.initial)'", at: state.location))
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
                    let lines = winners.map { String(context.location(ofTransition: $0).line) }.joined(separator: ", ")
                    reason = winners.count == 1
                        ? "wherever it applies, the transition at line \(lines) handles the event first"
                        : "wherever it applies, the transitions at lines \(lines) handle the event first"
                }
                diagnostics.append(.warning(.uncoverableTransition, "\(context.describe(transition)) can never be taken: \(reason)",
                                            at: context.location(ofTransition: item.transition)))
            }
        }
        return diagnostics
    }
}

/// A non-final leaf with no transition that leaves it: the lifecycle would be stuck there.
struct DeadEndRule: SpecRule {
    static func check(_ context: RuleContext) -> [Diagnostic] {
        let machine = context.machine
        return machine.leafStates.compactMap { leaf in
            guard !leaf.isFinal else { return nil }
            let exits = machine.ancestry(of: leaf.id).contains { id in
                machine.transitions(declaredOn: id).contains { transition in
                    guard let target = transition.target else { return false }
                    return machine.leaf(entering: target) != leaf.id
                }
            }
            guard !exits, let location = context.location(ofState: leaf.id) else { return nil }
            return .error(.deadEnd, "state '\(leaf.id)' is not final but no transition leaves it; add one or mark it 'final: true'", at: location)
        }
    }
}

/// Every scenario replayed through the engine; the trace must match exactly.
struct ScenarioReplayRule: SpecRule {
    static func check(_ context: RuleContext) -> [Diagnostic] {
        context.document.scenarios.enumerated().compactMap { index, scenario in
            replay(scenario, raw: context.raw.scenarios[index], machine: context.machine)
        }
    }

    static func replay(_ scenario: SpecDocument.ScenarioInfo, raw: RawSpec.Scenario, machine: Machine) -> Diagnostic? {
        var runner: Runner
        var observed: [Observation] = []
        do {
            let begun = try Runner.begin(machine: machine, from: scenario.from, flags: scenario.flags)
            runner = begun.runner
            observed = begun.steps.compactMap(\.observation)
        } catch {
            return .error(.scenarioFailed, "scenario '\(scenario.id)' cannot start: \(error)", at: scenario.location)
        }
        for (offset, event) in scenario.events.enumerated() {
            do {
                observed += try runner.send(event).compactMap(\.observation)
            } catch {
                return .error(.scenarioFailed, "scenario '\(scenario.id)' step \(offset + 1): \(error)", at: raw.events[offset].location,
                              notes: ["trace so far: " + (observed.isEmpty ? "(nothing)" : observed.map(\.description).joined(separator: ", "))])
            }
        }
        var problems: [String] = []
        if raw.expectGiven, observed != scenario.expect {
            problems.append("the trace differs from 'expect'")
        }
        let active = runner.activeStates
        if !scenario.endStates.isEmpty, !scenario.endStates.allSatisfy(active.contains) {
            problems.append("it ends in '\(runner.configuration)', not '\(scenario.endStates.joined(separator: "+"))'")
        }
        guard !problems.isEmpty else { return nil }
        return .error(.scenarioMismatch, "scenario '\(scenario.id)' does not replay: " + problems.joined(separator: "; "),
                      at: scenario.location, notes: sideBySide(expected: scenario.expect, actual: observed))
    }

    /// Expected and actual traces in two columns, the first differing row marked.
    static func sideBySide(expected: [Observation], actual: [Observation]) -> [String] {
        let width = max(8, (expected.map(\.description.count).max() ?? 0))
        var lines = ["   " + "expected".padding(toLength: width, withPad: " ", startingAt: 0) + "  actual"]
        var marked = false
        for row in 0..<max(expected.count, actual.count) {
            let left = row < expected.count ? expected[row].description : "—"
            let right = row < actual.count ? actual[row].description : "—"
            let differs = left != right
            let marker = differs && !marked ? "→ " : "  "
            if differs { marked = true }
            lines.append(marker + " " + left.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + right)
        }
        return lines
    }
}

/// With a platform or API catalogs, every callback and notification name must be one of theirs:
/// a name passes when any of the spec's catalogs has it.
struct PlatformNamesRule: RawSpecRule {
    static func catalogs(of raw: RawSpec) -> [APICatalog] {
        var catalogs = raw.platform.flatMap { APICatalog.catalog(for: $0.value) }.map { [$0] } ?? []
        for (_, catalog) in raw.catalogs where !catalogs.contains(where: { $0.name == catalog.name }) { catalogs.append(catalog) }
        return catalogs
    }

    static func check(_ raw: RawSpec) -> [Diagnostic] {
        let catalogs = catalogs(of: raw)
        // A catalog that did not load might hold the names: its own error is the one to fix.
        guard !catalogs.isEmpty, !raw.catalogMissing else { return [] }
        let advice = "if the name is right, add it to a catalog file of your own and list the file under 'catalogs:' (see docs/spec-format.md, API catalogs)"
        var diagnostics: [Diagnostic] = []
        func verify(_ name: Located<String>?, known: KeyPath<APICatalog, Set<String>>, kind: String) {
            guard let name, !catalogs.contains(where: { $0[keyPath: known].contains(name.value) }) else { return }
            let candidates = catalogs.flatMap { $0[keyPath: known] }.sorted()
            let hint = Suggestion.closest(to: name.value, among: candidates).map { "; did you mean '\($0)'?" }
                ?? " (not in \(catalogs.count == 1 ? "the \(catalogs[0].name) catalog" : "any of them"))"
            let message = catalogs.count == 1
                ? "\(catalogs[0].name) has no \(kind) named '\(name.value)'"
                : "none of the spec's API catalogs (\(catalogs.map(\.name).joined(separator: ", "))) has a \(kind) named '\(name.value)'"
            diagnostics.append(.error(.unknownAPIName, message + hint, at: name.location, notes: [advice]))
        }
        // A part's names were checked against the part's own catalogs when it loaded.
        for callback in raw.callbacks where callback.part == nil {
            switch callback.kind {
            case .method:
                verify(callback.swift, known: \.callbackSwiftNames, kind: "method")
                verify(callback.objc, known: \.callbackObjCNames, kind: "selector")
            case .closure:
                // A closure's own name is the app's; the API it is handed to is UIKit's.
                verify(callback.passedTo, known: \.closureHostSwiftNames, kind: "method taking a closure")
            }
        }
        for notification in raw.notifications where notification.part == nil {
            verify(notification.swift, known: \.notificationSwiftNames, kind: "notification")
            verify(notification.objc, known: \.notificationObjCNames, kind: "notification")
        }
        return diagnostics
    }
}
