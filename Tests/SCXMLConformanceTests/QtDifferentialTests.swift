import Foundation
import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine
import Testing

/// Qt SCXML (PySide2, `/usr/bin/python3`) as a second engine: the same charts, the same events,
/// the same configurations and `<log>` output after every macrostep.
enum QtSCXML {
    static let python = "/usr/bin/python3"
    static let script = ConformanceCharts.packageRoot.appendingPathComponent("Tests/SCXMLConformanceTests/qt_scxml.py")
        .path

    struct Request: Encodable {
        let path: String
        let events: [String]
    }

    struct Result: Decodable {
        let errors: [String]
        let configurations: [[String]]
        let logs: [[String]]
    }

    enum Outcome {
        case unavailable(String)
        case ran([Result])
    }

    /// One Python process for every chart (starting Qt costs more than running a chart).
    static func run(_ requests: [Request]) throws -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: python) else { return .unavailable("\(python) not found") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let payload = try JSONEncoder().encode(requests)
        // Read both pipes while writing, so neither side blocks on a full pipe.
        let outputBox = DataBox()
        let errorBox = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            outputBox.data = output.fileHandleForReading.readDataToEndOfFile()
        }
        DispatchQueue.global().async(group: group) { errorBox.data = errors.fileHandleForReading.readDataToEndOfFile() }
        input.fileHandleForWriting.write(payload)
        try input.fileHandleForWriting.close()
        // A chart Qt loops on must not hang the test run.
        let deadline = DispatchTime.now() + .seconds(120)
        if group.wait(timeout: deadline) == .timedOut {
            process.terminate()
            throw QtFailure(message: "Qt SCXML did not finish within 120 s")
        }
        process.waitUntilExit()
        let stderr = String(decoding: errorBox.data, as: UTF8.self)
        if process.terminationStatus == 3 {
            return .unavailable(stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard process.terminationStatus == 0 else {
            throw QtFailure(message: "qt_scxml.py exited with \(process.terminationStatus): \(stderr.suffix(2000))")
        }
        return .ran(try JSONDecoder().decode([Result].self, from: outputBox.data))
    }

    struct QtFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    final class DataBox: @unchecked Sendable { var data = Data() }
}

/// What the engine does with a chart and a script: the atomic configuration and the `<log>`
/// callbacks after start and after each event (nil when the chart loops without end).
struct EngineRun {
    var configurations: [[String]] = []
    var logs: [[String]] = []

    init?(machine: Machine, events: [String]) throws {
        func callbacks(_ steps: [Step]) -> [String] {
            steps.compactMap { if case .callback(let name) = $0 { "callback:" + name } else { nil } }
        }
        do {
            var (runner, steps) = try Runner.start(machine: machine)
            configurations.append(runner.states.sorted())
            logs.append(callbacks(steps))
            for event in events {
                let steps = try runner.send(event)
                configurations.append(runner.states.sorted())
                logs.append(callbacks(steps))
            }
        } catch RunError.eventlessLoop {
            return nil
        }
    }
}

@Suite struct QtDifferentialTests {
    static let chartCount = 150
    static let scriptLength = 10

    /// SCION's charts whose `legacySemantics` (pre-recommendation conflict resolution between
    /// parallel regions) Qt follows: the engine follows the recommendation (the JSON's main
    /// expectations, checked by `SCXMLConformanceTests`).
    static let legacyCharts = [
        "scion/more-parallel/test2.scxml", "scion/more-parallel/test3.scxml", "scion/more-parallel/test6.scxml",
        "scion/parallel+interrupt/test21.scxml", "scion/parallel+interrupt/test21b.scxml",
        "scion/parallel+interrupt/test7.scxml",
    ]

    @Test func randomChartsAgreeWithQt() throws {
        let folder = try Scratch.folder("lifespec-qt")
        defer { try? FileManager.default.removeItem(at: folder) }
        var cases:
            [(seed: UInt64, chart: RandomChart, text: String, events: [String], engine: EngineRun, path: String)] = []
        var looping = 0
        for seed in 1...UInt64(Self.chartCount) {
            let chart = RandomChart(seed: seed)
            let text = chart.scxml
            let path = folder.appendingPathComponent("chart\(seed).scxml").path
            let read = SCXMLReader.read(data: Data(text.utf8), path: path)
            guard let document = read.document else {
                Issue.record(
                    "seed \(seed): the generated chart does not load:\n\(read.diagnostics.map(\.description).joined(separator: "\n"))\n\(text)"
                )
                continue
            }
            let events = chart.script(seed: seed, length: Self.scriptLength)
            guard let engine = try EngineRun(machine: document.machine(extraEvents: events), events: events) else {
                looping += 1
                continue
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            cases.append((seed, chart, text, events, engine, path))
        }
        let outcome = try QtSCXML.run(cases.map { QtSCXML.Request(path: $0.path, events: $0.events) })
        guard case .ran(let results) = outcome else {
            if case .unavailable(let why) = outcome { print("Qt differential: skipped (\(why))") }
            return
        }
        try #require(results.count == cases.count)
        var agreeing = 0
        for (item, qt) in zip(cases, results) {
            if !qt.errors.isEmpty {
                Issue.record("seed \(item.seed): Qt refuses the chart: \(qt.errors)\n\(item.text)")
                continue
            }
            var problem: String?
            for step in item.engine.configurations.indices {
                let label = step == 0 ? "after start" : "after event \(step) '\(item.events[step - 1])'"
                if item.engine.configurations[step] != qt.configurations[step] {
                    problem = "\(label): engine \(item.engine.configurations[step]), Qt \(qt.configurations[step])"
                } else if item.engine.logs[step] != qt.logs[step] {
                    problem = "\(label): engine logged \(item.engine.logs[step]), Qt \(qt.logs[step])"
                }
                if problem != nil { break }
            }
            if let problem {
                Issue.record(
                    "seed \(item.seed): \(problem)\nevents: \(item.events.joined(separator: " "))\n\(item.text)")
            } else {
                agreeing += 1
            }
        }
        print(
            "Qt differential: \(agreeing)/\(cases.count) random charts agree with Qt SCXML after every event (\(looping) generated charts loop on eventless transitions and were not run)"
        )
    }

    /// The six SCION charts where Qt keeps the pre-recommendation semantics: Qt's configurations
    /// are the JSON's `legacySemantics`, the engine's its main (W3C) expectations. If Qt changes,
    /// this test says so.
    @Test func qtFollowsLegacySemanticsWhereSCIONSaysSo() throws {
        guard let folder = ConformanceCharts.folder else {
            print(ConformanceCharts.skipMessage)
            return
        }
        struct Legacy: Decodable {
            struct Step: Decodable { let nextConfiguration: [String] }
            struct Expectation: Decodable {
                let initialConfiguration: [String]
                let events: [Step]
            }
            let legacySemantics: Expectation
        }
        var requests: [QtSCXML.Request] = []
        var expected: [[[String]]] = []
        for chart in Self.legacyCharts {
            let script = try ConformanceCharts.script(chart)
            requests.append(
                QtSCXML.Request(
                    path: folder.appendingPathComponent(chart).path, events: script.events.map(\.event.name)))
            let json = folder.appendingPathComponent(chart).deletingPathExtension().appendingPathExtension("json")
            let legacy = try JSONDecoder().decode(Legacy.self, from: Data(contentsOf: json)).legacySemantics
            expected.append(
                [legacy.initialConfiguration.sorted()] + legacy.events.map { $0.nextConfiguration.sorted() })
            #expect(
                try ConformanceCharts.runSCION(chart) == nil, "\(chart): the engine must follow the W3C expectations")
        }
        guard case .ran(let results) = try QtSCXML.run(requests) else {
            print("Qt differential: skipped (PySide2.QtScxml unavailable)")
            return
        }
        for (chart, (qt, legacy)) in zip(Self.legacyCharts, zip(results, expected)) {
            #expect(qt.configurations == legacy, "\(chart): Qt \(qt.configurations), SCION legacy \(legacy)")
        }
    }
}
