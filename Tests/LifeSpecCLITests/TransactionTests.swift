import Foundation
import LifeSpecTestSupport
import Testing

/// `generate` treats Output/ (and the suites folder) as a transaction: killed at any instant,
/// interrupted, or racing another run, the folders end whole-old or whole-new.
@Suite("generate: Output/ as a transaction", .serialized)
struct TransactionTests {
    /// Two versions of a small spec: v2 renames the spec's title (every page and diagram changes)
    /// and a scenario (one drawing is removed, another created).
    static func spec(_ version: Int) throws -> String {
        let text = try String(contentsOf: CLI.fixtures.appendingPathComponent("Valid/door.yaml"), encoding: .utf8)
        guard version == 2 else { return text }
        return text.replacingOccurrences(of: "title: {en: Door,", with: "title: {en: Front door,")
            .replacingOccurrences(of: "pushOpen", with: "pushItOpen")
    }

    /// A project folder holding one version of the spec.
    static func project(_ version: Int) throws -> URL {
        let folder = Scratch.url("lifespec-tx")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Spec"), withIntermediateDirectories: true)
        try spec(version).write(to: folder.appendingPathComponent("Spec/door.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    /// Every entry under `folder`, hidden ones and folders included (a folder maps to nil bytes).
    static func tree(_ folder: URL) -> [String: Data?] {
        var result: [String: Data?] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            // This machine's record of the last run (inodes, times), not an output.
            if path.hasPrefix(".lifespec-cache") { continue }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
            result[path] =
                isFolder.boolValue
                ? nil : FileManager.default.contents(atPath: folder.appendingPathComponent(path).path)
        }
        return result
    }

    /// What a finished run of each version leaves: Output/ and the suites folder, manifests included.
    struct State: Equatable {
        var output: [String: Data?]
        var suites: [String: Data?]
    }

    /// The paths where `state` and `reference` differ, each marked with how, for a failure message.
    static func differences(_ state: State, _ reference: State) -> [String] {
        func compare(_ lhs: [String: Data?], _ rhs: [String: Data?], _ folder: String) -> [String] {
            Set(lhs.keys).union(rhs.keys).sorted().compactMap { path in
                switch (lhs[path], rhs[path]) {
                case (nil, _): return "\(folder)/\(path): missing"
                case (_, nil): return "\(folder)/\(path): unexpected"
                case (let a?, let b?): return a == b ? nil : "\(folder)/\(path): other bytes"
                }
            }
        }
        return compare(state.output, reference.output, "Output")
            + compare(state.suites, reference.suites, "Generated")
    }

    static func state(of project: URL) -> State {
        State(
            output: tree(project.appendingPathComponent("Output")),
            suites: tree(project.appendingPathComponent("Tests/GeneratedConformanceTests/Generated")))
    }

    static func reference(_ version: Int) throws -> State {
        let project = try project(version)
        let result = try CLI.run(["generate", "-q"], in: project)
        #expect(result.status == 0, "\(result.stderr)")
        return state(of: project)
    }

    static func start(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func stagingFolders(in project: URL) -> [String] {
        ["Output", "Tests/GeneratedConformanceTests/Generated"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasPrefix(".lifespec-staging-") }.map { "\(folder)/\($0)" }
        }
    }

    /// Each staged file and each commit step is announced on standard error as it begins, and each
    /// commit step then pauses 15 ms (test-only knobs), so a signal sent on an announcement lands
    /// in that step.
    static let steppedEnvironment = ["LIFESPEC_TEST_COMMIT_PAUSE": "15000", "LIFESPEC_TEST_STEPS": "1"]
    static let step = "lifespec-test-step: "

    /// Starts `generate -q` on the project, announcing its steps.
    static func startStepped(in project: URL) throws -> WatchedProcess {
        try WatchedProcess(
            CLI.testHost, ["generate", "-q"], in: project, environment: steppedEnvironment, watching: .standardError)
    }

    /// Writes version `version` of the spec and counts the steps of a run that carries it out.
    static func stepsToVersion(_ version: Int, in project: URL) throws -> Int {
        try spec(version).write(to: project.appendingPathComponent("Spec/door.yaml"), atomically: true, encoding: .utf8)
        let run = try startStepped(in: project)
        run.waitUntilExit()
        #expect(run.process.terminationStatus == 0, "\(run.log)")
        return run.log.components(separatedBy: step).count - 1
    }

    @Test(
        "SIGKILL at 50 randomly chosen steps, the commit's included: after the next run starts, Output/ is whole-old or whole-new, with no staging left"
    )
    func killAtRandomSteps() throws {
        let versions = [1: try Self.reference(1), 2: try Self.reference(2)]
        let project = try Self.project(1)
        #expect(try CLI.run(["generate", "-q"], in: project).status == 0)
        // The steps each change takes, counted on runs to the end (v1 → v2, then back).
        let steps = [2: try Self.stepsToVersion(2, in: project), 1: try Self.stepsToVersion(1, in: project)]
        try #require(steps.values.allSatisfy { $0 > 10 }, "the runs announced too few steps: \(steps)")
        var current = 1
        var killedInCommit = 0
        var landedNew = 0
        for trial in 0..<50 {
            let target = 3 - current
            try Self.spec(target).write(
                to: project.appendingPathComponent("Spec/door.yaml"), atomically: true, encoding: .utf8)
            // A few steps past the last: that run is let finish.
            let chosen = Int.random(in: 1...(steps[target]! + 3))
            let run = try Self.startStepped(in: project)
            if run.wait(for: Self.step, count: chosen, endingIsFailure: false) {
                kill(run.process.processIdentifier, SIGKILL)
            }
            run.waitUntilExit()
            let killedAt = run.log.components(separatedBy: "\n").last { $0.hasPrefix(Self.step) } ?? "(no step)"
            let leftovers = Self.stagingFolders(in: project)
            if leftovers.contains(where: {
                FileManager.default.fileExists(atPath: project.appendingPathComponent("\($0)/journal").path)
            }) {
                killedInCommit += 1
            }
            // The next run, even a --check, finishes or throws away what the killed one left.
            _ = try CLI.run(["generate", "--check", "-q"], in: project)
            let after = Self.state(of: project)
            #expect(Self.stagingFolders(in: project).isEmpty, "trial \(trial) (kill at step \(chosen)): staging left")
            if after == versions[target] {
                landedNew += 1
                current = target
            } else {
                #expect(
                    after == versions[current],
                    """
                    trial \(trial) (kill at step \(chosen), \(killedAt)): Output/ is neither whole-old nor whole-new; \
                    against the old: \(Self.differences(after, versions[current]!)); \
                    against the new: \(Self.differences(after, versions[target]!))
                    """)
            }
        }
        #expect(killedInCommit >= 3, "only \(killedInCommit) kills landed inside the commit step (steps: \(steps))")
        #expect(
            landedNew >= 2 && landedNew <= 48, "\(landedNew) of 50 runs finished; the chosen steps do not cover the run"
        )
    }

    @Test(
        "SIGINT or SIGTERM at randomly chosen steps: the run cleans up after itself, Output/ is whole-old or whole-new, no staging folder is left"
    )
    func interruptCleansUp() throws {
        let versions = [1: try Self.reference(1), 2: try Self.reference(2)]
        let project = try Self.project(1)
        #expect(try CLI.run(["generate", "-q"], in: project).status == 0)
        let steps = [2: try Self.stepsToVersion(2, in: project), 1: try Self.stepsToVersion(1, in: project)]
        var current = 1
        for trial in 0..<16 {
            let target = 3 - current
            try Self.spec(target).write(
                to: project.appendingPathComponent("Spec/door.yaml"), atomically: true, encoding: .utf8)
            let chosen = Int.random(in: 1...steps[target]!)
            let run = try Self.startStepped(in: project)
            let signal = trial.isMultiple(of: 2) ? SIGINT : SIGTERM
            if run.wait(for: Self.step, count: chosen, endingIsFailure: false) {
                kill(run.process.processIdentifier, signal)
            }
            run.waitUntilExit()
            // No further run: the interrupted one left nothing behind itself.
            #expect(
                Self.stagingFolders(in: project).isEmpty,
                "trial \(trial) (signal \(signal) at step \(chosen)): staging left")
            let after = Self.state(of: project)
            if run.process.terminationReason == .uncaughtSignal {
                #expect(run.process.terminationStatus == signal)
            }
            if after == versions[target] {
                current = target
            } else {
                #expect(
                    after == versions[current], "trial \(trial) (signal \(signal) at step \(chosen)): Output/ mixed")
            }
        }
    }

    @Test(
        "20 pairs of runs writing different versions into one Output/ at once: both succeed, one after the other, never mixed"
    )
    func concurrentRunsNeverMix() throws {
        let versions = [try Self.reference(1), try Self.reference(2)]
        let projects = [try Self.project(1), try Self.project(2)]
        let shared = Scratch.url("lifespec-shared")
        let arguments = [
            "generate", "-q", "-o", shared.appendingPathComponent("Output").path,
            "--suites", shared.appendingPathComponent("Tests/GeneratedConformanceTests/Generated").path,
        ]
        for pair in 0..<20 {
            let runs = try projects.map { try Self.start(arguments, in: $0) }
            for run in runs { run.waitUntilExit() }
            #expect(runs.allSatisfy { $0.terminationStatus == 0 }, "pair \(pair): a run failed")
            let after = Self.state(of: shared)
            #expect(versions.contains(after), "pair \(pair): Output/ mixes the two versions")
            #expect(Self.stagingFolders(in: shared).isEmpty)
        }
    }
}
