import Foundation
import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpecRender

/// Every renderer on the system fixture (`Tests/Fixtures/System/navigation-pair.yaml`): two
/// `uiviewcontroller-lifecycle` parts, A and B, and a navigation coordinator.
@Suite("System specs in every renderer")
struct SystemRenderTests {
    static let path = "Tests/Fixtures/System/navigation-pair.yaml"
    static let partPath = "Tests/Fixtures/System/uiviewcontroller-lifecycle.yaml"

    static func spec() throws -> LoadedSpec { try SpecFixtures.load(path) }
    static func part() throws -> LoadedSpec { try SpecFixtures.load(partPath) }

    static func options(_ detail: DiagramOptions.Detail = .full, scenario: String? = nil) -> DiagramOptions {
        var options = DiagramOptions()
        options.detail = detail
        options.scenario = scenario
        return options
    }

    // MARK: Goldens

    @Test(arguments: [DiagramOptions.Detail.states, .full])
    func dotGolden(detail: DiagramOptions.Detail) throws {
        let dot = try DiagramBuilder.build(for: Self.spec(), options: Self.options(detail)).dot
        try assertDiagramGolden(dot, named: "navigation-pair-\(detail.rawValue).dot")
    }

    @Test func mermaidGolden() throws {
        try assertDiagramGolden(
            MermaidRenderer.render(Self.spec(), options: Self.options()), named: "navigation-pair.mmd")
    }

    @Test(arguments: ["en", "zh-Hans"])
    func markdownGolden(locale: String) throws {
        let page = MarkdownRenderer.page(for: try Self.spec(), locale: locale, others: [try Self.part()])
        try assertMarkdownGolden(page.text, named: "navigation-pair.\(locale).md")
    }

    /// Compiled and run against the composed engine by the GeneratedConformanceTests target (Fixtures/).
    @Test func swiftSuiteGolden() throws {
        try assertGolden(
            SwiftSuiteRenderer.render(spec: Self.spec(), framework: .swiftTesting),
            at: "Tests/Fixtures/SwiftSuite/Golden/navigation-pair-swift-testing.swift")
    }

    // MARK: What the outputs say about parts

    @Test func eachPartIsOneDashedRegionOfTheSystemBox() throws {
        let dot = try DiagramBuilder.build(for: Self.spec(), options: Self.options(.states)).dot
        #expect(
            dot.contains("subgraph cluster_navigation_pair {")
                || dot.contains("subgraph \"cluster_navigation-pair\" {"), "\(dot.prefix(2000))")
        for region in ["A", "B", "coordinator"] {
            let block = try #require(
                dot.range(of: "subgraph cluster_\(region) {").map { String(dot[$0.upperBound...].prefix { $0 != "]" }) }
            )
            #expect(block.contains("style=\"rounded,filled,dashed\""), "part \(region) is not a dashed region")
        }
        // Both controllers' states are drawn, each under its part's name.
        #expect(dot.contains("A.viewDidLoad") == false || dot.contains("A.appeared"))
        #expect(dot.contains("\"A.appeared\"") && dot.contains("\"B.appeared\""))
    }

    @Test func walkthroughsAndPagesNameThePartAndLinkBothWays() throws {
        let system = MarkdownRenderer.page(for: try Self.spec(), locale: "en", others: [try Self.part()]).text
        #expect(
            system.contains(
                "- **A** — Root view controller: [UIViewController view life cycle (UIKit)](../uiviewcontroller-lifecycle/README.md) ([its diagram](../uiviewcontroller-lifecycle/diagram.svg))"
            ))
        #expect(
            system.contains("`A.appeared` → `A.disappearing` (raised `A.pushOnTop`): calls `A.viewWillDisappear(_:)`"))
        // The system's tables list its own elements; the parts' are on the part's page.
        #expect(!system.contains("| `A.push` |"))
        #expect(system.contains("`pushB`"))
        let part = MarkdownRenderer.page(for: try Self.part(), locale: "zh-Hans", others: [try Self.spec()]).text
        #expect(part.contains("## 被以下系统使用"))
        #expect(part.contains("- [导航栈中的两个视图控制器](../navigation-pair/README.zh-Hans.md)（作为 `A`、`B`）"))
        // A single-object page without systems beside it has no such section.
        #expect(!MarkdownRenderer.page(for: try Self.part(), locale: "en").text.contains("## Used by"))
    }

    @Test func theSuiteExpectsNamespacedTraces() throws {
        let suite = SwiftSuiteRenderer.render(spec: try Self.spec(), framework: .swiftTesting)
        #expect(suite.contains("\"A.viewWillDisappear\""))
        #expect(suite.contains("\"B.push\"") || suite.contains("\"pushB\""))
    }
}
