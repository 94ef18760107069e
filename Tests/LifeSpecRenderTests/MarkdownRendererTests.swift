import Foundation
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpec
@testable import LifeSpecRender

private let miniAppPath = "Tests/Fixtures/Markdown/mini-app.yaml"
private let hostilePath = "Tests/Fixtures/Markdown/hostile.yaml"
/// Stands in for the Mermaid renderer's output.
private let sampleMermaid = "stateDiagram-v2\n    [*] --> notRunning\n    notRunning --> inactive: launch\n"

private func table(_ tables: [ParsedTable], headed first: String) throws -> ParsedTable {
    try #require(tables.first { $0.header.first == first }, "no table headed \(first)")
}

/// Decodes the references `MarkdownText` and Ink write, to compare a cell with the spec text.
private func decodeEntities(_ text: String) -> String {
    var result = ""
    var rest = text[...]
    while let amp = rest.firstIndex(of: "&") {
        result += rest[..<amp]
        guard let semicolon = rest[amp...].firstIndex(of: ";") else {
            result += rest[amp...]
            return result
        }
        let entity = rest[rest.index(after: amp)..<semicolon]
        switch entity {
        case "amp": result += "&"
        case "lt": result += "<"
        case "gt": result += ">"
        case "quot": result += "\""
        default:
            if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[amp...semicolon]
            }
        }
        rest = rest[rest.index(after: semicolon)...]
    }
    return result + rest
}

@Suite struct MarkdownGoldenTests {
    @Test func miniAppPagesMatchGoldens() throws {
        let spec = try SpecFixtures.load(miniAppPath)
        let pages = MarkdownRenderer.pages(for: spec, options: with(MarkdownOptions()) { $0.mermaid = sampleMermaid })
        #expect(pages.map(\.fileName) == ["README.md", "README.zh-Hans.md"])
        #expect(pages.map(\.locale) == ["en", "zh-Hans"])
        for page in pages {
            try assertMarkdownGolden(page.text, named: "mini-app-\(page.locale ?? "default").md")
        }
    }

    @Test func hostilePageMatchesGolden() throws {
        let spec = try SpecFixtures.load(hostilePath)
        let text = MarkdownRenderer.render(spec, options: with(MarkdownOptions()) { $0.mermaid = "a\n```\nb" })
        try assertMarkdownGolden(text, named: "hostile-default.md")
    }

    @Test func indexMatchesGolden() throws {
        let specs = [try SpecFixtures.load(miniAppPath), try SpecFixtures.load(hostilePath)]
        try assertMarkdownGolden(MarkdownIndexRenderer.render(specs), named: "index-en.md")
        try assertMarkdownGolden(MarkdownIndexRenderer.render(specs, locale: "zh-Hans"), named: "index-zh-Hans.md")
    }
}

@Suite struct MarkdownTableTests {
    let spec: LoadedSpec
    let tables: [ParsedTable]

    init() throws {
        spec = try SpecFixtures.load(miniAppPath)
        tables = InkHTML.tables(in: InkHTML.html(MarkdownRenderer.render(spec)))
    }

    @Test func everyTableIsRectangular() throws {
        // Seven reference tables, and a compact timeline per walkthrough and per common sequence.
        let timelines = tables.filter { $0.header.last == "Call or notification" }
        let scenarios = spec.document.scenarios.count
        #expect(tables.count - timelines.count == 7)
        #expect(timelines.count == scenarios + min(scenarios, MarkdownPageBuilder.glanceScenarios))
        for table in tables {
            #expect(!table.header.isEmpty)
            for row in table.rows { #expect(row.count == table.header.count, "\(table.header): \(row)") }
        }
    }

    @Test func statesTableHasAFactColumnPerKeyInFirstSeenOrder() throws {
        let states = try table(tables, headed: "State")
        #expect(states.header == ["State", "Group", "Description", "runsCode", "memoryMB", "receivesEvents", "limit"])
        #expect(
            states.rows.map { $0[0] } == [
                "Not runningnotRunninginitial", "Foregroundforegroundgroup of inactive, active",
                "Inactiveinactive", "Activeactive", "Backgroundbackground", "Suspendedsuspended",
            ])
        let active = states.rows[3]
        #expect(active[1] == "Foregroundforeground")
        #expect(active[3] == "yes" && active[5] == "yes" && active[4] == "")
        #expect(states.rows[0][3] == "no" && states.rows[0][4] == "0")
        #expect(states.rows[4][6] == "a few seconds unless a task is running")
    }

    @Test func callbacksTableSaysWhenEachCallbackRuns() throws {
        let callbacks = try table(tables, headed: "Method")
        #expect(callbacks.header == ["Method", "Notification", "Called when", "Purpose", "Notes"])
        #expect(callbacks.rows.count == 7)
        let byMethod = Dictionary(uniqueKeysWithValues: callbacks.rows.map { ($0[0], $0) })
        let resign = try #require(byMethod["applicationWillResignActive(_:)Objective-C: applicationWillResignActive:"])
        #expect(resign[1] == "UIApplication.willResignActiveNotificationposted just before the call")
        // By titles; `memoryWarning` has none, so it keeps its id.
        #expect(resign[2] == "Active → Background on Home press")
        let foreground = try #require(
            byMethod["applicationWillEnterForeground(_:)Objective-C: applicationWillEnterForeground:"])
        // The target is the group; the engine enters its initial leaf.
        #expect(foreground[2] == "Background, Suspended → Inactive on Reopen")
        let memory = try #require(
            byMethod["applicationDidReceiveMemoryWarning(_:)Objective-C: applicationDidReceiveMemoryWarning:"])
        #expect(memory[2] == "Foreground (stays) on memoryWarning")
        let legacy = try #require(
            byMethod["applicationDidFinishLaunching(_:)Objective-C: applicationDidFinishLaunching:"])
        #expect(legacy[2] == "not called by any transition")
        #expect(
            legacy[4].contains("Deprecated since iOS 13.0. Use application(_:didFinishLaunchingWithOptions:) instead."))
        let background = try #require(
            byMethod["applicationDidEnterBackground(_:)Objective-C: applicationDidEnterBackground:"])
        #expect(background[3] == "Typical use: Save user data and release shared resources.")
        #expect(background[4] == "Time limit: about 5 seconds")
    }

    @Test func notificationsTableNamesTheCallbackAndSide() throws {
        let notifications = try table(tables, headed: "Notification")
        #expect(
            notifications.rows.map { $0[1] } == [
                "just after applicationDidBecomeActive(_:)",
                "just before applicationWillResignActive(_:)",
                "just after applicationDidEnterBackground(_:)",
                "on its own: Foreground (stays) on memoryWarning",
            ])
    }

    @Test func transitionsTableListsEffectsInEngineOrder() throws {
        let transitions = try table(tables, headed: "#")
        #expect(transitions.header.count == 7)
        #expect(transitions.rows.map { $0[0] } == (1...8).map(String.init))
        // willResignActive posts its notification *before* the call; didEnterBackground after.
        #expect(
            transitions.rawRows[2][5]
                == "1. posts <code>UIApplication.willResignActiveNotification</code><br/>2. <code>applicationWillResignActive(_:)</code><br/>3. <code>applicationDidEnterBackground(_:)</code><br/>4. posts <code>UIApplication.didEnterBackgroundNotification</code>"
        )
        #expect(transitions.rows[0][4] == "foregroundenters inactive")
        #expect(transitions.rows[3][2] == "(always)" && transitions.rows[3][3] == "!backgroundTask")
        #expect(transitions.rows[6][4] == "(stays)")
        #expect(transitions.rows[4][5] == "sets backgroundTask = false")
    }

    @Test func matrixHasEveryEventAndLeafFromTheEngine() throws {
        // The events table, the timelines and the matrix are all headed "Event"; the matrix is the
        // last, with a column per leaf, headed by the leaves' titles.
        #expect(tables.contains { $0.header == ["Event", "Kind", "Description"] })
        let grid = try #require(tables.last { $0.header.first == "Event" })
        #expect(grid.header == ["Event", "Not running", "Inactive", "Active", "Background", "Suspended"])
        // Events by title where they have one.
        #expect(
            grid.rows.map { $0[0] } == [
                "Launch", "activate", "Home press", "Reopen", "timeout", "memoryWarning", "reclaim", "(always)",
            ])
        let cells = Dictionary(uniqueKeysWithValues: grid.rows.map { ($0[0], Array($0.dropFirst())) })
        #expect(cells["Launch"] == ["Inactive", "—", "—", "—", "—"])
        #expect(cells["Reopen"] == ["—", "—", "—", "Inactive", "Inactive"])
        // Declared on the group, inherited by both leaves.
        #expect(cells["memoryWarning"] == ["—", "(stays)", "(stays)", "—", "—"])
        // Followed until the engine settles: Home goes on to Suspended unless a task runs. The flag
        // has no title, so the condition is written as in the spec.
        #expect(cells["Home press"]?[2] == "if !backgroundTask: Background → Suspendedif backgroundTask: Background")
        // At rest in Background means a task runs (otherwise it is suspended at once), so the
        // timeout always suspends.
        #expect(cells["timeout"]?[3] == "Suspended")
        #expect(cells["(always)"]?[3] == "if !backgroundTask: Suspendedif backgroundTask: —")
    }
}

@Suite struct MarkdownSemanticsTests {
    /// An inner guarded transition beats an outer unguarded one declared earlier: the engine
    /// decides, and each branch carries the exact flag values it needs.
    @Test func matrixBranchesComeFromTheEngine() throws {
        let spec = try SpecFixtures.load(
            yaml: """
                lifespec: 1
                id: nested
                states:
                  group:
                    initial: inner
                    states:
                      inner:
                      other:
                  outside:
                initial: group
                events:
                  go:
                  back:
                flags:
                  fast:
                    default: false
                  slow:
                    default: true
                transitions:
                  - {from: group, on: go, to: outside}
                  - {from: inner, on: go, guard: fast, to: other}
                  - {from: other, on: back, to: inner}
                  - {from: outside, on: back, guard: fast && slow, to: group}
                  - {from: outside, on: back, guard: "!(fast && slow)", to: other}
                """)
        let matrix = EventStateMatrix(machine: spec.machine)
        #expect(matrix.leaves == ["inner", "other", "outside"])
        #expect(matrix.flags == ["fast", "slow"])
        let go = try #require(matrix.rows.first { $0.event == "go" })
        // Default flags (fast = false) first.
        #expect(go.cells[0].map { $0.steps?.map(\.transitionIndex) } == [[0], [1]])
        #expect(
            go.cells[0].map(\.condition) == [
                .when([.init(flag: "fast", value: false)]), .when([.init(flag: "fast", value: true)]),
            ])
        #expect(go.cells[1].map(\.condition) == [.always])
        #expect(go.cells[2].map { $0.steps == nil } == [true])
        let back = try #require(matrix.rows.first { $0.event == "back" })
        // `!(fast && slow)` is no conjunction: it goes last, as "otherwise".
        #expect(
            back.cells[2].map(\.condition) == [
                .when([.init(flag: "fast", value: true), .init(flag: "slow", value: true)]), .otherwise,
            ])
        let page = MarkdownRenderer.render(spec)
        #expect(page.contains("| `go` | if `!fast`: `outside`<br/>if `fast`: `other` | `outside` | — |"))
        #expect(page.contains("| `back` | — | `inner` | if `fast && slow`: `inner`<br/>otherwise: `other` |"))
    }

    @Test func walkthroughIsTheEngineTrace() throws {
        let spec = try SpecFixtures.load(miniAppPath)
        let scenario = try #require(spec.document.scenario("home-then-return"))
        let walkthrough = ScenarioWalkthrough(scenario: scenario, machine: spec.machine)
        // Same trace as running the engine directly.
        var runner = try Runner(machine: spec.machine, state: scenario.from, flags: scenario.flags)
        let steps = try runner.send(scenario.events)
        let flattened = walkthrough.items.flatMap { item in
            item.moves.flatMap {
                [Step.transition($0.step)]
                    + $0.observations.map { observation -> Step in
                        switch observation {
                        case .callback(let id): .callback(id)
                        case .notification(let id): .notification(id)
                        }
                    }
            }
        }
        #expect(flattened == steps)
        #expect(walkthrough.end == runner.state)
        #expect(walkthrough.stop == nil)

        let page = MarkdownRenderer.render(spec)
        #expect(
            page.contains(
                """
                1. **Home press** (`homePress`)
                   - `active` → `background`: posts `UIApplication.willResignActiveNotification`, then calls `applicationWillResignActive(_:)`, then calls `applicationDidEnterBackground(_:)`, then posts `UIApplication.didEnterBackgroundNotification`
                   - `background` → `suspended` (automatically): *no callback*
                2. **Reopen** (`open`)
                   - `suspended` → `inactive`: calls `applicationWillEnterForeground(_:)`
                3. **`memoryWarning`**
                   - stays in `inactive`: calls `applicationDidReceiveMemoryWarning(_:)`, then posts `UIApplication.didReceiveMemoryWarningNotification`
                """))
        // Read by titles; the same trace by spec ids is folded under it.
        #expect(
            page.contains(
                """
                1. **Home press**
                   - Active → Background: posts `UIApplication.willResignActiveNotification`, then calls `applicationWillResignActive(_:)`, then calls `applicationDidEnterBackground(_:)`, then posts `UIApplication.didEnterBackgroundNotification`
                   - Background → Suspended (automatically): *no callback*
                2. **Reopen**
                   - Suspended → Inactive: calls `applicationWillEnterForeground(_:)`
                """))
        #expect(
            page.contains(
                "*Starts in Active, `backgroundTask` = `true`* · [Highlighted diagram](scenarios/home-with-task.svg)"
            ))
        #expect(
            page.contains(
                "<details>\n<summary>The engine's trace, by spec id</summary>\n\n*Starts in `active`, with `backgroundTask` = `true`*"
            ))
        // The walkthroughs start with a numbered index linking to each one.
        #expect(
            page.contains(
                """
                1. [Cold launch](#cold-launch)
                2. [Home press during a background task](#home-press-during-a-background-task)
                3. [Home press and return](#home-press-and-return)
                """))
    }

    @Test func walkthroughStopsWhereTheEngineRefuses() throws {
        let spec = try SpecFixtures.load(miniAppPath)
        let location = LifeSpec.SourceLocation(path: "x.yaml", line: 1, column: 1)
        let broken = SpecDocument.ScenarioInfo(
            id: "twice", title: nil, description: nil, from: nil, flags: [:],
            events: ["launch", "launch", "activate"], expect: [], end: nil, source: nil, location: location
        )
        let walkthrough = ScenarioWalkthrough(scenario: broken, machine: spec.machine)
        #expect(walkthrough.items.count == 1)
        #expect(walkthrough.end == "inactive")
        guard case .failed(let event, .unhandledEvent(_, let state, _)) = walkthrough.stop else {
            Issue.record("expected an unhandled event, got \(String(describing: walkthrough.stop))")
            return
        }
        #expect(event == "launch" && state == "inactive")

        let unknownStart = SpecDocument.ScenarioInfo(
            id: "nowhere", title: nil, description: nil, from: "nowhere", flags: [:],
            events: ["launch"], expect: [], end: nil, source: nil, location: location
        )
        #expect(
            ScenarioWalkthrough(scenario: unknownStart, machine: spec.machine).stop
                == .cannotStart(.unknownState("nowhere")))
    }
}

@Suite struct MarkdownLocaleTests {
    @Test func pagesLinkToEachOther() throws {
        let spec = try SpecFixtures.load(miniAppPath)
        let pages = MarkdownRenderer.pages(for: spec)
        let english = pages[0].text.split(separator: "\n", omittingEmptySubsequences: false)
        let chinese = pages[1].text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(english[2] == "**English** · [简体中文](README.zh-Hans.md)")
        #expect(chinese[2] == "[English](README.md) · **简体中文**")
    }

    @Test func chinesePageTranslatesPhrasesAndFallsBackForMissingSpecText() throws {
        let spec = try SpecFixtures.load(miniAppPath)
        let page = MarkdownRenderer.render(spec, options: MarkdownOptions(locale: "zh-Hans"))
        #expect(page.contains("# 迷你应用生命周期\n"))
        #expect(page.contains("\n## 状态\n") && page.contains("\n## 示例流程\n") && page.contains("\n## 各状态下的事件\n"))
        // `background` has no zh-Hans description: the default locale's text is used.
        #expect(page.contains("| Off screen, still running code. [&#91;2&#93;][src-2] |"))
        // A source title without a translation falls back too.
        #expect(page.contains("2. [Extending your app's background execution time]"))
        #expect(
            page.contains(
                "| 按下 Home 键 | — | — | 若 `!backgroundTask`：后台 → 挂起<br/>若 `backgroundTask`：后台 | — | — |"
            ))
        #expect(!page.contains("Walkthroughs") && !page.contains("Called when"))
    }

    @Test func unsupportedLocaleUsesEnglishPhrasesAndDefaultSpecText() throws {
        let spec = try SpecFixtures.load(miniAppPath)
        let page = MarkdownRenderer.render(spec, options: MarkdownOptions(locale: "fr"))
        #expect(page.contains("# Mini app lifecycle\n"))
        #expect(page.contains("\n## States\n"))
        #expect(Glossary(locale: "zh-CN").language == .simplifiedChinese)
        #expect(Glossary(locale: "zh-Hant").language == .english)
        #expect(Glossary(locale: "en-GB").language == .english)
    }

    @Test func specWithoutLocalesGetsOnePageWithoutSwitcher() throws {
        let spec = try SpecFixtures.load(hostilePath)
        let pages = MarkdownRenderer.pages(for: spec)
        #expect(pages.map(\.fileName) == ["README.md"])
        #expect(pages[0].locale == nil)
        #expect(!pages[0].text.contains("README.zh-Hans.md") && !pages[0].text.contains("**English**"))
        #expect(MarkdownRenderer.fileName(locale: "zh-Hans", defaultLocale: "en") == "README.zh-Hans.md")
        #expect(MarkdownRenderer.fileName(locale: "../x", defaultLocale: "en") == "README.___x.md")
    }
}

@Suite struct MarkdownDeterminismTests {
    @Test func renderingTwiceGivesIdenticalBytes() throws {
        let first = try SpecFixtures.load(miniAppPath)
        let second = try SpecFixtures.load(miniAppPath)
        let options = with(MarkdownOptions()) { $0.mermaid = sampleMermaid }
        #expect(
            MarkdownRenderer.pages(for: first, options: options)
                == MarkdownRenderer.pages(for: second, options: options))
        #expect(MarkdownRenderer.render(first) == MarkdownRenderer.render(first))
        #expect(
            MarkdownIndexRenderer.render([first, try SpecFixtures.load(hostilePath)])
                == MarkdownIndexRenderer.render([try SpecFixtures.load(hostilePath), first]))
    }

    @Test func noAbsolutePathReachesThePage() throws {
        let spec = try SpecFixtures.load(miniAppPath)
        let absolute = SpecFixtures.url(miniAppPath).path
        let page = MarkdownRenderer.render(spec, options: with(MarkdownOptions()) { $0.specPath = absolute })
        #expect(!page.contains(SpecFixtures.packageRoot.path))
        #expect(page.hasPrefix("<!-- generated from mini-app.yaml by lifespec — do not edit -->\n"))
        let relative = MarkdownRenderer.render(spec)
        #expect(
            relative.hasPrefix(
                "<!-- generated from Tests/Fixtures/Markdown/mini-app.yaml by lifespec — do not edit -->\n"))
    }
}

@Suite struct MarkdownEscapingTests {
    let spec: LoadedSpec
    let page: String
    let html: String

    init() throws {
        spec = try SpecFixtures.load(hostilePath)
        page = MarkdownRenderer.render(
            spec,
            options: with(MarkdownOptions()) {
                $0.specPath = "Spec/--> <b>.yaml"
                $0.mermaid = "a\n```\nb"
            })
        html = InkHTML.html(page)
    }

    @Test func tablesKeepTheirShape() throws {
        let tables = InkHTML.tables(in: html)
        #expect(tables.filter { $0.header.last != "Call or notification" }.count == 7)
        for table in tables {
            for row in table.rows { #expect(row.count == table.header.count, "\(table.header): \(row)") }
        }
        let states = try table(tables, headed: "State")
        #expect(states.header.count == 5)
        #expect(states.rows.count == 2)
        #expect(decodeEntities(states.header[3]) == "key|with<pipe>")
        #expect(decodeEntities(states.header[4]) == "`tick`")
        #expect(try table(tables, headed: "Notification").rows.count == 1)
    }

    @Test func noMarkupSurvives() throws {
        for tag in ["<script", "<img src=x", "<b>", "<i>", "<h1>not a", "<li>not"] {
            let lowered = html.lowercased()
            if let range = lowered.range(of: tag) {
                let start =
                    lowered.index(range.lowerBound, offsetBy: -80, limitedBy: lowered.startIndex) ?? lowered.startIndex
                let end = lowered.index(range.upperBound, offsetBy: 80, limitedBy: lowered.endIndex) ?? lowered.endIndex
                Issue.record("raw \(tag) in the HTML: …\(lowered[start..<end])…")
            }
        }
        #expect(!html.contains("javascript:alert(1)\""))
        // The only emphasis is the page's own (labels, markers), never the spec's `*star*`.
        #expect(!html.contains("<em>star</em>") && !html.contains("<strong>go</strong>"))
        #expect(!html.contains("href=\"http://evil.example\""))
        for href in html.components(separatedBy: "href=\"").dropFirst() {
            let target = href.prefix { $0 != "\"" }
            #expect(
                target.hasPrefix("#") || target.hasPrefix("https://") || target.hasPrefix("scenarios/"), "\(target)")
            #expect(!target.contains("(") && !target.contains("<") && !target.contains(" "))
        }
    }

    @Test func cellsShowTheSpecTextExactly() throws {
        let states = try table(InkHTML.tables(in: html), headed: "State")
        let description = try #require(spec.document.state("idle")?.description?.text(for: nil, defaultLocale: nil))
        // Line breaks become <br/> (stripped here); the blank line collapses; the source mark follows.
        let expected = description.split(separator: "\n").joined() + " [1]"
        #expect(decodeEntities(states.rows[0][2]) == expected)
        #expect(states.rawRows[0][2].components(separatedBy: "<br/>").count == 3)
        let title = try #require(InkHTML.elements("h1", in: html).first)
        #expect(decodeEntities(title) == spec.document.title?.text(for: nil, defaultLocale: nil))
    }

    @Test func blockSyntaxInProseStaysInOneParagraph() throws {
        // The summary's heading, list, code indent and table lines are one escaped paragraph.
        let summaryLine = try #require(page.split(separator: "\n").first { $0.hasPrefix("&#35; Not a heading") })
        #expect(summaryLine.contains("<br/>&#45; not a list<br/>1&#46; not an ordered list<br/>"))
        #expect(summaryLine.contains("<br/>&#124; a &#124; b &#124;"))
        #expect(!html.contains("<h1>Not") && !html.contains("<li>not"))
    }

    @Test func commentAndFenceCannotBeClosedEarly() throws {
        let firstLine = try #require(page.split(separator: "\n").first)
        #expect(firstLine.hasPrefix("<!-- generated from ") && firstLine.hasSuffix(" -->"))
        #expect(firstLine.components(separatedBy: "-->").count == 2)
        #expect(!firstLine.contains("<b>"))
        #expect(page.contains("\n````mermaid\na\n```\nb\n````\n"))
    }

    @Test func anchorsFollowGitHub() {
        var registry = MarkdownPageBuilder.AnchorRegistry()
        #expect(registry.add("Incoming call, declined") == "incoming-call-declined")
        #expect(registry.add("States") == "states")
        #expect(registry.add("States") == "states-1")
        #expect(registry.add("States") == "states-2")
        #expect(registry.add("states-1") == "states-1-1")
        #expect(registry.add("各状态下的事件") == "各状态下的事件")
        #expect(registry.add("Evil <script> | `x`") == "evil-script--x")
    }

    @Test func textHelpers() {
        #expect(TextOutput.string { MarkdownText.writeCode("plain(_:)", to: &$0) } == "`plain(_:)`")
        #expect(TextOutput.string { MarkdownText.writeCode("a`b", to: &$0) } == "<code>a&#96;b</code>")
        #expect(TextOutput.string { MarkdownText.writeCode("a|b", to: &$0) } == "<code>a&#124;b</code>")
        #expect(TextOutput.string { MarkdownText.writeCode(" edge ", to: &$0) } == "`edge`")
        #expect(TextOutput.string { MarkdownText.writeCode("", to: &$0) } == "<code></code>")
        #expect(MarkdownText.url("javascript:alert(1)") == nil)
        #expect(MarkdownText.url("JavaScript:alert(1)") == nil)
        #expect(MarkdownText.url("data:text/html,x") == nil)
        #expect(MarkdownText.url("https://x.example/a (b)<c>") == "https://x.example/a%20%28b%29%3Cc%3E")
        #expect(MarkdownText.url("scenarios/a b.svg") == "scenarios/a%20b.svg")
        #expect(MarkdownText.url("https://x.example/é") == "https://x.example/%C3%A9")
        #expect(MarkdownText.paragraphs("one\ntwo\n\n\nthree") == ["one<br/>two", "three"])
        #expect(MarkdownText.firstParagraph("\n one\ntwo *x*\n\nthree") == "one two &#42;x&#42;")
        #expect(MarkdownText.inline("- a") == "&#45; a")
        #expect(MarkdownText.inline("12) a") == "12&#41; a")
        #expect(MarkdownText.inline("v1.2") == "v1.2")
        #expect(MarkdownText.inline("a\u{0}b\r\nc") == "ab<br/>c")
        #expect(!MarkdownText.comment("a --> b -- c").contains("--"))
        #expect(MarkdownText.fencedBlock("x ```` y", language: "m").hasPrefix("`````m\n"))
    }
}

@Suite struct MarkdownFlagshipTests {
    static let path = "Spec/ios-app-lifecycle.yaml"

    @Test func flagshipPagesMatchGoldens() throws {
        let spec = try SpecFixtures.load(Self.path)
        for page in MarkdownRenderer.pages(for: spec) {
            try assertMarkdownGolden(page.text, named: "ios-app-lifecycle-\(page.locale ?? "default").md")
        }
    }
}
