import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpecRender

/// What a reader meets on a page, in order and in words (#32): the page opens with the drawing
/// and the common sequences, says what happens by titles, and states a system's shared set-up once.
@Suite("Pages a writer would publish")
struct PageStructureTests {
    /// A door that opens from two places, under a flag that only one of them can have.
    static let door = """
        lifespec: 1
        id: door
        title: Door
        states:
          closed: {title: Closed}
          open: {title: Open}
          locked: {title: Locked}
        initial: closed
        events:
          push: {title: Push the door}
          lock: {title: Turn the key}
          unlock: {title: Turn the key back}
        flags:
          oiled: {default: false, title: having oiled hinges}
          jammed: {default: false, title: jammed}
        callbacks:
          didOpen: {swift: "doorDidOpen()"}
        transitions:
          - {from: closed, on: push, guard: oiled, to: open, do: [didOpen]}
          - {from: closed, on: push, guard: "!oiled", to: open, do: [didOpen]}
          - {from: closed, on: lock, to: locked, set: {jammed: true}}
          - {from: locked, on: unlock, to: closed}
          - {from: locked, on: push, guard: "!jammed", to: open, do: [didOpen]}
          - {from: open, on: push, to: closed}
        scenarios:
          - id: openIt
            title: Open the door
            from: closed
            events: [push]
        """

    /// A machine whose `reset` leaves the group `on` and comes back into it, and whose `kick`
    /// passes through `passing` on an eventless transition.
    static let reentry = """
        lifespec: 1
        id: reentry
        title: Re-entry
        states:
          on:
            title: On
            initial: idle
            exit: [stopped]
            entry: [started]
            states:
              idle: {title: Idle}
              passing: {title: Passing}
              busy: {title: Busy}
        initial: on
        events:
          reset: {title: Reset}
          kick: {title: Kick}
          done: {title: Done}
        callbacks:
          started: {swift: "didStart()"}
          stopped: {swift: "didStop()"}
        transitions:
          - {from: on, on: reset, to: on}
          - {from: idle, on: kick, to: passing}
          - {from: passing, always: true, to: busy}
          - {from: busy, on: done, to: idle}
        scenarios:
          - id: resetAndKick
            title: Reset, then kick
            from: idle
            events: [reset, kick]
        """

    @Test("a walkthrough shows what the engine exited and entered: a state left and entered again, one passed through")
    func walkthroughReadsTheEnginesRecord() throws {
        let spec = try SpecFixtures.load(yaml: Self.reentry)
        let scenario = try #require(spec.document.scenarios.first)
        let walk = ScenarioWalkthrough(scenario: scenario, machine: spec.machine)
        #expect(walk.items.count == 2)
        // `reset` leaves `on` (and `idle`) and enters them again: nothing changed as a set, but the
        // exit and entry actions ran, so the walkthrough says so.
        #expect(walk.items[0].reentered == ["on", "idle"])
        #expect(walk.items[0].left.isEmpty && walk.items[0].entered.isEmpty && walk.items[0].passedThrough.isEmpty)
        #expect(walk.items[1].left == ["idle"])
        #expect(walk.items[1].passedThrough == ["passing"])
        #expect(walk.items[1].entered == ["busy"])
        #expect(walk.items[1].reentered.isEmpty)

        let page = MarkdownRenderer.render(spec)
        #expect(
            page.contains("leaves and re-enters `on` (on exit: `didStop()`, on entry: `didStart()`), `idle`"), "\(page)"
        )
        #expect(page.contains("leaves `idle`, passes through `passing`, enters `busy`"), "\(page)")
        let chinese = MarkdownRenderer.render(spec, options: MarkdownOptions(locale: "zh-Hans"))
        #expect(chinese.contains("离开 `idle`，途经 `passing`，进入 `busy`"), "\(chinese)")
    }

    @Test("two transitions to the same state under complementary flags are one matrix outcome, with no condition")
    func matrixMergesWhatItShowsTheSame() throws {
        let spec = try SpecFixtures.load(yaml: Self.door)
        let matrix = EventStateMatrix(machine: spec.machine, stateSpace: spec.stateSpace)
        let push = try #require(matrix.rows.first { $0.event == "push" })
        let closed = try #require(matrix.columns.firstIndex(of: ["closed"]))
        #expect(push.cells[closed].count == 1)
        #expect(push.cells[closed][0].condition == .always)
        #expect(push.cells[closed][0].steps?.map(\.to) == ["open"])
    }

    @Test("a cell shows only the flag values the state space reaches the state with")
    func matrixShowsOnlyReachedFlagValues() throws {
        let spec = try SpecFixtures.load(yaml: Self.door)
        let matrix = EventStateMatrix(machine: spec.machine, stateSpace: spec.stateSpace)
        let push = try #require(matrix.rows.first { $0.event == "push" })
        let locked = try #require(matrix.columns.firstIndex(of: ["locked"]))
        // Locking always jams the door: "not jammed" is never met in Locked, so the cell is one
        // outcome, not two.
        #expect(push.cells[locked].count == 1)
        #expect(push.cells[locked][0].steps == nil)
        // Without the state space every assignment is shown, and the guard splits the cell.
        let unexplored = EventStateMatrix(machine: spec.machine)
        let all = try #require(unexplored.rows.first { $0.event == "push" })
        #expect(all.cells[locked].count == 2)
    }

    @Test("the matrix and Called when speak in titles, and complementary guards drop out")
    func referenceSpeaksInTitles() throws {
        let page = MarkdownRenderer.render(try SpecFixtures.load(yaml: Self.door))
        #expect(page.contains("| Event | Closed | Open | Locked |"))
        #expect(page.contains("| Push the door | Open | Closed | — |"))
        // `oiled` and `!oiled` together always hold: one line, no condition.
        #expect(page.contains("Closed → Open on Push the door<br/>Locked → Open on Push the door if not jammed"))
    }

    @Test("guards joined: dropped when they always hold, the shortest conjunction, else or")
    func joinedGuards() throws {
        func parse(_ text: String) throws -> GuardExpression { try GuardExpression(parsing: text) }
        #expect(PageWords.joinedGuard([try parse("a && b"), try parse("a && !b")]) == .flag("a"))
        #expect(PageWords.joinedGuard([try parse("a"), try parse("!a")]) == nil)
        #expect(PageWords.joinedGuard([try parse("a"), nil]) == nil)
        #expect(
            PageWords.joinedGuard([try parse("a && b"), try parse("!a && !b")])
                == .or(try parse("a && b"), try parse("!a && !b")))
        #expect(PageWords.joinedGuard([try parse("in(x)"), try parse("a")]) == .or(try parse("in(x)"), .flag("a")))
    }

    @Test("the flagship opens with the overview and its first three sequences, one line per call")
    func flagshipOpensAtAGlance() throws {
        let spec = try SpecFixtures.load("Spec/ios-app-lifecycle.yaml")
        var options = MarkdownOptions()
        options.overviewPath = "overview.svg"
        let page = MarkdownRenderer.render(spec, options: options)
        let headings = page.split(separator: "\n").filter { $0.hasPrefix("## ") }.map(String.init)
        #expect(headings.first == "## At a glance")
        #expect(headings.firstIndex(of: "## Walkthroughs")! < headings.firstIndex(of: "## States")!)
        #expect(headings.last == "## Sources")
        let glance = try #require(
            page.components(separatedBy: "## At a glance\n").last?.components(separatedBy: "\n## ").first)
        #expect(glance.contains("![State diagram: iOS app life cycle (UIKit, app delegate)](overview.svg)"))
        #expect(glance.contains("**Cold launch from the Home Screen** · from Not running to Active"))
        #expect(glance.contains("| **1. Open the app** | `application(_:willFinishLaunchingWithOptions:)` |"))
        #expect(glance.contains("|   | posts `UIApplication.didFinishLaunchingNotification` |"))
        // Three sequences, each linked to its walkthrough.
        #expect(glance.components(separatedBy: "](#").count - 1 == 3)
    }

    @Test("a system's timelines name each call's object, and a shared set-up is stated once")
    func systemTimelinesStateTheSetUpOnce() throws {
        let spec = try SpecFixtures.load("Spec/uikit-navigation-stack.yaml")
        let page = MarkdownRenderer.render(spec)
        let walkthroughs = try #require(page.components(separatedBy: "## Walkthroughs\n").last)
        let pop = try #require(
            walkthroughs.components(separatedBy: "### Push B, then pop it with the back button\n").last?
                .components(separatedBy: "\n### ").first)
        #expect(
            pop.contains(
                "*Steps 1–2 as in [Push B, whose view is not loaded, onto A](#push-b-whose-view-is-not-loaded-onto-a).*"
            ))
        // The timeline begins after the set-up; the folded detail keeps every step.
        let timeline = try #require(pop.components(separatedBy: "<details>").first)
        #expect(
            !timeline.contains("Create in code")
                && timeline.contains("| **3. Pop B (back button)** | B | `viewWillDisappear(_:)` |"))
        #expect(timeline.contains("|   | A | `viewWillAppear(_:)` |"))
        #expect(pop.contains("1. **B Create in code**"))
        // The scenario that is the set-up keeps it.
        let push = try #require(
            walkthroughs.components(separatedBy: "### Push B, whose view is not loaded, onto A\n").last?
                .components(separatedBy: "\n### ").first)
        #expect(push.contains("| **1. Create in code** | B | `init(nibName:bundle:)` |"))
        #expect(!push.contains("as in ["))
    }

    @Test("in the scene-based app, the app delegate's calls are the app delegate's in the timeline")
    func timelineNamesTheAppDelegate() throws {
        let page = MarkdownRenderer.render(try SpecFixtures.load("Spec/uikit-scene-based-app.yaml"))
        #expect(page.contains("| AppDelegate | `application(_:didFinishLaunchingWithOptions:)` |"))
        #expect(!page.contains("| S1 | `application("))
    }

    @Test("the DocC article has the page's order and words")
    func doccFollowsThePage() throws {
        let spec = try SpecFixtures.load("Spec/uikit-navigation-stack.yaml")
        let article = DocCRenderer.article(for: spec, resources: [], catalogued: [])
        let headings = article.split(separator: "\n").filter { $0.hasPrefix("### ") }.map(String.init)
        #expect(headings.prefix(2) == ["### At a glance", "### Walkthroughs"])
        #expect(article.contains("*Steps 1–2 as in “Push B, whose view is not loaded, onto A”.*"))
        #expect(article.contains("| **3. Pop B (back button)** | B | `viewWillDisappear(_:)` |"))
        // Walkthrough steps by titles, not ids.
        #expect(article.contains("A Appeared → A Disappearing"))
        #expect(!article.contains("`A.appeared` → "))
    }

    /// The door with two modelling notes (one about a flag and an event, one about the whole) in
    /// two locales, and a source the first cites.
    static let modelledDoor = door.replacingOccurrences(
        of: "title: Door\n",
        with: """
            title: Door
            locales: [en, zh-Hans]
            sources:
              manual: {title: The door's manual, url: "https://example.com/door"}
            modelling:
              - about: [jammed, lock]
                note:
                  en: Turning the key always jams the door; the manual does not say it might not.
                  zh-Hans: 转动钥匙总会卡住门；手册没有说可能不会。
                source: manual
              - note: {en: One door; its frame is not modelled., zh-Hans: 只有一扇门；门框未建模。}

            """)

    @Test("modelling notes get their own section after the reference tables, led by the titles of what they are about")
    func modellingNotesHaveTheirSection() throws {
        let spec = try SpecFixtures.load(yaml: Self.modelledDoor)
        #expect(spec.document.modelling.map(\.about) == [["jammed", "lock"], []])
        let page = MarkdownRenderer.render(spec)
        let headings = page.split(separator: "\n").filter { $0.hasPrefix("## ") }.map(String.init)
        let modelling = try #require(headings.firstIndex(of: "## How this is modelled"))
        #expect(headings.firstIndex(of: "## Events in each state").map { $0 < modelling } == true)
        #expect(headings.firstIndex(of: "## Sources").map { $0 > modelling } == true)
        // The flag's title opens the lead (capitalised), then the event's; the source is marked.
        #expect(
            page.contains(
                "- **Jammed, Turn the key:** Turning the key always jams the door; the manual does not say it might not. [&#91;1&#93;][src-1]"
            ))
        #expect(page.contains("- One door; its frame is not modelled."))
        #expect(page.contains("[How this is modelled](#how-this-is-modelled)"))

        let chinese = MarkdownRenderer.render(spec, options: MarkdownOptions(locale: "zh-Hans"))
        #expect(chinese.contains("## 建模说明"))
        #expect(chinese.contains("**jammed、Turn the key：**转动钥匙总会卡住门"))

        let article = DocCRenderer.article(for: spec, resources: [], catalogued: [])
        #expect(article.contains("### How this is modelled"))
        #expect(article.contains("- **Jammed, Turn the key:** Turning the key always jams the door"))

        // Without notes there is no section, and no entry in the contents.
        let plain = MarkdownRenderer.render(try SpecFixtures.load(yaml: Self.door))
        #expect(!plain.contains("How this is modelled"))
    }
}
