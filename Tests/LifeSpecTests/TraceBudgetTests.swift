import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifecycleEngine

/// check-trace's configuration budget (#37 break 3) against what our own specs need: every
/// scenario's own log, seeded walks (the explorer's logs) and every one-line log of every spec in
/// Spec/, judged on each set of kinds and receivers check-trace may judge a log on.
@Suite("check-trace: the configurations the specs in Spec/ need")
struct TraceBudgetTests {
    /// The observed sets a log may be judged on: all, callbacks alone, notifications alone (what
    /// `--observe` declares), and every set of receivers' callbacks and notifications that
    /// check-trace judges a log on without it.
    static func observedSets(_ spec: LoadedSpec) -> [Set<Observation>] {
        let machine = spec.machine
        let callbacks = Set(machine.callbacks.map { Observation.callback($0.id) })
        let notifications = Set(machine.notifications.map { Observation.notification($0.id) })
        var sets = [callbacks.union(notifications), callbacks, notifications]
        let groups = TraceCheck.observationGroups(machine: machine, document: spec.document)
        for bits in 1..<(1 << Set(groups.values).count) {
            let set = Set(groups.filter { bits & (1 << $0.value) != 0 }.keys)
            if !sets.contains(set) { sets.append(set) }
        }
        return sets.filter { !$0.isEmpty }
    }

    struct Need {
        var most = 0
        var place = ""
        mutating func note(_ count: Int, _ at: @autoclosure () -> String) {
            if count > most { (most, place) = (count, at()) }
        }
    }

    /// Feeds `log` (its observations in `observed`) to a copy of `base`, a checker that has fed
    /// nothing yet (copies share what it found from the start), and returns the configurations
    /// told apart and whether the log conformed.
    static func judge(_ base: TraceChecker, log: [Observation], observed: Set<Observation>) -> (
        configurations: Int, conforms: Bool
    ) {
        var checker = base
        for observation in log where observed.contains(observation) {
            if checker.feed(observation) != nil { return (checker.configurationCount, false) }
        }
        return (checker.configurationCount, true)
    }

    static func specs() throws -> [LoadedSpec] {
        let folder = SpecFixtures.url("Spec")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".yaml") }.map { try SpecFixtures.load("Spec/\($0)") }
    }

    @Test("every scenario's own log and seeded walks conform, within a tenth of the budget")
    func scenarioLogsConformWellWithinTheBudget() throws {
        var need = Need()
        for spec in try Self.specs() {
            let machine = spec.machine
            var logs: [(name: String, from: String?, flags: [String: Bool], log: [Observation])] = []
            for scenario in spec.document.scenarios {
                // A scenario that shows a refusal has no log of its own to judge.
                guard let begun = try? Runner.begin(machine: machine, from: scenario.from, flags: scenario.flags)
                else { continue }
                var runner = begun.runner
                guard let steps = try? runner.send(scenario.events) else { continue }
                let trace = begun.steps + steps
                logs.append((scenario.id, scenario.from, scenario.flags, trace.compactMap(\.observation)))
            }
            // Seeded walks from the start, as the explorer's log check makes them.
            for seed in 1...4 {
                var (runner, trace) = try Runner.start(machine: machine)
                var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
                for _ in 0..<40 {
                    let accepted = runner.acceptedEvents
                    guard !accepted.isEmpty else { break }
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    guard let steps = try? runner.send(accepted[Int((state >> 33) % UInt64(accepted.count))]) else {
                        continue
                    }
                    trace += steps
                }
                logs.append(("walk \(seed)", nil, [:], trace.compactMap(\.observation)))
            }
            for observed in Self.observedSets(spec) {
                // One checker per start, copied for each log.
                var bases: [String: TraceChecker] = [:]
                for (name, from, flags, log) in logs {
                    let key = "\(from ?? "-") \(flags.sorted { $0.key < $1.key })"
                    let base: TraceChecker
                    if let known = bases[key] {
                        base = known
                    } else {
                        base = try TraceChecker(machine: machine, from: from, fixedFlags: flags, observing: observed)
                        bases[key] = base
                    }
                    let result = Self.judge(base, log: log, observed: observed)
                    #expect(result.conforms, "\(spec.document.id) \(name) on \(observed.count) names")
                    need.note(result.configurations, "\(spec.document.id) \(name) on \(observed.count) names")
                }
            }
        }
        print("most configurations, scenario logs and walks: \(need.most) (\(need.place))")
        #expect(need.most * 10 <= TraceChecker.configurationBudget, "\(need.place)")
    }

    @Test("every one-line log of every spec is judged within a tenth of the budget")
    func oneLineLogsStayWellWithinTheBudget() throws {
        var need = Need()
        for spec in try Self.specs() {
            let machine = spec.machine
            for observed in Self.observedSets(spec) {
                let base = try TraceChecker(machine: machine, observing: observed)
                for observation in observed.sorted(by: { $0.description < $1.description }) {
                    let result = Self.judge(base, log: [observation], observed: observed)
                    need.note(result.configurations, "\(spec.document.id) \(observation) on \(observed.count) names")
                }
            }
        }
        print("most configurations, one-line logs: \(need.most) (\(need.place))")
        #expect(need.most * 10 <= TraceChecker.configurationBudget, "\(need.place)")
    }
}
