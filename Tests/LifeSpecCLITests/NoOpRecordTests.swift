import Foundation
import LifeSpecTestSupport
import Testing

/// `generate` proves "nothing to do" from `Output/.lifespec-cache/no-op` (the inputs' digest and
/// the outputs' stat) without loading a spec. These tests hold it to the slow way's answers: any
/// change to a spec or an output is still found, and what a killed run left is still recovered.
@Suite("generate: the no-op record", .serialized)
struct NoOpRecordTests {
    /// A project with the small door spec, generated once.
    static func generatedProject() throws -> URL {
        let folder = Scratch.url("lifespec-noop")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Spec"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLI.fixtures.appendingPathComponent("Valid/door.yaml"),
            to: folder.appendingPathComponent("Spec/door.yaml"))
        let first = try CLI.run(["generate"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        return folder
    }

    static func modified(_ url: URL) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    static func summary(_ result: CLIResult) -> String {
        String(result.stdout.split(separator: "\n").last ?? "")
    }

    @Test(
        "with nothing to do, generate reports every file unchanged, as the slow way does, and writes nothing in Output/ (not even a staging folder)"
    )
    func nothingToDoWritesNothing() throws {
        let project = try Self.generatedProject()
        let output = project.appendingPathComponent("Output")
        let record = output.appendingPathComponent(".lifespec-cache/no-op")
        #expect(FileManager.default.fileExists(atPath: record.path))
        // Never committed: the folder ignores itself.
        #expect(
            try String(contentsOf: output.appendingPathComponent(".lifespec-cache/.gitignore"), encoding: .utf8)
                .contains("\n*\n"))
        // The slow way's report, for comparison: without the record it must load and compare everything.
        try FileManager.default.removeItem(at: record)
        let slow = try CLI.run(["generate"], in: project)
        #expect(slow.status == 0)
        #expect(Self.summary(slow).hasPrefix("0 created, 0 updated, "))
        Thread.sleep(forTimeInterval: 0.05)
        let folderBefore = try Self.modified(output)
        let fast = try CLI.run(["generate"], in: project)
        #expect(fast.status == 0, "\(fast.stderr)")
        #expect(fast.stdout == slow.stdout)
        // The slow way makes and removes a staging folder in Output/, which changes the folder's time.
        #expect(try Self.modified(output) == folderBefore, "generate touched Output/ with nothing to do")
        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 0)
        let count = Self.summary(slow).split(separator: " ")[4]
        #expect(check.stdout.contains("(\(count) files)"), "\(check.stdout)")
    }

    @Test(
        "an output edited by hand with its size and modification time kept is still stale for --check, and generate writes it again"
    )
    func handEditKeepingStatIsFound() throws {
        let project = try Self.generatedProject()
        let page = project.appendingPathComponent("Output/door/README.md")
        let original = try Data(contentsOf: page)
        let time = try Self.modified(page)
        var edited = original
        let index = try #require(edited.firstIndex(of: UInt8(ascii: "D")))
        edited[index] = UInt8(ascii: "E")
        try edited.write(to: page)
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: page.path)
        // A Date carries the time to about a microsecond.
        #expect(abs(try Self.modified(page).timeIntervalSince(time)) < 0.001)
        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 1)
        #expect(check.stderr.contains("stale:   Output/door/README.md"), "\(check.stderr)")
        let again = try CLI.run(["generate"], in: project)
        #expect(again.stdout.contains("updated  Output/door/README.md"), "\(again.stdout)")
        #expect(try Data(contentsOf: page) == original)
        #expect(try CLI.run(["generate", "--check"], in: project).status == 0)
    }

    @Test("a deleted output is missing for --check, and a spec edit is generated again")
    func deletionsAndSpecEditsAreFound() throws {
        let project = try Self.generatedProject()
        try FileManager.default.removeItem(at: project.appendingPathComponent("Output/door/diagram.mmd"))
        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 1)
        #expect(check.stderr.contains("missing: Output/door/diagram.mmd"), "\(check.stderr)")
        #expect(try CLI.run(["generate", "-q"], in: project).status == 0)

        let spec = project.appendingPathComponent("Spec/door.yaml")
        let text = try String(contentsOf: spec, encoding: .utf8)
        try text.replacingOccurrences(of: "title: {en: Door,", with: "title: {en: Front door,").write(
            to: spec, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["generate", "--check"], in: project).status == 1)
        let again = try CLI.run(["generate"], in: project)
        #expect(again.stdout.contains("updated  Output/door/README.md"), "\(again.stdout)")
        #expect(
            try String(contentsOf: project.appendingPathComponent("Output/door/README.md"), encoding: .utf8).contains(
                "Front door"))
        // Saved again with the same bytes: still nothing to do.
        try text.replacingOccurrences(of: "title: {en: Door,", with: "title: {en: Front door,").write(
            to: spec, atomically: true, encoding: .utf8)
        #expect(Self.summary(try CLI.run(["generate"], in: project)).hasPrefix("0 created, 0 updated, "))
    }

    @Test("a staging folder a killed run left is finished or thrown away, even when the record says nothing changed")
    func leftoversOfAKilledRunAreRecovered() throws {
        let project = try Self.generatedProject()
        let leftover = project.appendingPathComponent("Output/.lifespec-staging-999-dead")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: false)
        try Data("half".utf8).write(to: leftover.appendingPathComponent("s0"))
        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
    }

    @Test(
        "files changed in the tick the record was written are compared by their bytes; a plain generate then trusts them, --check writes nothing"
    )
    func racilyCleanFilesAreReadThenTrusted() throws {
        let project = try Self.generatedProject()
        let record = project.appendingPathComponent("Output/.lifespec-cache/no-op")
        // A record older than every output: each one is "racily clean" and must be read.
        let past = Date(timeIntervalSinceNow: -3600)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: record.path)
        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 0)
        #expect(abs(try Self.modified(record).timeIntervalSince(past)) < 0.001, "--check rewrote the record")
        #expect(Self.summary(try CLI.run(["generate"], in: project)).hasPrefix("0 created, 0 updated, "))
        #expect(try Self.modified(record) > past.addingTimeInterval(60), "the record was not brought up to date")
        // A racily clean file that did change is found by its bytes.
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: record.path)
        let page = project.appendingPathComponent("Output/door/README.md")
        var bytes = try Data(contentsOf: page)
        bytes[bytes.count - 2] ^= 0x20
        try bytes.write(to: page)
        #expect(try CLI.run(["generate", "--check"], in: project).status == 1)
    }

    @Test("a corrupt or foreign record is ignored: the run does the whole work")
    func corruptRecordIsIgnored() throws {
        let project = try Self.generatedProject()
        let record = project.appendingPathComponent("Output/.lifespec-cache/no-op")
        try Data("lifespec-no-op 1\ninputs sha256:0\nf 1 2 3 4 5 zz Output/x\n".utf8).write(to: record)
        try Data("changed\n".utf8).write(to: project.appendingPathComponent("Output/door/diagram.mmd"))
        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 1)
        #expect(check.stderr.contains("stale:   Output/door/diagram.mmd"))
    }
}
