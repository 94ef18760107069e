import Foundation
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

@Suite("DocC articles")
struct DocCRendererTests {
    static let resources: Set<String> = [
        "mini-app-diagram.svg", "mini-app-scenario-cold-launch.svg", "mini-app-scenario-home-with-task.svg",
        "mini-app-scenario-home-then-return.svg",
    ]

    @Test("mini-app article golden (en and zh-Hans)", arguments: ["en", "zh-Hans"])
    func golden(locale: String) throws {
        let spec = try SpecFixtures.load("Tests/Fixtures/Markdown/mini-app.yaml")
        let article = DocCRenderer.article(for: spec, locale: locale, resources: Self.resources, catalogued: [])
        try assertGolden(
            article, at: "Tests/Fixtures/DocC/Golden/mini-app-\(locale).md", sourceLocation: #_sourceLocation)
    }

    /// DocC renders no HTML and a table row is one line: spec text can neither add a cell, end a
    /// row, open markup, nor link anywhere.
    @Test("hostile text stays text: one line per row, one cell per column, no markup from the spec")
    func hostile() throws {
        let spec = try SpecFixtures.load("Tests/Fixtures/Markdown/hostile.yaml")
        let article = DocCRenderer.article(for: spec, resources: [], catalogued: [])
        // Code spans are literal text (their markup-looking content included): set them aside first.
        let lines = article.split(separator: "\n", omittingEmptySubsequences: false).map {
            Self.withoutCodeSpans(String($0))
        }
        var columns: Int?
        for line in lines {
            guard line.hasPrefix("|") else {
                columns = nil
                continue
            }
            #expect(line.hasSuffix("|"), "a row does not end on its line: \(line)")
            // Cells are separated by the pipes that are not escaped (\|).
            var count = 0
            var previous: Character = " "
            for character in line {
                if character == "|" && previous != "\\" { count += 1 }
                previous = character
            }
            if let columns {
                #expect(count == columns, "a row with \(count - 1) cells in a table of \(columns - 1): \(line)")
            } else {
                columns = count
            }
        }
        let prose = lines.joined(separator: "\n")
        for marker in ["<script", "<img", "<b>", "<i>", "](javascript", "<!--", "](http://evil"] {
            #expect(!prose.contains(marker), "spec markup reached the article: \(marker)")
        }
        #expect(!lines.contains { $0.hasPrefix("# Not a heading") || $0.hasPrefix("- not a list") })
        // A name with backticks is escaped text: DocC reads a code span of more than one backtick as a symbol link.
        #expect(article.contains("func go(&#96;x&#96;: Int) -&gt; Bool &#124; &#96;y&#96;"), "\(article)")
        #expect(!article.contains("``"))
    }

    /// The line with every code span (a backtick run up to the next run of the same length) as `CODE`.
    static func withoutCodeSpans(_ line: String) -> String {
        let characters = Array(line)
        var result = ""
        var index = 0
        func run(at start: Int) -> Int {
            var end = start
            while end < characters.count, characters[end] == "`" { end += 1 }
            return end - start
        }
        while index < characters.count {
            guard characters[index] == "`" else {
                result.append(characters[index])
                index += 1
                continue
            }
            let length = run(at: index)
            var search = index + length
            var closed: Int?
            while search < characters.count {
                if characters[search] == "`" {
                    let other = run(at: search)
                    if other == length {
                        closed = search
                        break
                    }
                    search += other
                } else {
                    search += 1
                }
            }
            guard let closed else {
                result += String(characters[index...])
                break
            }
            result += "CODE"
            index = closed + length
        }
        return result
    }

    @Test("resource and article names are safe file names, prefixed by the spec")
    func names() {
        #expect(DocCRenderer.scenarioResource(specID: "app", scenario: "a/../b c") == "app-scenario-a_.._b_c.svg")
        #expect(DocCRenderer.resourceName(forOutputPath: "app/diagram.svg") == "app-diagram.svg")
        #expect(DocCRenderer.resourceName(forOutputPath: "app/scenarios/cold.svg") == "app-scenario-cold.svg")
        #expect(DocCRenderer.resourceName(forOutputPath: "app/groups/fg.svg") == "app-group-fg.svg")
        #expect(DocCRenderer.resourceName(forOutputPath: "app/diagram.png") == nil)
        #expect(DocCRenderer.resourceName(forOutputPath: "README.md") == nil)
    }
}
