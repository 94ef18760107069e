import CCairo
import CGraphviz
import Foundation
import LifeSpec

/// Output formats produced in-process by libgvc.
package enum GraphvizFormat: String, Sendable, Hashable, CaseIterable {
    case svg
    case png
    case pdf
    /// The input annotated with layout coordinates (Graphviz's `-Tdot`).
    case dot

    /// The Graphviz device name; PNG goes through cairo for anti-aliased text.
    var device: String {
        switch self {
        case .svg: "svg"
        case .png: "png:cairo"
        case .pdf: "pdf:cairo"
        case .dot: "dot"
        }
    }

    package var fileExtension: String { rawValue }
}

/// A failure reported by Graphviz, with the text Graphviz wrote (which is captured, never
/// printed to stderr).
package struct GraphvizError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Stage: String, Sendable, Hashable {
        /// `agmemread` could not parse the DOT text.
        case parse
        /// `gvLayout` failed (e.g. an unknown layout engine).
        case layout
        /// `gvRenderData` failed (e.g. an unknown format), or Graphviz reported an error while
        /// laying out or rendering.
        case render
    }

    package let stage: Stage
    /// Graphviz's own messages, one per line, without the `Error: ` prefix.
    package let message: String

    package var description: String { "Graphviz \(stage.rawValue) failed: \(message)" }
}

/// Rendered bytes plus any warnings Graphviz reported on the way.
package struct GraphvizOutput: Sendable, Hashable {
    package let data: [UInt8]
    package let warnings: [String]
}

/// An output of `GraphvizRenderer.renderPendingBitmaps`: finished, or a bitmap still being encoded.
package enum DrawnOutput: Sendable {
    case finished(GraphvizOutput)
    case pending(PendingBitmap)

    /// The output, once every thread working on it is done (this one taking part).
    package func finished() throws(GraphvizError) -> GraphvizOutput {
        switch self {
        case .finished(let output): output
        case .pending(let bitmap): GraphvizOutput(data: try bitmap.bytes(), warnings: bitmap.warnings)
        }
    }
}

/// A bitmap whose PNG is still being encoded on other threads.
package struct PendingBitmap: Sendable {
    fileprivate let encoding: PNGEncoding
    package let warnings: [String]

    /// The PNG: takes part in what is left of the encoding, then waits for the rest.
    package func bytes() throws(GraphvizError) -> [UInt8] { try encoding.result() }
}

/// Text drawn over a laid-out arrow after layout (a scenario's step numbers), so it costs no
/// layout and moves nothing: an HTML-like label, placed left of the arrow's label or on its curve.
/// An arrow may have several, each beside its own line of the label.
package struct Overlay: Sendable, Hashable {
    /// The `id` attribute of the arrow.
    package let edgeID: String
    /// An HTML-like label (what goes between `<` and `>` in DOT).
    package let html: String
    package let fontSize: Double
    package let fontName: String
    /// The lines of the arrow's label above the one this overlay sits beside, as an HTML-like
    /// label laid out as the label lays them out (so it is as tall as they are); `nil` beside the
    /// first line.
    package var linesAbove: String? = nil
    /// Placed above the whole drawing at its left edge instead (a scenario's title), held by the
    /// arrow so it is drawn with it.
    package var isHeading = false
}

/// One drawing made from a shared layout (see `GraphvizRenderer.render(layout:requests:)`).
package struct DrawingRequest: Sendable, Hashable {
    /// DOT text of the same graph with other styles, drawn on the layout; `nil` draws the laid-out graph.
    package var restyle: String?
    package var overlays: [Overlay]
    package var formats: [GraphvizFormat]
    /// Drawn on the shared layout or not at all (no outputs) when the restyle would need a layout
    /// of its own: for drawings that are pieced together with others from the same layout.
    package var sharedLayoutOnly: Bool
    /// The restyle lists only part of the graph, and every node and edge it leaves out is hidden
    /// (`lifespec_restyle_sparse`): such a drawing cannot be laid out on its own, so it also only
    /// shares the layout.
    package var hidesUnlisted: Bool

    package init(
        restyle: String? = nil, overlays: [Overlay] = [], formats: [GraphvizFormat], sharedLayoutOnly: Bool = false,
        hidesUnlisted: Bool = false
    ) {
        self.restyle = restyle
        self.overlays = overlays
        self.formats = formats
        self.sharedLayoutOnly = sharedLayoutOnly || hidesUnlisted
        self.hidesUnlisted = hidesUnlisted
    }
}

/// Renders DOT text to SVG, PNG or PDF in memory through libgvc: no `dot` process is spawned.
///
/// Graphviz keeps global state (the DOT parser, the error hook, caches) and crashes when two
/// threads use it at once, so there is exactly one renderer, `shared`, which owns the process's
/// one `GVC_t` context and serialises every call behind a lock. Each call frees what it made
/// (`gvFreeRenderData`, `gvFreeLayout`, `agclose`); the context itself lives for the process
/// (making a new one per render leaks a few KB each time). Graphviz's messages go to a hook
/// installed with `agseterrf` and come back in the thrown `GraphvizError` or in
/// `GraphvizOutput.warnings`, never on stderr.
///
/// The pointers in this file are the C interfaces of libgvc and cairo (graphs, edges, render
/// buffers, recordings), kept to the calls that need them.
package final class GraphvizRenderer: Sendable {
    package static let shared = GraphvizRenderer()

    /// The `GVC_t*`, created on first use. Only touched while the lock is held.
    private let context = Locked<OpaquePointer?>(nil)

    private init() {}

    /// Lays out `dot` with `layout` (`dot`, `neato`, …) and renders it as `format`.
    package func render(dot: String, format: GraphvizFormat, layout: String = "dot") throws(GraphvizError) -> [UInt8] {
        try renderWithWarnings(dot: dot, format: format, layout: layout).data
    }

    /// Like `render`, also returning the warnings Graphviz printed.
    package func renderWithWarnings(dot: String, format: GraphvizFormat, layout: String = "dot") throws(GraphvizError)
        -> GraphvizOutput
    {
        try render(dot: dot, formats: [format], layout: layout)[0]
    }

    /// Lays `dot` out once and renders it in each of `formats` (in that order): an SVG and a PNG
    /// of one diagram cost one layout.
    package func render(dot: String, formats: [GraphvizFormat], layout: String = "dot") throws(GraphvizError)
        -> [GraphvizOutput]
    {
        try render(dot: dot, targets: formats.map(Target.init), layout: layout)
    }

    /// Renders with any Graphviz device name (`"svg"`, `"png:cairo"`, `"json"`, …).
    package func render(dot: String, device: String, layout: String = "dot") throws(GraphvizError) -> GraphvizOutput {
        try render(
            layout: dot,
            drawings: [Drawing(targets: [Target(device: device, kind: device.hasPrefix("pdf") ? .pdf : .plain)])],
            layout: layout)[0][0]
    }

    /// Lays `dot` out once and draws every request from that layout, in order: each is the laid-out
    /// graph, or the same graph with `restyle`'s styles (colours, pen widths, label colours, a
    /// larger legend), with its overlays placed. A restyle that would need other positions (the
    /// two graphs are not the same graph) is laid out on its own instead, so the result is always
    /// right; `layoutsShared` counts the requests that were not.
    ///
    /// `then` is asked for more requests once the first are drawn (so the caller can make them
    /// while the graph is laid out); its drawings come after the first in the result. A request
    /// with `sharedLayoutOnly` that cannot share the layout gets no outputs (an empty list).
    package func render(
        layout dot: String, requests: [DrawingRequest], then more: () -> [DrawingRequest] = { [] },
        layout: String = "dot"
    ) throws(GraphvizError) -> [[GraphvizOutput]] {
        try renderPendingBitmaps(layout: dot, requests: requests, then: more, layout: layout).map {
            outputs throws(GraphvizError) in try outputs.map { output throws(GraphvizError) in try output.finished() }
        }
    }

    /// Like `render(layout:requests:then:layout:)`, but returns as soon as everything is drawn: a
    /// bitmap still being encoded comes back pending, so the caller can work on the other outputs
    /// meanwhile and take part in the encoding when it asks for the PNG.
    package func renderPendingBitmaps(
        layout dot: String, requests: [DrawingRequest], then more: () -> [DrawingRequest] = { [] },
        layout: String = "dot"
    ) throws(GraphvizError) -> [[DrawnOutput]] {
        func drawings(_ requests: [DrawingRequest]) -> [Drawing] {
            requests.map {
                Drawing(
                    restyle: $0.restyle, overlays: $0.overlays, targets: $0.formats.map(Target.init),
                    sharedLayoutOnly: $0.sharedLayoutOnly || $0.hidesUnlisted, hidesUnlisted: $0.hidesUnlisted)
            }
        }
        return try draw(layout: dot, drawings: drawings(requests), then: { drawings(more()) }, layout: layout)
    }

    /// How many restyled drawings had to be laid out on their own, since the process started.
    package var separateLayouts: Int { separateLayoutCount.withLock { $0 } }
    private let separateLayoutCount = Locked(0)

    /// Whether text is measured with LifeSpec's own metrics (see shim.h), so layouts do not depend
    /// on the fonts installed. Lays out a one-node graph the first time it is asked.
    package var measuresWithOwnMetrics: Bool {
        _ = try? render(dot: "digraph { a }", format: .dot)
        return lifespec_text_metrics_in_use() != 0
    }

    /// Names the metrics text is measured with, for the digests drawings record.
    package static var textMetricsVersion: String { String(cString: lifespec_text_metrics_version()) }

    /// A bitmap larger than this is drawn at a lower resolution than 96 dpi: cairo holds the whole
    /// image in memory (4 bytes a pixel), and a 500-state machine is tens of thousands of pixels
    /// wide at screen resolution.
    package static let maximumBitmapPixels = 12_000_000.0

    private struct Target {
        enum Kind { case plain, pdf, png }
        let device: String
        let kind: Kind

        /// Whether the device draws glyphs (cairo: PNG, PDF, …) rather than writing text or
        /// coordinates (SVG, DOT, JSON, …): only those need the system's text layouts.
        var drawsGlyphs: Bool {
            let name = device.split(separator: ":").first.map(String.init) ?? device
            return kind != .plain
                || ![
                    "svg", "svgz", "dot", "xdot", "gv", "canon", "json", "json0", "dot_json", "xdot_json",
                    "plain", "plain-ext", "imap", "imap_np", "cmapx", "cmapx_np", "ismap", "vml", "fig", "pic", "tk",
                ].contains(name)
        }

        init(device: String, kind: Kind) {
            self.device = device
            self.kind = kind
        }

        init(_ format: GraphvizFormat) {
            switch format {
            // Pixels come back raw and are encoded after the lock is released (see CLibPNG).
            case .png: self.init(device: "lifespec_argb:cairo", kind: .png)
            case .pdf: self.init(device: format.device, kind: .pdf)
            case .svg, .dot: self.init(device: format.device, kind: .plain)
            }
        }
    }

    /// What one target produced under the lock: finished bytes, or a bitmap whose encoding runs
    /// on other threads (see PNGEncoding).
    private enum Rendered {
        case bytes([UInt8], warnings: [String])
        case bitmap(PNGEncoding, warnings: [String])

        var drawn: DrawnOutput {
            switch self {
            case .bytes(let data, let warnings): .finished(GraphvizOutput(data: data, warnings: warnings))
            case .bitmap(let encoding, let warnings): .pending(PendingBitmap(encoding: encoding, warnings: warnings))
            }
        }
    }

    private struct Drawing {
        var restyle: String? = nil
        var overlays: [Overlay] = []
        let targets: [Target]
        var sharedLayoutOnly = false
        var hidesUnlisted = false
    }

    private func render(dot: String, targets: [Target], layout: String) throws(GraphvizError) -> [GraphvizOutput] {
        try render(layout: dot, drawings: [Drawing(targets: targets)], layout: layout)[0]
    }

    /// The drawings with every bitmap's encoding finished.
    private func render(
        layout dot: String, drawings first: [Drawing], then more: () -> [Drawing] = { [] }, layout: String
    ) throws(GraphvizError) -> [[GraphvizOutput]] {
        try draw(layout: dot, drawings: first, then: more, layout: layout).map { outputs throws(GraphvizError) in
            try outputs.map { output throws(GraphvizError) in try output.finished() }
        }
    }

    private func draw(
        layout dot: String, drawings first: [Drawing], then more: () -> [Drawing] = { [] }, layout: String
    ) throws(GraphvizError) -> [[DrawnOutput]] {
        func checkText(_ drawings: [Drawing]) throws(GraphvizError) {
            for text in drawings.compactMap(\.restyle) where text.utf8.contains(0) {
                throw GraphvizError(stage: .parse, message: "DOT text contains a NUL character")
            }
        }
        if dot.utf8.contains(0) { throw GraphvizError(stage: .parse, message: "DOT text contains a NUL character") }
        try checkText(first)
        var drawings = first
        var ordered: [[Rendered]] = []
        // A bitmap's encoding starts on another thread as soon as it is drawn, while the lock goes
        // on drawing the other requests (a 500-state PNG takes a third of a second to deflate);
        // whoever asks for the PNG joins in (see PNGEncoding).
        func encodeInBackground(_ encoding: PNGEncoding) {
            for _ in 0..<Self.encodingWorkers { DispatchQueue.global().async { encoding.work() } }
        }
        try context.withLock { (context: inout OpaquePointer?) throws(GraphvizError) in
            let gvc: OpaquePointer
            if let existing = context {
                gvc = existing
            } else {
                GraphvizMessages.install()
                guard let created = gvContext() else {
                    throw GraphvizError(stage: .layout, message: "could not create a Graphviz context")
                }
                lifespec_add_devices(created)
                context = created
                gvc = created
            }
            // Glyph layouts (pango's) are made only when text will be drawn as pixels or PDF.
            let wantsGlyphs = first.contains { $0.targets.contains(where: \.drawsGlyphs) }
            lifespec_text_set_wants_glyphs(wantsGlyphs ? 1 : 0)
            var slots = [[Rendered]?](repeating: nil, count: drawings.count)
            // Laid out on their own after the shared layout is released: a layout resets
            // Graphviz's global attribute handles, which drawing the shared graph relies on.
            var separate: [Int] = []
            do {
                let (graph, layoutWarnings) = try layOut(dot, gvc: gvc, layout: layout)
                defer { release(graph, gvc: gvc, layout: layout) }
                // Freed first (defers run last to first): it frees the labels not in place.
                let labels = lifespec_label_cache_create()
                defer { lifespec_label_cache_free(labels) }
                var geometry = lifespec_layout_geometry()
                lifespec_capture_geometry(graph, &geometry)
                var restyled = false
                var index = 0
                var asked = false
                while index < drawings.count || !asked {
                    if index == drawings.count {
                        asked = true
                        let later = more()
                        try checkText(later)
                        drawings += later
                        slots += [[Rendered]?](repeating: nil, count: later.count)
                        continue
                    }
                    let drawing = drawings[index]
                    defer { index += 1 }
                    // Text laid out without glyphs cannot be drawn as pixels: such a later
                    // drawing gets a layout of its own.
                    if !wantsGlyphs && drawing.targets.contains(where: \.drawsGlyphs) {
                        if drawing.sharedLayoutOnly { slots[index] = [] } else { separate.append(index) }
                        continue
                    }
                    // Labels a restyle rebuilds get glyph layouts only for a drawing that draws
                    // glyphs: for SVG they would cost most of the restyle and never be used.
                    lifespec_text_set_wants_glyphs(
                        wantsGlyphs && drawing.targets.contains(where: \.drawsGlyphs) ? 1 : 0)
                    // After a restyle, the graph's own look is a restyle back to it.
                    if let style = drawing.restyle ?? (restyled ? dot : nil) {
                        guard let source = lifespec_agmemread(style) else {
                            throw GraphvizError(
                                stage: .parse,
                                message: GraphvizMessages.take(orDefault: "syntax error in DOT text").errors)
                        }
                        defer { agclose(source) }
                        restyled = true
                        let status =
                            drawing.hidesUnlisted
                            ? lifespec_restyle_sparse(graph, source, &geometry, labels)
                            : lifespec_restyle(graph, source, &geometry, labels)
                        if status != 0 {
                            if drawing.sharedLayoutOnly { slots[index] = [] } else { separate.append(index) }
                            continue
                        }
                    }
                    defer { lifespec_restore_geometry(graph, &geometry) }
                    slots[index] = try draw(
                        graph, overlays: drawing.overlays, targets: drawing.targets, gvc: gvc,
                        layoutWarnings: layoutWarnings, handOff: encodeInBackground)
                }
            }
            separateLayoutCount.withLock { $0 += separate.count }
            lifespec_text_set_wants_glyphs(
                separate.contains(where: { drawings[$0].targets.contains(where: \.drawsGlyphs) }) ? 1 : 0)
            for index in separate {
                let drawing = drawings[index]
                let (graph, warnings) = try layOut(drawing.restyle ?? dot, gvc: gvc, layout: layout)
                defer { release(graph, gvc: gvc, layout: layout) }
                slots[index] = try draw(
                    graph, overlays: drawing.overlays, targets: drawing.targets, gvc: gvc, layoutWarnings: warnings,
                    handOff: encodeInBackground)
            }
            ordered = slots.map { $0! }
        }
        return ordered.map { $0.map(\.drawn) }
    }

    /// Parses and lays out `dot` (under the lock); the caller frees the graph with `release`.
    private func layOut(_ dot: String, gvc: OpaquePointer, layout: String) throws(GraphvizError) -> (
        UnsafeMutablePointer<Agraph_t>, [String]
    ) {
        GraphvizMessages.reset()
        _ = agreseterrors()
        guard var graph = lifespec_agmemread(dot) else {
            throw GraphvizError(
                stage: .parse, message: GraphvizMessages.take(orDefault: "syntax error in DOT text").errors)
        }
        // dot reports some failures through agerr while still returning 0; its path planner writes
        // "triangulation failed" straight to fd 2, which the filter drops.
        if StandardErrorFilter.run({ gvLayout(gvc, graph, layout) }).0 != 0 || agerrors() >= Int32(AGERR.rawValue) {
            let failure = GraphvizMessages.take(orDefault: "layout engine '\(layout)' failed").errors
            // dot's classic ranking gives up on some clustered graphs that newrank handles: try
            // once more on a fresh copy of the graph with newrank set.
            guard layout == "dot", failure.contains("init_rank"), let retry = lifespec_agmemread(dot) else {
                agclose(graph)
                throw GraphvizError(stage: .layout, message: failure)
            }
            agclose(graph)
            graph = retry
            lifespec_set_newrank(graph)
            _ = agreseterrors()
            guard StandardErrorFilter.run({ gvLayout(gvc, graph, layout) }).0 == 0, agerrors() < Int32(AGERR.rawValue)
            else {
                agclose(graph)
                throw GraphvizError(stage: .layout, message: GraphvizMessages.take(orDefault: failure).errors)
            }
        }
        if layout == "dot" {
            _ = lifespec_clear_cluster_titles(graph)
            _ = lifespec_keep_labels_by_their_edges(graph)
        }
        // Layout warnings belong to every output; each render adds its own.
        return (graph, GraphvizMessages.take(orDefault: "").warnings)
    }

    /// An arrow's overlays as one column beside its label (an arrow holds one overlay): each
    /// overlay as far below the label's top as the lines above its own are tall, measured in the
    /// label's font. Where two would overlap, the later one moves down.
    private static func overlayColumn(
        _ overlays: [Overlay], edge: UnsafeMutablePointer<Agedge_t>, graph: UnsafeMutablePointer<Agraph_t>
    ) -> String? {
        var placed: [(top: Double, overlay: Overlay)] = []
        for overlay in overlays {
            var width = 0.0
            var top = 0.0
            if let above = overlay.linesAbove {
                guard lifespec_measure_html(graph, edge, above, 0, "", &width, &top) == 0 else { return nil }
            }
            placed.append((top, overlay))
        }
        placed.sort { $0.top < $1.top }
        var rows = ""
        var bottom = 0.0
        for (top, overlay) in placed {
            var width = 0.0
            var height = 0.0
            guard
                lifespec_measure_html(graph, edge, overlay.html, overlay.fontSize, overlay.fontName, &width, &height)
                    == 0
            else { return nil }
            let gap = Int((top - bottom).rounded())
            if gap > 0 {
                rows += "<TR><TD FIXEDSIZE=\"TRUE\" WIDTH=\"1\" HEIGHT=\"\(gap)\"></TD></TR>"
                bottom += Double(gap)
            }
            rows += "<TR><TD ALIGN=\"RIGHT\">" + overlay.html + "</TD></TR>"
            bottom += height
        }
        return "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"0\">" + rows + "</TABLE>"
    }

    private func release(_ graph: UnsafeMutablePointer<Agraph_t>, gvc: OpaquePointer, layout: String) {
        if layout == "dot" { lifespec_gv_repair_dot_ranks(graph) }
        gvFreeLayout(gvc, graph)
        agclose(graph)
    }

    private func draw(
        _ graph: UnsafeMutablePointer<Agraph_t>, overlays: [Overlay], targets: [Target], gvc: OpaquePointer,
        layoutWarnings: [String], handOff: (PNGEncoding) -> Void
    ) throws(GraphvizError) -> [Rendered] {
        var placed: [UnsafeMutablePointer<Agedge_t>] = []
        defer { for edge in placed { lifespec_remove_overlay(edge) } }
        var edgeIDs: [String] = []
        var byEdge: [String: [Overlay]] = [:]
        for overlay in overlays where !overlay.isHeading {
            if byEdge[overlay.edgeID] == nil { edgeIDs.append(overlay.edgeID) }
            byEdge[overlay.edgeID, default: []].append(overlay)
        }
        for edgeID in edgeIDs {
            let failure = GraphvizError(stage: .render, message: "cannot place the overlay on arrow '\(edgeID)'")
            guard let edge = lifespec_edge_with_id(graph, edgeID), let group = byEdge[edgeID] else { throw failure }
            let first = group[0]
            var html = first.html
            if group.count > 1 || first.linesAbove != nil {
                guard let column = Self.overlayColumn(group, edge: edge, graph: graph) else { throw failure }
                html = column
            }
            guard lifespec_place_overlay(graph, edge, html, first.fontSize, first.fontName) == 0 else { throw failure }
            placed.append(edge)
        }
        // Last, so it sits above everything the others added.
        for heading in overlays where heading.isHeading {
            guard let edge = lifespec_edge_with_id(graph, heading.edgeID),
                lifespec_place_heading(graph, edge, heading.html, heading.fontSize, heading.fontName) == 0
            else {
                throw GraphvizError(stage: .render, message: "cannot place the heading on arrow '\(heading.edgeID)'")
            }
            placed.append(edge)
        }
        // Each bitmap is handed off to its encoding (which frees what was drawn) as soon as it is
        // drawn, and bitmaps are drawn first: their encoding then runs beside the drawing of the rest.
        var rendered = [Rendered?](repeating: nil, count: targets.count)
        let bitmapsFirst =
            targets.indices.filter { targets[$0].kind == .png } + targets.indices.filter { targets[$0].kind != .png }
        for index in bitmapsFirst {
            let target = targets[index]
            var notes: [String] = []
            if target.kind == .png {
                let dpi = lifespec_set_bitmap_dpi(graph, 96, Self.maximumBitmapPixels)
                if dpi < 96 {
                    notes.append(
                        "the bitmap is drawn at \(Int(dpi)) dpi instead of 96 to stay under \(Int(Self.maximumBitmapPixels / 1_000_000)) megapixels"
                    )
                }
            }
            defer { if target.kind == .png { lifespec_clear_bitmap_dpi(graph) } }
            // A bitmap is recorded here and made into pixels outside the lock (see CCairo),
            // unless it is too large for one cairo image: Graphviz then scales it down as it
            // draws, into an image surface of its own.
            let recording = target.kind == .png ? lifespec_recording_create() : nil
            var (buffer, length, messages) = try renderData(graph, device: target.device, gvc: gvc, into: recording)
            if let context = recording {
                let size = Self.bitmapSize(buffer, length: length)
                guard let size, size.width < Self.largestRecordedSide, size.height < Self.largestRecordedSide else {
                    lifespec_recording_destroy(context)
                    gvFreeRenderData(buffer)
                    (buffer, length, messages) = try renderData(graph, device: target.device, gvc: gvc, into: nil)
                    let encoding = PNGEncoding(.buffer(buffer, length: length))
                    rendered[index] = .bitmap(encoding, warnings: layoutWarnings + messages.warnings + notes)
                    handOff(encoding)
                    continue
                }
                gvFreeRenderData(buffer)
                let encoding = PNGEncoding(.recording(context, width: size.width, height: size.height))
                rendered[index] = .bitmap(encoding, warnings: layoutWarnings + messages.warnings + notes)
                handOff(encoding)
                continue
            }
            let warnings = layoutWarnings + messages.warnings + notes
            if target.kind == .png {
                let encoding = PNGEncoding(.buffer(buffer, length: length))
                rendered[index] = .bitmap(encoding, warnings: warnings)
                handOff(encoding)
            } else {
                var data = [UInt8](UnsafeRawBufferPointer(start: buffer, count: Int(length)))
                gvFreeRenderData(buffer)
                if target.kind == .pdf { Self.normalizePDFDates(&data) }
                rendered[index] = .bytes(data, warnings: warnings)
            }
        }
        return rendered.map { $0! }
    }

    /// Threads started to encode a bitmap as soon as it is drawn: one per core but the lock's,
    /// which joins them once it has drawn the rest.
    private static let encodingWorkers = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)

    /// Cairo's image surfaces are at most 32,767 pixels a side; Graphviz scales a larger bitmap
    /// down to fit, which it does only when it makes the image surface itself.
    private static let largestRecordedSide: UInt32 = 32_767

    /// Renders the laid-out `graph` with `device` into memory; a bitmap device draws into
    /// `context` when one is given (see `lifespec_set_bitmap_context`). On success the caller owns
    /// the buffer; on failure the context is destroyed.
    private func renderData(
        _ graph: UnsafeMutablePointer<Agraph_t>, device: String, gvc: OpaquePointer, into context: OpaquePointer?
    ) throws(GraphvizError) -> (UnsafeMutablePointer<CChar>, Int, (errors: String, warnings: [String])) {
        _ = agreseterrors()
        var buffer: UnsafeMutablePointer<CChar>?
        var length: UInt32 = 0
        lifespec_set_bitmap_context(context.map { UnsafeMutableRawPointer($0) })
        let status = gvRenderData(gvc, graph, device, &buffer, &length)
        lifespec_set_bitmap_context(nil)
        guard status == 0, let buffer else {
            if let buffer { gvFreeRenderData(buffer) }
            if let context { lifespec_recording_destroy(context) }
            throw GraphvizError(
                stage: .render, message: GraphvizMessages.take(orDefault: "format '\(device)' failed").errors)
        }
        let messages = GraphvizMessages.take(orDefault: "")
        if agerrors() >= Int32(AGERR.rawValue) {
            gvFreeRenderData(buffer)
            if let context { lifespec_recording_destroy(context) }
            throw GraphvizError(
                stage: .render, message: messages.errors.isEmpty ? "Graphviz reported an error" : messages.errors)
        }
        return (buffer, Int(length), messages)
    }

    /// The width and height the `lifespec_argb` device's header gives, or nil without one.
    private static func bitmapSize(_ buffer: UnsafeMutablePointer<CChar>, length: Int) -> (
        width: UInt32, height: UInt32
    )? {
        guard length >= 2 * MemoryLayout<UInt32>.size else { return nil }
        let raw = UnsafeRawPointer(buffer)
        return (
            raw.loadUnaligned(as: UInt32.self),
            raw.loadUnaligned(fromByteOffset: MemoryLayout<UInt32>.size, as: UInt32.self)
        )
    }
}
