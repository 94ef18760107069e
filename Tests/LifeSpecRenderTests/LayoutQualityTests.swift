import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

/// The layout-quality test of issue #31 (see `LayoutQuality`): over every committed drawing, over
/// seeded synthetic specs drawn in-process, and over a hand-made SVG it must reject.
@Suite("layout quality")
struct LayoutQualityTests {
    @Test("the checker rejects a text over a text, a text over a node, and a label nearer another edge")
    func rejectsOverlaps() {
        let svg = """
            <svg><g id="graph0" class="graph">
            <g id="node1" class="node"><title>a</title>
            <polygon fill="none" stroke="black" points="0,0 100,0 100,-40 0,-40 0,0"/>
            <text text-anchor="middle" x="50" y="-15" font-family="Helvetica,sans-Serif" font-size="14.00">Active</text>
            </g>
            <g id="state&#45;b" class="cluster"><title>cluster_b</title>
            <text text-anchor="start" x="200" y="-100" font-family="Helvetica,sans-Serif" font-weight="bold" font-size="15.00">Offscreen</text>
            </g>
            <g id="e1" class="edge"><title>a&#45;&gt;b</title>
            <path fill="none" stroke="black" d="M100,-20C150,-20 150,-20 300,-20"/>
            <text text-anchor="start" x="210" y="-96" font-family="Helvetica,sans-Serif" font-size="12.00">Go to the background</text>
            <text text-anchor="start" x="90" y="-30" font-family="Helvetica,sans-Serif" font-size="12.00">Lock</text>
            </g>
            <g id="e2" class="edge"><title>b&#45;&gt;c</title>
            <path fill="none" stroke="black" d="M200,-95C250,-95 250,-95 400,-95"/>
            </g>
            </g></svg>
            """
        let found = LayoutQuality(svg: svg).violations(file: "hand-made.svg")
        #expect(
            found.contains {
                $0.hasPrefix("hand-made.svg: ") && $0.contains("“Go to the background” [210.0,-106.9")
                    && $0.contains("“Offscreen”")
            }, "\(found)")
        #expect(found.contains { $0.contains("“Lock”") && $0.contains("node a [0.0,-40.0 – 100.0,0.0]") }, "\(found)")
        #expect(found.contains { $0.contains("of edge a->b") && $0.contains("from edge b->c") }, "\(found)")
        #expect(found.count == 3, "\(found)")
    }

    @Test("the checker rejects the label of an arrow inside a cluster drawn outside it, and only that one")
    func rejectsALabelOutsideItsCluster() {
        // Cluster g holds a and b; c is outside it. a->b's label lies left of g's border, b->c's
        // (whose ends no cluster holds both of) may lie anywhere.
        let svg = """
            <svg><g id="graph0" class="graph">
            <g id="clust1" class="cluster"><title>cluster_g</title>
            <polygon fill="none" stroke="black" points="100,0 300,0 300,-200 100,-200 100,0"/>
            </g>
            <g id="node1" class="node"><title>a</title>
            <polygon fill="none" stroke="black" points="150,-150 250,-150 250,-180 150,-180 150,-150"/>
            </g>
            <g id="node2" class="node"><title>b</title>
            <polygon fill="none" stroke="black" points="150,-20 250,-20 250,-50 150,-50 150,-20"/>
            </g>
            <g id="node3" class="node"><title>c</title>
            <polygon fill="none" stroke="black" points="400,-20 500,-20 500,-50 400,-50 400,-20"/>
            </g>
            <g id="e1" class="edge"><title>a&#45;&gt;b</title>
            <path fill="none" stroke="black" d="M150,-165C120,-120 120,-80 150,-35"/>
            <text text-anchor="end" x="118" y="-100" font-family="Helvetica,sans-Serif" font-size="12.00">Interrupt</text>
            </g>
            <g id="e2" class="edge"><title>b&#45;&gt;c</title>
            <path fill="none" stroke="black" d="M250,-35C300,-35 350,-35 400,-35"/>
            <text text-anchor="middle" x="325" y="-60" font-family="Helvetica,sans-Serif" font-size="12.00">Move</text>
            </g>
            </g></svg>
            """
        let found = LayoutQuality(svg: svg).violations(file: "clusters.svg")
        #expect(
            found
                == found.filter {
                    $0.contains("of edge a->b is not inside cluster cluster_g [100.0,-200.0 – 300.0,0.0]")
                }
                && found.count == 1, "\(found)")
    }

    @Test("a drawing whose texts keep apart passes")
    func acceptsSeparateTexts() {
        let svg = """
            <svg><g id="graph0" class="graph">
            <g id="node1" class="node"><title>a</title>
            <polygon fill="none" stroke="black" points="0,0 100,0 100,-40 0,-40 0,0"/>
            <text text-anchor="middle" x="50" y="-15" font-family="Helvetica,sans-Serif" font-size="14.00">Active</text>
            </g>
            <g id="e1" class="edge"><title>a&#45;&gt;b</title>
            <path fill="none" stroke="black" d="M100,-20C150,-20 150,-20 300,-20"/>
            <text text-anchor="start" x="150" y="-26" font-family="Helvetica,sans-Serif" font-size="12.00">Lock</text>
            </g>
            </g></svg>
            """
        #expect(LayoutQuality(svg: svg).violations(file: "fine.svg").isEmpty)
    }

    static func drawings(_ spec: LoadedSpec, scenarios: Int) throws -> [(String, String)] {
        var result: [(String, String)] = []
        func svg(_ options: DiagramOptions) throws -> String {
            String(decoding: try DiagramBuilder.build(for: spec, options: options).render(.svg), as: UTF8.self)
        }
        result.append(("diagram.svg", try svg(DiagramOptions())))
        result.append(("overview.svg", try svg(DiagramOptions.pageOverview)))
        for scenario in spec.document.scenarios.prefix(scenarios) {
            result.append(
                ("scenarios/\(scenario.id).svg", try svg(with(DiagramOptions()) { $0.scenario = scenario.id })))
            if let diagram = SequenceDiagram(spec: spec, scenario: scenario.id, locale: nil) {
                let dot = DOTEncoder.encode(SequenceLayout(diagram).graph())
                let bytes = try GraphvizRenderer.shared.render(
                    dot: dot, format: .svg, layout: SequenceLayout.layoutEngine)
                result.append(("sequences/\(scenario.id).svg", String(decoding: bytes, as: UTF8.self)))
            }
        }
        return result
    }

    /// Problems left in the denser synthetic drawings, by seed: where an edge of a crowded rank
    /// runs straight through a row of other edges' labels, no spot beside a label's own curve is
    /// clear of it, and the renderer (`lifespec_keep_labels_by_their_edges`) leaves the label where
    /// dot put it. 30 states, seed 7: 178 problems before the renderer moved labels, 28 after
    /// (7 labels, in the diagram and its 3 scenarios). A ceiling, so that it only goes down.
    static let residual: [Int: Int] = [30: 28]

    @Test(
        "seeded synthetic specs: diagram, overview, scenarios and sequences keep their texts apart",
        arguments: [(12, 1), (20, 2), (30, 7)])
    func syntheticSpecs(_ states: Int, _ seed: UInt64) throws {
        let spec = try SpecFixtures.load(
            yaml: SyntheticSpec(states: states, seed: seed, scenarios: 3).yaml(), path: "Spec/synthetic.yaml")
        var sequences: [String] = []
        var drawings: [String] = []
        for (file, svg) in try Self.drawings(spec, scenarios: 3) {
            let found = LayoutQuality(svg: svg).violations(file: "synth \(states)/\(seed) \(file)")
            if file.hasPrefix("sequences/") { sequences += found } else { drawings += found }
        }
        #expect(sequences.isEmpty, "\(sequences.count) problems:\n\(sequences.joined(separator: "\n"))")
        let outside = drawings.filter(LayoutQuality.isOutsideItsCluster)
        drawings.removeAll(where: LayoutQuality.isOutsideItsCluster)
        #expect(
            drawings.count <= Self.residual[states, default: 0],
            "\(drawings.count) problems:\n\(drawings.joined(separator: "\n"))")
        #expect(
            outside.count <= Self.residualOutside[states, default: 0],
            "\(outside.count) labels outside their cluster:\n\(outside.joined(separator: "\n"))")
    }

    /// Labels of an arrow inside a group that the renderer leaves outside the group, (c): the label
    /// mover takes one in only to a spot beside its curve inside the group where nothing else is,
    /// and a long label in a narrow group has none. Ceilings, as `residual`.
    static let residualOutside: [Int: Int] = [12: 4, 20: 20, 30: 9]

    /// The same in Output/, counted over every committed drawing of the 17 specs (over the 15
    /// before: 365 before the mover took labels into their groups, 188 after; 223 before the
    /// navigation operations system started with A shown, 216 before the navigation stack did);
    /// most are in scenario drawings, which have the full diagram's long labels. Checked both
    /// ways, so the figure follows the renderer and the specs: lower it when it drops.
    static let knownOutsideInOutput = 200

    /// Labels in Output/ that the renderer leaves nearer a neighbouring arrow (#34's specs; see
    /// README, layout quality): in the background-task system's Chinese drawings the scene's
    /// disconnection label sits between two arrows leaving one state side by side, 5.1 points from
    /// its own and 3.9 from the other (the mover finds no clear spot even 42 points off); in the
    /// restored hierarchy's purge scenario step 32's badge, drawn left of "Access the view", lies on
    /// the arrow beside it. The same label in English, and every other drawing, passes.
    static let knownInOutput: [(file: String, text: String)] =
        [
            "diagram.zh-Hans.svg", "scenarios/scheduledTaskExpires.zh-Hans.svg",
            "scenarios/scheduledTaskLaunch.zh-Hans.svg", "scenarios/scheduledTaskThenOpened.zh-Hans.svg",
            "scenarios/taskEndedInTheForeground.zh-Hans.svg", "scenarios/taskEndsInTheBackground.zh-Hans.svg",
            "scenarios/taskTimeRunsOut.zh-Hans.svg", "scenarios/terminatedDuringTask.zh-Hans.svg",
        ].map { ("uikit-background-tasks/" + $0, "of edge S.unattached->@initial:S.offscreen") }
        + [
            (
                "uikit-state-restoration-hierarchy/scenarios/purgedThenRestored.svg",
                "of edge Detail.viewNotLoaded->Detail.disappeared"
            )
        ]

    @Test("every committed drawing in Output/ keeps its texts apart and its labels by their edges")
    func committedDrawings() throws {
        let output = SpecFixtures.url("Output")
        let files =
            FileManager.default.enumerator(atPath: output.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".svg") }.sorted() ?? []
        #expect(files.count > 300)
        var problems: [String] = []
        for file in files {
            let svg = try String(contentsOf: output.appendingPathComponent(file), encoding: .utf8)
            problems += LayoutQuality(svg: svg).violations(file: file)
        }
        // LIFESPEC_LAYOUT_REPORT=FILE writes the whole list there (a console cuts long messages).
        if let report = ProcessInfo.processInfo.environment["LIFESPEC_LAYOUT_REPORT"] {
            try problems.joined(separator: "\n").write(toFile: report, atomically: true, encoding: .utf8)
        }
        // Known problems the renderer leaves (a label no clear spot fits, a badge on a neighbouring
        // arrow), each listed so that any other fails, and each still expected, so a fix removes it.
        let known = problems.filter { problem in
            Self.knownInOutput.contains { problem.hasPrefix($0.file + ":") && problem.contains($0.text) }
        }
        for entry in Self.knownInOutput {
            #expect(
                known.contains { $0.hasPrefix(entry.file + ":") && $0.contains(entry.text) },
                "\(entry.file) no longer has its known problem: remove it from knownInOutput")
        }
        problems.removeAll { known.contains($0) }
        let outside = problems.filter(LayoutQuality.isOutsideItsCluster)
        problems.removeAll(where: LayoutQuality.isOutsideItsCluster)
        #expect(
            outside.count <= Self.knownOutsideInOutput,
            "\(outside.count) labels outside their cluster, more than the \(Self.knownOutsideInOutput) known:\n\(outside.joined(separator: "\n"))"
        )
        #expect(
            outside.count >= Self.knownOutsideInOutput,
            "only \(outside.count) labels are outside their cluster now: lower knownOutsideInOutput to \(outside.count)"
        )
        let drawings = Set(problems.map { $0.prefix { $0 != ":" } })
        #expect(
            problems.isEmpty,
            "\(problems.count) problems in \(drawings.count) drawings:\n\(problems.joined(separator: "\n"))")
    }
}
