import Foundation
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

@Suite("Mermaid state diagrams")
struct MermaidRendererTests {
    @Test(
        "Mermaid goldens",
        arguments: [
            ("app-lifecycle", "full", DiagramOptions()),
            (
                "app-lifecycle", "events-lr",
                with(DiagramOptions()) {
                    $0.detail = .events
                    $0.direction = .leftToRight
                }
            ),
            ("app-lifecycle", "states", with(DiagramOptions()) { $0.detail = .states }),
            ("app-lifecycle", "zh-Hans", DiagramOptions(locale: "zh-Hans")),
            ("app-lifecycle", "scenario-coldLaunch", with(DiagramOptions()) { $0.scenario = "coldLaunch" }),
            ("hostile-labels", "full", DiagramOptions()),
        ])
    func goldens(fixture: String, variation: String, options: DiagramOptions) throws {
        let spec = try SpecFixtures.load("Tests/Fixtures/Diagram/\(fixture).yaml")
        try assertDiagramGolden(MermaidRenderer.render(spec, options: options), named: "\(fixture)-\(variation).mmd")
    }

    @Test("flagship iOS app life cycle: Mermaid golden")
    func flagship() throws {
        try assertDiagramGolden(
            MermaidRenderer.render(SpecFixtures.flagship, options: DiagramOptions()),
            named: "ios-app-lifecycle-full.mmd")
    }

    @Test("every character Mermaid reads as syntax becomes a #code; entity")
    func escaping() {
        #expect(
            MermaidRenderer.escape(#"a: b; #c "d" <e> {f} 100% & `g`"#)
                == "a#58; b#59; #35;c #34;d#34; #60;e#62; #123;f#125; 100#37; #38; #96;g#96;")
        #expect(MermaidRenderer.escape("line\nbreak\r\ttab\u{7}\u{2028}") == "line break  tab")
        #expect(MermaidRenderer.escape("完成 ✓ [x] (y) -- z") == "完成 ✓ [x] (y) -- z")
    }

    @Test("ids are letters, digits and underscores, unique, and never keywords")
    func identifiers() {
        let ids = MermaidIdentifiers.make(["a-b", "a_b", "a.b", "end", "State", "9x", "ok"])
        #expect(
            ids == [
                "a-b": "a_b", "a_b": "a_b_2", "a.b": "a_b_3", "end": "s_end_", "State": "s_State", "9x": "s_9x",
                "ok": "ok",
            ])
    }

    @Test(
        "every line is one Mermaid statement and no spec text escapes its label",
        arguments: [
            "Tests/Fixtures/Diagram/hostile-labels.yaml", "Tests/Fixtures/Diagram/app-lifecycle.yaml",
            "Spec/ios-app-lifecycle.yaml",
        ])
    func grammar(path: String) throws {
        let spec = try SpecFixtures.load(path)
        for options in [
            DiagramOptions(),
            with(DiagramOptions(locale: "zh-Hans")) {
                $0.detail = .events
                $0.scenario = spec.document.scenarios.first?.id
            },
        ] {
            let text = MermaidRenderer.render(spec, options: options)
            var depth = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                let line = String(line)
                #expect(MermaidLine.matches(line), "not a Mermaid statement: \(line)")
                if line.hasSuffix(" {") && line.trimmingCharacters(in: .whitespaces).hasPrefix("state ") { depth += 1 }
                if line.trimmingCharacters(in: .whitespaces) == "}" { depth -= 1 }
                #expect(depth >= 0)
            }
            #expect(depth == 0)
            #expect(text.hasSuffix("\n") && !text.hasSuffix("\n\n"))
        }
    }

    @Test("structure: composites nest, initial and final markers, transitions between composites are lifted and say so")
    func structure() throws {
        let text = MermaidRenderer.render(try SpecFixtures.appLifecycle, options: DiagramOptions())
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let running = try #require(lines.firstIndex(of: "state running {"))
        let foreground = try #require(lines.firstIndex(of: "state foreground {"))
        #expect(running < foreground)
        #expect(lines.contains("[*] --> notRunning"))
        #expect(lines.contains("[*] --> foreground"))
        #expect(lines.contains("[*] --> inactive"))
        // `terminate` from [executing, inactive] to notRunning: drawn from the outermost composite
        // that separates them, once per real source, saying which.
        #expect(
            lines.contains { $0.hasPrefix("running --> notRunning : terminate") && $0.hasSuffix("(from Executing)") })
        #expect(
            lines.contains { $0.hasPrefix("running --> notRunning : terminate") && $0.hasSuffix("(from Inactive)") })
        // The composite's internal transition cannot be attached in Mermaid; it stays as a comment.
        #expect(lines.contains { $0.hasPrefix("%% running handles memoryWarning") })
        // A leaf's internal transition is a description line of the state.
        #expect(lines.contains { $0.hasPrefix("executing : taskFinished") })
        let hostile = MermaidRenderer.render(try SpecFixtures.hostile, options: DiagramOptions())
        #expect(hostile.contains("final_state --> [*]"))
    }

    @Test("a scenario numbers its steps and marks the states it visits")
    func scenario() throws {
        let text = MermaidRenderer.render(
            try SpecFixtures.appLifecycle,
            options: with(DiagramOptions()) {
                $0.detail = .events
                $0.scenario = "coldLaunch"
            })
        #expect(text.contains("inactive --> active : 3, 5 · becomeActive"))
        #expect(text.contains("active --> inactive : 4 · resignActive"))
        #expect(text.contains("class notRunning,launching,inactive,active lifespecPath"))
    }
}

/// The statements the renderer may write, as patterns over one line.
enum MermaidLine {
    static let id = "[A-Za-z_][A-Za-z0-9_]*"
    /// Label text: anything but the characters Mermaid would read as syntax, which must appear
    /// only as `#code;` entities.
    static let text = #"(?:[^:;#"<>{}%`\n]|#[0-9]+;)+"#
    static let patterns = [
        #"^%%.*$"#,
        #"^stateDiagram-v2$"#,
        #"^\s+direction (TB|LR)$"#,
        #"^\s+state "\#(text)" as \#(id)$"#,
        #"^\s+\#(id)$"#,
        #"^\s+\#(id) : \#(text)$"#,
        #"^\s+state \#(id) \{$"#,
        #"^\s+\}$"#,
        #"^\s+\[\*\] --> \#(id)$"#,
        #"^\s+\#(id) --> \[\*\]$"#,
        #"^\s+\#(id) --> \#(id)( : \#(text))?$"#,
        #"^\s+%% .*$"#,
        #"^\s+classDef lifespecPath [A-Za-z0-9:#,\-]+$"#,
        #"^\s+class \#(id)(,\#(id))* lifespecPath$"#,
    ].map { try! NSRegularExpression(pattern: $0) }

    static func matches(_ line: String) -> Bool {
        let range = NSRange(line.startIndex..., in: line)
        return patterns.contains { $0.firstMatch(in: line, range: range)?.range == range }
    }
}
