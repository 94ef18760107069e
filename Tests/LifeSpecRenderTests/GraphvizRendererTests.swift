import Foundation
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

@Suite("Graphviz renderer (libgvc in process)")
struct GraphvizRendererTests {
    static let small = """
        digraph g {
          a [label="Alpha"];
          subgraph cluster_x { label="Group"; b [label="Beta"]; c [label="Gamma"]; }
          a -> b [label="go"];
          b -> c [label=<<B>html</B>>];
        }
        """

    @Test("SVG parses as XML and names every state of the fixture")
    func svgNamesEveryState() throws {
        let spec = try SpecFixtures.appLifecycle
        let dot = try DiagramBuilder.build(for: spec, options: DiagramOptions()).dot
        let svg = try ParsedSVG(GraphvizRenderer.shared.render(dot: dot, format: .svg))
        let drawn = try svg.drawnTexts
        for state in spec.document.states {
            let title = try #require(spec.document.text(state.title))
            #expect(drawn.contains(title), "no text '\(title)' in the SVG")
        }
        let ids = try svg.ids
        for state in spec.machine.states {
            #expect(ids.contains("state-" + state.id), "no element with id state-\(state.id)")
        }
    }

    @Test("PNG and PDF come back with their magic bytes")
    func binaryFormats() throws {
        let png = try GraphvizRenderer.shared.render(dot: Self.small, format: .png)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let pdf = try GraphvizRenderer.shared.render(dot: Self.small, format: .pdf)
        #expect(Array(pdf.prefix(5)) == Array("%PDF-".utf8))
        #expect(String(decoding: pdf, as: UTF8.self).contains("/CreationDate (D:19700101000000"))
        let annotated = try GraphvizRenderer.shared.render(dot: Self.small, format: .dot)
        #expect(String(decoding: annotated, as: UTF8.self).contains("pos="))
    }

    @Test("PDF creation dates are overwritten in place, keeping the length")
    func pdfDateNormalisation() {
        var bytes = Array("1 0 obj << /CreationDate (D:20261122000425Z) /ModDate (D:20261122000425+01'00') >>".utf8)
        let length = bytes.count
        GraphvizRenderer.normalizePDFDates(&bytes)
        #expect(bytes.count == length)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "1 0 obj << /CreationDate (D:19700101000000Z) /ModDate (D:19700101000000+00'00') >>")
    }

    @Test("invalid DOT is a parse error carrying Graphviz's message, not a crash, and nothing reaches stderr")
    func invalidDOT() throws {
        let captured = try captureStandardError {
            #expect {
                try GraphvizRenderer.shared.render(dot: "digraph { a -> [ }", format: .svg)
            } throws: { error in
                guard let error = error as? GraphvizError else { return false }
                return error.stage == .parse && error.message.contains("syntax error")
            }
        }
        #expect(!captured.contains("syntax error"), "Graphviz wrote to stderr: \(captured)")
        // The parser recovers: the next render works.
        #expect(try GraphvizRenderer.shared.render(dot: Self.small, format: .svg).count > 100)
    }

    @Test("an unknown layout engine or output format is an error with Graphviz's explanation")
    func unknownEngineAndFormat() throws {
        #expect {
            try GraphvizRenderer.shared.render(dot: Self.small, format: .svg, layout: "nolayout")
        } throws: { error in
            guard let error = error as? GraphvizError else { return false }
            return error.stage == .layout && error.message.contains("nolayout")
        }
        #expect {
            try GraphvizRenderer.shared.render(dot: Self.small, device: "nosuchformat")
        } throws: { error in
            guard let error = error as? GraphvizError else { return false }
            return error.stage == .render && error.message.contains("nosuchformat")
        }
        #expect {
            try GraphvizRenderer.shared.render(dot: "digraph { a }\u{0}", format: .svg)
        } throws: { error in (error as? GraphvizError)?.stage == .parse }
    }

    @Test("Graphviz warnings are returned, one message per warning")
    func warnings() throws {
        let dot = #"digraph { a [label=<<TABLE><TR><TD FIXEDSIZE="TRUE" HEIGHT="4"> </TD></TR></TABLE>>]; }"#
        let output = try GraphvizRenderer.shared.renderWithWarnings(dot: dot, format: .svg)
        #expect(output.warnings == ["fixed cell size with unspecified width or height in label of node a"])
    }

    @Test("a labelled flat edge in a clustered graph renders repeatedly (Graphviz 2.43 double free is repaired)")
    func flatEdgeLabelsDoNotCorruptTheHeap() throws {
        // Flat (same-rank) labelled edges between clusters made dot_cleanup free a stale rank list.
        let dot = """
            digraph { compound=true;
              subgraph cluster_a { a1; a2; } subgraph cluster_b { b1; b2; }
              a1 -> b1 [label="x"]; b1 -> a1 [label="y"]; a2 -> b2 [label="z", constraint=false]; b2 -> a2 [label="w"];
              {rank=same; a1; b1;} }
            """
        for _ in 0..<20 {
            #expect(try GraphvizRenderer.shared.render(dot: dot, format: .svg).count > 100)
        }
    }

    @Test("repeated renders give byte-identical SVG, and the DOT text is identical on every build")
    func deterministic() throws {
        let spec = try SpecFixtures.appLifecycle
        let dots = try (0..<3).map { _ in try DiagramBuilder.build(for: spec, options: DiagramOptions()).dot }
        #expect(Set(dots).count == 1)
        let svgs = try (0..<3).map { _ in try GraphvizRenderer.shared.render(dot: dots[0], format: .svg) }
        #expect(svgs[0] == svgs[1] && svgs[1] == svgs[2])
        let pdfs = try (0..<2).map { _ in try GraphvizRenderer.shared.render(dot: dots[0], format: .pdf) }
        #expect(pdfs[0] == pdfs[1])
        let text = String(decoding: svgs[0], as: UTF8.self)
        #expect(!text.contains("/work/") && !text.contains("/tmp/"))
    }

    @Test("renders from many tasks at once all succeed and agree")
    func concurrentRenders() async throws {
        let spec = try SpecFixtures.appLifecycle
        let dot = try DiagramBuilder.build(for: spec, options: with(DiagramOptions()) { $0.detail = .events }).dot
        let expected = try GraphvizRenderer.shared.render(dot: dot, format: .svg)
        let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for index in 0..<12 {
                group.addTask {
                    try GraphvizRenderer.shared.render(dot: index % 3 == 0 ? Self.small : dot, format: .svg)
                }
            }
            var results: [[UInt8]] = []
            for try await result in group { results.append(result) }
            return results
        }
        let small = try GraphvizRenderer.shared.render(dot: Self.small, format: .svg)
        #expect(results.count == 12)
        #expect(results.filter { $0 == expected }.count == 8)
        #expect(results.filter { $0 == small }.count == 4)
    }
}

/// Memory growth is measured in a process of its own: this test binary run again with only
/// `GraphvizMemoryProbe` selected, so no other suite allocates while the resident set is read.
@Suite("Graphviz renderer memory")
struct GraphvizMemoryTests {
    @Test(
        "rendering 200 diagrams does not grow memory: every graph, layout and buffer is freed",
        .enabled(if: residentBytes() != nil))
    func noLeak() throws {
        // Plain labels and no clusters: Graphviz 2.43 itself leaks nothing here, so any growth is
        // ours (without gvFreeRenderData, gvFreeLayout or agclose it grows by megabytes a round).
        let growth = try GraphvizMemoryProbe.measure(.ring)
        #expect(growth < 4 * 1024 * 1024, "RSS grew by at least \(growth / 1024) KB in every round of 200 renders")
    }

    @Test(
        "rendering 200 real diagrams grows memory only by Graphviz 2.43's own leaks",
        .enabled(if: residentBytes() != nil))
    func boundedGrowthForRealDiagrams() throws {
        // Graphviz 2.43 leaks 72 bytes per <B>/<I>/<FONT> element of an HTML-like label (htmlparse)
        // and the virtual edges it makes for clusters (class1/class2): about 50 KB per render of
        // this diagram, which the renderer cannot free; not freeing the layout would add far more.
        let growth = try GraphvizMemoryProbe.measure(.real)
        #expect(growth < 16 * 1024 * 1024, "RSS grew by at least \(growth / 1024) KB in every round of 200 renders")
    }
}

/// The measurement itself, run only in the child process `GraphvizMemoryTests` starts (selected by
/// `LIFESPEC_MEMORY_PROBE`), which prints the growth for the parent to read.
@Suite("Graphviz memory probe (runs in a child process)")
struct GraphvizMemoryProbe {
    enum Diagram: String { case ring, real }

    static let environmentKey = "LIFESPEC_MEMORY_PROBE"
    static let marker = "lifespec-memory-growth: "
    static var requested: Diagram? { ProcessInfo.processInfo.environment[environmentKey].flatMap(Diagram.init) }

    /// Runs this test binary again with only the probe selected, and reads what it measured.
    static func measure(_ diagram: Diagram) throws -> Int {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0])
        let result = try Subprocess.run(
            binary, ["--testing-library", "swift-testing", "--filter", "GraphvizMemoryProbe"],
            in: SpecFixtures.packageRoot, environment: [environmentKey: diagram.rawValue])
        let output = result.stdout + result.stderr
        guard result.status == 0, let line = output.split(separator: "\n").first(where: { $0.hasPrefix(marker) }),
            let growth = Int(line.dropFirst(marker.count))
        else {
            throw SpecFixtures.FixtureError(
                description: "the memory probe did not report (exit \(result.status)):\n\(output.suffix(3000))")
        }
        return growth
    }

    @Test(.enabled(if: requested != nil))
    func probe() throws {
        let diagram = try #require(Self.requested)
        let dot: String
        switch diagram {
        case .ring:
            var statements: [DOTStatement] = []
            for index in 0..<40 {
                statements.append(.node(DOTNode("s\(index)", attributes: ["label": .text("State number \(index)")])))
                statements.append(
                    .edge(DOTEdge(from: "s\(index)", to: "s\((index + 1) % 40)", attributes: ["label": .text("next")])))
                statements.append(.edge(DOTEdge(from: "s\(index)", to: "s\((index + 39) % 40)")))
            }
            dot = DOTEncoder.encode(DOTGraph(id: "ring", nodeDefaults: ["shape": "box"], statements: statements))
        case .real:
            dot = try DiagramBuilder.build(
                for: SpecFixtures.appLifecycle, options: with(DiagramOptions()) { $0.detail = .events }
            ).dot
        }
        print(Self.marker + String(try smallestGrowth(rendering: dot)))
    }

    /// Renders `dot` 20 times to warm up, then in five rounds of 200, and returns the smallest
    /// growth of the resident set over a round: a leak of ours grows every round, while the
    /// allocator settling grows some rounds only.
    private func smallestGrowth(rendering dot: String) throws -> Int {
        for _ in 0..<20 { _ = try GraphvizRenderer.shared.render(dot: dot, format: .svg) }
        var growths: [Int] = []
        for _ in 0..<5 {
            let before = try #require(residentBytes())
            for _ in 0..<200 { _ = try GraphvizRenderer.shared.render(dot: dot, format: .svg) }
            growths.append(try #require(residentBytes()) - before)
        }
        return growths.min() ?? 0
    }
}

/// Runs `body` with file descriptor 2 redirected to a temporary file; returns what was written.
private func captureStandardError(_ body: () throws -> Void) throws -> String {
    let path = Scratch.url("lifespec-stderr")
        .path
    let file = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
    guard file >= 0 else { throw SpecFixtures.FixtureError(description: "cannot open \(path)") }
    defer {
        close(file)
        unlink(path)
    }
    fflush(nil)
    let saved = dup(2)
    dup2(file, 2)
    defer {
        fflush(nil)
        dup2(saved, 2)
        close(saved)
    }
    try body()
    fflush(nil)
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}
