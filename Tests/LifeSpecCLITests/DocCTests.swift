import Foundation
import LifeSpecTestSupport
import Testing

/// `generate --docc` and `docs --format docc`, checked by DocC itself: the catalog of the project's
/// specs converts with `docc convert` (from the toolchain) without a warning, and the rendered
/// pages hold the tables, diagrams, walkthroughs and links.
@Suite("DocC output")
struct DocCTests {
    static var docc: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("docc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    @Test("generate --docc writes a catalog that docc converts without warnings", .timeLimit(.minutes(10)))
    func catalogConverts() throws {
        let docc = try #require(Self.docc, "docc is not on PATH (it ships with the Swift toolchain)")
        let folder = try Scratch.folder("lifespec-docc")
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = folder.appendingPathComponent("Lifecycles.docc")

        let generated = try CLI.run([
            "generate", "--quiet", "--no-suites", "-o", folder.appendingPathComponent("Output").path, "--docc",
            catalog.path,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: catalog.path).sorted()
        #expect(
            files.contains("Lifecycles.md") && files.contains("ios-app-lifecycle.md") && files.contains("Resources"),
            "\(files)")
        let resources = try FileManager.default.contentsOfDirectory(
            atPath: catalog.appendingPathComponent("Resources").path)
        #expect(resources.contains("ios-app-lifecycle-diagram.svg"))
        #expect(resources.contains("ios-app-lifecycle-scenario-coldLaunch.svg"))

        // The same run again changes nothing, and --check agrees.
        let checked = try CLI.run([
            "generate", "--check", "--no-suites", "-o", folder.appendingPathComponent("Output").path, "--docc",
            catalog.path,
        ])
        #expect(checked.status == 0, "\(checked.stderr)")

        let site = folder.appendingPathComponent("site")
        let converted = try CLI.runProcess(
            docc,
            [
                "convert", catalog.path, "--output-path", site.path, "--warnings-as-errors",
                "--fallback-display-name", "Lifecycles", "--fallback-bundle-identifier", "org.lifespec.lifecycles",
            ], in: folder)
        let log = converted.stdout + converted.stderr
        #expect(converted.status == 0, "\(log)")
        #expect(!log.contains("warning:") && !log.contains("error:"), "docc reported problems:\n\(log)")

        // What DocC made of the flagship's article: tables, the diagram, walkthrough steps, the related links.
        let json = try String(
            contentsOf: site.appendingPathComponent("data/documentation/lifecycles/ios-app-lifecycle.json"),
            encoding: .utf8)
        #expect(json.contains("\"type\":\"table\""))
        #expect(json.contains("ios-app-lifecycle-diagram.svg"))
        #expect(json.contains("ios-app-lifecycle-scenario-coldLaunch.svg"))
        #expect(json.contains("Cold launch"))
        #expect(
            json.contains("doc://org.lifespec.lifecycles/documentation/Lifecycles/ios-scene-lifecycle"),
            "the related spec is not linked")
        #expect(!json.contains("&#"), "a character reference reached the rendered text")
    }

    /// Hostile text (markup, pipes, backticks, HTML in every field) must not turn into DocC syntax:
    /// a code span of two backticks, for one, is a symbol link to DocC and fails the build.
    @Test(
        "articles of hostile and fixture specs, written by docs --format docc -o, convert without warnings",
        .timeLimit(.minutes(10)))
    func fixtureArticlesConvert() throws {
        let docc = try #require(Self.docc, "docc is not on PATH (it ships with the Swift toolchain)")
        let folder = Scratch.url("lifespec-docc-fixtures")
        let catalog = folder.appendingPathComponent("Fixtures.docc")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let specs = [
            "Tests/Fixtures/Markdown/hostile.yaml", "Tests/Fixtures/Markdown/mini-app.yaml",
            "Tests/Fixtures/Diagram/hostile-labels.yaml",
        ]
        for spec in specs {
            let name = URL(fileURLWithPath: spec).deletingPathExtension().lastPathComponent
            let result = try CLI.run([
                "docs", spec, "--format", "docc", "-o", catalog.appendingPathComponent("\(name).md").path,
            ])
            #expect(result.status == 0, "\(spec): \(result.stderr)")
        }
        try
            "# Fixtures\n\nThe fixture specs.\n\n@Metadata {\n    @TechnologyRoot\n}\n\n## Topics\n\n- <doc:hostile>\n- <doc:mini-app>\n- <doc:hostile-labels>\n"
            .write(to: catalog.appendingPathComponent("Fixtures.md"), atomically: true, encoding: .utf8)
        let converted = try CLI.runProcess(
            docc,
            [
                "convert", catalog.path, "--output-path", folder.appendingPathComponent("site").path,
                "--warnings-as-errors",
                "--fallback-display-name", "Fixtures", "--fallback-bundle-identifier", "org.lifespec.fixtures",
            ], in: folder)
        let log = converted.stdout + converted.stderr
        #expect(
            converted.status == 0 && !log.contains("warning:") && !log.contains("error:"),
            "docc reported problems:\n\(log)")
    }

    @Test("docs --format docc: one-line table cells, no HTML, diagrams written beside the article with -o")
    func article() throws {
        let printed = try CLI.run(["docs", "Spec/ios-app-lifecycle.yaml", "--format", "docc"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let text = printed.stdout
        #expect(text.hasPrefix("# iOS app life cycle"))
        #expect(!text.contains("<br/>") && !text.contains("<details>") && !text.contains("<!--"))
        #expect(text.contains("## Overview") && text.contains("## See Also"))
        #expect(text.contains("<doc:ios-scene-lifecycle>"))
        // Without -o there are no resources to show.
        #expect(!text.contains("-diagram.svg)"))
        for line in text.split(separator: "\n") where line.hasPrefix("|") {
            #expect(line.hasSuffix("|"), "a table row continues on the next line: \(line)")
        }

        let folder = try Scratch.folder("lifespec-docc-article")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try CLI.run([
            "docs", "Spec/ios-app-lifecycle.yaml", "--format", "docc", "-o",
            folder.appendingPathComponent("app.md").path,
        ])
        #expect(written.status == 0, "\(written.stderr)")
        let article = try String(contentsOf: folder.appendingPathComponent("app.md"), encoding: .utf8)
        #expect(article.contains("](ios-app-lifecycle-diagram.svg)"))
        #expect(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("ios-app-lifecycle-diagram.svg").path))
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("ios-app-lifecycle-scenario-coldLaunch.svg").path))

        let wrong = try CLI.run(["docs", "Spec/ios-app-lifecycle.yaml", "--format", "html"])
        #expect(wrong.status == 64)
        let partial = try CLI.run([
            "generate", "Spec/ios-app-lifecycle.yaml", "--docc", folder.appendingPathComponent("X.docc").path,
        ])
        #expect(partial.status == 64 && partial.stderr.contains("catalog of every spec"), "\(partial.stderr)")
    }
}
