import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpecRender

@Suite("State diagrams from specs")
struct DiagramBuilderTests {
    // MARK: Goldens

    @Test(
        "DOT goldens",
        arguments: [
            ("app-lifecycle", "full-tb", DiagramOptions()),
            (
                "app-lifecycle", "events-lr",
                with(DiagramOptions()) {
                    $0.detail = .events
                    $0.direction = .leftToRight
                }
            ),
            (
                "app-lifecycle", "states",
                with(DiagramOptions()) {
                    $0.detail = .states
                    $0.legend = false
                }
            ),
            ("app-lifecycle", "no-notifications", with(DiagramOptions()) { $0.showNotifications = false }),
            ("app-lifecycle", "zh-Hans", DiagramOptions(locale: "zh-Hans")),
            ("app-lifecycle", "scenario-coldLaunch", with(DiagramOptions()) { $0.scenario = "coldLaunch" }),
            ("app-lifecycle", "scenario-backgroundLaunch", with(DiagramOptions()) { $0.scenario = "backgroundLaunch" }),
            ("hostile-labels", "full", DiagramOptions()),
            ("hostile-labels", "scenario-walk", with(DiagramOptions()) { $0.scenario = "walk" }),
        ])
    func dotGoldens(fixture: String, variation: String, options: DiagramOptions) throws {
        let spec = try SpecFixtures.load("Tests/Fixtures/Diagram/\(fixture).yaml")
        let diagram = try DiagramBuilder.build(for: spec, options: options)
        #expect(diagram.plan.message == nil)
        try assertDiagramGolden(diagram.dot, named: "\(fixture)-\(variation).dot")
    }

    @Test(
        "flagship iOS app life cycle: DOT goldens",
        arguments: [
            ("full", DiagramOptions()),
            ("scenario-\(flagshipScenario)", with(DiagramOptions()) { $0.scenario = flagshipScenario }),
        ])
    func flagshipGoldens(variation: String, options: DiagramOptions) throws {
        let diagram = try DiagramBuilder.build(for: SpecFixtures.flagship, options: options)
        try assertDiagramGolden(diagram.dot, named: "ios-app-lifecycle-\(variation).dot")
        // It must also lay out cleanly: no Graphviz warnings.
        let output = try GraphvizRenderer.shared.renderWithWarnings(dot: diagram.dot, format: .svg)
        #expect(output.warnings.isEmpty)
    }

    static let flagshipScenario = "coldLaunch"

    // MARK: Structure

    @Test("compound states are clusters nested as deep as the spec, each with its initial dot")
    func clusters() throws {
        let graph = try DiagramBuilder.graph(for: SpecFixtures.appLifecycle, options: DiagramOptions())
        let running = try #require(graph.allSubgraphs.first { $0.id == "cluster_running" })
        let foreground = try #require(
            DOTStatement.subgraphs(in: running.statements).first { $0.id == "cluster_foreground" })
        #expect(
            DOTStatement.nodes(in: foreground.statements).map(\.id) == ["@initial:foreground", "inactive", "active"])
        #expect(graph.allSubgraphs.map(\.id) == ["cluster_running", "cluster_foreground", "cluster_background"])
        // One initial dot for the machine and one per compound state, each pointing at its initial child.
        let markers = graph.allNodes.filter { $0.attributes["shape"] == "point" }.map(\.id)
        #expect(markers == ["@initial", "@initial:running", "@initial:foreground", "@initial:background"])
        let initialEdges = graph.allEdges.filter { $0.from.hasPrefix("@initial") && $0.attributes["id"] == nil }
        #expect(
            Set(initialEdges.map { "\($0.from)->\($0.to)" }) == [
                "@initial->notRunning", "@initial:running->@initial:foreground", "@initial:foreground->inactive",
                "@initial:background->executing",
            ])
        let toForeground = try #require(initialEdges.first { $0.from == "@initial:running" })
        #expect(toForeground.attributes["lhead"] == "cluster_foreground")
    }

    @Test(
        "every transition is drawn from each declared source; one declared on a compound state leaves its border once")
    func transitionPlacement() throws {
        let spec = try SpecFixtures.appLifecycle
        let graph = try DiagramBuilder.graph(for: spec, options: DiagramOptions())
        let edges = graph.allEdges.filter { $0.attributes["id"] != nil }
        func index(on event: String) -> Int { spec.machine.transitions.firstIndex { $0.trigger == .event(event) }! }
        // `terminate` is declared `from: [executing, inactive]`: two arrows.
        let terminate = edges.filter { edge in
            guard case .string(let id)? = edge.attributes["id"] else { return false }
            return id.hasPrefix("transition-\(index(on: "terminate"))-")
        }
        #expect(terminate.count == 2)
        // `purge` is declared on the compound `background`: one arrow, clipped to its cluster.
        let purge = edges.filter { $0.attributes["id"] == .string("transition-\(index(on: "purge"))-background") }
        #expect(purge.count == 1)
        let clip = purge.first.flatMap { $0.attributes["ltail"] ?? $0.attributes["lhead"] }
        #expect(clip == "cluster_background")
        #expect(
            !edges.contains { edge in
                guard case .html(let label)? = edge.attributes["label"] else { return false }
                return label.markup.contains("purge")
                    && edge.attributes["id"] != .string("transition-\(index(on: "purge"))-background")
            })
        // Internal transitions are listed in their state, not drawn: `taskFinished` on a leaf,
        // `memoryWarning` on the compound `running`.
        #expect(
            !edges.contains { edge in
                guard case .html(let label)? = edge.attributes["label"] else { return false }
                return label.markup.contains("taskFinished") || label.markup.contains("memoryWarning")
            })
        let executing = try #require(graph.allNodes.first { $0.id == "executing" })
        guard case .html(let executingLabel)? = executing.attributes["label"] else {
            Issue.record("no HTML label")
            return
        }
        #expect(
            executingLabel.markup.contains("taskFinished")
                && executingLabel.markup.contains("set backgroundTask = false"))
        let running = try #require(graph.allSubgraphs.first { $0.id == "cluster_running" })
        guard case .html(let runningLabel)? = running.attributes["label"] else {
            Issue.record("no HTML label")
            return
        }
        #expect(
            runningLabel.markup.contains("memoryWarning")
                && runningLabel.markup.contains("applicationDidReceiveMemoryWarning(_:)"))
        // The eventless transition is dashed and labelled with its guard only.
        let eventless = try #require(edges.first { $0.attributes["style"] == "dashed" })
        guard case .html(let eventlessLabel)? = eventless.attributes["label"] else {
            Issue.record("no label")
            return
        }
        #expect(eventlessLabel.markup.contains("[!backgroundTask]"))
        #expect(edges.filter { $0.attributes["style"] == "dashed" }.count == 1)
    }

    @Test("callbacks and notifications are listed in the order the engine emits them")
    func actionOrder() throws {
        let spec = try SpecFixtures.appLifecycle
        let graph = try DiagramBuilder.graph(for: spec, options: DiagramOptions())
        let index = spec.machine.transitions.firstIndex { $0.trigger == .event("enterForeground") }!
        let edge = try #require(
            graph.allEdges.first { $0.attributes["id"] == .string("transition-\(index)-background") })
        guard case .html(let label)? = edge.attributes["label"] else {
            Issue.record("no label")
            return
        }
        // willEnterForeground posts its notification *before* the callback runs.
        let expected = spec.machine.transitions[index].actions.flatMap(spec.machine.expand).map { step -> String in
            switch step {
            case .callback(let id): spec.machine.callback(id)!.swiftName
            case .notification(let id): spec.machine.notification(id)!.swiftName
            case .transition: ""
            }
        }
        #expect(expected == ["UIApplication.willEnterForegroundNotification", "applicationWillEnterForeground(_:)"])
        let positions = expected.map { label.markup.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions[0]! < positions[1]!)
    }

    @Test("transitions with the same ends share one arrow whose label lists each of them")
    func parallelTransitionsMerge() throws {
        let spec = try SpecFixtures.flagship
        let graph = try DiagramBuilder.graph(for: spec, options: DiagramOptions())
        // Every transition appears in exactly one drawn or listed place.
        let arrows = graph.allEdges.filter { $0.attributes["id"] != nil }
        let topology = DiagramTopology(machine: spec.machine)
        #expect(arrows.count == topology.arrows.count)
        #expect(
            topology.arrows.map(\.entries.count).reduce(0, +)
                + topology.entries.filter { if case .arrow = $0.placement { false } else { true } }.count
                == spec.machine.transitions.map(\.sources.count).reduce(0, +))
        #expect(arrows.count < spec.machine.transitions.count)
        // No two arrows share ends, clipping and style.
        let keys = arrows.map { edge in
            ["ltail", "lhead", "style", "dir"].reduce("\(edge.from)|\(edge.to)") { key, name in
                key + "|" + String(describing: edge.attributes[name])
            }
        }
        #expect(Set(keys).count == keys.count)
    }

    @Test("detail levels: states has no labels, events names events and guards, full adds callbacks")
    func detailLevels() throws {
        let spec = try SpecFixtures.appLifecycle
        let states = try DiagramBuilder.build(for: spec, options: with(DiagramOptions()) { $0.detail = .states }).dot
        let events = try DiagramBuilder.build(for: spec, options: with(DiagramOptions()) { $0.detail = .events }).dot
        let full = try DiagramBuilder.build(for: spec, options: with(DiagramOptions()) { $0.detail = .full }).dot
        let quiet = try DiagramBuilder.build(
            for: spec,
            options: with(DiagramOptions()) {
                $0.detail = .full
                $0.showNotifications = false
            }
        ).dot
        for text in [states, events, full] { #expect(text.contains("Inactive")) }
        #expect(
            !states.contains("becomeActive") && !states.contains("[!backgroundTask]")
                && !states.contains("memoryWarning"))
        #expect(
            events.contains("becomeActive") && events.contains("[!backgroundTask]") && events.contains("memoryWarning"))
        #expect(!events.contains("applicationDidBecomeActive(_:)"))
        #expect(
            full.contains("applicationDidBecomeActive(_:)")
                && full.contains("UIApplication.didBecomeActiveNotification"))
        #expect(
            quiet.contains("applicationDidBecomeActive(_:)")
                && !quiet.contains("UIApplication.didBecomeActiveNotification"))
        let statesGraph = try DiagramBuilder.graph(for: spec, options: with(DiagramOptions()) { $0.detail = .states })
        #expect(statesGraph.allEdges.allSatisfy { $0.attributes["label"] == nil })
    }

    @Test("at states detail a scenario numbers its arrows with overlays, keeping the overview's layout")
    func statesDetailScenarioKeepsTheLayout() throws {
        let spec = try SpecFixtures.appLifecycle
        let overview = with(DiagramOptions()) {
            $0.detail = .states
            $0.legend = false
        }
        var scenario = overview
        scenario.scenario = "coldLaunch"
        let built = try DiagramBuilder.build(for: spec, options: scenario)
        #expect(built.graph.allEdges.allSatisfy { $0.attributes["label"] == nil && $0.attributes["xlabel"] == nil })
        #expect(!built.overlays.isEmpty)
        // Laid out, every state sits where the overview puts it.
        func positions(_ options: DiagramOptions) throws -> [String] {
            let dot = try DiagramBuilder.build(for: spec, options: options).dot
            let laidOut = String(decoding: try GraphvizRenderer.shared.render(dot: dot, format: .dot), as: UTF8.self)
            // Graphviz wraps long statements over several lines: split on statement ends.
            return laidOut.components(separatedBy: "];").compactMap { statement in
                guard statement.contains("id=\"state-"), !statement.contains("->"),
                    let pos = statement.range(of: "pos=\"")
                else { return nil }
                return String(statement[pos.upperBound...].prefix { $0 != "\"" })
            }
        }
        let drawn = try positions(overview)
        #expect(drawn.count == spec.machine.leafStates.count)
        #expect(try positions(scenario) == drawn)
    }

    @Test("direction, locale and legend options")
    func options() throws {
        let spec = try SpecFixtures.appLifecycle
        let lr = try DiagramBuilder.graph(for: spec, options: with(DiagramOptions()) { $0.direction = .leftToRight })
        #expect(lr.attributes["rankdir"] == "LR")
        let tb = try DiagramBuilder.graph(for: spec, options: DiagramOptions())
        #expect(tb.attributes["rankdir"] == "TB")
        #expect(tb.attributes["compound"] == true)
        let chinese = try DiagramBuilder.build(for: spec, options: DiagramOptions(locale: "zh-Hans")).dot
        #expect(chinese.contains("未运行") && chinese.contains("变为活跃"))
        // A Chinese drawing is read by its titles: no id beneath them (#31).
        #expect(!chinese.contains(">notRunning</FONT>"))
        let english = try DiagramBuilder.build(for: spec, options: DiagramOptions()).dot
        #expect(!english.contains(">notRunning</FONT>"))
        let bare = try DiagramBuilder.graph(for: spec, options: with(DiagramOptions()) { $0.legend = false })
        #expect(bare.attributes["label"] == nil)
        #expect(tb.attributes["label"] != nil)
    }

    @Test(
        "a scenario's steps are numbered on the arrows it takes, in the engine's order, as overlays; the rest is faded")
    func scenarioPath() throws {
        let spec = try SpecFixtures.appLifecycle
        let diagram = try DiagramBuilder.build(
            for: spec, options: with(DiagramOptions()) { $0.scenario = "coldLaunch" })
        let graph = diagram.graph
        // The scenario's title is held by its first arrow too.
        let overlays = Dictionary(
            uniqueKeysWithValues: diagram.overlays.filter { !$0.isHeading }.map { ($0.edgeID, $0.html) })
        #expect(diagram.overlays.filter(\.isHeading).count == 1)
        // Replay with the engine to know which transitions carry which numbers.
        let scenario = try #require(spec.document.scenario("coldLaunch"))
        var runner = try Runner(machine: spec.machine, state: scenario.from, flags: scenario.flags)
        var expected: [Int: [Int]] = [:]
        var number = 0
        for event in scenario.events {
            for case .transition(let step) in try runner.send(event) {
                number += 1
                expected[step.transitionIndex, default: []].append(number)
            }
        }
        #expect(number == 5)
        #expect(expected.values.contains([3, 5]), "becomeActive is taken twice")
        for edge in graph.allEdges {
            guard case .string(let id)? = edge.attributes["id"], id.hasPrefix("transition-") else { continue }
            let index = Int(id.split(separator: "-")[1])!
            guard case .html(let label)? = edge.attributes["label"] else { continue }
            // The labels are the overview's (colours aside): numbers in them would change the layout.
            #expect(!label.markup.contains(DiagramStyle.accent))
            if let numbers = expected[index] {
                #expect(overlays[id] == DiagramComposer.badge(numbers).markup, "\(id) lacks its step numbers")
                #expect(overlays[id]?.contains(">" + numbers.map(String.init).joined(separator: ", ") + "<") == true)
                #expect(edge.attributes["color"] == .string(DiagramStyle.accent))
            } else {
                #expect(overlays[id] == nil)
                #expect(edge.attributes["color"] == .string(DiagramStyle.faded), "\(id) should be faded")
            }
        }
        #expect(overlays.count == Set(expected.keys).count)
        // Standalone DOT carries them as external labels.
        #expect(diagram.standaloneDOT.contains("xlabel=<"))
        #expect(!diagram.dot.contains("xlabel"))
        let suspended = try #require(graph.allNodes.first { $0.id == "suspended" })
        #expect(suspended.attributes["color"] == .string(DiagramStyle.faded))
        let active = try #require(graph.allNodes.first { $0.id == "active" })
        #expect(active.attributes["color"] == .string(DiagramStyle.accent))
    }

    @Test("an unknown scenario is an error naming the scenarios there are")
    func scenarioErrors() throws {
        let spec = try SpecFixtures.appLifecycle
        #expect(
            throws: DiagramError.unknownScenario(
                "nope", available: ["coldLaunch", "backgroundLaunch", "returnFromBackground"])
        ) {
            try DiagramBuilder.build(for: spec, options: with(DiagramOptions()) { $0.scenario = "nope" })
        }
    }

    @Test("one group drawn alone: its states, and dashed stand-ins for the states its transitions reach outside it")
    func groupRendering() throws {
        let spec = try SpecFixtures.appLifecycle
        let diagram = try DiagramBuilder.build(for: spec, options: with(DiagramOptions()) { $0.group = "background" })
        try assertDiagramGolden(diagram.dot, named: "app-lifecycle-group-background.dot")
        let graph = diagram.graph
        #expect(graph.allSubgraphs.map(\.id) == ["cluster_background"])
        let nodes = graph.allNodes.map(\.id)
        #expect(
            nodes.contains("executing") && nodes.contains("suspended") && !nodes.contains("inactive")
                && !nodes.contains("@initial"))
        #expect(
            Set(nodes.filter { $0.hasPrefix("@outside:") }) == [
                "@outside:launching", "@outside:inactive", "@outside:foreground", "@outside:notRunning",
            ])
        // Transitions wholly outside the group, or declared on an enclosing state, are not drawn.
        #expect(!diagram.dot.contains("becomeActive") && !diagram.dot.contains("memoryWarning"))
        #expect(
            diagram.dot.contains("enterForeground") && diagram.dot.contains("purge")
                && diagram.dot.contains("taskFinished"))
        #expect(diagram.plan.size.clusters == 1)
        #expect(throws: DiagramError.unknownGroup("executing", available: ["running", "foreground", "background"])) {
            try DiagramBuilder.build(for: spec, options: with(DiagramOptions()) { $0.group = "executing" })
        }
        #expect(throws: DiagramError.unknownGroup("nope", available: ["running", "foreground", "background"])) {
            try DiagramBuilder.build(for: spec, options: with(DiagramOptions()) { $0.group = "nope" })
        }
        let svg = try ParsedSVG(GraphvizRenderer.shared.render(dot: diagram.dot, format: .svg))
        #expect(try svg.drawnTexts.contains("Not Running"))
    }

    @Test("marker names never collide with state ids")
    func names() {
        #expect(DiagramTopology.nodeID("idle") == "idle")
        #expect(DiagramTopology.nodeID("@initial") == "@@initial")
        #expect(DiagramTopology.markerID(nil) == "@initial")
        #expect(DiagramTopology.markerID("a") == "@initial:a")
        #expect(DiagramTopology.nodeID("@initial:a") != DiagramTopology.markerID("a"))
    }

    // MARK: Large machines

    @Test("a small machine is drawn as asked")
    func smallPlan() throws {
        let plan = DiagramBuilder.plan(for: try SpecFixtures.appLifecycle, options: DiagramOptions())
        #expect(plan.effectiveDetail == .full && plan.message == nil && !plan.isRefused)
    }

    @Test("a machine over the layout budget is drawn at a coarser detail, and one far over it is refused with advice")
    func largePlans() throws {
        let spec = try SpecFixtures.flagship
        let size = DiagramBuilder.plan(for: spec, options: DiagramOptions()).size
        #expect(
            size.weight(at: .states) < size.weight(at: .events) && size.weight(at: .events) < size.weight(at: .full))
        // A budget between the `events` and `full` weights: drawn at `events`, saying why.
        let tight = DiagramLimits(comfortableWeight: size.weight(at: .events), maximumWeight: 100_000)
        let fallback = try DiagramBuilder.build(for: spec, options: DiagramOptions(), limits: tight)
        #expect(fallback.plan.effectiveDetail == .events && !fallback.plan.isRefused)
        #expect(fallback.plan.message?.contains("drawing it at 'events' detail instead of 'full'") == true)
        #expect(!fallback.dot.contains("applicationDidBecomeActive(_:)") && fallback.dot.contains("Open the app"))
        // Over every comfortable level but under the maximum: `states`, with a warning.
        let slow = try DiagramBuilder.build(
            for: spec, options: with(DiagramOptions()) { $0.detail = .events },
            limits: DiagramLimits(comfortableWeight: 1, maximumWeight: size.weight(at: .states)))
        #expect(slow.plan.effectiveDetail == .states && slow.plan.message?.contains("several seconds") == true)
        #expect(slow.graph.allEdges.allSatisfy { $0.attributes["label"] == nil })
        // Over the maximum: refused, and the error says what to do.
        let refusing = DiagramLimits(comfortableWeight: 1, maximumWeight: size.weight(at: .states) - 1)
        let plan = DiagramBuilder.plan(for: spec, options: DiagramOptions(), limits: refusing)
        #expect(plan.isRefused)
        #expect(throws: DiagramError.tooLarge(plan)) {
            try DiagramBuilder.build(for: spec, options: DiagramOptions(), limits: refusing)
        }
        #expect(DiagramError.tooLarge(plan).description.contains("split the spec"))
    }

    @Test("the standard budget: measured sizes of synthetic machines")
    func standardBudget() {
        // Sizes of `lifespec synth` machines: 100 states lays out in 0.4 s at full detail,
        // 1,200 in 7.5 s at states detail, 1,600 ran for 99 s.
        let hundred = DiagramPlan(
            size: DiagramSize(nodes: 117, clusters: 16, arrows: 276, eventLines: 294, fullLines: 917), requested: .full)
        #expect(hundred.effectiveDetail == .full && hundred.message == nil)
        let twelveHundred = DiagramPlan(
            size: DiagramSize(nodes: 1381, clusters: 180, arrows: 3237, eventLines: 3480, fullLines: 11009),
            requested: .full)
        #expect(!twelveHundred.isRefused && twelveHundred.effectiveDetail == .states)
        let sixteenHundred = DiagramPlan(
            size: DiagramSize(nodes: 1841, clusters: 240, arrows: 4313, eventLines: 4617, fullLines: 14626),
            requested: .states)
        #expect(sixteenHundred.isRefused)
    }
}
