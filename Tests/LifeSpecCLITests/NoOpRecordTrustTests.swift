import Foundation
import Testing

/// What the no-op record (`Output/.lifespec-cache/no-op`) may not do: vouch for a drawing whose
/// source changed, or be trusted when it is not the record a run wrote.
@Suite("generate: what the no-op record is not trusted with", .serialized)
struct NoOpRecordTrustTests {
    static func record(_ project: URL) -> URL { project.appendingPathComponent("Output/.lifespec-cache/no-op") }

    /// The door project, generated, then generated again so the record vouches for every file by
    /// its stat (none is racily clean any more).
    static func settledProject() throws -> URL {
        let project = try NoOpRecordTests.generatedProject()
        let past = Date(timeIntervalSinceNow: -3600)
        for path in try #require(FileManager.default.subpaths(atPath: project.appendingPathComponent("Output").path)) {
            let url = project.appendingPathComponent("Output").appendingPathComponent(path)
            if !url.hasDirectoryPath, !path.hasPrefix(".lifespec-cache") {
                try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: url.path)
            }
        }
        #expect(NoOpRecordTests.summary(try CLI.run(["generate"], in: project)).hasPrefix("0 created, 0 updated, "))
        return project
    }

    @Test("a spec edit that changes the drawing redraws it, though the record vouches for the old drawing's bytes")
    func aChangedSourceRedrawsTheDrawing() throws {
        let project = try Self.settledProject()
        let svg = project.appendingPathComponent("Output/door/diagram.svg")
        let png = project.appendingPathComponent("Output/door/diagram.png")
        let (oldSVG, oldPNG) = (try Data(contentsOf: svg), try Data(contentsOf: png))
        let spec = project.appendingPathComponent("Spec/door.yaml")
        let text = try String(contentsOf: spec, encoding: .utf8)
        try text.replacingOccurrences(of: "title: {en: Closed,", with: "title: {en: Shut tight,").write(
            to: spec, atomically: true, encoding: .utf8)
        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 1)
        #expect(check.stderr.contains("stale:   Output/door/diagram.svg"), "\(check.stderr)")
        #expect(check.stderr.contains("stale:   Output/door/diagram.png"), "\(check.stderr)")
        let run = try CLI.run(["generate"], in: project)
        #expect(run.stdout.contains("updated  Output/door/diagram.svg"), "\(run.stdout)")
        #expect(run.stdout.contains("updated  Output/door/diagram.png"), "\(run.stdout)")
        #expect(try Data(contentsOf: svg) != oldSVG)
        #expect(try Data(contentsOf: png) != oldPNG)
        #expect(try String(contentsOf: svg, encoding: .utf8).contains("Shut tight"))
        #expect(try CLI.run(["generate", "--check"], in: project).status == 0)
    }

    @Test("a record that lost a line is not trusted: the file it no longer names is found missing and written again")
    func aRecordMissingALineIsNotTrusted() throws {
        let project = try Self.settledProject()
        let record = Self.record(project)
        let lines = try String(contentsOf: record, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        try lines.filter { !$0.hasSuffix("Output/door/diagram.mmd") }.joined(separator: "\n").write(
            to: record, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: project.appendingPathComponent("Output/door/diagram.mmd"))
        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stderr.contains("missing: Output/door/diagram.mmd"), "\(check.stderr)")
        #expect(try CLI.run(["generate"], in: project).stdout.contains("created  Output/door/diagram.mmd"))
    }

    @Test("a record whose line for a file was rewritten to an edited file's stat is not trusted: the edit is found")
    func aForgedLineIsNotTrusted() throws {
        let project = try Self.settledProject()
        let page = project.appendingPathComponent("Output/door/README.md")
        let record = Self.record(project)
        var text = try String(contentsOf: record, encoding: .utf8)
        try Data("edited by hand\n".utf8).write(to: page)
        // The line a run would have written for the edited file, but for the digest: the size,
        // times and inode now on disk.
        let attributes = try FileManager.default.attributesOfItem(atPath: page.path)
        let size = try #require(attributes[.size] as? Int)
        var lines = text.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasSuffix(" Output/door/README.md") })
        var fields = lines[index].split(separator: " ").map(String.init)
        fields[1] = "\(size)"
        var info = stat()
        #expect(lstat(page.path, &info) == 0)
        fields[2] = "\(Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))"
        fields[3] = "\(Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))"
        fields[4] = "\(info.st_ino)"
        lines[index] = fields.joined(separator: " ")
        text = lines.joined(separator: "\n") + "\n"
        try text.write(to: record, atomically: true, encoding: .utf8)
        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 1)
        #expect(check.stderr.contains("stale:   Output/door/README.md"), "\(check.stderr)")
    }

    @Test("a record cut short or garbled is not trusted, and the run that ignores it writes a whole one again")
    func aGarbledRecordIsNotTrusted() throws {
        let project = try Self.settledProject()
        let record = Self.record(project)
        let whole = try Data(contentsOf: record)
        // Cut in the middle of a line, and with one byte of a stat changed.
        let garbled = [
            whole.prefix(whole.count / 2),
            {
                var bytes = whole
                bytes[bytes.count / 2] ^= 0x01
                return bytes
            }(),
        ]
        for bytes in garbled {
            try bytes.write(to: record)
            try Data("changed\n".utf8).write(to: project.appendingPathComponent("Output/door/diagram.mmd"))
            let check = try CLI.run(["generate", "--check"], in: project)
            #expect(check.status == 1)
            #expect(check.stderr.contains("stale:   Output/door/diagram.mmd"), "\(check.stderr)")
            #expect(try CLI.run(["generate"], in: project).stdout.contains("updated  Output/door/diagram.mmd"))
            // The run recorded itself again: the next one is proven a no-op by the record.
            let text = try String(contentsOf: record, encoding: .utf8)
            #expect(text.hasPrefix("lifespec-no-op "))
            #expect(text.split(separator: "\n").last?.hasPrefix("sum sha256:") == true)
        }
    }
}
