import Foundation
import LifeSpec
import LifecycleEngine
import Testing

/// The engine against the shared SCXML conformance charts: every SCION chart's script and every
/// W3C IRP test, read by `SCXMLReader` and run by `Runner` as SCXML runs them.
@Suite struct SCXMLConformanceTests {
    @Test func chartsArePresentOrSkipped() throws {
        guard ConformanceCharts.folder != nil else {
            print(ConformanceCharts.skipMessage)
            return
        }
        // The shared folder's README promises 86 SCION charts and 9 W3C tests; fewer means a broken copy.
        #expect(ConformanceCharts.scion.count == 86)
        #expect(ConformanceCharts.w3c.count == 9)
        var agreeing = 0
        var failing: [String] = []
        for chart in ConformanceCharts.scion {
            if case .some(.none) = Result(catching: { try ConformanceCharts.runSCION(chart) }).success {
                agreeing += 1
            } else {
                failing.append(chart)
            }
        }
        var passing = 0
        for chart in ConformanceCharts.w3c {
            if case .some(.none) = Result(catching: { try W3C.run(chart) }).success { passing += 1 }
        }
        print(
            "SCXML conformance: \(agreeing)/\(ConformanceCharts.scion.count) SCION charts agree, \(passing)/\(ConformanceCharts.w3c.count) W3C tests pass"
                + (failing.isEmpty ? "" : " (differ: \(failing.joined(separator: ", ")))"))
    }

    @Test(arguments: ConformanceCharts.scion)
    func scionChart(_ chart: String) throws {
        let mismatch = try ConformanceCharts.runSCION(chart)
        #expect(mismatch == nil, "\(chart): \(mismatch ?? "")")
    }

    @Test(arguments: ConformanceCharts.w3c)
    func w3cTest(_ chart: String) throws {
        let failure = try W3C.run(chart)
        #expect(failure == nil, "\(chart): \(failure ?? "")")
    }

    enum W3C {
        /// nil when the test passes: the machine ends in `pass` (test 415: halts in its top-level
        /// final state at once, without taking the event its entry raised, and takes no later event).
        static func run(_ chart: String) throws -> String? {
            let machine = try ConformanceCharts.machine(chart)
            var (runner, _) = try Runner.start(machine: machine)
            if chart.hasSuffix("test415.scxml") {
                guard !runner.isRunning, runner.states == ["final"] else {
                    return "expected to halt in 'final'; running: \(runner.isRunning), states \(runner.states)"
                }
                let steps = try runner.send("event1")
                return steps.isEmpty && runner.states == ["final"] ? nil : "a halted machine took 'event1': \(steps)"
            }
            return runner.states == ["pass"] ? nil : "ended in \(runner.states), not ['pass']"
        }
    }
}

extension Result {
    var success: Success? { if case .success(let value) = self { value } else { nil } }
}
