import Foundation
import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpecRender

/// Every renderer on the statechart fixture (`Tests/Fixtures/Statechart/player.yaml`): a parallel
/// state, a history state, final states, entry/exit actions, a fork.
@Suite("Statecharts in every renderer")
struct StatechartRenderTests {
    static func options(_ detail: DiagramOptions.Detail = .full, scenario: String? = nil) -> DiagramOptions {
        var options = DiagramOptions()
        options.detail = detail
        options.scenario = scenario
        return options
    }

    // MARK: Goldens

    @Test(arguments: [DiagramOptions.Detail.states, .full])
    func dotGolden(detail: DiagramOptions.Detail) throws {
        let dot = try DiagramBuilder.build(for: StatechartFixture.spec(), options: Self.options(detail)).dot
        try assertDiagramGolden(dot, named: "player-\(detail.rawValue).dot")
    }

    @Test func scenarioDOTGolden() throws {
        let dot = try DiagramBuilder.build(
            for: StatechartFixture.spec(), options: Self.options(scenario: "resumeAfterPowerOff")
        ).dot
        try assertDiagramGolden(dot, named: "player-scenario.dot")
    }

    @Test func mermaidGolden() throws {
        try assertDiagramGolden(
            MermaidRenderer.render(StatechartFixture.spec(), options: Self.options()), named: "player.mmd")
    }

    @Test(arguments: ["en", "zh-Hans"])
    func markdownGolden(locale: String) throws {
        var options = MarkdownOptions()
        options.locale = locale
        try assertMarkdownGolden(
            MarkdownRenderer.render(StatechartFixture.spec(), options: options), named: "player.\(locale).md")
    }

    /// Compiled and run against the engine by the GeneratedConformanceTests target (Fixtures/).
    @Test func swiftSuiteGolden() throws {
        try assertGolden(
            SwiftSuiteRenderer.render(spec: StatechartFixture.spec(), framework: .swiftTesting),
            at: "Tests/Fixtures/SwiftSuite/Golden/player-swift-testing.swift")
    }

    // MARK: Diagrams

    @Test func aParallelStateIsOneClusterSplitIntoDashedRegions() throws {
        let dot = try DiagramBuilder.build(for: StatechartFixture.spec(), options: Self.options()).dot
        #expect(dot.contains("subgraph cluster_on {"))
        for region in ["playback", "volume"] {
            let block = try #require(
                dot.range(of: "subgraph cluster_\(region) {").map { String(dot[$0.upperBound...].prefix { $0 != "]" }) }
            )
            #expect(block.contains("style=\"rounded,filled,dashed\""), "region \(region) is not dashed")
        }
        // The parallel state itself is a solid box, and has no initial dot of its own.
        let on = try #require(
            dot.range(of: "subgraph cluster_on {").map { String(dot[$0.upperBound...].prefix { $0 != "]" }) })
        #expect(!on.contains("dashed"))
        #expect(!dot.contains("\"@initial:on\""))
    }

    @Test func historyIsASmallCircleWithItsDefaultDrawn() throws {
        let dot = try DiagramBuilder.build(for: StatechartFixture.spec(), options: Self.options()).dot
        let node = try #require(dot.split(separator: "\n").first { $0.contains("id=\"state-resume\"") })
        #expect(node.contains("shape=circle"))
        #expect(node.contains("label=\"H\""))
        // The default transition: an eventless (dashed) arrow from the H node to 'stopped'.
        #expect(dot.split(separator: "\n").contains { $0.contains("resume -> stopped") && $0.contains("dashed") })
    }

    @Test func severalTargetsFanOutOfAForkBar() throws {
        let dot = try DiagramBuilder.build(for: StatechartFixture.spec(), options: Self.options()).dot
        let fork = "\"@fork:1:off\""
        #expect(dot.contains("off -> \(fork)"))
        #expect(dot.contains("\(fork) -> resume"))
        #expect(dot.contains("\(fork) -> muted"))
    }

    @Test func entryAndExitActionsAreListedInsideTheirStateAtFullDetailOnly() throws {
        let full = try DiagramBuilder.build(for: StatechartFixture.spec(), options: Self.options(.full)).dot
        #expect(
            full.contains("entry / ") && full.contains("startAudio()") && full.contains("exit / ")
                && full.contains("playerWillPowerOff()"))
        let events = try DiagramBuilder.build(for: StatechartFixture.spec(), options: Self.options(.events)).dot
        #expect(!events.contains("entry / "))
    }

    @Test func aScenarioHighlightsEveryRegionsStates() throws {
        let dot = try DiagramBuilder.build(
            for: StatechartFixture.spec(), options: Self.options(scenario: "resumeAfterPowerOff")
        ).dot
        let lines = dot.split(separator: "\n")
        // 'normal' (volume region) and 'playing' (playback region) are both on the path; 'paused' is not.
        for visited in ["state-normal", "state-muted", "state-playing", "state-resume"] {
            #expect(
                lines.contains { $0.contains("id=\"\(visited)\"") && $0.contains("#0071E3") },
                "\(visited) is not highlighted")
        }
        #expect(!lines.contains { $0.contains("id=\"state-paused\"") && $0.contains("#0071E3") })
    }

    @Test func theDrawingLaysOutAndRendersAsPNG() throws {
        let dot = try DiagramBuilder.build(for: StatechartFixture.spec(), options: Self.options()).dot
        let png = try GraphvizRenderer.shared.render(dot: dot, format: .png)
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        // No stray node: every node Graphviz drew was declared (a parallel state named as an
        // arrow's end would have been drawn as an extra box titled with its id).
        let svg = try ParsedSVG(GraphvizRenderer.shared.render(dot: dot, format: .svg))
        #expect(try !svg.drawnTexts.contains("on"))
    }

    @Test func aParallelStateIsAGroupOfItsOwn() throws {
        var options = Self.options()
        options.group = "on"
        let dot = try DiagramBuilder.build(for: StatechartFixture.spec(), options: options).dot
        #expect(dot.contains("subgraph cluster_on {"))
        #expect(dot.contains("\"@outside:off\""))
        // A transition from outside the group is drawn to its first target, without a fork bar
        // that nothing would lead into.
        #expect(!dot.contains("@fork"))
        #expect(try ParsedSVG(GraphvizRenderer.shared.render(dot: dot, format: .svg)).drawnTexts.contains("On"))
    }

    // MARK: Mermaid

    @Test func mermaidSeparatesRegionsAndCommentsWhatItCannotDraw() throws {
        let text = MermaidRenderer.render(try StatechartFixture.spec(), options: Self.options())
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let open = try #require(lines.firstIndex(of: "state on {"))
        let separator = try #require(lines.firstIndex(of: "--"))
        let volume = try #require(lines.firstIndex(of: "state volume {"))
        #expect(open < separator && separator < volume)
        #expect(lines.contains { $0.hasPrefix("%% resume") && $0.contains("shallow history of playback") })
        // Nothing drawn names the history state: Mermaid would invent a state for it.
        #expect(!lines.contains { !$0.hasPrefix("%%") && $0.contains("resume") })
    }

    // MARK: Markdown

    @Test func theMatrixHasAColumnPerReachableConfiguration() throws {
        let spec = try StatechartFixture.spec()
        let matrix = EventStateMatrix(machine: spec.machine)
        #expect(matrix.columns.contains(["playing", "muted"]))
        #expect(matrix.columns.contains(["off"]))
        #expect(!matrix.columns.contains(["playing"]))
        let powerMuted = try #require(matrix.rows.first { $0.event == "powerMuted" })
        let offColumn = try #require(matrix.columns.firstIndex(of: ["off"]))
        #expect(powerMuted.cells[offColumn].first?.end == ["stopped", "muted"])
    }

    /// A scenario without `from` starts as SCXML does (and as `validate` replays it): the entry
    /// actions of the initial states are part of its trace, and the walkthrough shows them.
    @Test func aScenarioWithoutFromShowsWhatStartingObserves() throws {
        let spec = try SpecFixtures.load(
            yaml: """
                lifespec: 1
                id: boot
                initial: booting
                states:
                  booting: {entry: [hello]}
                  ready: {}
                events: {go: {}}
                callbacks: {hello: {swift: "hello()"}}
                transitions:
                  - {from: booting, on: go, to: ready}
                  - {from: ready, on: go, to: booting}
                scenarios:
                  - {id: boot, events: [go], expect: [hello], end: ready}
                """, path: "Tests/Fixtures/Diagram/inline.yaml")
        let page = MarkdownRenderer.render(spec)
        #expect(page.contains("- *on start:* calls `hello()`"))
        let plan = ConformancePlan(machine: spec.machine, scenarios: [ConformanceScenario(id: "boot", events: ["go"])])
        let scenario = try #require(plan.cases.first { $0.kind == .scenario })
        #expect(scenario.start == "booting")
        #expect(scenario.checks.contains(.trace([])))
    }

    /// Three regions of four states reach 64 configurations: more columns than a table can show.
    @Test func aMatrixWithTooManyConfigurationsIsLeftOutWithANote() throws {
        func region(_ name: String, _ event: String) -> String {
            """
                  \(name):
                    initial: \(name)1
                    states: {\(name)1: {}, \(name)2: {}, \(name)3: {}, \(name)4: {}}
            """
        }
        let spec = try SpecFixtures.load(
            yaml: """
                lifespec: 1
                id: wide
                initial: all
                states:
                  all:
                    parallel: true
                    states:
                \(region("a", "e"))
                \(region("b", "f"))
                \(region("c", "g"))
                events: {e: {}, f: {}, g: {}}
                transitions:
                  - {from: a1, on: e, to: a2}
                  - {from: a2, on: e, to: a3}
                  - {from: a3, on: e, to: a4}
                  - {from: a4, on: e, to: a1}
                  - {from: b1, on: f, to: b2}
                  - {from: b2, on: f, to: b3}
                  - {from: b3, on: f, to: b4}
                  - {from: b4, on: f, to: b1}
                  - {from: c1, on: g, to: c2}
                  - {from: c2, on: g, to: c3}
                  - {from: c3, on: g, to: c4}
                  - {from: c4, on: g, to: c1}
                """, path: "Tests/Fixtures/Diagram/inline.yaml")
        let matrix = EventStateMatrix(machine: spec.machine)
        #expect(matrix.columnsLeftOut == 64)
        #expect(matrix.columns.isEmpty)
        let page = MarkdownRenderer.render(spec)
        #expect(page.contains("combine into 64 reachable configurations"))
        #expect(!page.contains("| `a1` + `b1` + `c1`"))
    }

    @Test func theWalkthroughNamesTheStatesEachEventLeavesAndEnters() throws {
        let page = MarkdownRenderer.render(try StatechartFixture.spec())
        #expect(
            page.contains(
                "*leaves `on` (on exit: `playerWillPowerOff()`), `playback`, `playing` (on exit: `stopAudio()`), `volume`, `muted`, enters `off`*"
            ))
        #expect(page.contains("Ends in `playing` + `normal`."))
    }
}
