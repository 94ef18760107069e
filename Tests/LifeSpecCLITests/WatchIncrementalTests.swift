import Foundation
import LifeSpecTestSupport
import Testing

/// A watch pass loads and generates again only what a save changed (`SpecCache`), and what it
/// leaves is still the whole output a full `generate` would write.
@Suite("watch regenerates only what a save changed")
struct WatchIncrementalTests {
    /// The first pass draws every spec of Spec/ with the debug binary while other suites run
    /// beside it (over 120 s in a loaded fresh-clone CI): a bound for a hang, not a speed check.
    static let firstPassTimeout: TimeInterval = 600
    struct Stamp: Equatable {
        let inode: UInt64
        let modified: Date
    }

    /// Every regular file under `folder` (outside the machine-local cache) with its inode and time.
    func stamps(_ folder: URL) -> [String: Stamp] {
        var result: [String: Stamp] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let relative = enumerator?.nextObject() as? String {
            guard !relative.hasPrefix(".lifespec-cache"),
                let attributes = try? FileManager.default.attributesOfItem(
                    atPath: folder.appendingPathComponent(relative).path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            result[relative] = Stamp(
                inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0,
                modified: attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return result
    }

    func contents(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        for path in stamps(folder).keys where !path.hasSuffix(".lifespec-manifest") {
            result[path] = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path)
        }
        return result
    }

    func edit(_ file: URL, replacing old: String, with new: String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(old), "the fixture no longer says '\(old)'")
        try text.replacingOccurrences(of: old, with: new).write(to: file, atomically: false, encoding: .utf8)
    }

    @Test func aLeafEditLeavesTheOtherSpecsFilesUntouchedAndTheOutputWhole() throws {
        let project = try CLI.scratchProject()
        let watch = try WatchedProcess(
            CLI.executable, ["watch", "--interval", "0.1", "--max-passes", "3"], in: project)
        defer { if watch.process.isRunning { watch.process.terminate() } }
        try #require(watch.wait(for: "removed\n", timeout: Self.firstPassTimeout))
        let output = project.appendingPathComponent("Output")
        let before = stamps(output)
        // ios-state-restoration is no other spec's part, and its title stays: only its files change.
        try edit(
            project.appendingPathComponent("Spec/ios-state-restoration.yaml"), replacing: "\nsummary:",
            with: "\n# saved again\nsummary:")
        try #require(watch.wait(for: "removed\n", count: 2))
        // A description word: its page changes.
        let spec = project.appendingPathComponent("Spec/ios-state-restoration.yaml")
        let text = try String(contentsOf: spec, encoding: .utf8)
        let word = try #require(text.range(of: " the ", range: text.range(of: "summary:")!.upperBound..<text.endIndex))
        try text.replacingCharacters(in: word, with: " THE ").write(to: spec, atomically: false, encoding: .utf8)
        try #require(watch.wait(for: "removed\n", count: 3))
        watch.waitUntilExit()
        let after = stamps(output)
        let changed = Set(after.keys.filter { after[$0] != before[$0] })
        #expect(
            changed.contains { $0.hasPrefix("ios-state-restoration/") },
            "the edited spec's files were not written: \(watch.log)")
        for path in before.keys
        where !path.hasPrefix("ios-state-restoration/") && path != ".lifespec-manifest" && path != "README.md" {
            #expect(after[path] == before[path], "\(path) was written again, though its spec did not change")
        }
        // Whole-new: exactly what a full generate of the edited specs writes, and --check agrees.
        let reference = project.appendingPathComponent("Reference")
        #expect(
            try CLI.run(
                ["generate", "-q", "-o", reference.path, "--suites", project.appendingPathComponent("RefSuites").path],
                in: project
            ).status == 0)
        #expect(contents(output) == contents(reference))
        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func anEditToAPartRegeneratesTheSystemWatchedByName() throws {
        let project = try CLI.scratchProject()
        // Only the system is named; its part files are watched with it.
        let watch = try WatchedProcess(
            CLI.executable, ["watch", "--interval", "0.1", "--max-passes", "2", "Spec/uikit-memory-warning.yaml"],
            in: project)
        defer { if watch.process.isRunning { watch.process.terminate() } }
        try #require(watch.wait(for: "removed\n", timeout: Self.firstPassTimeout))
        let system = project.appendingPathComponent("Output/uikit-memory-warning")
        let before = contents(system)
        let part = project.appendingPathComponent("Spec/ios-app-lifecycle.yaml")
        try edit(part, replacing: "notRunning", with: "notYetRunning")
        try #require(watch.wait(for: "removed\n", count: 2))
        watch.waitUntilExit()
        #expect(watch.log.contains("changed: Spec/ios-app-lifecycle.yaml"), "\(watch.log)")
        let after = contents(system)
        #expect(after != before, "the system's files were not generated again")
        #expect(after["README.md"].map { String(decoding: $0, as: UTF8.self).contains("notYetRunning") } == true)
        // The system's files are what a generate of it alone writes now.
        let reference = project.appendingPathComponent("Reference")
        #expect(
            try CLI.run(
                [
                    "generate", "-q", "-o", reference.path, "--suites",
                    project.appendingPathComponent("RefSuites").path, "Spec/uikit-memory-warning.yaml",
                ],
                in: project
            ).status == 0)
        #expect(after == contents(reference.appendingPathComponent("uikit-memory-warning")))
    }
}
