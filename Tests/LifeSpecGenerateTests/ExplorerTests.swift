import Foundation
import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpecGenerate
@testable import LifeSpecRender

/// The explorer page without a browser: its data is the engine's, its text is escaped for where it
/// goes, and it is the same bytes on every run.
@Suite("The explorer page")
struct ExplorerTests {
    /// The page's embedded data, as the script reads it.
    static func data(_ page: [UInt8]) throws -> [String: Any] {
        let text = String(decoding: page, as: UTF8.self)
        let opening = "<script id=\"lifespec-data\" type=\"application/json\">"
        let start = try #require(text.range(of: opening))
        let end = try #require(text.range(of: "</script>", range: start.upperBound..<text.endIndex))
        let json = Data(text[start.upperBound..<end.lowerBound].utf8)
        return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    @Test("every edge of the graph is the engine's step: the next configuration and the callbacks and notifications")
    func graphIsTheEngines() throws {
        let spec = try SpecFixtures.load("Spec/ios-app-lifecycle.yaml")
        let graph = ExplorerGraph(spec: spec)
        #expect(graph.isComplete)
        let machine = spec.machine
        // Walk every edge from the start breadth-first, replaying each with a runner.
        var (start, steps) = try Runner.start(machine: machine)
        #expect(graph.nodes[graph.start.node].active.map { machine.states[$0].id } == start.activeStates)
        #expect(graph.sequences[graph.start.sequence] == steps.compactMap(\.observation))
        var queue = [(graph.start.node, start)]
        var seen: Set<Int> = [graph.start.node]
        while let (node, runner) = queue.popLast() {
            for (position, event) in machine.events.enumerated() {
                var copy = runner
                let taken = try? copy.send(event.id)
                let edge = graph.nodes[node].edges[position]
                #expect((taken == nil) == (edge == nil), "\(event.id) from \(runner.activeStates)")
                guard let taken, let edge else { continue }
                #expect(graph.nodes[edge.target].active.map { machine.states[$0].id } == copy.activeStates)
                #expect(graph.sequences[edge.sequence] == taken.compactMap(\.observation))
                if seen.insert(edge.target).inserted { queue.append((edge.target, copy)) }
            }
        }
        steps = []
        #expect(seen.count > 5)
    }

    @Test(
        "the log names each call's receiver: a single object's by the catalog's owner, a system's by the app-wide object or the part"
    )
    func logNamesReceivers() throws {
        func receivers(_ path: String) throws -> [String: String] {
            let spec = try SpecFixtures.load(path)
            let page = ExplorerPage.render(spec: spec, graph: ExplorerGraph(spec: spec), drawings: [])
            let items = try #require(try Self.data(page)["observations"] as? [[Any]])
            var result: [String: String] = [:]
            for item in items {
                let names = try #require(item[3] as? [String: String])
                result[try #require(item[1] as? String)] = names["en"] ?? names[""]
            }
            return result
        }
        let restoration = try receivers("Spec/ios-state-restoration.yaml")
        #expect(restoration["willFinishLaunching"] == "AppDelegate", "\(restoration)")
        #expect(restoration["decodeViewController"] == "UIViewController", "\(restoration)")
        // UIApplication posts its notifications; a call no catalog attributes is the spec's object's.
        #expect(restoration["didFinishLaunchingNotification"] == "UIApplication", "\(restoration)")
        let scene = try receivers("Spec/ios-scene-lifecycle.yaml")
        #expect(scene["sceneWillConnectNotification"] == "iOS scene life cycle (UIKit, scene delegate)", "\(scene)")
        let system = try receivers("Spec/uikit-scene-based-app.yaml")
        #expect(system["S1.sceneWillConnect"] == "Scene S1 (with the app delegate's launch)", "\(system)")
        #expect(system["S1.willFinishLaunching"] == "AppDelegate", "\(system)")
    }

    @Test("a system's part events that its own transitions raise are marked, to be offered apart")
    func partEventsTheSystemRaisesAreMarked() throws {
        let spec = try SpecFixtures.load("Spec/uikit-navigation-stack.yaml")
        let page = ExplorerPage.render(spec: spec, graph: ExplorerGraph(spec: spec), drawings: [])
        let events = try #require(try Self.data(page)["events"] as? [[Any]])
        var raised: [String: Bool] = [:]
        for event in events { raised[try #require(event[0] as? String)] = try #require(event[4] as? Bool) }
        // The stack pushes B onto A; the person creates B; pushB is the stack's own event.
        #expect(raised["B.push"] == true, "\(raised)")
        #expect(raised["A.pushOnTop"] == true, "\(raised)")
        #expect(raised["B.instantiateInCode"] == false)
        #expect(raised["pushB"] == false)
        // The delegate's calls, which the stack's own transitions raise, are set apart too.
        #expect(raised["showTop"] == true)
        // A single-object spec has no part events to set apart.
        let single = try SpecFixtures.load("Spec/uiviewcontroller-lifecycle.yaml")
        let singlePage = ExplorerPage.render(spec: single, graph: ExplorerGraph(spec: single), drawings: [])
        let singleEvents = try #require(try Self.data(singlePage)["events"] as? [[Any]])
        #expect(singleEvents.allSatisfy { $0[4] as? Bool == false })
    }

    @Test("a hostile spec string cannot leave its JSON string, close the script or add markup")
    func hostileStrings() throws {
        let hostile = "</script><script>alert(1)</script><!-- & \u{2028}\u{2029} \"quoted\" 'single' <b>"
        let yaml = """
            lifespec: 1
            id: hostile
            title: {en: "\(hostile.replacingOccurrences(of: "\"", with: "\\\""))", zh-Hans: "敌意</script>"}
            locales: [en, zh-Hans]
            states:
              off: {title: {en: "</script>off", zh-Hans: "关"}}
              on: {}
            initial: off
            events:
              flip: {kind: user, title: {en: "</SCRIPT ><!--flip", zh-Hans: "翻转"}}
            transitions:
              - {from: off, on: flip, to: on}
              - {from: on, on: flip, to: off}
            """
        let spec = try SpecFixtures.load(yaml: yaml, path: "Spec/hostile.yaml")
        let page = ExplorerPage.render(spec: spec, graph: ExplorerGraph(spec: spec), drawings: [])
        let text = String(decoding: page, as: UTF8.self)
        // One script element of data, one of code: nothing in the spec closed either or opened another.
        #expect(text.components(separatedBy: "<script").count == 3)
        #expect(text.lowercased().components(separatedBy: "</script").count == 3)
        #expect(!text.contains("<!--"))
        #expect(!text.contains("\u{2028}") && !text.contains("\u{2029}"))
        #expect(!text.contains("<b>"))
        // The strings come back intact in the data.
        let data = try Self.data(page)
        let texts = try #require(data["texts"] as? [String: [String: Any]])
        let title = try #require(texts["en"]?["title"] as? String)
        #expect(title.hasPrefix("</script><script>alert(1)</script><!-- &"), "\(title.debugDescription)")
        let events = try #require(data["events"] as? [[Any]])
        #expect((events.first?[1] as? [String: String])?["en"] == "</SCRIPT ><!--flip")
    }

    @Test("the page is the same bytes on every run, and generate writes it for every spec with a link from each page")
    func deterministicAndGenerated() throws {
        let spec = try SpecFixtures.load("Tests/Fixtures/Valid/door.yaml")
        let first = ExplorerPage.render(spec: spec, graph: ExplorerGraph(spec: spec), drawings: [])
        let second = ExplorerPage.render(spec: spec, graph: ExplorerGraph(spec: spec), drawings: [])
        #expect(first == second)
        let files = try Generator.files(for: [spec])
        let page = try #require(files.first { $0.path == "door/explorer.html" })
        let again = try #require(try Generator.files(for: [spec]).first { $0.path == "door/explorer.html" })
        #expect(page.contents == again.contents)
        let html = String(decoding: page.contents, as: UTF8.self)
        // The drawing of each locale, and a policy that refuses every request.
        #expect(html.components(separatedBy: "<template class=\"lifespec-drawing\"").count == 3)
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        for readme in ["door/README.md", "README.md"] {
            let text = String(decoding: try #require(files.first { $0.path == readme }).contents, as: UTF8.self)
            #expect(text.contains("explorer.html)"), "\(readme) links to the explorer")
        }
        let chinese = String(
            decoding: try #require(files.first { $0.path == "door/README.zh-Hans.md" }).contents, as: UTF8.self)
        #expect(chinese.contains("(explorer.html#locale=zh-Hans)"))
    }
}
