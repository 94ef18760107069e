import Foundation
import LifeSpecTestSupport
import Testing

@testable import LifeSpec
@testable import LifeSpecRender

/// The diff model and its outputs, without the command (see DiffTests in LifeSpecCLITests).
@Suite("SpecDiff")
struct SpecDiffTests {
    @Test("traces align on their longest common subsequence, what one side lacks where it lacks it")
    func alignment() {
        let lines = TraceAlignment.align(["e", "a", "b", "c", "end"], ["e", "b", "a", "c", "x", "end"])
        let shown = lines.map { line -> String in
            switch line.side {
            case .both: "  " + line.text
            case .before: "- " + line.text
            case .after: "+ " + line.text
            }
        }
        #expect(shown == ["  e", "- a", "  b", "+ a", "  c", "+ x", "  end"])
        #expect(TraceAlignment.align([], ["a"]).map(\.side) == [.after])
        #expect(TraceAlignment.align(["a"], []).map(\.side) == [.before])
    }

    static let hostile = "Tests/Fixtures/Markdown/hostile.yaml"

    @Test("spec strings cannot inject Markdown or HTML into the pull-request comment")
    func markdownEscapes() throws {
        let old = try SpecFixtures.load(Self.hostile)
        var text = try String(
            contentsOf: SpecFixtures.packageRoot.appendingPathComponent(Self.hostile), encoding: .utf8)
        // The walk's two calls swapped (its expectation too), and a state retitled.
        text = text.replacingOccurrences(of: "      - notify: pinged\n      - onGo\n", with: "      - onGo\n")
            .replacingOccurrences(of: "      order: before\n", with: "      order: after\n")
            .replacingOccurrences(of: "      - onGo\n", with: "      - onGo\n      - notify: pinged\n")
            .replacingOccurrences(
                of: "title: \"Busy\\\\\"", with: "title: \"Busy </details> ``` <script>alert('new')</script>\"")
        let new = try SpecFixtures.load(yaml: text, path: Self.hostile)
        let diff = SpecDiff(old: old, named: "a|b`c", new: new, named: "<b>new</b>")
        #expect(diff.behaviourDiffers)
        #expect(diff.scenarios.map(\.id) == ["evil-walk"])
        #expect(diff.changes.map(\.id) == ["onGo", "from idle on go [armed]"])
        #expect(diff.textChanges.map(\.id) == ["busy"])

        let markdown = diff.markdown
        let html = InkHTML.html(markdown)
        #expect(!html.contains("<script>") && !html.contains("<b>new</b>") && !html.contains("<em>"), "\(html)")
        // One <details> (the test cases'), opened and closed by the diff itself.
        #expect(markdown.components(separatedBy: "</details>").count == 2, "\(markdown)")
        #expect(markdown.contains("```diff\n  event: go\n- notify: pinged\n  onGo\n+ notify: pinged\n"), "\(markdown)")
        // Every table row has its three cells.
        for table in InkHTML.tables(in: html) {
            #expect(table.rows.allSatisfy { $0.count == 3 }, "\(table.rows)")
        }
    }

    @Test("the same versions give the same bytes, and a version against itself differs in nothing")
    func deterministic() throws {
        let spec = try SpecFixtures.load("Spec/uikit-scene-based-app.yaml")
        let same = SpecDiff(old: spec, named: "a", new: spec, named: "b")
        #expect(!same.behaviourDiffers && same.textChanges.isEmpty)
        #expect(same.json == SpecDiff(old: spec, named: "a", new: spec, named: "b").json)
        let object = try JSONSerialization.jsonObject(with: Data(same.json.utf8)) as? [String: Any]
        #expect(object?["behaviourDiffers"] as? Bool == false)
    }
}
