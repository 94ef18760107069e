import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifeSpecGenerate
@testable import LifeSpecRender

/// One layout per diagram: a scenario is the overview restyled, and text is measured with
/// LifeSpec's own metrics, whatever fonts the machine has.
@Suite("drawings share one layout and carry their digests", .serialized)
struct SharedLayoutTests {
    static let specs = [
        "ios-app-lifecycle", "ios-scene-lifecycle", "ios-state-restoration", "uiviewcontroller-lifecycle",
    ]

    /// The geometry of every node of an SVG, by its `id` (Graphviz escapes `-` as `&#45;`).
    static func nodeGeometry(_ svg: [UInt8]) -> [String: [String]] {
        let text = String(decoding: svg, as: UTF8.self)
        var nodes: [String: [String]] = [:]
        for chunk in text.components(separatedBy: "<g id=\"").dropFirst() {
            guard let idEnd = chunk.firstIndex(of: "\""), chunk[idEnd...].hasPrefix("\" class=\"node\""),
                let groupEnd = chunk.range(of: "</g>")
            else { continue }
            let body = chunk[..<groupEnd.lowerBound]
            var values: [String] = []
            for attribute in ["points", "d", "x", "y", "cx", "cy", "rx", "ry"] {
                var rest = body[...]
                while let range = rest.range(of: " \(attribute)=\"") {
                    values.append(attribute + "=" + rest[range.upperBound...].prefix { $0 != "\"" })
                    rest = rest[range.upperBound...]
                }
            }
            nodes[String(chunk[..<idEnd]).replacingOccurrences(of: "&#45;", with: "-")] = values
        }
        return nodes
    }

    @Test("every scenario SVG has the overview's node positions, drawn from the overview's layout")
    func scenariosKeepTheOverviewsPositions() throws {
        let specs = try Self.specs.map { try SpecFixtures.load("Spec/\($0).yaml") }
        let before = GraphvizRenderer.shared.separateLayouts
        let files = try Generator.files(for: specs, others: specs)
        #expect(GraphvizRenderer.shared.separateLayouts == before, "a scenario needed a layout of its own")
        let byPath = Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.contents) })
        for spec in specs {
            let id = spec.document.id
            let overview = Self.nodeGeometry(try #require(byPath["\(id)/diagram.svg"]))
            #expect(overview.count >= 8)
            #expect(overview.keys.contains { $0.hasPrefix("state-") })
            for scenario in spec.document.scenarios {
                let svg = try #require(byPath["\(id)/scenarios/\(scenario.id).svg"])
                #expect(Self.nodeGeometry(svg) == overview, "\(id)/scenarios/\(scenario.id).svg moved a node")
                // Its step numbers are there, as overlays.
                #expect(String(decoding: svg, as: UTF8.self).contains("fill=\"#0071e3\""))
            }
        }
    }

    @Test("a restyle that would need another layout is laid out on its own, not drawn wrong")
    func differentGraphsAreLaidOutSeparately() throws {
        let base = "digraph { node [color=black penwidth=1]; edge [color=black]; a -> b }"
        let restyled = "digraph { node [color=black penwidth=1]; edge [color=black]; a -> b [color=red] }"
        let other = "digraph { node [color=black penwidth=1]; edge [color=black]; a -> b; b -> c }"
        let wider =
            "digraph { node [color=black penwidth=1]; edge [color=black]; a [label=\"a much longer label\"]; a -> b }"
        let before = GraphvizRenderer.shared.separateLayouts
        let outputs = try GraphvizRenderer.shared.render(
            layout: base,
            requests: [
                DrawingRequest(formats: [.svg]),
                DrawingRequest(restyle: restyled, formats: [.svg]),
                DrawingRequest(restyle: other, formats: [.svg]),
                DrawingRequest(restyle: wider, formats: [.svg]),
                DrawingRequest(formats: [.svg]),
            ])
        #expect(GraphvizRenderer.shared.separateLayouts == before + 2)
        let svgs = outputs.map { String(decoding: $0[0].data, as: UTF8.self) }
        #expect(svgs[1].contains("stroke=\"red\""))
        #expect(svgs[2].contains("<title>c</title>"))
        #expect(svgs[3].contains("a much longer label"))
        #expect(svgs[4] == svgs[0], "drawing the laid-out graph again after restyles gives it back")
        #expect(svgs[0] == String(decoding: try GraphvizRenderer.shared.render(dot: base, format: .svg), as: UTF8.self))
    }

    @Test(
        "a label restyled back and forth is the same drawing as one restyled once: its variants are kept, not rebuilt wrong"
    )
    func labelVariantsAreReused() throws {
        func graph(_ color: String?, edge: String) -> String {
            let label = color.map { "<<FONT COLOR=\"\($0)\"><B>Alpha</B></FONT>>" } ?? "<<B>Alpha</B>>"
            return
                "digraph { node [shape=box]; a [label=\(label)]; b; a -> b [label=\"\(edge)\" fontcolor=\"\(color ?? "black")\"] }"
        }
        let (base, dim, red) = (graph(nil, edge: "go"), graph("#AEAEB2", edge: "go"), graph("red", edge: "go"))
        let before = GraphvizRenderer.shared.separateLayouts
        let svgs = try GraphvizRenderer.shared.render(
            layout: base,
            requests: [dim, base, dim, red, dim, base].map {
                DrawingRequest(restyle: $0 == base ? nil : $0, formats: [.svg])
            }
        ).map { String(decoding: $0[0].data, as: UTF8.self) }
        #expect(GraphvizRenderer.shared.separateLayouts == before)
        // Each graph laid out on its own (same sizes, so the same positions) is what the shared
        // layout must draw.
        func alone(_ graph: String) throws -> String {
            String(decoding: try GraphvizRenderer.shared.render(dot: graph, format: .svg), as: UTF8.self)
        }
        let plain = try alone(base)
        #expect(svgs[0] == (try alone(dim)) && svgs[0].contains("fill=\"#aeaeb2\">go</text>"))
        #expect(svgs[3] == (try alone(red)) && svgs[3].contains("fill=\"red\">go</text>"))
        #expect(svgs[2] == svgs[0] && svgs[4] == svgs[0], "a dimmed label swapped back in")
        #expect(svgs[1] == plain && svgs[5] == plain, "the laid-out label swapped back in")
    }

    @Test("drawings asked for after the layout share it; one that needs glyphs the layout did not make gets its own")
    func laterRequestsShareTheLayout() throws {
        let base = "digraph { node [color=black]; edge [color=black]; a -> b }"
        let restyled = "digraph { node [color=black]; edge [color=black]; a -> b [color=red] }"
        var before = GraphvizRenderer.shared.separateLayouts
        let together = try GraphvizRenderer.shared.render(
            layout: base,
            requests: [DrawingRequest(formats: [.svg]), DrawingRequest(restyle: restyled, formats: [.svg])])
        let later = try GraphvizRenderer.shared.render(
            layout: base, requests: [DrawingRequest(formats: [.svg])],
            then: { [DrawingRequest(restyle: restyled, formats: [.svg])] })
        #expect(later.map { $0.map(\.data) } == together.map { $0.map(\.data) })
        #expect(GraphvizRenderer.shared.separateLayouts == before)
        before = GraphvizRenderer.shared.separateLayouts
        let bitmap = try GraphvizRenderer.shared.render(
            layout: base, requests: [DrawingRequest(formats: [.svg])], then: { [DrawingRequest(formats: [.png])] })
        #expect(GraphvizRenderer.shared.separateLayouts == before + 1)
        #expect(bitmap.count == 2 && bitmap[1][0].data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(bitmap[1][0].data == (try GraphvizRenderer.shared.render(dot: base, format: .png)))
    }

    @Test("text is measured with the tool's metrics: Helvetica widths, CJK 1 em, bold wider")
    func textMetrics() throws {
        #expect(GraphvizRenderer.shared.measuresWithOwnMetrics)
        func width(_ label: String, font: String = "Helvetica") throws -> Double {
            let dot =
                "digraph { node [shape=plaintext margin=0 width=0 height=0 fontsize=18 fontname=\"\(font)\"]; a [label=<\(label)>] }"
            let laidOut = String(decoding: try GraphvizRenderer.shared.render(dot: dot, format: .dot), as: UTF8.self)
            let node = try #require(laidOut.range(of: "\ta\t["))
            let range = try #require(laidOut[node.upperBound...].range(of: "width="))
            return try #require(Double(laidOut[range.upperBound...].prefix { $0 == "." || $0.isNumber }))
        }
        // 20 more CJK characters are 20 em wider: 20 × 18 pt = 5 inches.
        #expect(abs(try width(String(repeating: "中", count: 40)) - width(String(repeating: "中", count: 20)) - 5) < 0.02)
        // Helvetica's `x` is 1,024/2,048 em: 20 of them are 2.5 inches.
        #expect(
            abs(try width(String(repeating: "x", count: 40)) - width(String(repeating: "x", count: 20)) - 2.5) < 0.02)
        // Monospace: 0.6 em a character, whatever the character.
        #expect(
            abs(
                try width(String(repeating: "i", count: 40), font: "Courier")
                    - width(String(repeating: "i", count: 20), font: "Courier") - 3) < 0.02)
        #expect(
            try width("<B>" + String(repeating: "m", count: 40) + "</B>") > width(String(repeating: "m", count: 40)))
    }

    /// Both compressions: the CPU's SHA extensions where it has them, and the portable one.
    @Test("SHA-256 matches the standard's test vectors", arguments: [true, false])
    func sha256(accelerated: Bool) {
        func hex(_ bytes: [UInt8]) -> String {
            var hasher = SHA256(accelerated: accelerated)
            hasher.update(bytes)
            return hasher.finalize()
        }
        #expect(hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var hasher = SHA256(accelerated: accelerated)
        for _ in 0..<1000 { hasher.update(Array(repeating: UInt8(ascii: "a"), count: 1000)) }
        #expect(hasher.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the block and padding boundaries, fed whole and in uneven pieces (a buffered
    /// partial block, then whole blocks from inside a slice): the SHA extensions and the portable
    /// compression agree.
    @Test("SHA-256 with the SHA extensions equals the portable compression")
    func sha256Accelerated() {
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096, 65_537] {
            // Scrambled by a multiplicative hash, so no block repeats another.
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
            for piece in [length + 1, 1, 7, 64, 100] {
                var fast = SHA256(accelerated: true)
                var plain = SHA256(accelerated: false)
                for start in stride(from: 0, to: length, by: max(piece, 1)) {
                    let slice = bytes[start..<min(start + piece, length)]
                    fast.update(slice)
                    plain.update(slice)
                }
                #expect(fast.finalize() == plain.finalize(), "\(length) bytes in pieces of \(piece)")
            }
        }
    }

    @Test("an SVG's stamp records its source and finds an edit")
    func stamp() throws {
        let svg = try GraphvizRenderer.shared.render(dot: "digraph { a -> b }", format: .svg)
        let source = DrawingSource(layout: "digraph { a -> b }", format: .svg)
        let stamped = DrawingStamp.stamp(svg, source: source)
        #expect(
            String(decoding: stamped, as: UTF8.self).split(separator: "\n")[1].hasPrefix(
                "<!-- lifespec: source sha256:"))
        let read = try #require(DrawingStamp.read(stamped))
        #expect(read.source == source && read.intact)
        #expect(DrawingStamp.stamp(stamped, source: source) == stamped, "stamping again changes nothing")
        var edited = stamped
        edited[edited.count - 10] ^= 0x20
        #expect(DrawingStamp.read(edited)?.intact == false)
        #expect(DrawingStamp.read(svg) == nil)
        // What it was drawn from, not how: the format, the DOT, the restyle and overlays all count.
        #expect(DrawingSource(layout: "digraph { a -> b }", format: .png) != source)
        #expect(DrawingSource(layout: "digraph { a -> c }", format: .svg) != source)
        #expect(
            DrawingSource(layout: "digraph { a -> b }", restyle: "digraph { a -> b [color=red] }", format: .svg)
                != source)
    }
}
