import LifeSpec
import Testing

@testable import LifecycleEngine

/// Transition-pair (1-switch) coverage: the feasible pairs the engine's graph finds are those a brute
/// force over the runner finds, and the suite's coverage cases take every one of them.
@Suite("Transition-pair coverage")
struct PairCoverageTests {
    /// Pairs found by running the engine: every configuration reached from a start (the initial
    /// state under every flag assignment) by sending events, every event sent from each; a pair is
    /// what some event takes into a configuration, then what some event takes out of it. Nothing of
    /// `StateSpace` or `CoverageGraph` is used. Nil when the machine has more configurations than
    /// `limit`.
    static func bruteForcePairs(_ machine: Machine, limit: Int = 3_000) -> Set<TransitionPair>? {
        let events = machine.events.filter { $0.kind != .internal }.map(\.id)
        var runners: [Runner] = []
        var position: [Configuration: Int] = [:]
        func place(_ runner: Runner) -> Int {
            if let known = position[runner.configuration] { return known }
            position[runner.configuration] = runners.count
            runners.append(runner)
            return runners.count - 1
        }
        for bits in 0..<(1 << machine.flags.count) {
            var flags: [String: Bool] = [:]
            for (offset, flag) in machine.flags.enumerated() { flags[flag.id] = bits & (1 << offset) != 0 }
            guard let start = try? Runner.start(machine: machine, flags: flags).runner else { continue }
            _ = place(start)
        }
        var into: [Int: Set<TakenTransition>] = [:]
        var outOf: [Int: Set<TakenTransition>] = [:]
        var cursor = 0
        while cursor < runners.count {
            guard runners.count <= limit else { return nil }
            let from = cursor
            cursor += 1
            for event in events {
                var runner = runners[from]
                guard let steps = try? runner.send(event) else { continue }
                let taken = Self.taken(steps, in: machine)
                guard !taken.isEmpty else { continue }
                let to = place(runner)
                outOf[from, default: []].formUnion(taken)
                into[to, default: []].formUnion(taken)
            }
        }
        var pairs: Set<TransitionPair> = []
        for (node, before) in into {
            for first in before {
                for second in outOf[node] ?? [] { pairs.insert(TransitionPair(first, second)) }
            }
        }
        return pairs
    }

    /// The transitions a step took, each with the source it was taken from: the first of its
    /// `from:` list met on the way up from the state the engine found it from.
    static func taken(_ steps: [Step], in machine: Machine) -> Set<TakenTransition> {
        var result: Set<TakenTransition> = []
        for case .transition(let step) in steps {
            let sources = machine.transitions[step.transitionIndex].sources
            var state: String? = step.from
            var source = 0
            while let current = state {
                if let found = sources.firstIndex(of: current) {
                    source = found
                    break
                }
                state = machine.state(current)?.parent
            }
            result.insert(TakenTransition(transition: step.transitionIndex, source: source))
        }
        return result
    }

    /// A pair counted as transitions are: once per target of each of its two transitions.
    static func weight(_ pairs: Set<TransitionPair>, in machine: Machine) -> Int {
        pairs.reduce(0) { total, pair in
            total + max(1, machine.transitions[pair.first.transition].targets.count)
                * max(1, machine.transitions[pair.second.transition].targets.count)
        }
    }

    /// The pairs the plan's coverage cases take, replayed through a fresh runner from each case's start.
    static func pairsTaken(by plan: ConformancePlan, on machine: Machine) throws -> Set<TransitionPair> {
        var pairs: Set<TransitionPair> = []
        for item in plan.cases where item.kind == .coverage {
            var runner = try Runner(
                machine: machine, states: ConformanceCase.configurationStates(item.start, in: machine),
                flags: item.flags)
            var previous: Set<TakenTransition> = []
            for step in item.steps {
                let taken = Self.taken(try runner.send(step.event), in: machine)
                for first in previous {
                    for second in taken { pairs.insert(TransitionPair(first, second)) }
                }
                previous = taken
            }
        }
        return pairs
    }

    /// Flat states, a compound one and a parallel one: `from:` lists of one to three states, guards
    /// and `set` on a flag, targetless transitions, targets in both regions at once, and eventless
    /// transitions that clear the flag they need.
    static func spec(seed: UInt64) -> String {
        var random = ComposedStateSpaceTests.Random(state: seed)
        let sources = ["idle", "busy", "w1", "w2", "x0", "y0", "x1", "y1", "p"]
        let targets = ["idle", "busy", "w1", "w2", "p", "x0", "y0", "x1", "y1"]
        var lines = [
            "lifespec: 1", "id: pairs\(seed)", "unhandled: ignore", "initial: idle", "states:",
            "  idle: {}", "  busy:", "    initial: w1", "    states:", "      w1: {}", "      w2: {}",
            "  p:", "    parallel: true", "    states:",
            "      r0:", "        initial: x0", "        states: {x0: {}, y0: {}}",
            "      r1:", "        initial: x1", "        states: {x1: {}, y1: {}}",
            "events:", "  e0: {}", "  e1: {}", "  e2: {}", "  e3: {}",
            "flags:", "  f: {default: false}",
            "transitions:",
            "  - {from: idle, on: e0, to: busy}",
        ]
        for _ in 0..<(5 + random.below(8)) {
            var from: [String] = []
            for _ in 0..<(1 + random.below(3)) {
                let state = sources[random.below(sources.count)]
                if !from.contains(state) { from.append(state) }
            }
            var parts = ["from: " + (from.count == 1 ? from[0] : "[\(from.joined(separator: ", "))]")]
            if random.chance(10) {
                parts += ["always: true", "guard: f", "set: {f: false}"]
            } else {
                parts.append("on: e\(random.below(4))")
                if random.chance(25) {
                    parts.append("guard: f")
                } else if random.chance(15) {
                    parts.append("guard: '!f'")
                }
                if random.chance(25) { parts.append("set: {f: \(random.chance(50))}") }
            }
            let roll = random.below(100)
            if roll < 20 {
                parts.append("to: [\(random.chance(50) ? "x0" : "y0"), \(random.chance(50) ? "x1" : "y1")]")
            } else if roll < 85 {
                parts.append("to: \(targets[random.below(targets.count)])")
            }
            lines.append("  - {" + parts.joined(separator: ", ") + "}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Checks the engine's pairs, the plan's figures and its cases against the brute force: nil when
    /// the machine was too large to compare, else whether the cases were held to taking every
    /// feasible pair.
    static func check(_ machine: Machine, label: Comment) throws -> Bool? {
        guard let expected = bruteForcePairs(machine) else { return nil }
        let space = StateSpace(machine: machine, strategy: .product)
        guard space.isExact, let pairing = PairCoverage(space: space) else { return nil }
        #expect(Set(pairing.feasiblePairs) == expected, label)
        #expect(pairing.feasibleCount == weight(expected, in: machine), label)
        let plan = ConformancePlan(space: StateSpace(machine: machine), criterion: .pairs)
        #expect(plan.pairs?.feasible == weight(expected, in: machine), label)
        let taken = try pairsTaken(by: plan, on: machine)
        // The claim is what the cases take, never more.
        #expect(plan.pairs?.covered == weight(taken.intersection(expected), in: machine), label)
        // A case resets its system to a start's states and flags alone: where settling a start
        // recorded history, a case cannot start where the machine does (nor take only what it can).
        guard space.starts.allSatisfy({ $0.history.isEmpty }) else { return false }
        #expect(plan.pairs?.covered == plan.pairs?.feasible, label)
        #expect(expected.subtracting(taken).isEmpty, "missed \(expected.subtracting(taken).sorted())\n\(label)")
        #expect(taken.isSubset(of: expected), "\(taken.subtracting(expected).sorted())\n\(label)")
        return true
    }

    @Test func feasiblePairsAreTheBruteForcesAndTheCasesTakeEveryOne() throws {
        var compared = 0
        var withSourceLists = 0
        var withSeveralTargets = 0
        for seed in UInt64(1)...40 {
            let text = Self.spec(seed: seed)
            guard let machine = SpecLoader.load(text: text, path: "pairs.yaml").spec?.machine else { continue }
            guard try Self.check(machine, label: Comment(rawValue: "seed \(seed):\n\(text)")) == true else { continue }
            compared += 1
            if machine.transitions.contains(where: { $0.sources.count > 1 }) { withSourceLists += 1 }
            if machine.transitions.contains(where: { $0.targets.count > 1 }) { withSeveralTargets += 1 }
        }
        #expect(compared >= 20)
        #expect(withSourceLists >= 10)
        #expect(withSeveralTargets >= 5)
    }

    /// The composed fixtures' machines (history, raised internal events, `in()` guards, final
    /// states), which the suite explores region by region: pairs across regions need the product.
    @Test func regionsExploredOneByOneArePairedOverTheProduct() throws {
        var compared = 0
        var complete = 0
        for seed in UInt64(1)...10 {
            let text = ComposedStateSpaceTests.spec(seed: seed)
            guard let machine = SpecLoader.load(text: text, path: "composed.yaml").spec?.machine,
                let checked = try Self.check(machine, label: Comment(rawValue: "seed \(seed):\n\(text)"))
            else { continue }
            compared += 1
            if checked { complete += 1 }
        }
        #expect(compared >= 6)
        #expect(complete >= 4)
    }

    static let cycle = """
        lifespec: 1
        id: cycle
        initial: a
        states: {a: {}, b: {}, c: {}}
        events: {x: {}, y: {}, z: {}}
        transitions:
          - {from: a, on: x, to: b}
          - {from: b, on: y, to: c}
          - {from: c, on: z, to: a}

        """

    /// Of the nine pairs of three transitions in a cycle, only the three that follow each other can
    /// be taken; the others are not counted.
    @Test func infeasiblePairsAreNotCounted() throws {
        let machine = try #require(SpecLoader.load(text: Self.cycle, path: "cycle.yaml").spec?.machine)
        let pairing = try #require(PairCoverage(space: StateSpace(machine: machine)))
        let t = { TakenTransition(transition: $0, source: 0) }
        #expect(
            pairing.feasiblePairs == [
                TransitionPair(t(0), t(1)), TransitionPair(t(1), t(2)), TransitionPair(t(2), t(0)),
            ])
        let plan = ConformancePlan(machine: machine)
        #expect(plan.pairs == nil)
        let pairs = ConformancePlan(space: StateSpace(machine: machine), criterion: .pairs)
        #expect(pairs.pairs?.feasible == 3)
        #expect(pairs.pairs?.covered == 3)
        // The transition path x, y, z takes two pairs; one pair path takes (z, x).
        #expect(pairs.pairs?.pathCount == 1)
        #expect(pairs.cases.filter { $0.kind == .coverage }.map(\.id) == ["coverage:1", "coverage:pairs-1"])
    }

    static let sourcesAndTargets = """
        lifespec: 1
        id: sources-and-targets
        initial: a
        states:
          a: {}
          b: {}
          p:
            parallel: true
            states:
              r0: {initial: x0, states: {x0: {}, y0: {}}}
              r1: {initial: x1, states: {x1: {}, y1: {}}}
        events: {go: {}, next: {}, back: {}}
        transitions:
          - {from: [a, b], on: go, to: [y0, y1]}
          - {from: a, on: next, to: b}
          - {from: p, on: back, to: a}
          - {from: b, on: next, to: p}

        """

    /// `from: [a, b]` is a transition from each source, and `to: [y0, y1]` one per target: pairs
    /// are of transitions per source, counted per target of each.
    @Test func aSourceListAndSeveralTargetsCountPerSourceAndTarget() throws {
        let machine = try #require(SpecLoader.load(text: Self.sourcesAndTargets, path: "s.yaml").spec?.machine)
        let pairing = try #require(PairCoverage(space: StateSpace(machine: machine)))
        let goFromA = TakenTransition(transition: 0, source: 0)
        let goFromB = TakenTransition(transition: 0, source: 1)
        let next = TakenTransition(transition: 1, source: 0)
        let back = TakenTransition(transition: 2, source: 0)
        let enter = TakenTransition(transition: 3, source: 0)
        #expect(
            pairing.feasiblePairs == [
                TransitionPair(goFromA, back), TransitionPair(goFromB, back), TransitionPair(next, goFromB),
                TransitionPair(next, enter), TransitionPair(back, goFromA), TransitionPair(back, next),
                TransitionPair(enter, back),
            ])
        // The four pairs with go count twice each (go enters two targets), the other three once.
        #expect(pairing.feasibleCount == 11)
        let plan = ConformancePlan(space: StateSpace(machine: machine), criterion: .pairs)
        // go counts 2 sources × 2 targets.
        #expect(plan.coverage.transitionCount == 7)
        #expect(plan.pairs?.feasible == 11)
        #expect(plan.pairs?.covered == 11)
        #expect(Self.bruteForcePairs(machine) == Set(pairing.feasiblePairs))
    }
}
