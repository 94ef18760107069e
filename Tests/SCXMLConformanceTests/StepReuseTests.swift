import Foundation
import LifeSpec
import Testing

@testable import LifecycleEngine

/// The exploration gives a step that reads no history to every configuration that differs only in
/// what history remembers (`StateSpace.explore`). It must find exactly what running the engine
/// for every event from every configuration finds: the same configurations in the same order, the
/// same edges with the same transitions, the same starts and loops.
@Suite struct StepReuseTests {
    private func expectSameExploration(_ machine: Machine, _ label: Comment) {
        for strategy in [StateSpace.Strategy.product, .composed] {
            let reused = StateSpace(machine: machine, limit: 20_000, strategy: strategy, reusesSteps: true)
            let everyStep = StateSpace(machine: machine, limit: 20_000, strategy: strategy, reusesSteps: false)
            #expect(reused.isExact == everyStep.isExact, label)
            #expect(reused.isComposed == everyStep.isComposed, label)
            for (one, other) in [(reused, everyStep)] + zip(reused.regionSpaces, everyStep.regionSpaces).map({ $0 }) {
                #expect(one.configurations == other.configurations, label)
                #expect(one.starts == other.starts, label)
                #expect(one.edges == other.edges, label)
                #expect(one.eventlessLoops == other.eventlessLoops, label)
                #expect(one.reachableStates == other.reachableStates, label)
                #expect(one.recordedHistory == other.recordedHistory, label)
            }
        }
    }

    /// The seeded random charts (`RandomChart`) that load, with their machines.
    private func randomMachines(_ seeds: ClosedRange<UInt64>) -> [(seed: UInt64, machine: Machine)] {
        seeds.compactMap { seed in
            let chart = RandomChart(seed: seed)
            guard
                let document = SCXMLReader.read(data: Data(chart.scxml.utf8), path: "chart\(seed).scxml").document,
                let machine = try? document.machine(extraEvents: chart.alphabet)
            else { return nil }
            return (seed, machine)
        }
    }

    /// Traces that ignore where a transition leads (`RunTrace.readsEnds` false) spare the
    /// microstep finding it: they must record what the whole trace records.
    @Test func tracesThatIgnoreEndsTakeTheWholeTracesTransitions() throws {
        var compared = 0
        for (_, machine) in randomMachines(1...30) {
            let space = StateSpace(machine: machine, limit: 2_000, strategy: .product)
            for configuration in space.configurations.prefix(20) {
                for event in machine.events.indices {
                    var whole = try Runner(machine: machine, configuration: configuration)
                    var observing = whole
                    var taking = whole
                    var steps = StepTrace()
                    var observed = ObservingTrace()
                    var taken = TransitionTrace()
                    let wholeFailed = (try? whole.process(event: event, into: &steps)) == nil
                    let observingFailed = (try? observing.process(event: event, into: &observed)) == nil
                    let takingFailed = (try? taking.process(event: event, into: &taken)) == nil
                    #expect(wholeFailed == observingFailed && wholeFailed == takingFailed)
                    guard !wholeFailed else { continue }
                    let transitions = steps.steps.compactMap { step -> Int? in
                        if case .transition(let transition) = step { return transition.transitionIndex }
                        return nil
                    }
                    #expect(observed.transitions == transitions && taken.transitions == transitions)
                    #expect(whole.standsWhere(observing) && whole.standsWhere(taking))
                    compared += 1
                }
            }
        }
        #expect(compared > 300)
    }

    @Test func randomChartsExploreAlikeWithAndWithoutReuse() throws {
        var withHistory = 0
        for seed in UInt64(1)...60 {
            let chart = RandomChart(seed: seed)
            let text = chart.scxml
            guard let document = SCXMLReader.read(data: Data(text.utf8), path: "chart\(seed).scxml").document else {
                continue
            }
            let machine = try document.machine(extraEvents: chart.alphabet)
            if machine.tables.kind.contains(where: \.isHistory) { withHistory += 1 }
            expectSameExploration(machine, Comment(rawValue: "seed \(seed):\n\(text)"))
        }
        // The generator makes history states often enough for the comparison to mean something.
        #expect(withHistory >= 15)
    }

    /// A conformance plan of a composed space reads each coverage path's observations off the
    /// coverage plan's own replay (`ConformancePlan.Builder.addCoverage`): every case must be what
    /// replaying the paths anew gives.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func coverageCasesOfRegionsAreTheReplaysOwn(seed: UInt64) throws {
        let text = SyntheticSpec(states: 120, seed: seed, scenarios: 2, regions: 3).yaml()
        let machine = try #require(SpecLoader.load(text: text, path: "synthetic.yaml").spec?.machine)
        let space = StateSpace(machine: machine, strategy: .composed)
        #expect(space.isComposed)
        let reused = ConformancePlan(space: space, reusesReplays: true)
        let replayed = ConformancePlan(space: space, reusesReplays: false)
        let coverage = reused.cases.filter { $0.kind == .coverage }
        #expect(coverage.count > 1)
        // Observations to compare: the synthetic transitions call back.
        #expect(
            coverage.contains { item in
                item.steps.contains {
                    if case .handled(let observations?, _) = $0.expectation { !observations.isEmpty } else { false }
                }
            })
        #expect(reused.cases == replayed.cases)
        #expect(reused.notes == replayed.notes)
    }

    /// A step into a history state is shared by the configurations its exits leave alike
    /// (`Runner.statesStayingThroughExits`), but not when those exits set a flag, raise an event
    /// or record history: then what was left decides where the step ends. Here `resume` from `b`
    /// sets `marked` on the way out, from `c` raises `poke`, and from `a` neither, while `work`'s
    /// history stays what it was when `work` was last left.
    @Test func historyStepsWhoseExitsActAreNotShared() throws {
        let text = """
            lifespec: 1
            id: exits-that-act
            flags: {marked: {}}
            initial: work
            states:
              work:
                initial: a
                states:
                  a: {}
                  b: {exit: [{set: {marked: true}}]}
                  c: {exit: [{raise: poke}]}
                  again: {history: shallow, default: a}
              elsewhere: {}
            events: {resume: {}, next: {}, poke: {}, leave: {}, unmark: {}}
            transitions:
              - {from: a, on: next, to: b}
              - {from: b, on: next, to: c}
              - {from: c, on: next, to: a}
              - {from: work, on: resume, to: again, type: internal}
              - {from: work, on: poke, to: elsewhere}
              - {from: work, on: leave, to: elsewhere}
              - {from: work, on: unmark, set: {marked: false}}
              - {from: elsewhere, on: resume, to: again}
            """
        let loaded = SpecLoader.load(text: text, path: "exits-that-act.yaml")
        let machine = try #require(loaded.spec?.machine, "\(loaded.diagnostics)")
        #expect(StateSpace.historyReadingEvents(machine) != nil, "the exploration shares steps here")
        expectSameExploration(machine, "exits that set a flag or raise an event")
        // What sharing would have merged: `resume` from `a` and from `b` with the same history.
        let space = StateSpace(machine: machine, strategy: .product)
        let resumes = space.edges.filter { $0.event == "resume" }
        #expect(
            resumes.contains { $0.from.states == ["b"] && $0.from.flagValues == [false] && $0.to.flagValues == [true] })
        #expect(resumes.contains { $0.from.states == ["c"] && $0.to.states == ["elsewhere"] })
    }

    /// The exploration finds where a history-reading step's exits leave the machine once per active
    /// states, flags and event, for the events whose transitions' domains ignore history
    /// (`StateSpace.historyIgnoringDomains`). For those, every history some configuration records
    /// must give the same transitions and the same states staying; and a transition into its own
    /// ancestor's history from below must not count (its domain is nearer when history remembers
    /// states on its side).
    @Test func domainsSaidToIgnoreHistoryDoSo() throws {
        var compared = 0
        for (seed, machine) in randomMachines(1...60) {
            let ignoring = StateSpace.historyIgnoringDomains(machine)
            let space = StateSpace(machine: machine, limit: 2_000, strategy: .product)
            let histories = Array(Set(space.configurations.map(\.history))).sorted { "\($0)" < "\($1)" }.prefix(8)
            for configuration in space.configurations.prefix(40) {
                for event in machine.events.indices where ignoring[event] {
                    var seen: (transitions: [Int], staying: [Int]?)?
                    for history in histories {
                        let placed = Configuration(
                            states: configuration.states, flagValues: configuration.flagValues, history: history)
                        guard let runner = try? Runner(machine: machine, configuration: placed) else { continue }
                        let enabled = runner.select(event: event)
                        let found = (enabled.map(\.transition), runner.statesStayingThroughExits(of: enabled))
                        if let seen {
                            #expect(seen.transitions == found.0 && seen.staying == found.1, "seed \(seed)")
                            compared += 1
                        }
                        seen = found
                    }
                }
            }
        }
        #expect(compared > 500)
        let loaded = SpecLoader.load(
            text: """
                lifespec: 1
                id: inner-history
                initial: work
                states:
                  work:
                    initial: a
                    states:
                      a: {}
                      inner:
                        initial: x
                        states: {x: {}, y: {}}
                      again: {history: deep, default: a}
                events: {back: {}, next: {}}
                transitions:
                  - {from: a, on: next, to: x}
                  - {from: x, on: next, to: y}
                  - {from: y, on: next, to: a}
                  - {from: inner, on: back, to: again}
                """, path: "inner-history.yaml")
        let machine = try #require(loaded.spec?.machine, "\(loaded.diagnostics)")
        let ignoring = StateSpace.historyIgnoringDomains(machine)
        #expect(ignoring[try #require(machine.eventIndex(of: "back"))] == false)
        #expect(ignoring[try #require(machine.eventIndex(of: "next"))] == true)
    }

    @Test(arguments: [1, 2] as [UInt64])
    func syntheticRegionsWithDeepHistoryExploreAlike(seed: UInt64) throws {
        let text = SyntheticSpec(states: 90, seed: seed, scenarios: 2, regions: 3).yaml()
        let machine = try #require(SpecLoader.load(text: text, path: "synthetic.yaml").spec?.machine)
        #expect(machine.tables.kind.contains(.deepHistory), "the regions have deep history")
        #expect(StateSpace.historyReadingEvents(machine) != nil, "the synthetic family reuses steps")
        expectSameExploration(machine, Comment(rawValue: "seed \(seed)"))
    }
}
