import Foundation
import LifeSpec
import LifeSpecRender
import LifeSpecTestSupport
import Testing

@testable import LifeSpecGenerate

/// `generate` streams its files through an `OutputStage`: each lands in a temporary file as it is
/// made and only a commit moves them into place.
@Suite("Output stage (streamed, all-or-nothing writes)")
struct OutputStageTests {
    /// A scratch directory holding `old.txt` and a manifest from an earlier run that also made
    /// `gone.txt` (still on disk) and `kept.txt`.
    private func previousRun() throws -> URL {
        let directory = try Scratch.folder("lifespec-stage")
        try Data("old\n".utf8).write(to: directory.appendingPathComponent("old.txt"))
        try Data("same\n".utf8).write(to: directory.appendingPathComponent("kept.txt"))
        try Data("stale\n".utf8).write(to: directory.appendingPathComponent("gone.txt"))
        try Data(manifest(["gone.txt": "stale\n", "kept.txt": "same\n", "old.txt": "old\n"]).utf8).write(
            to: directory.appendingPathComponent(OutputWriter.manifestName))
        return directory
    }

    /// A manifest as a previous run wrote it: each path with the digest of its bytes.
    private func manifest(_ files: [String: String]) -> String {
        "# manifest\n"
            + files.keys.sorted().map {
                ManifestEntry(path: $0, digest: ManifestEntry.digest(Array(files[$0]!.utf8))).line + "\n"
            }.joined()
    }

    /// Every file under `directory` (hidden ones included) with its bytes.
    private func snapshot(_ directory: URL) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory.path))
        for case let path as String in enumerator {
            var isFolder: ObjCBool = false
            let full = directory.appendingPathComponent(path).path
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
            files[path] = isFolder.boolValue ? [] : [UInt8](try Data(contentsOf: URL(fileURLWithPath: full)))
        }
        return files
    }

    @Test(
        "nothing moves until the commit; then changed and new files land, stale ones go, and the manifest is rewritten")
    func commitMovesEverythingIntoPlace() throws {
        let directory = try previousRun()
        let before = try snapshot(directory)
        let stage = try OutputStage(writer: OutputWriter(directory: directory), check: false)
        try stage.offer(GeneratedFile(path: "old.txt", text: "new\n"))
        try stage.offer(GeneratedFile(path: "kept.txt", text: "same\n"))
        try stage.offer(GeneratedFile(path: "deep/er/fresh.txt", text: "fresh\n"))
        // Staged, not visible: the old bytes are still there under their names.
        let staged = try snapshot(directory)
        #expect(staged["old.txt"] == before["old.txt"] && staged["gone.txt"] != nil)
        #expect(staged["deep/er/fresh.txt"] == nil)
        let report = try stage.commit()
        #expect(
            report.written == ["old.txt"] && report.created == ["deep/er/fresh.txt"] && report.kept == ["kept.txt"]
                && report.removed == ["gone.txt"])
        let after = try snapshot(directory)
        #expect(after["old.txt"] == Array("new\n".utf8))
        #expect(after["deep/er/fresh.txt"] == Array("fresh\n".utf8))
        #expect(after["gone.txt"] == nil)
        #expect(!after.keys.contains { $0.hasPrefix(".lifespec-staging") })
        let written = String(decoding: try #require(after[OutputWriter.manifestName]), as: UTF8.self)
        #expect(
            written.split(separator: "\n").dropFirst().joined(separator: "\n")
                == manifest(["deep/er/fresh.txt": "fresh\n", "kept.txt": "same\n", "old.txt": "new\n"]).split(
                    separator: "\n"
                ).dropFirst().joined(separator: "\n"))
    }

    @Test("a discarded stage leaves the directory exactly as it was: no temporary files, no new folders")
    func discardLeavesNoTrace() throws {
        let directory = try previousRun()
        let before = try snapshot(directory)
        let stage = try OutputStage(writer: OutputWriter(directory: directory), check: false)
        try stage.offer(GeneratedFile(path: "old.txt", text: "new\n"))
        try stage.offer(GeneratedFile(path: "spec/scenarios/a.svg", text: "<svg/>"))
        #expect(try snapshot(directory) != before, "staging writes temporary files")
        stage.discard()
        #expect(try snapshot(directory) == before)
        #expect(throws: OutputError.self) { try stage.offer(GeneratedFile(path: "late.txt", text: "")) }
    }

    @Test("a stage into a directory that does not exist yet removes it again when discarded")
    func discardRemovesACreatedOutputDirectory() throws {
        let parent = try Scratch.folder("lifespec-stage")
        let stage = try OutputStage(
            writer: OutputWriter(directory: parent.appendingPathComponent("Output")), check: false)
        try stage.offer(GeneratedFile(path: "spec/README.md", text: "# Spec\n"))
        stage.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    @Test("a folder that cannot be made is an error naming the reason, and the stage still discards cleanly")
    func unmakeableFolderIsAClearError() throws {
        let directory = try previousRun()
        let before = try snapshot(directory)
        let stage = try OutputStage(writer: OutputWriter(directory: directory), check: false)
        try stage.offer(GeneratedFile(path: "fresh/a.txt", text: "a"))
        // old.txt is a file, so nothing can be made under it.
        #expect {
            try stage.offer(GeneratedFile(path: "old.txt/inside/b.txt", text: "b"))
        } throws: { error in
            (error as? OutputError).map {
                $0.message == "is a file where a folder is needed" && $0.path.hasSuffix("/old.txt")
            } ?? false
        }
        stage.discard()
        #expect(try snapshot(directory) == before)
    }

    @Test("check writes nothing and reports what is stale, missing and extra")
    func checkWritesNothing() throws {
        let directory = try previousRun()
        let before = try snapshot(directory)
        let stage = try OutputStage(writer: OutputWriter(directory: directory), check: true)
        try stage.offer(GeneratedFile(path: "old.txt", text: "new\n"))
        try stage.offer(GeneratedFile(path: "kept.txt", text: "same\n"))
        try stage.offer(GeneratedFile(path: "missing/file.txt", text: "x"))
        let report = try stage.commit()
        #expect(
            report.written == ["old.txt"] && report.created == ["missing/file.txt"] && report.removed == ["gone.txt"]
                && report.kept == ["kept.txt"])
        #expect(try snapshot(directory) == before)
    }

    @Test("two outputs for one path, or a path leaving the directory, are refused")
    func conflictsAndEscapesAreRefused() throws {
        let directory = try previousRun()
        let stage = try OutputStage(writer: OutputWriter(directory: directory), check: false)
        try stage.offer(GeneratedFile(path: "a/b.txt", text: "1"))
        #expect(throws: OutputError.self) { try stage.offer(GeneratedFile(path: "a/b.txt", text: "2")) }
        for path in ["../escape.txt", "/etc/passwd", "a/./b", ".hidden", ""] {
            #expect(throws: OutputError.self, "\(path)") { try stage.offer(GeneratedFile(path: path, text: "x")) }
        }
        stage.discard()
    }

    @Test("files offered from many threads at once all land")
    func concurrentOffers() throws {
        let directory = try previousRun()
        let stage = try OutputStage(writer: OutputWriter(directory: directory), check: false)
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            do {
                try stage.offer(GeneratedFile(path: "group\(index % 7)/file\(index).txt", text: "\(index)\n"))
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let report = try stage.commit()
        #expect(report.created.count == 200)
        #expect(report.created == report.created.sorted())
        let after = try snapshot(directory)
        for index in [0, 57, 199] {
            #expect(after["group\(index % 7)/file\(index).txt"] == Array("\(index)\n".utf8))
        }
    }

    @Test("each locale's page embeds the Mermaid diagram in its own language, as `docs --locale` writes it")
    func pagesEmbedLocalizedMermaid() throws {
        let spec = try SpecFixtures.flagship
        let files = try Generator.files(for: [spec])
        func page(_ name: String) throws -> String {
            String(
                decoding: try #require(files.first { $0.path == "ios-app-lifecycle/\(name)" }).contents, as: UTF8.self)
        }
        #expect(try page("README.md").contains("state \"Not running\" as notRunning"))
        #expect(try page("README.zh-Hans.md").contains("state \"未运行\" as notRunning"))
        let mermaid = MermaidRenderer.render(spec, options: DiagramOptions(locale: "zh-Hans"))
        // Its own drawings too: `diagram.zh-Hans.svg`, `scenarios/<id>.zh-Hans.svg` and `sequences/<id>.zh-Hans.svg`.
        var markdown = MarkdownOptions()
        markdown.specPath = spec.path
        markdown.diagramPath = "diagram.zh-Hans.svg"
        markdown.mermaid = mermaid
        markdown.scenarioDiagramPattern = "scenarios/{id}.zh-Hans.svg"
        markdown.sequenceDiagramPattern = "sequences/{id}.zh-Hans.svg"
        markdown.indexPath = "../"
        // The page shows its overview first, links to the full diagram and to its explorer page.
        markdown.overviewPath = "overview.zh-Hans.svg"
        markdown.explorerPath = ExplorerPage.fileName
        #expect(
            try page("README.zh-Hans.md")
                == MarkdownRenderer.page(for: spec, locale: "zh-Hans", options: markdown, others: [spec]).text)
    }

    @Test("a failing sink stops a streamed generate and its error comes back")
    func sinkFailureStopsTheStream() throws {
        struct Full: Error {}
        let spec = try SpecFixtures.appLifecycle
        let received = Locked(0)
        #expect {
            try Generator.generate([spec], others: [spec], index: true) { _ in
                try received.withLock { count throws(Full) in
                    count += 1
                    if count == 3 { throw Full() }
                }
            }
        } throws: { error in
            guard case .sink(let underlying)? = error as? Generator.StreamError else { return false }
            return underlying is Full
        }
        // The pieces in flight may finish handing over, but the index is never reached.
        let all = try Generator.files(for: [spec])
        #expect(received.withLock { $0 } < all.count)
    }
}
