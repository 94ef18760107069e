import Foundation
import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpecRender

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Sequence diagrams")
struct SequenceDiagramTests {
    /// Every spec of `Spec/`, so a new one is checked without being listed.
    static let specs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: SpecFixtures.url("Spec").path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(".yaml".count)) }.sorted()
    }()

    /// The engine's own replay of a scenario (`Runner`, not the walkthrough the diagram reads):
    /// every callback and notification, in order.
    static func engineObservations(_ spec: LoadedSpec, _ scenario: SpecDocument.ScenarioInfo) throws -> [Observation] {
        var (runner, steps) = try Runner.begin(machine: spec.machine, from: scenario.from, flags: scenario.flags)
        for event in scenario.events { steps += try runner.send(event) }
        return steps.compactMap(\.observation)
    }

    @Test(
        "every scenario of every spec: its calls top to bottom in the engine's order, each on its receiver's lifeline")
    func everyScenarioFollowsTheEngine() throws {
        var checked = 0
        for id in Self.specs {
            let spec = try SpecFixtures.load("Spec/\(id).yaml")
            for scenario in spec.document.scenarios {
                for locale in spec.document.locales {
                    let diagram = try #require(SequenceDiagram(spec: spec, scenario: scenario.id, locale: locale))
                    let expected = try Self.engineObservations(spec, scenario)
                    let drawn = diagram.rows.compactMap { row -> (String, Int)? in
                        switch row {
                        case .call(let name, let to), .post(let name, let to): (name, to)
                        default: nil
                        }
                    }
                    #expect(drawn.count == expected.count, "\(id)/\(scenario.id): every call drawn, once")
                    for (observation, (name, lifeline)) in zip(expected, drawn) {
                        let (swift, owner): (String, String)
                        switch observation {
                        case .callback(let callback):
                            swift = spec.machine.callback(callback)?.swiftName ?? callback
                            owner = callback
                        case .notification(let notification):
                            swift = spec.machine.notification(notification)?.swiftName ?? notification
                            owner = notification
                        }
                        #expect(
                            swift.hasSuffix(name), "\(id)/\(scenario.id): \(name) drawn where the engine has \(swift)")
                        // The lifeline: an app-wide object, else the part that models the call.
                        let key = diagram.lifelines[lifeline].key
                        // A single object's calls split between the objects its catalog names, when
                        // they are several; UIApplication's notifications then on UIApplication's.
                        let document = spec.document
                        let splits = !document.isSystem && Set(document.catalogReceivers.values).count > 1
                        let object: String? =
                            switch observation {
                            case .callback: document.catalogReceivers[owner]
                            case .notification: document.catalogPosters[owner]
                            }
                        if let shared = spec.document.sharedReceivers[owner] {
                            #expect(key == "@" + shared)
                        } else if splits, let object {
                            #expect(key == "@" + object, "\(id)/\(scenario.id): \(swift) on \(key), not \(object)")
                        } else if let part = spec.document.part(of: owner) {
                            #expect(key == part.name, "\(id)/\(scenario.id): \(swift) on \(key), not \(part.name)")
                        } else {
                            #expect(key == ".")
                            // In a system every call names the object that receives it; only
                            // notifications, whose names name their poster, are the region's own.
                            if case .callback = observation, spec.document.isSystem {
                                Issue.record("\(id)/\(scenario.id): \(swift) names no object that receives it")
                            }
                        }
                    }
                    // Every part is named on a lifeline, by its title.
                    for part in spec.document.parts {
                        #expect(diagram.lifelines.contains { $0.key == part.name && !$0.title.isEmpty })
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 150)
    }

    @Test(
        "the scene-based app's app-delegate calls go to AppDelegate and UIApplication's notifications to UIApplication, not to a scene"
    )
    func appWideReceivers() throws {
        let spec = try SpecFixtures.load("Spec/uikit-scene-based-app.yaml")
        let scenario = try #require(spec.document.scenarios.first)
        let diagram = try #require(SequenceDiagram(spec: spec, scenario: scenario.id, locale: nil))
        var receivers: [String: String] = [:]
        for row in diagram.rows {
            if case .call(let name, let to) = row { receivers[name] = diagram.lifelines[to].key }
            if case .post(let name, let to) = row { receivers[name] = diagram.lifelines[to].key }
        }
        #expect(receivers["application(_:didFinishLaunchingWithOptions:)"] == "@AppDelegate")
        #expect(receivers["UIApplication.didFinishLaunchingNotification"] == "@UIApplication")
        #expect(receivers["scene(_:willConnectTo:options:)"] == "S1")
        // A part that is the app delegate keeps its calls (the memory-warning system's app part).
        let memory = try SpecFixtures.load("Spec/uikit-memory-warning.yaml")
        let warned = try #require(
            memory.document.scenarios.first { scenario in
                (try? Self.engineObservations(memory, scenario))?.contains { observation in
                    if case .callback(let id) = observation {
                        return memory.machine.callback(id)?.swiftName.hasSuffix(
                            "applicationDidReceiveMemoryWarning(_:)")
                            == true
                    }
                    return false
                } == true
            })
        let warning = try #require(SequenceDiagram(spec: memory, scenario: warned.id, locale: nil))
        #expect(!warning.lifelines.contains { $0.key == "@AppDelegate" })
    }

    @Test("a single object whose calls go to several objects draws each; one that calls one object keeps them")
    func singleObjectCallsSplitByReceiver() throws {
        func lifelines(_ id: String, _ scenario: String) throws -> (keys: [String], calls: [String: String]) {
            let spec = try SpecFixtures.load("Spec/\(id).yaml")
            let diagram = try #require(SequenceDiagram(spec: spec, scenario: scenario, locale: "en"))
            var calls: [String: String] = [:]
            for row in diagram.rows {
                if case .call(let name, let to) = row { calls[name] = diagram.lifelines[to].key }
            }
            return (diagram.lifelines.map(\.key), calls)
        }
        let scene = try lifelines("ios-scene-lifecycle", "coldLaunch")
        #expect(scene.keys == ["", "@AppDelegate", "@UIApplication", "@UISceneDelegate", "."])
        #expect(scene.calls["application(_:configurationForConnecting:options:)"] == "@AppDelegate")
        #expect(scene.calls["scene(_:willConnectTo:options:)"] == "@UISceneDelegate")
        let restoration = try lifelines("ios-state-restoration", "launchWithArchive")
        #expect(restoration.calls["decodeRestorableState(with:)"] == "@UIViewController")
        #expect(restoration.calls["application(_:didDecodeRestorableStateWith:)"] == "@AppDelegate")
        // Every call to the app delegate, or to the view controller (NSObject's awakeFromNib()
        // included, which the controller inherits): the object's own lifeline.
        #expect(try lifelines("ios-app-lifecycle", "coldLaunch").keys == ["", "."])
        let storyboard = try lifelines("uiviewcontroller-lifecycle", "storyboardRoot")
        #expect(storyboard.keys == ["", "."])
        #expect(storyboard.calls["awakeFromNib()"] == ".")
        let controller = try SpecFixtures.load("Spec/uiviewcontroller-lifecycle.yaml")
        #expect(controller.document.catalogReceivers.values.allSatisfy { $0 == "UIViewController" })
    }

    @Test("events raised by a system come from the system's lifeline, numbered events from the sender")
    func raisedEventsComeFromTheirRaiser() throws {
        let spec = try SpecFixtures.load("Spec/uikit-navigation-stack.yaml")
        let diagram = try #require(SequenceDiagram(spec: spec, scenario: "pushUnloaded", locale: "en"))
        let own = try #require(diagram.lifelines.firstIndex { $0.key == "." })
        let events = diagram.rows.compactMap { row -> Int? in
            if case .event(let number, _, _) = row { number } else { nil }
        }
        #expect(events == [1, 2])
        let raisedFrom = diagram.rows.compactMap { row -> Int? in
            if case .raised(_, let from, let to) = row, from != to { from } else { nil }
        }
        #expect(!raisedFrom.isEmpty && raisedFrom.allSatisfy { $0 == own })
        #expect(diagram.start[own] != nil && diagram.end[own] != nil, "the start and end states are stated")
    }

    @Test("rows are laid out top to bottom in order, and no two texts overlap")
    func layoutKeepsOrderAndSpace() throws {
        for (id, scenario) in [("uikit-navigation-stack", "pushThenPop"), ("ios-app-lifecycle", "lockAndUnlock")] {
            let spec = try SpecFixtures.load("Spec/\(id).yaml")
            for locale in spec.document.locales {
                let diagram = try #require(SequenceDiagram(spec: spec, scenario: scenario, locale: locale))
                let graph = SequenceLayout(diagram).graph()
                struct Box { let id: String, x: Double, y: Double, width: Double, height: Double }
                let boxes = graph.allNodes.compactMap { node -> Box? in
                    guard case .string(let pos)? = node.attributes.values["pos"],
                        case .number(let width)? = node.attributes.values["width"],
                        case .number(let height)? = node.attributes.values["height"],
                        node.attributes.values["label"] != nil
                    else { return nil }
                    let parts = pos.dropLast().split(separator: ",").compactMap { Double($0) }
                    return Box(id: node.id, x: parts[0], y: parts[1], width: width * 72, height: height * 72)
                }
                // Row texts (`t<row>`) and state boxes (`s<row>`) descend as the rows go on.
                let rowBoxes = boxes.filter { $0.id.first == "t" || $0.id.first == "s" }
                    .filter { Int($0.id.dropFirst()) != nil }
                    .sorted { Int($0.id.dropFirst())! < Int($1.id.dropFirst())! }
                #expect(rowBoxes.count > 10)
                for (above, below) in zip(rowBoxes, rowBoxes.dropFirst()) {
                    #expect(below.y < above.y, "\(id) \(locale): \(below.id) is not below \(above.id)")
                }
                for (index, a) in boxes.enumerated() {
                    for b in boxes[(index + 1)...] {
                        let overlaps =
                            abs(a.x - b.x) < (a.width + b.width) / 2 - 0.5
                            && abs(a.y - b.y) < (a.height + b.height) / 2 - 0.5
                        #expect(!overlaps, "\(id) \(locale): \(a.id) overlaps \(b.id)")
                    }
                }
            }
        }
    }

    @Test("labels wrap at a selector's colons, between Chinese characters, never before closing punctuation")
    func wrapping() {
        let selector = SequenceLayout.wrap(
            "application(_:viewControllerWithRestorationIdentifierPath:coder:)", size: 14, limit: 200)
        #expect(selector.count > 1)
        #expect(selector.joined() == "application(_:viewControllerWithRestorationIdentifierPath:coder:)")
        #expect(selector.dropLast().allSatisfy { $0.hasSuffix(":") })
        let chinese = SequenceLayout.wrap("导航栈与模态呈现（UIKit，两个视图控制器）", size: 14, bold: true, limit: 150)
        #expect(chinese.count >= 2)
        for line in chinese {
            #expect(!"）)，。、".contains(line.first!), "a line starts with closing punctuation: \(chinese)")
            #expect(!"（(".contains(line.last!), "a line ends with opening punctuation: \(chinese)")
        }
        // Balanced: the lines differ by less than half the longest.
        let widths = chinese.map { SequenceLayout.width($0, size: 14, bold: true) }
        #expect(widths.max()! - widths.min()! < widths.max()! / 2)
        #expect(SequenceLayout.wrap("short", size: 14) == ["short"])
    }

    @Test("hostile titles stay text: the SVG is well-formed XML and the Mermaid escaped")
    func hostileTitles() throws {
        let spec = try SpecFixtures.hostile
        let scenario = try #require(spec.document.scenarios.first)
        let diagram = try #require(SequenceDiagram(spec: spec, scenario: scenario.id, locale: nil))
        let dot = DOTEncoder.encode(SequenceLayout(diagram).graph())
        let svg = try GraphvizRenderer.shared.render(dot: dot, format: .svg, layout: SequenceLayout.layoutEngine)
        let parser = XMLParser(data: Data(svg))
        #expect(parser.parse(), "the SVG does not parse: \(String(describing: parser.parserError))")
        let mermaid = diagram.mermaid(scenario: scenario.id, file: "hostile-labels.yaml")
        for line in mermaid.split(separator: "\n") where !line.hasPrefix("%%") {
            // Past its arrow or `as`, a line's text holds Mermaid's syntax characters only as entities.
            let text = line.replacing(/#\d+;/, with: "").replacing(
                /^ *(L\d+(->>|--\)|-->>)L\d+|participant L\d+ as|Note over L\d+:|title)/, with: "")
            #expect(!text.contains(where: { "#;\"<>{}%&`".contains($0) }), "unescaped syntax in \(line)")
        }
        // No title breaks out of its line: every line is a comment, the header or an indented statement.
        for line in mermaid.split(separator: "\n") {
            #expect(line.hasPrefix("%% ") || line == "sequenceDiagram" || line.hasPrefix("    "), "stray line: \(line)")
        }
    }

    @Test("an unknown scenario is no diagram")
    func unknownScenario() throws {
        #expect(SequenceDiagram(spec: try SpecFixtures.flagship, scenario: "noSuchScenario", locale: nil) == nil)
    }

    /// The readability measure of issue #31: a drawing shown in a 980 px column (GitHub's content
    /// width; shown at its own size when narrower) has a median text height of at least 11 px and at
    /// least 90% of its texts 9 px or taller.
    @Test("every committed sequence diagram is readable at 980 px")
    func committedSequencesAreReadable() throws {
        let output = SpecFixtures.url("Output")
        var checked = 0
        for id in Self.specs {
            let folder = output.appendingPathComponent("\(id)/sequences")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".svg") }
            let spec = try SpecFixtures.load("Spec/\(id).yaml")
            #expect(files.count == spec.document.scenarios.count * max(spec.document.locales.count, 1))
            for file in files {
                let svg = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let measure = try #require(TextSizes(svg: svg), "\(id)/\(file): no viewBox")
                #expect(measure.median >= 11, "\(id)/\(file): median text \(measure.median) px at 980 px")
                #expect(measure.shareAtLeast9 >= 0.9, "\(id)/\(file): \(measure.shareAtLeast9) of texts ≥ 9 px")
                checked += 1
            }
        }
        #expect(checked > 150)
    }
}

/// Text heights of an SVG as a page shows it: in a 980 px column, at its own size when narrower.
struct TextSizes {
    let median: Double
    let shareAtLeast9: Double

    init?(svg: String) {
        guard let viewBox = svg.firstMatch(of: /viewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+"/),
            let width = Double(viewBox.1)
        else { return nil }
        // Graphviz's SVG user unit is the point: 4/3 px at the drawing's own size.
        let scale = min(1, 980 / (width * 4 / 3)) * 4 / 3
        // Each drawn text's size; a blank one (a spacer cell) is nothing a reader reads.
        let sizes = svg.matches(of: /<text [^>]*font-size="([\d.]+)"[^>]*>([^<]*)<\/text>/)
            .filter { !$0.2.allSatisfy { $0 == " " || $0 == "\u{A0}" } && $0.2 != "&#160;" }
            .compactMap { Double($0.1) }.map { $0 * scale }.sorted()
        guard !sizes.isEmpty else { return nil }
        median = sizes[sizes.count / 2]
        shareAtLeast9 = Double(sizes.filter { $0 >= 9 }.count) / Double(sizes.count)
    }
}
