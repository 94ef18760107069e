import Foundation
import LifeSpecTestSupport
import Testing

/// `lifespec explore SPEC`, as a user runs it (the page itself: ExplorerTests, ExplorerBrowserTests).
@Suite("explore")
struct ExploreCommandTests {
    @Test("writes one self-contained page opening in the locale asked for; an unknown locale is a usage error")
    func writesThePage() throws {
        let folder = try Scratch.folder("lifespec-explore")
        let file = folder.appendingPathComponent("explorer.html")
        let result = try CLI.run(["explore", "Spec/ios-app-lifecycle.yaml", "--locale", "zh-Hans", "-o", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOf: file, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"zh-Hans\">"))
        #expect(page.contains("<div id=\"lifespec-explorer\" data-configuration=\"notRunning\">"))
        #expect(page.contains("\"locale\":\"zh-Hans\""))
        #expect(!page.contains("src=\"http") && !page.contains("href=\"http"))

        let wrong = try CLI.run(["explore", "Spec/ios-app-lifecycle.yaml", "--locale", "zh-Hant", "-o", file.path])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("zh-Hans"))
    }
}
