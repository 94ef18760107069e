import Foundation
import LifeSpecTestSupport
import Testing

@Suite("lifespec generate keeps Output/ in sync with Spec/")
struct GenerateTests {
    /// Every file under a folder with its bytes, for before/after comparisons.
    func snapshot(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            result[String(url.path.dropFirst(folder.path.count))] = try? Data(contentsOf: url)
        }
        return result
    }

    @Test func generatesEveryOutputThenKeepsEverythingOnARerun() throws {
        let project = try CLI.scratchProject()
        let first = try CLI.run(["generate"], in: project)
        #expect(first.status == 0, "\(first.stderr)")
        let output = project.appendingPathComponent("Output")
        let files = snapshot(output)
        for name in [
            "/README.md", "/ios-app-lifecycle/diagram.dot", "/ios-app-lifecycle/diagram.svg",
            "/ios-app-lifecycle/diagram.png", "/ios-app-lifecycle/diagram.mmd",
            "/ios-app-lifecycle/README.md", "/ios-app-lifecycle/README.zh-Hans.md",
            "/ios-app-lifecycle/scenarios/coldLaunch.svg", "/ios-app-lifecycle/explorer.html",
        ] {
            #expect(files[name] != nil, "missing \(name)")
        }
        #expect(files["/ios-app-lifecycle/diagram.png"]?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)

        let second = try CLI.run(["generate"], in: project)
        #expect(second.status == 0)
        #expect(second.stdout.contains("0 created, 0 updated"))
        #expect(snapshot(output) == files, "a rerun must give byte-identical files")

        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func checkFailsOnAStaleOutputAndNamesTheFiles() throws {
        let project = try CLI.scratchProject()
        #expect(try CLI.run(["generate"], in: project).status == 0)
        let spec = project.appendingPathComponent("Spec/ios-app-lifecycle.yaml")
        let text = try String(contentsOf: spec, encoding: .utf8)
        try (text + "\n# a comment changes no output\n").write(to: spec, atomically: true, encoding: .utf8)
        let unchanged = try CLI.run(["generate", "--check"], in: project)
        #expect(unchanged.status == 0, "a comment changes no output")

        let extra = project.appendingPathComponent("Output/ios-app-lifecycle/diagram.dot")
        try "stale".write(to: extra, atomically: true, encoding: .utf8)
        let stale = try CLI.run(["generate", "--check"], in: project)
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("stale:   Output/ios-app-lifecycle/diagram.dot"))
        #expect(
            stale.stderr.contains(
                "to see what changed in behaviour: lifespec diff HEAD:Spec/ios-app-lifecycle.yaml Spec/ios-app-lifecycle.yaml\n"
            ), "\(stale.stderr)")
        #expect(try String(contentsOf: extra, encoding: .utf8) == "stale", "--check writes nothing")

        try FileManager.default.removeItem(at: project.appendingPathComponent("Output/ios-app-lifecycle/diagram.mmd"))
        let missing = try CLI.run(["generate", "--check"], in: project)
        #expect(missing.stderr.contains("missing: Output/ios-app-lifecycle/diagram.mmd"))
    }

    @Test func anInvalidSpecWritesNothingAndLosesNothing() throws {
        let project = try CLI.scratchProject()
        #expect(try CLI.run(["generate"], in: project).status == 0)
        let output = project.appendingPathComponent("Output")
        let before = snapshot(output)
        let spec = project.appendingPathComponent("Spec/ios-app-lifecycle.yaml")
        let text = try String(contentsOf: spec, encoding: .utf8)
        try text.replacingOccurrences(of: "initial: notRunning", with: "initial: notRuning").write(
            to: spec, atomically: true, encoding: .utf8)
        let result = try CLI.run(["generate"], in: project)
        #expect(result.status == 1)
        #expect(result.stderr.contains("[LS101]"))
        #expect(result.stderr.contains("did you mean 'notRunning'?"))
        #expect(snapshot(output) == before)
    }

    @Test func removesWhatNoSpecProducesAnyMoreButNotOtherFiles() throws {
        let project = try CLI.scratchProject()
        #expect(try CLI.run(["generate"], in: project).status == 0)
        let mine = project.appendingPathComponent("Output/notes.txt")
        try "a person's notes".write(to: mine, atomically: true, encoding: .utf8)
        // Rename the flagship's id (and its file), and the other specs' `related:` and `parts:` references to it.
        let specs = project.appendingPathComponent("Spec")
        for name in try FileManager.default.contentsOfDirectory(atPath: specs.path) {
            let url = specs.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: "\nid: ios-app-lifecycle\n", with: "\nid: ios-app\n")
                .replacingOccurrences(of: "spec: ios-app-lifecycle\n", with: "spec: ios-app\n")
                .write(to: url, atomically: true, encoding: .utf8)
        }
        // A system spec finds its parts by file name (`parts:` names `Spec/<id>.yaml`).
        try FileManager.default.moveItem(
            at: specs.appendingPathComponent("ios-app-lifecycle.yaml"),
            to: specs.appendingPathComponent("ios-app.yaml"))
        let result = try CLI.run(["generate"], in: project)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("removed  Output/ios-app-lifecycle/diagram.svg"))
        #expect(
            !FileManager.default.fileExists(atPath: project.appendingPathComponent("Output/ios-app-lifecycle").path))
        #expect(
            FileManager.default.fileExists(atPath: project.appendingPathComponent("Output/ios-app/diagram.svg").path))
        #expect(FileManager.default.fileExists(atPath: mine.path), "files lifespec did not write are never removed")
    }

    @Test func diagramWritesEachFormat() throws {
        let folder = try Scratch.folder("lifespec-diagram")
        for (format, magic) in [
            ("png", Array("\u{89}PNG".unicodeScalars.map { UInt8($0.value) })), ("pdf", Array("%PDF".utf8)),
            ("svg", Array("<?xml".utf8)),
        ] {
            let file = folder.appendingPathComponent("d.\(format)")
            let result = try CLI.run(["diagram", "Spec/ios-app-lifecycle.yaml", "--format", format, "-o", file.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Data(contentsOf: file).starts(with: magic), "\(format)")
        }
        let mermaid = try CLI.run(["diagram", "Spec/ios-app-lifecycle.yaml", "--format", "mermaid"])
        #expect(mermaid.stdout.contains("stateDiagram-v2"))
        let scenario = try CLI.run(["diagram", "Spec/ios-app-lifecycle.yaml", "--format", "dot", "--scenario", "nope"])
        #expect(scenario.status == 1)
        #expect(scenario.stderr.contains("unknown scenario 'nope'"))
    }

    @Test func docsRendersEachLocale() throws {
        let english = try CLI.run(["docs", "Spec/ios-app-lifecycle.yaml"])
        let chinese = try CLI.run(["docs", "Spec/ios-app-lifecycle.yaml", "--locale", "zh-Hans"])
        #expect(english.status == 0 && chinese.status == 0)
        #expect(english.stdout.contains("applicationWillResignActive(_:)"))
        #expect(english.stdout != chinese.stdout)
        let unknown = try CLI.run(["docs", "Spec/ios-app-lifecycle.yaml", "--locale", "fr"])
        #expect(unknown.status == 64)
    }
}

@Suite("A spec change flows through generate into the suite")
struct SpecChangeTests {
    @Test func anAddedTransitionIsCoveredByTheNewSuiteAndTheOldOutputFailsTheCheck() throws {
        let project = try CLI.scratchProject()
        #expect(try CLI.run(["generate", "-q"], in: project).status == 0)
        let suitePath = project.appendingPathComponent(
            "Tests/GeneratedConformanceTests/Generated/IosAppLifecycleConformanceTests.swift")
        let before = try String(contentsOf: suitePath, encoding: .utf8)
        let covered = try #require(before.firstMatch(of: /Transition coverage: (\d+) of (\d+) transitions/))
        let count = try #require(Int(covered.output.2))
        #expect(covered.output.1 == covered.output.2)

        // A new, reachable transition: a memory warning while suspended wakes nothing but is observed.
        let spec = project.appendingPathComponent("Spec/ios-app-lifecycle.yaml")
        var text = try String(contentsOf: spec, encoding: .utf8)
        let anchor = "\ntransitions:\n"
        let range = try #require(text.range(of: anchor))
        text.insert(
            contentsOf: "  - {from: suspended, on: memoryWarning, description: added by a test}\n", at: range.upperBound
        )
        try text.write(to: spec, atomically: true, encoding: .utf8)

        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 1)
        #expect(
            check.stderr.contains(
                "stale:   Tests/GeneratedConformanceTests/Generated/IosAppLifecycleConformanceTests.swift"))
        #expect(check.stderr.contains("stale:   Output/ios-app-lifecycle/diagram.dot"))

        let regenerate = try CLI.run(["generate"], in: project)
        #expect(regenerate.status == 0, "\(regenerate.stderr)")
        let after = try String(contentsOf: suitePath, encoding: .utf8)
        #expect(after.contains("Transition coverage: \(count + 1) of \(count + 1) transitions"))
        #expect(try CLI.run(["generate", "--check"], in: project).status == 0)
    }
}

@Suite("watch and interrupted runs")
struct WatchAndInterruptTests {
    /// The first pass draws every spec of Spec/ with the debug binary while other suites run
    /// beside it (over 120 s in a loaded fresh-clone CI): a bound for a hang, not a speed check.
    static let firstPassTimeout: TimeInterval = 600
    /// Every file under a folder with its bytes.
    func files(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            // The record of the last run (this machine's inodes and times) is not an output.
            if let data = FileManager.default.contents(atPath: url.path), !url.hasDirectoryPath,
                !url.path.contains("/.lifespec-cache/")
            {
                result[String(url.path.dropFirst(folder.path.count))] = data
            }
        }
        return result
    }

    @Test func aKilledGenerateLeavesEveryFileWholeOldOrNew() throws {
        let project = try CLI.scratchProject()
        #expect(try CLI.run(["generate", "-q"], in: project).status == 0)
        let output = project.appendingPathComponent("Output")
        let old = files(output)

        // Change every page and diagram, and learn what a finished run would write.
        for name in try FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent("Spec").path) {
            let url = project.appendingPathComponent("Spec/\(name)")
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: " the ", with: " the very ").write(
                to: url, atomically: true, encoding: .utf8)
        }
        let reference = project.appendingPathComponent("Reference")
        #expect(
            try CLI.run(
                ["generate", "-q", "-o", reference.path, "--suites", project.appendingPathComponent("RefSuites").path],
                in: project
            ).status == 0)
        let new = files(reference)

        // Kill runs at later and later steps of their output transaction (each staged file and
        // each commit step is announced as it begins), so some die while staging and some while
        // moving files into place.
        for chosen in [1, 40, 120, 200] {
            let run = try WatchedProcess(
                CLI.testHost, ["generate", "-q"], in: project,
                environment: ["LIFESPEC_TEST_STEPS": "1"], watching: .standardError)
            if run.wait(for: "lifespec-test-step: ", count: chosen, endingIsFailure: false) {
                kill(run.process.processIdentifier, SIGKILL)
            }
            run.waitUntilExit()
            for (path, data) in files(output)
            where !path.contains(".lifespec-staging-") && !path.hasSuffix(".lifespec-manifest") {
                #expect(
                    data == old[path] || data == new[path],
                    "\(path) is neither the old nor the new file after a kill at step \(chosen)")
            }
        }
        // A finished run afterwards cleans up and lands exactly on the new output.
        #expect(try CLI.run(["generate", "-q"], in: project).status == 0)
        let final = files(output).filter { !$0.key.hasSuffix(".lifespec-manifest") }
        #expect(final.keys.filter { $0.contains(".lifespec-staging-") }.isEmpty, "staging files left behind")
        #expect(final == new.filter { !$0.key.hasSuffix(".lifespec-manifest") })
    }

    @Test func watchRegeneratesAndSurvivesAnInvalidSave() throws {
        let project = try CLI.scratchProject()
        let watch = try WatchedProcess(
            CLI.executable, ["watch", "--interval", "0.1", "--max-passes", "3"], in: project)
        defer { if watch.process.isRunning { watch.process.terminate() } }
        // Each save follows the end of the pass before it; the watch tells saves apart by size
        // and inode as well as by time, so no wait for the clock to tick is needed.
        // The first pass's summary line ends with "N removed".
        try #require(watch.wait(for: "removed\n", timeout: Self.firstPassTimeout))
        let spec = project.appendingPathComponent("Spec/ios-app-lifecycle.yaml")
        let text = try String(contentsOf: spec, encoding: .utf8)
        try text.replacingOccurrences(of: "initial: notRunning", with: "initial: notRuning").write(
            to: spec, atomically: true, encoding: .utf8)
        try #require(watch.wait(for: "[LS101]"))
        try #require(watch.wait(for: "watching for the next save\n"))
        try text.write(to: spec, atomically: true, encoding: .utf8)
        try #require(watch.wait(for: "removed\n", count: 2))
        watch.waitUntilExit()
        let log = watch.log
        #expect(watch.process.terminationStatus == 0)
        #expect(log.contains("changed: Spec/ios-app-lifecycle.yaml"))
        #expect(log.contains("did you mean 'notRunning'?"))
        #expect(log.contains("nothing was generated"))
        #expect(log.contains("0 created, 0 updated"), "the last pass finds Output/ as the first one left it")
        #expect(
            FileManager.default.fileExists(
                atPath: project.appendingPathComponent("Output/ios-app-lifecycle/diagram.svg").path))
    }
}

@Suite("generate on a machine too large to draw whole")
struct LargeMachineGenerateTests {
    @Test func drawsOneDiagramPerTopLevelGroupInstead() throws {
        let project = Scratch.url("lifespec-large")
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Spec"), withIntermediateDirectories: true)
        #expect(
            try CLI.run(["synth", "--states", "2000", "--seed", "7", "-o", "Spec/big.yaml"], in: project).status == 0)
        let result = try CLI.run(["generate", "-q"], in: project)
        #expect(result.status == 0, "\(result.stderr)")
        let folder = project.appendingPathComponent("Output/synthetic-2000")
        let groups = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("groups").path)
        #expect(groups.contains("h0.svg") && groups.contains("h0.dot"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("diagram.svg").path))
        let page = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(!page.contains("](diagram.svg)"), "the page must not link a diagram that was not drawn")
        #expect(page.contains("stateDiagram-v2"))
    }
}
