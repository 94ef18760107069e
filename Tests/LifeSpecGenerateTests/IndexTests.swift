import Foundation
import LifeSpec
import LifeSpecRender
import LifeSpecTestSupport
import Testing

@testable import LifeSpecGenerate

@Suite("The index of every spec, in each language")
struct IndexTests {
    @Test(
        "generate writes an index per language, lifecycles then systems, one line each; every page links back to its own"
    )
    func indexesAndBackLinks() throws {
        let specs = try ["ios-app-lifecycle", "uiviewcontroller-lifecycle", "uikit-navigation-stack"].map {
            try SpecFixtures.load("Spec/\($0).yaml")
        }
        let files = try Generator.files(for: specs)
        func text(_ path: String) throws -> String {
            String(
                decoding: try #require(files.first { $0.path == path }, "\(path) was not written").contents,
                as: UTF8.self)
        }
        let english = try text("README.md")
        let chinese = try text("README.zh-Hans.md")
        #expect(english.contains("[简体中文](README.zh-Hans.md)") && chinese.contains("[English](README.md)"))
        for (index, systems) in [(english, "## Systems of several objects"), (chinese, "## 由多个对象组成的系统")] {
            let entries = index.split(separator: "\n").filter { $0.hasPrefix("- ") }
            #expect(entries.count == specs.count, "one line per spec")
            #expect(entries.allSatisfy { $0.count < 400 })
            let systemsAt = try #require(index.range(of: systems)).lowerBound
            let stackAt = try #require(index.range(of: "uikit-navigation-stack/")).lowerBound
            let appAt = try #require(index.range(of: "ios-app-lifecycle/")).lowerBound
            #expect(appAt < systemsAt && systemsAt < stackAt, "lifecycles first, the system under systems")
        }
        #expect(chinese.contains("(uikit-navigation-stack/README.zh-Hans.md)"), "the Chinese index links Chinese pages")
        for spec in specs {
            let id = spec.document.id
            #expect(try text("\(id)/README.md").contains("[← Lifecycle specs](../README.md)"))
            #expect(try text("\(id)/README.zh-Hans.md").contains("[← 生命周期规格](../README.zh-Hans.md)"))
        }
        // Without the index (`generate SPEC` of some specs), no page links to one.
        let alone = try Generator.files(for: [specs[0]], others: specs)
        #expect(!alone.contains { $0.path == "README.md" })
        #expect(
            !String(
                decoding: try #require(alone.first { $0.path == "ios-app-lifecycle/README.md" }).contents, as: UTF8.self
            )
            .contains("../README.md"))
    }

    @Test("a summary is cut to its first sentence, then at a word, within the line's width")
    func firstSentence() {
        #expect(MarkdownIndexRenderer.firstSentence("One. Two.", language: .english) == "One.")
        let long = String(repeating: "word ", count: 60)
        let cut = MarkdownIndexRenderer.firstSentence(long, language: .english)
        #expect(cut.hasSuffix("word…") && cut.count <= MarkdownIndexRenderer.summaryColumns)
        let chinese = MarkdownIndexRenderer.firstSentence(
            String(repeating: "生命周期", count: 40), language: .simplifiedChinese)
        #expect(chinese.hasSuffix("…") && chinese.count * 2 <= MarkdownIndexRenderer.summaryColumns + 2)
    }
}
