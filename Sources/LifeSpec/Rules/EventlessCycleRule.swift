import LifecycleEngine

/// Eventless transitions that can fire forever. Checked from every leaf under every flag
/// assignment (reachable or not) by running the engine, so the verdict is the engine's own.
struct EventlessCycleRule: SpecRule {
    static let maxFlags = 10

    static func check(_ context: RuleContext) -> [Finding] {
        let machine = context.machine
        guard machine.transitions.contains(where: \.isEventless) else { return [] }
        let flagIDs = machine.flags.map(\.id)
        guard flagIDs.count <= maxFlags else { return staticCheck(context) }
        let budget = machine.leafStates.count * (1 << flagIDs.count) + 1
        var reported: Set<Int> = []
        var findings: [Finding] = []
        // A leaf with no eventless transition on its way up settles at once under any flags: only
        // the others need the engine run.
        let eventlessSources = Set(machine.transitions.lazy.filter(\.isEventless).flatMap(\.sources))
        // A flag settling never reads nor sets (the engine says which) changes nothing in a run
        // but its own value.
        let constant = machine.flagsSettlingIgnores
        var constantBits = 0
        for (offset, id) in flagIDs.enumerated() where constant.contains(id) { constantBits |= 1 << offset }
        for leaf in machine.leafStates where machine.ancestry(of: leaf.id).contains(where: eventlessSources.contains) {
            // The assignment with such a flag cleared comes first (lower bits) and finds the same cycle.
            for bits in 0..<(1 << flagIDs.count) where bits & constantBits == 0 {
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
                    let configuration = Configuration(
                        state: runner.state, flagValues: flagIDs.map { runner.flags[$0] ?? false })
                    if let start = seen[configuration] {
                        cycle = Array(taken[start...])
                        break
                    }
                    seen[configuration] = taken.count
                    taken.append(transition.index)
                    runner.takeEventlessTransition()
                }
                guard let cycle, let index = cycle.min(), reported.insert(index).inserted else { continue }
                findings.append(
                    Finding(
                        .eventlessCycle, .loopsForever(from: leaf.id, flags: flags),
                        at: context.location(ofTransition: index)))
            }
        }
        return findings
    }

    /// Too many flags to enumerate: a cycle among eventless transitions with satisfiable guards.
    private static func staticCheck(_ context: RuleContext) -> [Finding] {
        let machine = context.machine
        var successors: [String: [(target: String, index: Int)]] = [:]
        for edge in machine.eventlessSuccessors() {
            for target in edge.to { successors[edge.from, default: []].append((target, edge.transition)) }
        }
        var color: [String: Int] = [:]
        var findings: [Finding] = []
        func visit(_ state: String) {
            color[state] = 1
            for (target, index) in successors[state] ?? [] {
                if color[target] == 1 {
                    findings.append(
                        Finding(.eventlessCycle, .cycle(through: target), at: context.location(ofTransition: index)))
                } else if color[target] == nil {
                    visit(target)
                }
            }
            color[state] = 2
        }
        for leaf in machine.leafStates where color[leaf.id] == nil { visit(leaf.id) }
        return findings
    }
}

extension Finding.Message {
    static func loopsForever(from state: String, flags: [String: Bool]) -> Self {
        let with =
            flags.isEmpty
            ? "" : " with " + flags.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        return Self("eventless transitions can loop forever starting from state '\(state)'\(with)")
    }

    static func cycle(through state: String) -> Self {
        Self("eventless transitions form a cycle through state '\(state)' and may loop forever")
    }
}
