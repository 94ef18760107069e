import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

/// Mermaid checked by Mermaid: every diagram LifeSpec writes is parsed and rendered by mermaid.js
/// itself (PyPI's mermaidx, which runs it in QuickJS), not only matched against goldens and a line
/// grammar. Covered: every `.mmd` and every Mermaid block of the pages in Output/, the Mermaid
/// goldens, and fresh renders of the small fixture specs in several options.
///
/// It needs Tests/Tools/.venv (`Tests/Tools/install-mermaidx`; `.ci/run` installs it) or
/// LIFESPEC_MERMAIDX_PYTHON. Without one it is skipped with that advice, unless
/// LIFESPEC_REQUIRE_MERMAIDJS=1 (CI sets it), where a missing mermaidx is a failure.
@Suite("Mermaid checked by mermaid.js")
struct MermaidJSTests {
    static let tools = SpecFixtures.url("Tests/Tools")

    static var python: URL? {
        if let path = ProcessInfo.processInfo.environment["LIFESPEC_MERMAIDX_PYTHON"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let venv = tools.appendingPathComponent(".venv/bin/python")
        return FileManager.default.isExecutableFile(atPath: venv.path) ? venv : nil
    }

    static var required: Bool { ProcessInfo.processInfo.environment["LIFESPEC_REQUIRE_MERMAIDJS"] == "1" }

    @Test(
        "every generated Mermaid diagram parses and renders in mermaid.js (and the check fails on what it rejects)",
        .enabled(
            if: python != nil || required,
            "mermaidx is not installed: run Tests/Tools/install-mermaidx to check Mermaid output with mermaid.js"),
        .timeLimit(.minutes(20)))
    func generatedDiagramsRender() throws {
        let python = try #require(
            Self.python, "LIFESPEC_REQUIRE_MERMAIDJS=1 but mermaidx is missing: run Tests/Tools/install-mermaidx")
        try Self.checkFailsOnBrokenMermaid(python)
        var files: [URL] = []
        // (Not the Markdown goldens: their Mermaid blocks are hand-written inputs of the fence-escaping tests.)
        for folder in ["Output", "Tests/Fixtures/Diagram/Golden"] {
            files += Self.files(under: SpecFixtures.url(folder)).filter { ["mmd", "md"].contains($0.pathExtension) }
        }
        #expect(files.filter { $0.pathExtension == "mmd" }.count >= 8, "the committed .mmd files were not found")

        // Fresh renders of the small fixtures, in options the committed files do not show.
        let fresh = try Scratch.folder("lifespec-mermaidjs")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let specs =
            Self.files(under: SpecFixtures.url("Tests/Fixtures/Valid"))
            + Self.files(under: SpecFixtures.url("Tests/Fixtures/Markdown"))
        for specURL in specs where ["yaml", "json"].contains(specURL.pathExtension) {
            let spec = try SpecFixtures.load(String(specURL.path.dropFirst(SpecFixtures.packageRoot.path.count + 1)))
            var variants: [(String, DiagramOptions)] = [
                ("full", DiagramOptions()),
                (
                    "events-lr",
                    with(DiagramOptions()) {
                        $0.detail = .events
                        $0.direction = .leftToRight
                    }
                ),
                (
                    "states",
                    with(DiagramOptions()) {
                        $0.detail = .states
                        $0.showNotifications = false
                    }
                ),
            ]
            if let scenario = spec.document.scenarios.last {
                variants.append(("scenario", with(DiagramOptions()) { $0.scenario = scenario.id }))
            }
            for locale in spec.document.locales.dropFirst() {
                variants.append((locale, DiagramOptions(locale: locale)))
            }
            for (name, options) in variants {
                let file = fresh.appendingPathComponent(
                    "\(specURL.deletingPathExtension().lastPathComponent)-\(name).mmd")
                try MermaidRenderer.render(spec, options: options).write(to: file, atomically: true, encoding: .utf8)
                files.append(file)
            }
        }

        let result = try Self.run(
            python, [Self.tools.appendingPathComponent("mermaid_check.py").path] + files.map(\.path))
        let failures = result.output.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(
            result.status == 0 && failures.isEmpty,
            "mermaid.js rejected generated Mermaid:\n\(failures.joined(separator: "\n"))\n\(result.output)")
        // The check saw every diagram: each .mmd file and each Mermaid block of the pages.
        var expected = 0
        for file in files {
            guard file.pathExtension == "md" else {
                expected += 1
                continue
            }
            let text = try String(contentsOf: file, encoding: .utf8)
            expected += text.split(separator: "\n").filter { $0.hasPrefix("```") && $0.hasSuffix("mermaid") }.count
        }
        #expect(expected > files.filter { $0.pathExtension == "mmd" }.count, "no Mermaid block found in the pages")
        #expect(
            result.output.split(separator: "\n").filter { $0.hasPrefix("ok") }.count == expected, "\(result.output)")
    }

    /// Sequence diagrams as Mermaid: mermaid.js takes ~10 s of CPU a diagram here, so not all 174
    /// of Spec/: the longest scenario of each spec, the longest in Chinese, and hostile titles.
    @Test(
        "sequence diagrams parse and render in mermaid.js",
        .enabled(
            if: python != nil || required,
            "mermaidx is not installed: run Tests/Tools/install-mermaidx to check Mermaid output with mermaid.js"),
        .timeLimit(.minutes(20)))
    func sequenceDiagramsRender() throws {
        let python = try #require(
            Self.python, "LIFESPEC_REQUIRE_MERMAIDJS=1 but mermaidx is missing: run Tests/Tools/install-mermaidx")
        let folder = try Scratch.folder("lifespec-mermaidjs-sequences")
        defer { try? FileManager.default.removeItem(at: folder) }
        var chosen: [(name: String, text: String, rows: Int)] = []
        for specURL in Self.files(under: SpecFixtures.url("Spec")) where specURL.pathExtension == "yaml" {
            let spec = try SpecFixtures.load("Spec/" + specURL.lastPathComponent)
            for locale in spec.document.locales {
                let longest = spec.document.scenarios.compactMap { scenario in
                    SequenceDiagram(spec: spec, scenario: scenario.id, locale: locale).map { ($0, scenario.id) }
                }.max { $0.0.rows.count < $1.0.rows.count }
                guard let (diagram, id) = longest else { continue }
                chosen.append(
                    (
                        "\(spec.document.id)-\(id)-\(locale)",
                        diagram.mermaid(scenario: id, file: specURL.lastPathComponent),
                        locale == spec.document.defaultLocale ? diagram.rows.count : -diagram.rows.count
                    ))
            }
        }
        let chinese = chosen.filter { $0.rows < 0 }.sorted { $0.rows < $1.rows }.prefix(1)
        var files: [URL] = []
        for diagram in chosen.filter({ $0.rows >= 0 }) + chinese {
            let file = folder.appendingPathComponent(diagram.name + ".mmd")
            try diagram.text.write(to: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let hostile = try SpecFixtures.hostile
        let scenario = try #require(hostile.document.scenarios.first)
        let file = folder.appendingPathComponent("hostile.mmd")
        try #require(SequenceDiagram(spec: hostile, scenario: scenario.id, locale: nil))
            .mermaid(scenario: scenario.id, file: "hostile-labels.yaml").write(
                to: file, atomically: true, encoding: .utf8)
        files.append(file)
        #expect(files.count >= 10)
        let result = try Self.run(
            python, [Self.tools.appendingPathComponent("mermaid_check.py").path] + files.map(\.path))
        #expect(result.status == 0, "mermaid.js rejected a sequence diagram:\n\(result.output)")
        #expect(
            result.output.split(separator: "\n").filter { $0.hasPrefix("ok") }.count == files.count, "\(result.output)")
    }

    /// The checker itself: Mermaid that mermaid.js rejects fails it, with the block's line and the
    /// parser's message. (Part of the test above, so a missing mermaidx skips with one line.)
    static func checkFailsOnBrokenMermaid(_ python: URL) throws {
        let broken = Scratch.url("lifespec-broken").appendingPathExtension("md")
        try "# page\n\n```mermaid\nstateDiagram-v2\n    state \"unterminated\n```\n".write(
            to: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: broken) }
        let result = try Self.run(python, [Self.tools.appendingPathComponent("mermaid_check.py").path, broken.path])
        #expect(result.status == 1)
        #expect(result.output.contains("FAIL  \(broken.path):4: "), "\(result.output)")
        #expect(result.output.contains("Parse error"), "\(result.output)")
    }

    static func files(under folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath }.sorted { $0.path < $1.path }
    }

    static func run(_ program: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
