import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

/// Scenarios drawn from their differences: a base drawing and, per scenario, only what differs
/// from it, pieced together into exactly the SVG of the scenario drawn whole.
@Suite("scenarios drawn from their differences", .serialized)
struct ScenarioDifferencesTests {
    /// Draws every scenario of `spec` (in `locale`) both ways in one render, the whole drawings
    /// last so they also show that hiding objects leaves nothing behind for later drawings.
    static func checkEveryScenario(of spec: LoadedSpec, locale: String?) throws {
        var options = DiagramOptions()
        options.locale = locale
        let overview = try DiagramBuilder.build(for: spec, options: options)
        let scenarios = try spec.document.scenarios.map { scenario in
            var scenarioOptions = options
            scenarioOptions.scenario = scenario.id
            return try DiagramBuilder.build(for: spec, options: scenarioOptions)
        }
        try #require(scenarios.count >= 2, "\(spec.document.id) needs two scenarios for this test")
        let differences = try #require(
            ScenarioDifferences(
                scenarios: scenarios.map(\.graph), overlays: scenarios.map(\.overlays), layout: overview.graph))
        // Every difference twice: whole (each hidden object listed) and as the listing of what it
        // shows, whose restyle hides the rest. The listings come after the whole differences, so
        // they also show that hiding what is not listed leaves nothing behind.
        let listings = try differences.listed.map { try #require($0, "\(spec.document.id) has no listing") }
        let pieces =
            [DrawingRequest(restyle: DOTEncoder.encode(differences.base), formats: [.svg], sharedLayoutOnly: true)]
            + zip(differences.differences, scenarios).map { graph, scenario in
                DrawingRequest(
                    restyle: DOTEncoder.encode(graph), overlays: scenario.overlays, formats: [.svg],
                    sharedLayoutOnly: true)
            }
            + zip(listings, scenarios).map { graph, scenario in
                DrawingRequest(
                    restyle: DOTEncoder.encode(graph), overlays: scenario.overlays, formats: [.svg],
                    hidesUnlisted: true)
            }
        let whole = scenarios.map { DrawingRequest(restyle: $0.dot, overlays: $0.overlays, formats: [.svg]) }
        let outputs = try GraphvizRenderer.shared.render(layout: overview.dot, requests: pieces + whole)
        let base = try #require(outputs[0].first).data
        let count = scenarios.count
        for (index, scenario) in spec.document.scenarios.enumerated() {
            let name = "\(spec.document.id)/\(scenario.id) \(locale ?? "")"
            let difference = try #require(outputs[1 + index].first, "\(name) did not share the layout").data
            let listing = try #require(outputs[1 + count + index].first, "\(name)'s listing was refused").data
            let drawnWhole = outputs[1 + 2 * count + index][0].data
            let pieced = try #require(ScenarioDifferences.piece(base: base, difference: difference))
            #expect(pieced == drawnWhole, "\(name)")
            #expect(listing == difference, "\(name): the listing draws what the whole difference draws")
            // The difference drawing really leaves things out: that is where the time goes.
            let hidden = try #require(SVGPieces(difference)).objects.filter { !$0.isDrawn }.count
            #expect(hidden > 0, "\(name) hides nothing")
            #expect(difference.count < drawnWhole.count)
            // The listing leaves out at least every hidden arrow (a hidden state stays when a shown
            // arrow ends at it).
            let whole = differences.differences[index]
            let hiddenArrows = whole.allEdges.filter { $0.attributes["style"] == .string("invis") }.count
            #expect(
                listings[index].allNodes.count + listings[index].allEdges.count
                    <= whole.allNodes.count + whole.allEdges.count - hiddenArrows,
                "\(name): the listing keeps hidden arrows")
        }
    }

    @Test(
        "every scenario of the specs, in every locale, pieced together is byte for byte the scenario drawn whole",
        arguments: SharedLayoutTests.specs + [
            "uikit-background-tasks", "uikit-memory-warning", "uikit-navigation-stack", "uikit-presentation",
            "uikit-protected-data", "uikit-scene-based-app", "uikit-state-restoration-hierarchy", "uikit-tab-bar",
            "uikit-view-controller-containment",
        ])
    func specsScenarios(name: String) throws {
        let spec = try SpecFixtures.load("Spec/\(name).yaml")
        let locales: [String?] = spec.document.locales.isEmpty ? [nil] : spec.document.locales
        for locale in locales { try Self.checkEveryScenario(of: spec, locale: locale) }
    }

    @Test("a synthetic machine's random walks, with faded labels and shared arrows, pieced together exactly")
    func syntheticScenarios() throws {
        let spec = try SpecFixtures.load(
            yaml: SyntheticSpec(states: 60, seed: 3, scenarios: 6).yaml(), path: "Spec/synthetic.yaml")
        try Self.checkEveryScenario(of: spec, locale: nil)
    }

    @Test("the base holds each object's most common look; a scenario hides exactly the objects that have it")
    func baseIsTheMostCommonLook() throws {
        func graph(_ colors: [String]) -> DOTGraph {
            DOTGraph(
                id: "g",
                statements: colors.enumerated().map { index, color in
                    .node(
                        DOTNode("n\(index)", attributes: ["color": .string(color), "id": .string("state-n\(index)")]))
                } + [.edge(DOTEdge(from: "n0", to: "n1", attributes: ["id": "arrow", "color": "grey"]))])
        }
        let scenarios = [graph(["red", "grey"]), graph(["grey", "grey"]), graph(["grey", "blue"])]
        let numbered = Overlay(edgeID: "arrow", html: "1", fontSize: 9, fontName: "Helvetica")
        let layout = DOTGraph(id: "g", nodeDefaults: ["style": "filled"], edgeDefaults: ["style": "solid"])
        let differences = try #require(
            ScenarioDifferences(scenarios: scenarios, overlays: [[], [], [numbered]], layout: layout))
        #expect(differences.base == graph(["grey", "grey"]))
        func looks(_ graph: DOTGraph) -> [DOTAttributes] {
            graph.allNodes.map(\.attributes) + graph.allEdges.map(\.attributes)
        }
        let hidden: (String) -> DOTAttributes = { ["style": "invis", "id": .string($0)] }
        #expect(
            looks(differences.differences[0]) == [
                scenarios[0].allNodes[0].attributes, hidden("state-n1"), hidden("arrow"),
            ])
        #expect(looks(differences.differences[1]) == [hidden("state-n0"), hidden("state-n1"), hidden("arrow")])
        // An arrow with step numbers is drawn, even in its base look: the numbers go with it.
        #expect(
            looks(differences.differences[2]) == [
                hidden("state-n0"), scenarios[2].allNodes[1].attributes, scenarios[2].allEdges[0].attributes,
            ])
        // A graph laid out without an edge style cannot hide its edges: they are drawn in every
        // difference. The same for nodes.
        let withoutEdgeStyle = try #require(
            ScenarioDifferences(
                scenarios: scenarios, overlays: [[], [], []],
                layout: DOTGraph(id: "g", nodeDefaults: ["style": "filled"])))
        #expect(withoutEdgeStyle.differences.allSatisfy { $0.allEdges == scenarios[0].allEdges })
        #expect(looks(withoutEdgeStyle.differences[1]).prefix(2) == [hidden("state-n0"), hidden("state-n1")])
        let nestedStyle = DOTGraph(
            id: "g",
            statements: [
                .subgraph(
                    DOTSubgraph(
                        id: "cluster_x",
                        statements: [.edge(DOTEdge(from: "a", to: "b", attributes: ["style": "dashed"]))]))
            ])
        let onlyEdges = try #require(
            ScenarioDifferences(scenarios: scenarios, overlays: [[], [], []], layout: nestedStyle))
        #expect(onlyEdges.differences[1].allNodes == scenarios[1].allNodes)
        #expect(looks(onlyEdges.differences[1]).last == hidden("arrow"))
    }

    @Test("graphs that are not the same graph are not drawn from differences")
    func differentGraphsAreRefused() {
        let one = DOTGraph(id: "g", statements: [.node(DOTNode("a")), .node(DOTNode("b"))])
        let other = DOTGraph(id: "g", statements: [.node(DOTNode("a")), .node(DOTNode("c"))])
        let nested = DOTGraph(
            id: "g",
            statements: [
                .node(DOTNode("a")), .subgraph(DOTSubgraph(id: "cluster_x", statements: [.node(DOTNode("b"))])),
            ])
        #expect(ScenarioDifferences(scenarios: [one, other], overlays: [[], []], layout: one) == nil)
        #expect(ScenarioDifferences(scenarios: [one, nested], overlays: [[], []], layout: one) == nil)
        #expect(ScenarioDifferences(scenarios: [one, one], overlays: [[]], layout: one) == nil)
        #expect(ScenarioDifferences(scenarios: [], overlays: [], layout: one) == nil)
        #expect(ScenarioDifferences(scenarios: [one, one], overlays: [[], []], layout: one) != nil)
    }

    /// A small SVG in Graphviz's layout: the graph's group, a cluster, then each object's comment
    /// and group (`nil`: hidden).
    static func svg(_ objects: [(String, String?)], cluster: Bool = true) -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <svg width="62pt" height="116pt">
            <g id="graph0" class="graph" transform="translate(4 112)">
            <title>g</title>

            """
        if cluster { text += "<g id=\"clust1\" class=\"cluster\">\n<title>cluster_x</title>\n</g>\n" }
        for (name, drawing) in objects {
            text += "<!-- \(name) -->\n"
            if let drawing {
                text +=
                    "<g id=\"\(name)\" class=\"node\">\n<g id=\"a_\(name)\"><a xlink:title=\"t\">\n\(drawing)\n</a>\n</g>\n</g>\n"
            }
        }
        return Array((text + "</g>\n</svg>\n").utf8)
    }

    @Test("pieces: each object drawn in the difference wins, the base fills in the hidden ones")
    func piecesCombine() throws {
        let base = Self.svg([("a", "<ellipse fill=\"grey\"/>"), ("b", "<ellipse fill=\"grey\"/>"), ("c", nil)])
        let difference = Self.svg([("a", nil), ("b", "<ellipse fill=\"blue\"/>"), ("c", nil)])
        let expected = Self.svg([("a", "<ellipse fill=\"grey\"/>"), ("b", "<ellipse fill=\"blue\"/>"), ("c", nil)])
        #expect(ScenarioDifferences.piece(base: base, difference: difference) == expected)
        let pieces = try #require(SVGPieces(base))
        #expect(pieces.objects.map(\.isDrawn) == [true, true, false])
    }

    @Test("pieces that do not line up are refused, so the scenario is drawn whole")
    func misalignedPiecesAreRefused() {
        let base = Self.svg([("a", "<ellipse/>"), ("b", "<ellipse/>")])
        // Another object list.
        #expect(ScenarioDifferences.piece(base: base, difference: Self.svg([("a", nil), ("c", nil)])) == nil)
        #expect(ScenarioDifferences.piece(base: base, difference: Self.svg([("a", nil)])) == nil)
        // Cut short: the graph's group never closes.
        let truncated = Array(base.dropLast(12))
        #expect(SVGPieces(truncated) == nil)
        #expect(ScenarioDifferences.piece(base: truncated, difference: base) == nil)
        // A group with no comment before it, and something that is neither after the objects.
        let orphan = Array(
            String(decoding: base, as: UTF8.self).replacingOccurrences(of: "<!-- b -->\n", with: "").utf8)
        #expect(SVGPieces(orphan) == nil)
        let stray = Array(
            String(decoding: base, as: UTF8.self).replacingOccurrences(
                of: "<!-- b -->\n", with: "<text>x</text>\n<!-- b -->\n"
            )
            .utf8)
        #expect(SVGPieces(stray) == nil)
        // An unterminated comment line.
        let open = Array(
            String(decoding: base, as: UTF8.self).replacingOccurrences(of: "<!-- b -->", with: "<!-- b").utf8)
        #expect(SVGPieces(open) == nil)
    }

    @Test("a hidden object needs nothing but its style: another shape or label does not cost a layout")
    func hiddenObjectsShareTheLayout() throws {
        // Colours and styles are declared where the graph is laid out, as the composer's are.
        let dot = """
            digraph g { node [shape=box, style=filled, color=black]; edge [style=solid];
              a [label="First state", id="state-a"]; b [label="B"]; a -> b [id="ab", label="go"]; }
            """
        let hiding = """
            digraph g { node [shape=box, style=filled, color=black]; edge [style=solid];
              a [style=invis, id="state-a"]; b [label="B", color=blue]; a -> b [style=invis, id="ab"]; }
            """
        let outputs = try GraphvizRenderer.shared.render(
            layout: dot,
            requests: [
                DrawingRequest(restyle: hiding, formats: [.svg], sharedLayoutOnly: true),
                DrawingRequest(formats: [.svg]),
            ])
        let hidden = String(decoding: try #require(outputs[0].first).data, as: UTF8.self)
        #expect(hidden.contains("<!-- a -->") && !hidden.contains("state&#45;a"))
        #expect(!hidden.contains("First state") && !hidden.contains(">go<"))
        #expect(hidden.contains("stroke=\"blue\""))
        // Back to its own look afterwards: the label and the arrow are drawn again.
        let again = String(decoding: outputs[1][0].data, as: UTF8.self)
        #expect(again.contains("First state") && again.contains(">go<") && !again.contains("stroke=\"blue\""))
    }

    @Test("a drawing that must share the layout and cannot gets no output, not a layout of its own")
    func sharedLayoutOnlyIsNeverLaidOutAgain() throws {
        // Another shape, or hiding an edge where no edge style was laid out: both need a layout.
        let dot = "digraph g { a [shape=box]; b; a -> b; }"
        let reshaped = "digraph g { a [shape=circle]; b; a -> b; }"
        let hidingUndeclared = "digraph g { a [shape=box]; b; a -> b [style=invis]; }"
        let outputs = try GraphvizRenderer.shared.render(
            layout: dot,
            requests: [
                DrawingRequest(restyle: reshaped, formats: [.svg], sharedLayoutOnly: true),
                DrawingRequest(restyle: hidingUndeclared, formats: [.svg], sharedLayoutOnly: true),
                DrawingRequest(formats: [.svg], sharedLayoutOnly: true),
            ])
        #expect(outputs[0].isEmpty)
        #expect(outputs[1].isEmpty)
        // The graph's own look shares the layout, and the failed restyles left nothing behind.
        let svg = String(decoding: try #require(outputs[2].first).data, as: UTF8.self)
        #expect(svg.contains("<ellipse") && svg.contains("<polygon fill=\"none\" stroke=\"black\""))
    }
}
