import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

/// Walkthroughs are read by people: states, events and flags by their titles; spec ids only in
/// the engine's trace folded under each (`<details>`), in the reference tables and in code.
@Suite("Walkthroughs by display names")
struct WalkthroughNamesTests {
    static let specs: [String] = {
        let folder = SpecFixtures.packageRoot.appendingPathComponent("Spec")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "Spec/" + $0 }
    }()

    /// The walkthroughs section of `page` without its folded details and without the spec's own
    /// prose (scenario descriptions are the author's words): the lines the renderer writes.
    static func walkthroughLines(_ page: String, heading: String) -> [String] {
        guard let start = page.range(of: "\n## " + heading + "\n") else { return [] }
        var section = page[start.upperBound...]
        if let end = section.range(of: "\n## ") { section = section[..<end.lowerBound] }
        var lines: [String] = []
        var folded = false
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<details>") { folded = true }
            if !folded { lines.append(String(line)) }
            if line.hasPrefix("</details>") { folded = false }
        }
        // Renderer lines: steps, the start line, the end line.
        return lines.filter { line in
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix("- ") || trimmed.first?.isNumber == true || line.hasPrefix("*")
                || line.hasPrefix("Ends in") || line.hasPrefix("结束状态")
        }
    }

    @Test("no page's walkthroughs show a spec id outside their folded detail", arguments: specs)
    func noSpecIDs(_ path: String) throws {
        let spec = try SpecFixtures.load(path)
        let document = spec.document
        let ids = Set(document.states.map(\.id) + document.events.map(\.id) + document.flags.map(\.id))
        for (locale, heading) in [("en", "Walkthroughs"), ("zh-Hans", "示例流程")] {
            let page = MarkdownRenderer.page(for: spec, locale: locale).text
            let lines = Self.walkthroughLines(page, heading: heading)
            #expect(!lines.isEmpty || document.scenarios.isEmpty, "\(path) \(locale)")
            for line in lines {
                // Table-of-contents links name scenarios, not ids; code spans are what ids look like.
                let spans = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                    .filter { $0.offset % 2 == 1 }.map { String($0.element) }
                let shown = spans.filter { ids.contains($0) }
                #expect(shown.isEmpty, "\(path) \(locale): \(shown) in: \(line)")
            }
            // The engine's trace is still there, by id, folded.
            if !document.scenarios.isEmpty {
                #expect(page.contains("<details>\n<summary>"), "\(path) \(locale)")
            }
        }
    }

    @Test("on the scene-based app's pages no app-delegate method or UIApplication notification is a scene's")
    func appCallsAreTheApps() throws {
        let spec = try SpecFixtures.load("Spec/uikit-scene-based-app.yaml")
        for locale in ["en", "zh-Hans"] {
            let page = MarkdownRenderer.page(for: spec, locale: locale).text
            for scene in ["S1", "S2"] {
                for wrong in ["`\(scene).application(", "`\(scene).UIApplication."] {
                    #expect(!page.contains(wrong), "\(locale): \(wrong)")
                }
            }
            #expect(page.contains("`AppDelegate.application(_:willFinishLaunchingWithOptions:)`"), "\(locale)")
            #expect(page.contains("`UIApplication.didFinishLaunchingNotification`"), "\(locale)")
            #expect(page.contains("`S1.scene(_:willConnectTo:options:)`"), "\(locale)")
        }
    }
}
