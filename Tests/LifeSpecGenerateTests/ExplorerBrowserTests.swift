import Foundation
import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpecRender

/// The explorer pages of every spec in Spec/, written into a scratch folder as `generate` writes
/// them, then driven in headless Chromium by Tests/Tools/explorer_check.py (Debian's chromium,
/// chromium-driver and python3-selenium; `.ci/run` installs them and sets LIFESPEC_REQUIRE_BROWSER=1,
/// which makes a missing browser a failure instead of a skip). What the page showed is judged here
/// against the engine: `simulate`'s configurations and log after every click (the runner
/// `simulate` uses, and the `lifespec` executable itself for one walk per spec), disabled buttons
/// against the events the engine refuses, `#events=` replays, and the pasted-log check against
/// `check-trace`'s verdict and line.
@Suite("The explorer in a real browser")
struct ExplorerBrowserTests {
    static let tools = SpecFixtures.url("Tests/Tools")
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    static var required: Bool { ProcessInfo.processInfo.environment["LIFESPEC_REQUIRE_BROWSER"] == "1" }

    static let browserAvailable: Bool = {
        let files = ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"]
        guard files.allSatisfy(FileManager.default.isExecutableFile(atPath:)) else { return false }
        let probe = try? Subprocess.run(python, ["-c", "import selenium"], in: tools)
        return probe?.status == 0
    }()

    /// One spec's page in the scratch folder, with the logs to check and `check-trace`'s verdicts.
    struct Page: Sendable {
        let spec: LoadedSpec
        let url: URL
        let size: Int
        let isComplete: Bool
        let logs: [String]
        let verdicts: [(conforms: Bool, line: Int?)]
    }

    /// The pages, written once for both tests.
    static let pages: Result<[Page], any Error> = Result { try makePages() }

    static func makePages() throws -> [Page] {
        let folder = try Scratch.folder("lifespec-explorer")
        let specFolder = SpecFixtures.url("Spec")
        var pages: [Page] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: specFolder.path).sorted()
        where name.hasSuffix(".yaml") {
            let spec = try SpecFixtures.load("Spec/\(name)")
            let (bytes, graph) = ExplorerPage.fitted(spec: spec, drawings: try ExplorerPage.drawings(for: spec))
            let pageFolder = folder.appendingPathComponent(spec.document.id)
            try FileManager.default.createDirectory(at: pageFolder, withIntermediateDirectories: true)
            let url = pageFolder.appendingPathComponent(ExplorerPage.fileName)
            try Data(bytes).write(to: url)
            let conforming = try conformingLog(spec.machine, seed: name.utf8.reduce(7) { $0 &* 31 &+ Int($1) })
            let logs = [conforming.joined(separator: "\n") + "\n", swapped(conforming).joined(separator: "\n") + "\n"]
            var verdicts: [(conforms: Bool, line: Int?)] = []
            for (offset, log) in logs.enumerated() {
                let path = pageFolder.appendingPathComponent("log-\(offset).txt").path
                try log.write(toFile: path, atomically: true, encoding: .utf8)
                let check = try TraceCheck(
                    machine: spec.machine, document: spec.document, from: nil, fixedFlags: [:], observe: [])
                switch try check.judge(path) {
                case .conforms: verdicts.append((true, nil))
                case .fails(let message):
                    // `path:LINE:COLUMN: error: …`
                    let rest = message.dropFirst(path.count + 1)
                    verdicts.append((false, Int(rest.prefix { $0.isNumber })))
                }
            }
            pages.append(
                Page(
                    spec: spec, url: url, size: bytes.count, isComplete: graph.isComplete, logs: logs,
                    verdicts: verdicts))
        }
        return pages
    }

    /// A log a real app could write: the initial states entered (as `check-trace` assumes), then a
    /// seeded walk of events, each step's callbacks and notifications by their Swift names.
    static func conformingLog(_ machine: Machine, seed: Int) throws -> [String] {
        var runner = try Runner(machine: machine, states: machine.initialTargets)
        var names = names(of: try runner.settle(), in: machine)
        var generator = SeededGenerator(seed: UInt64(truncatingIfNeeded: seed))
        var sent = 0
        while (names.count < 12 || sent < 4) && sent < 40 {
            let accepted = runner.acceptedEvents
            guard let event = accepted.randomElement(using: &generator) else { break }
            names += self.names(of: try runner.send(event), in: machine)
            sent += 1
        }
        return names
    }

    /// The log with two adjacent different lines from its middle swapped.
    static func swapped(_ log: [String]) -> [String] {
        var result = log
        let middle = log.count / 2
        for index in Array(middle..<max(middle, log.count - 1)) + Array(0..<middle)
        where index + 1 < log.count && log[index] != log[index + 1] {
            result.swapAt(index, index + 1)
            return result
        }
        return result
    }

    static func names(of steps: [Step], in machine: Machine) -> [String] {
        steps.compactMap { step in
            switch step {
            case .transition: nil
            case .callback(let id): machine.callback(id)?.swiftName ?? id
            case .notification(let id): machine.notification(id)?.swiftName ?? id
            }
        }
    }

    @Test("the explorer page of every spec in Spec/ fits its size budget", .timeLimit(.minutes(15)))
    func sizeBudget() throws {
        let pages = try Self.pages.get()
        #expect(pages.count >= 8)
        for page in pages {
            #expect(page.size <= ExplorerPage.sizeBudget, "\(page.spec.document.id): \(page.size) bytes")
        }
    }

    @Test(
        "in Chromium every page follows the engine: random walks, refused events, #events= replays, the log check, zh-Hans, no request",
        .enabled(
            if: browserAvailable || required,
            "Chromium is not installed: apt-get install chromium chromium-driver python3-selenium to drive the explorer pages"
        ),
        .timeLimit(.minutes(15)))
    func browser() throws {
        #expect(
            Self.browserAvailable,
            "LIFESPEC_REQUIRE_BROWSER=1 but chromium, chromedriver or python3-selenium is missing")
        guard Self.browserAvailable else { return }
        let pages = try Self.pages.get()
        let folder = try Scratch.folder("lifespec-explorer-run")
        let manifest: [String: Any] = [
            "pages": pages.enumerated().map { offset, page -> [String: Any] in
                [
                    "id": page.spec.document.id, "path": page.url.path, "seed": offset + 1, "walks": 20,
                    "maxEvents": 12, "logs": page.logs,
                ]
            }
        ]
        let manifestURL = folder.appendingPathComponent("manifest.json")
        let resultsURL = folder.appendingPathComponent("results.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        var arguments = [
            Self.tools.appendingPathComponent("explorer_check.py").path, manifestURL.path, resultsURL.path,
        ]
        if let screenshots = ProcessInfo.processInfo.environment["LIFESPEC_EXPLORER_SCREENSHOTS"] {
            arguments.append(screenshots)
        }
        let run = try Subprocess.run(Self.python, arguments, in: Self.tools)
        try #require(run.status == 0, "explorer_check.py failed:\n\(run.stderr)\n\(run.stdout)")
        let results = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: resultsURL)) as? [String: Any])
        let driven = try #require(results["pages"] as? [[String: Any]])
        #expect(driven.count == pages.count)
        let executable = Self.lifespec
        for (page, result) in zip(pages, driven) {
            try Self.judge(page, result, executable: executable)
        }
        // The swapped logs are mostly ones check-trace rejects: the comparison tells deviations apart too.
        let judged = pages.filter(\.isComplete)
        #expect(judged.filter { $0.verdicts.last?.conforms == false }.count * 2 >= judged.count)
    }

    /// The `lifespec` executable beside the test bundle, when it was built.
    static var lifespec: URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("lifespec")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    static func judge(_ page: Page, _ result: [String: Any], executable: URL?) throws {
        let id = page.spec.document.id
        let machine = page.spec.machine
        #expect((result["errors"] as? [String] ?? ["?"]).isEmpty, "\(id): \(result["errors"] ?? "")")
        // The script folds exactly the shown events the page's data marks as raised by the system
        // (which `ExplorerTests` checks against the spec), and the folds start closed.
        let events = try #require(try ExplorerTests.data(Array(Data(contentsOf: page.url)))["events"] as? [[Any]])
        let raisedBySystem = Set(
            events.filter { $0[2] as? Bool == true && $0[4] as? Bool == true }.compactMap { $0[0] as? String })
        let folds = try #require(result["raised"] as? [[String: Any]], "\(id): no folds reported")
        #expect(Set(folds.flatMap { $0["events"] as? [String] ?? [] }) == raisedBySystem, "\(id)")
        #expect(folds.allSatisfy { $0["open"] as? Bool == false }, "\(id)")
        let walks = try #require(result["walks"] as? [[String: Any]], "\(id): no walks")
        #expect(walks.count >= 20, "\(id)")
        for (number, walk) in walks.enumerated() {
            let steps = try #require(walk["steps"] as? [[String: Any]])
            var (runner, trace) = try Runner.start(machine: machine)
            var log = names(of: trace, in: machine)
            var events: [String] = []
            for (position, step) in steps.enumerated() {
                let place = "\(id) walk \(number) step \(position) (\(events.joined(separator: ",")))"
                if position > 0 {
                    let event = try #require(step["event"] as? String)
                    events.append(event)
                    let taken = try? runner.send(event)
                    try #require(taken != nil, "\(place): the page sent \(event), which the engine refuses")
                    log += names(of: taken ?? [], in: machine)
                }
                #expect(step["configuration"] as? String == runner.activeStates.joined(separator: " "), "\(place)")
                #expect(step["log"] as? [String] == log, "\(place)")
                guard step["embedded"] as? Bool == true else {
                    #expect(!page.isComplete, "\(place): a complete page has every configuration")
                    continue
                }
                for event in step["enabled"] as? [String] ?? [] {
                    var copy = runner
                    #expect((try? copy.send(event)) != nil, "\(place): \(event) is enabled but refused")
                }
                for event in step["disabled"] as? [String] ?? [] {
                    var copy = runner
                    #expect((try? copy.send(event)) == nil, "\(place): \(event) is disabled but handled")
                }
            }
            if let refused = walk["refused"] as? [String: Any] {
                #expect(
                    refused["unchanged"] as? Bool == true, "\(id) walk \(number): a disabled button changed the page")
            }
            // What `lifespec simulate --json` itself prints, for the first walk of each spec.
            if number == 0, let executable, !events.isEmpty {
                let run = try Subprocess.run(
                    executable, ["simulate", page.spec.path, "--json"] + events, in: SpecFixtures.packageRoot)
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(id)")
                let configurations = try #require(json["configurations"] as? [[String]])
                let names = (json["steps"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                #expect(steps.last?["configuration"] as? String == configurations.last?.joined(separator: " "), "\(id)")
                #expect(steps.last?["log"] as? [String] == names, "\(id)")
            }
        }
        // Each walkthrough run to its end: as the engine runs the scenario (from its start, with its flags).
        let scenarios = result["scenarios"] as? [[String: Any]] ?? []
        #expect(scenarios.count == page.spec.document.scenarios.count, "\(id): walkthroughs offered")
        for shown in scenarios {
            let scenario = try #require(page.spec.document.scenario(shown["scenario"] as? String ?? ""), "\(id)")
            var (runner, trace) = try Runner.begin(machine: machine, from: scenario.from, flags: scenario.flags)
            trace += try runner.send(scenario.events)
            #expect(
                shown["configuration"] as? String == runner.activeStates.joined(separator: " "), "\(id) \(scenario.id)")
            #expect(shown["log"] as? [String] == names(of: trace, in: machine), "\(id) \(scenario.id)")
        }
        for replay in result["replays"] as? [[String: Any]] ?? [] {
            #expect(
                replay["configuration"] as? String == replay["expected"] as? String, "\(id): \(replay["hash"] ?? "")")
            #expect(replay["log"] as? [String] == replay["expectedLog"] as? [String], "\(id): \(replay["hash"] ?? "")")
        }
        #expect((result["replays"] as? [Any])?.count == 3, "\(id)")
        let checks = try #require(result["checks"] as? [[String: Any]])
        for (check, verdict) in zip(checks, page.verdicts) {
            if !page.isComplete {
                #expect(check["disabled"] as? Bool == true, "\(id): the log check runs over an incomplete graph")
                continue
            }
            #expect(check["conforms"] as? String == String(verdict.conforms), "\(id): \(check["text"] ?? "")")
            #expect(check["line"] as? Int == verdict.line, "\(id): \(check["text"] ?? "")")
        }
        #expect(page.verdicts.first?.conforms == true, "\(id): the walk's own log conforms")
        if page.spec.document.locales.contains("zh-Hans") {
            let chinese = try #require(result["zh"] as? [String: Any], "\(id): no zh-Hans switch")
            let title = chinese["title"] as? String ?? ""
            #expect(chinese["lang"] as? String == "zh-Hans", "\(id)")
            #expect(title.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }, "\(id): \(title)")
            #expect(chinese["heading"] as? String == "事件", "\(id)")
            #expect((result["en"] as? [String: Any])?["heading"] as? String == "Events", "\(id)")
        }
        let resources = result["resources"] as? [String: Any]
        #expect((resources?["resources"] as? [Any])?.isEmpty == true, "\(id): the page fetched \(resources ?? [:])")
        #expect((resources?["csp"] as? String)?.hasPrefix("default-src 'none'") == true, "\(id)")
        #expect((result["requests"] as? [Any])?.isEmpty == true, "\(id): requests \(result["requests"] ?? "")")
    }
}

/// SplitMix64: the same walks on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
