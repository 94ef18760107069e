import LifeSpec
import Testing

@testable import LifecycleEngine

/// Independent parallel regions explored one by one (`StateSpace.Strategy.composed`) must give
/// every answer the product exploration gives: checked on seeded random parallel machines small
/// enough for the product to finish, with history, internal and targetless transitions, raised
/// events, region flags, a shared read-only flag, `in()` guards and final states.
@Suite("Composed state space (independent regions)")
struct ComposedStateSpaceTests {
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    }

    /// A parallel state `p` with 2 or 3 regions; region `r<n>` holds a group `r<n>g` (three leaves
    /// and a history), two more leaves and sometimes a final state. Transitions stay in their region.
    static func spec(seed: UInt64) -> String {
        var random = Random(state: seed)
        let regionCount = 2 + random.below(2)
        var lines = [
            "lifespec: 1", "id: composed\(seed)", "unhandled: \(random.chance(70) ? "ignore" : "error")", "initial: p",
            "states:",
            "  p:", "    parallel: true", "    states:",
        ]
        var transitions: [String] = []
        var events = ["x0", "x1", "x2", "x3"]
        var flags = ["k: {default: false}"]
        for region in 0..<regionCount {
            let r = "r\(region)"
            let leaves = ["\(r)a", "\(r)b", "\(r)c", "\(r)d", "\(r)e"]
            let hasFinal = random.chance(30)
            let history = "\(r)h"
            lines += [
                "      \(r):", "        initial: \(r)g", "        states:",
                "          \(r)g:", "            initial: \(r)a", "            states:",
                "              \(r)a: {}", "              \(r)b: {}", "              \(r)c: {}",
                "              \(history): {history: \(random.chance(50) ? "deep" : "shallow"), default: \(r)b}",
                "          \(r)d: {}", "          \(r)e: {}",
            ]
            if hasFinal { lines.append("          \(r)f: {final: true}") }
            events.append("i\(region): {kind: internal}")
            flags.append("f\(region): {default: false}")
            let sources = leaves + ["\(r)g"]
            let targets = leaves + ["\(r)g", history] + (hasFinal ? ["\(r)f"] : [])
            // A chain on x0 keeps most leaves reachable.
            for (offset, leaf) in leaves.enumerated() where random.chance(70) {
                transitions.append("  - {from: \(leaf), on: x0, to: \(leaves[(offset + 1) % leaves.count])}")
            }
            for _ in 0..<(4 + random.below(6)) {
                var parts = ["from: \(sources[random.below(sources.count)])"]
                let trigger = random.below(10)
                parts.append(trigger < 8 ? "on: x\(random.below(4))" : trigger == 8 ? "on: i\(region)" : "always: true")
                if trigger == 9 { parts.append("guard: f\(region)") }
                switch trigger == 9 ? 4 : random.below(5) {
                case 0: parts.append("guard: f\(region)")
                case 1: parts.append("guard: '!f\(region) || k'")
                case 2: parts.append("guard: in(\(leaves[random.below(3)]))")
                default: break
                }
                if trigger != 9 || random.chance(50) {
                    if random.chance(85) { parts.append("to: \(targets[random.below(targets.count)])") }
                } else {
                    parts.append("to: \(leaves[3])")
                }
                if random.chance(30) { parts.append("set: {f\(region): \(trigger == 9 ? false : random.chance(50))}") }
                if random.chance(20), trigger != 8 { parts.append("raise: [i\(region)]") }
                transitions.append("  - {" + parts.joined(separator: ", ") + "}")
            }
            transitions.append("  - {from: \(r), on: x3, to: \(history), type: internal}")
            if hasFinal { transitions.append("  - {from: \(r), on: done.state.\(r), to: \(r)d, type: internal}") }
        }
        lines.append("events:")
        lines += events.map { "  " + ($0.contains(":") ? $0 : "\($0): {}") }
        lines.append("flags:")
        lines += flags.map { "  " + $0 }
        lines.append("transitions:")
        lines += transitions
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func composedAnswersAreTheProductsOnRandomMachines() throws {
        var compared = 0
        for seed in UInt64(1)...60 {
            let text = Self.spec(seed: seed)
            guard let machine = SpecLoader.load(text: text, path: "composed.yaml").spec?.machine else { continue }
            let product = StateSpace(machine: machine, limit: 50_000, strategy: .product)
            let composed = StateSpace(machine: machine, strategy: .composed)
            // A region that loops or fails sends the composed search back to the product.
            // Built once: `configurations` builds the list on each call.
            let productConfigurations = product.configurations
            guard composed.isComposed, product.isExact, !productConfigurations.isEmpty else { continue }
            compared += 1
            let label = Comment(rawValue: "seed \(seed):\n\(text)")
            #expect(composed.reachableStates == product.reachableStates, label)
            #expect(composed.reachableLeaves == product.reachableLeaves, label)
            #expect(composed.takenTransitions == product.takenTransitions, label)
            #expect(composed.startTransitions == product.startTransitions, label)
            #expect(composed.recordedHistory == product.recordedHistory, label)
            #expect(composed.eventlessLoops.isEmpty && product.eventlessLoops.isEmpty, label)
            // LS122's verdicts and reasons, and what the coverage plan covers.
            #expect(
                CoveragePlan.uncoverableTransitions(in: composed) == CoveragePlan.uncoverableTransitions(in: product),
                label)
            let productPlan = CoveragePlan(space: product)
            let composedPlan = CoveragePlan(space: composed)
            #expect(composedPlan.covered == productPlan.covered, label)
            #expect(composedPlan.uncoverable == productPlan.uncoverable, label)
            #expect(composedPlan.lowerBound == productPlan.lowerBound, label)
            // Every composed path is the engine's own run, and together they take every coverable transition.
            var taken: Set<Int> = []
            for path in composedPlan.paths {
                #expect(productConfigurations.contains(path.start), label)
                var runner = try Runner(machine: machine, configuration: path.start)
                for step in path.steps {
                    let steps = try runner.send(step.event)
                    let transitions = steps.compactMap {
                        if case .transition(let t) = $0 { t.transitionIndex } else { nil }
                    }
                    #expect(transitions == step.transitions, label)
                    #expect(runner.configuration == step.to, label)
                    #expect(productConfigurations.contains(step.to), label)
                    taken.formUnion(transitions)
                }
            }
            #expect(
                taken.isSuperset(of: productPlan.covered),
                "transitions no path takes: \(Set(productPlan.covered).subtracting(taken).sorted()); \(label)")
            // Rejection tests stand in configurations the product reaches, and the history rule
            // (LS124) and region rule (LS123) read only what is compared above.
            let plan = ConformancePlan(space: composed)
            // Its coverage cases read the coverage plan's replays: what replaying anew gives.
            #expect(plan.cases == ConformancePlan(space: composed, reusesReplays: false).cases, label)
            for item in plan.cases where item.kind == .rejection {
                #expect(
                    productConfigurations.contains { ConformanceCase.configurationName($0.states) == item.start },
                    label)
            }
        }
        // Most seeds give a machine both explorations finish on; the comparison must have run.
        #expect(compared >= 30, "only \(compared) of 60 random machines compared")
    }

    /// The shortcuts the planner and the engine take with parallel regions, against what they
    /// stand for, on the same random machines: `hasEnabledTransition` against a whole selection,
    /// conflicts found by domains against exit sets, a runner placed by positions against one
    /// placed by names, the lean region graphs against full ones, and the uncoverable
    /// transitions kept with a composed space against finding them again.
    @Test func shortcutsEqualWhatTheyStandForOnRandomMachines() throws {
        var composedCount = 0
        for seed in UInt64(1)...60 {
            let text = Self.spec(seed: seed)
            guard let machine = SpecLoader.load(text: text, path: "composed.yaml").spec?.machine else { continue }
            let label = Comment(rawValue: "seed \(seed):\n\(text)")
            try checkSelection(in: machine, label)
            let composed = StateSpace(machine: machine, strategy: .composed)
            guard composed.isComposed else { continue }
            composedCount += 1
            #expect(composed.uncoverableInRegions == CoveragePlan.uncoverableTransitions(inRegionsOf: composed), label)
            for region in composed.regionSpaces {
                let full = CoverageGraph(space: region)
                let lean = CoverageGraph(space: region, namesNodes: false, indexes: false)
                #expect(lean.edgeFrom == full.edges.map(\.from), label)
                #expect(lean.edgeTo == full.edges.map(\.to), label)
                #expect(lean.edgeEvent.map { machine.events[$0].id } == full.edges.map(\.event), label)
                #expect(lean.edgeCount == full.edges.count, label)
                for edge in full.edges.indices {
                    #expect(Array(lean.distinctTransitions(of: edge)) == full.edges[edge].distinctTransitions, label)
                    #expect(
                        full.edges[edge].distinctTransitions == withoutRepeats(full.edges[edge].transitions), label)
                }
            }
            // The routes the orderings read off the first steps taking each transition are the
            // ones a scan of the paths finds: for each transition, and for each pair of them.
            let builder = ConformancePlan.Builder(space: composed, reusesReplays: true)
            let firstTaking = builder.firstStepsTaking()
            let transitions = Array(machine.transitions.indices)
            for set in transitions.map({ [$0] }) + zip(transitions, transitions.reversed()).map({ [$0, $1] }) {
                let read = builder.composedRoute(takingAnyOf: set, firstTaking: firstTaking)
                let scanned = builder.composedRoute { step in step.transitions.contains(where: set.contains) }
                #expect(read?.path == scanned?.path && read?.count == scanned?.count, label)
            }
        }
        #expect(composedCount >= 30, "only \(composedCount) of 60 random machines composed")
        // Independent regions never conflict: transitions that leave a region, to the root, to
        // a state beside the parallel state, or that repeat one, do.
        let conflicts = """
            lifespec: 1
            id: conflicts
            unhandled: ignore
            initial: c
            states:
              c:
                initial: p
                states:
                  p:
                    parallel: true
                    states:
                      a: {initial: a1, states: {a1: {}, a2: {}}}
                      b: {initial: b1, states: {b1: {}, b2: {}}}
                  q: {}
              out: {}
            events: {e: {}, g: {}, h: {}, j: {}}
            transitions:
              - {from: a1, on: e, to: out}
              - {from: b1, on: e, to: b2}
              - {from: b1, on: g, to: q}
              - {from: a1, on: g, to: a2}
              - {from: a1, on: h, to: a2}
              - {from: b1, on: h, to: b2}
              - {from: a1, on: j, to: a2}
              - {from: b1, on: j, to: b1}
              - {from: a2, on: j, to: a1}
              - {from: b2, on: j, to: p}

            """
        let machine = try #require(SpecLoader.load(text: conflicts, path: "conflicts.yaml").spec?.machine)
        let (pairs, overlapping) = try checkSelection(in: machine, "conflicts")
        #expect(pairs >= 4 && overlapping >= 2 && overlapping < pairs, "\(overlapping) of \(pairs) pairs overlap")
    }

    /// Checks `hasEnabledTransition`, `exitsOverlap` and placing by positions in every configuration
    /// of `machine`'s product (the first 60); returns how many pairs of distinct candidates were
    /// compared and how many of them overlap.
    @discardableResult
    private func checkSelection(in machine: Machine, _ label: Comment) throws -> (pairs: Int, overlapping: Int) {
        var pairs = 0
        var overlapping = 0
        var knownDomains = 0
        let product = StateSpace(machine: machine, limit: 50_000, strategy: .product)
        for configuration in product.configurations.prefix(60) {
            let runner = try Runner(machine: machine, configuration: configuration)
            let byName = try Runner(
                machine: machine, states: configuration.states, flags: configuration.flags(in: machine))
            #expect(byName.active == runner.active, label)
            for event in -1..<machine.events.count {
                if event >= 0 {
                    #expect(runner.hasEnabledTransition(event: event) == !runner.select(event: event).isEmpty, label)
                }
                // The domains `select` keeps for the microstep are `domain(of:)`'s.
                for enabled in runner.select(event: event) {
                    if let known = enabled.domain {
                        #expect(known == runner.domain(of: enabled), label)
                        knownDomains += 1
                    }
                }
                let candidates = runner.candidates(event: event)
                for (lhsOffset, lhs) in candidates.enumerated() {
                    for (rhsOffset, rhs) in candidates.enumerated() where lhsOffset != rhsOffset {
                        let lhsExits = runner.exitSet(lhs)
                        let rhsExits = runner.exitSet(rhs)
                        let meet = !lhsExits.isEmpty && rhsExits.contains(where: lhsExits.contains)
                        #expect(runner.exitsOverlap(runner.domain(of: lhs), runner.domain(of: rhs)) == meet, label)
                        pairs += 1
                        if meet { overlapping += 1 }
                    }
                }
            }
        }
        #expect(machine.id != "conflicts" || knownDomains >= 4, "\(knownDomains) domains kept")
        return (pairs, overlapping)
    }

    /// `transitions` without repeats, first occurrences in order.
    private func withoutRepeats(_ transitions: [Int]) -> [Int] {
        var seen: Set<Int> = []
        return transitions.filter { seen.insert($0).inserted }
    }

    /// Seed 40 above, reduced: a region whose eventless start transition clears the flag that
    /// enabled it. Its settled start holds `f: false`; settling the whole machine from those flags
    /// again stayed in `a1`, so the path into `a2` went nowhere and `a2 → a3` was claimed covered
    /// by a suite that never took it.
    @Test func aRegionStartedByAnEventlessTransitionThatClearsItsFlagIsReplayedFromItsFlags() throws {
        let text = """
            lifespec: 1
            id: cleared
            unhandled: ignore
            initial: p
            states:
              p:
                parallel: true
                states:
                  a: {initial: a1, states: {a1: {}, a2: {}, a3: {}}}
                  b: {initial: b1, states: {b1: {}, b2: {}}}
            events: {go: {}}
            flags: {f: {default: false}}
            transitions:
              - {from: a1, always: true, guard: f, to: a2, set: {f: false}}
              - {from: a2, on: go, to: a3}
              - {from: b1, on: go, to: b2}

            """
        let machine = try #require(SpecLoader.load(text: text, path: "cleared.yaml").spec?.machine)
        let composed = StateSpace(machine: machine, strategy: .composed)
        #expect(composed.isComposed)
        let plan = CoveragePlan(space: composed)
        #expect(plan.covered == CoveragePlan(space: StateSpace(machine: machine, strategy: .product)).covered)
        #expect(plan.covered == [1, 2])
        var taken: Set<Int> = []
        for path in plan.paths {
            var runner = try Runner(machine: machine, configuration: path.start)
            for step in path.steps {
                let steps = try runner.send(step.event)
                taken.formUnion(steps.compactMap { if case .transition(let t) = $0 { t.transitionIndex } else { nil } })
            }
        }
        #expect(taken.isSuperset(of: plan.covered))
        // The path into `a2` starts where the whole machine settles from `f: true`.
        #expect(plan.paths.contains { $0.start.states == ["a2", "b1"] && $0.start.flagValues == [false] })
    }

    /// `go` moves both regions: replaying region `a`'s path takes `b`'s two `go` transitions too,
    /// so `b`'s walk goes straight for `z` instead of around its `go` loop first (3 steps, 2 of
    /// them taking nothing new, when each region was walked for all its transitions).
    @Test func laterRegionsWalkOnlyToWhatEarlierPathsLeft() throws {
        let text = """
            lifespec: 1
            id: shared
            unhandled: ignore
            initial: p
            states:
              p:
                parallel: true
                states:
                  a: {initial: a1, states: {a1: {}, a2: {}}}
                  b: {initial: b1, states: {b1: {}, b2: {}, b3: {}}}
            events: {go: {}, z: {}}
            transitions:
              - {from: a1, on: go, to: a2}
              - {from: a2, on: go, to: a1}
              - {from: b1, on: go, to: b2}
              - {from: b2, on: go, to: b1}
              - {from: b1, on: z, to: b3}

            """
        let machine = try #require(SpecLoader.load(text: text, path: "shared.yaml").spec?.machine)
        let composed = StateSpace(machine: machine, strategy: .composed)
        #expect(composed.isComposed)
        let plan = CoveragePlan(space: composed)
        #expect(plan.covered == [0, 1, 2, 3, 4])
        #expect(plan.paths.map { $0.steps.map(\.event) } == [["go", "go"], ["z"]])
        #expect(plan.paths.map(\.newlyCovered) == [[0, 1, 2, 3], [4]])
    }

    @Test func theSyntheticRegionsFamilyIsComposedAndTheFlatOneIsNot() throws {
        let regions = try #require(
            SpecLoader.load(text: SyntheticSpec(states: 200, seed: 7, scenarios: 2, regions: 4).yaml(), path: "s.yaml")
                .spec)
        let space = try #require(regions.stateSpace)
        #expect(space.isComposed)
        #expect(space.regionSpaces.count == 4)
        // Every state is reachable and every history is recorded, so validate is silent.
        #expect(space.reachableLeaves.count == 200)
        #expect(space.recordedHistory == ["r0last", "r1last", "r2last", "r3last"])
        let plan = ConformancePlan(space: space)
        #expect(
            plan.coverage.isComplete
                || plan.coverage.uncoverable.allSatisfy {
                    if case .explorationIncomplete = $0.reason { false } else { true }
                })
        #expect(plan.coverage.covered.count == regions.machine.transitions.count - plan.coverage.uncoverable.count)
        #expect(plan.cases.contains { $0.kind == .rejection })
        let flat = try #require(
            SpecLoader.load(text: SyntheticSpec(states: 200, seed: 7, scenarios: 2).yaml(), path: "f.yaml").spec)
        #expect(flat.stateSpace?.isComposed == false)
    }

    @Test func sharedFlagsOrCrossingTransitionsKeepTheProduct() throws {
        let base = """
            lifespec: 1
            id: coupled
            unhandled: ignore
            initial: p
            states:
              p:
                parallel: true
                states:
                  a: {initial: a1, states: {a1: {}, a2: {}}}
                  b: {initial: b1, states: {b1: {}, b2: {}}}
            events: {go: {}, back: {}}
            flags: {f: {default: false}}
            transitions:
              - {from: a1, on: go, to: a2}
              - {from: a2, on: back, to: a1}
              - {from: b2, on: back, to: b1}

            """
        func space(_ extra: String) throws -> StateSpace {
            let machine = try #require(SpecLoader.load(text: base + extra, path: "c.yaml").spec?.machine)
            return StateSpace(machine: machine, strategy: .composed)
        }
        #expect(try space("  - {from: b1, on: go, to: b2}\n").isComposed)
        // A flag one region sets and another reads.
        #expect(
            try !space("  - {from: b1, on: go, guard: f, to: b2}\n  - {from: a2, on: go, set: {f: true}}\n").isComposed)
        // in() of the other region.
        #expect(try !space("  - {from: b1, on: go, guard: in(a2), to: b2}\n").isComposed)
        // An event one region raises and another takes.
        #expect(try !space("  - {from: b1, on: back, to: b2}\n  - {from: a2, on: go, raise: [back]}\n").isComposed)
        // A transition that leaves its region (and so the parallel state).
        #expect(try !space("  - {from: b1, on: go, to: a2}\n").isComposed)
    }
}
