import CCairo
import CLibPNG
import Foundation
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

/// PNG goes through LifeSpec's own cairo device and encoder (`lifespec_argb:cairo`, CLibPNG), not
/// Graphviz's `png:cairo`. These checks hold it to Graphviz's pixels.
@Suite("Bitmaps (cairo pixels, LifeSpec's PNG encoder)")
struct BitmapTests {
    @Test("the PNG has exactly Graphviz's own png:cairo pixels, as RGB, less the half-covered last row and column")
    func samePixelsAsGraphviz() throws {
        let dot = try DiagramBuilder.build(for: SpecFixtures.appLifecycle, options: DiagramOptions()).dot
        let ours = try DecodedPNG(GraphvizRenderer.shared.render(dot: dot, format: .png))
        let graphviz = try DecodedPNG(GraphvizRenderer.shared.render(dot: dot, device: "png:cairo").data)
        #expect(ours.colorType == 2, "an opaque diagram is written as RGB")
        #expect(graphviz.colorType == 6)
        #expect((graphviz.width - 1...graphviz.width).contains(ours.width))
        #expect((graphviz.height - 1...graphviz.height).contains(ours.height))
        #expect(ours.width > 1000 && ours.height > 500)
        #expect(graphviz.differingPixels(from: ours) == 0)
    }

    @Test("a transparent background keeps its alpha, un-premultiplied as Graphviz does it")
    func transparentBackgroundKeepsAlpha() throws {
        let dot =
            ##"digraph { bgcolor=transparent; a [style=filled, fillcolor="#FF000080", label="half red"]; a -> b }"##
        let ours = try DecodedPNG(GraphvizRenderer.shared.render(dot: dot, format: .png))
        let graphviz = try DecodedPNG(GraphvizRenderer.shared.render(dot: dot, device: "png:cairo").data)
        #expect(ours.colorType == 6)
        #expect(ours.width == graphviz.width && ours.height == graphviz.height)
        #expect(graphviz.differingPixels(from: ours) == 0)
    }

    /// The bitmap is recorded under Graphviz's lock and made into pixels on another thread (CCairo):
    /// glyphs of another font (Noto CJK), dashes and fills come out as Graphviz draws them itself.
    @Test("a recorded bitmap has Graphviz's own pixels: Chinese text, dashed and filled shapes")
    func recordedBitmapHasGraphvizPixels() throws {
        let dot = ##"""
            digraph { bgcolor=white; a [label="前台 活跃", style="filled,dashed", fillcolor="#DDEEFF"];
              b [shape=box, style="rounded,bold", label=<<B>后台</B> <I>background</I>>];
              a -> b [label="进入后台", style=dotted]; b -> a [color="#FF000080", penwidth=3] }
            """##
        let ours = try DecodedPNG(GraphvizRenderer.shared.render(dot: dot, format: .png))
        let graphviz = try DecodedPNG(GraphvizRenderer.shared.render(dot: dot, device: "png:cairo").data)
        #expect((graphviz.width - 1...graphviz.width).contains(ours.width))
        #expect((graphviz.height - 1...graphviz.height).contains(ours.height))
        #expect(graphviz.differingPixels(from: ours) == 0)
    }

    @Test("a recording replays into pixels: what was drawn where it was drawn, transparent elsewhere")
    func recordingReplays() throws {
        let context = try #require(lifespec_recording_create())
        defer { lifespec_recording_destroy(context) }
        cairo_set_source_rgba(context, 1, 0, 0, 1)
        cairo_rectangle(context, 2, 3, 4, 5)
        cairo_fill(context)
        var pixels: UnsafePointer<UInt32>?
        let image = try #require(lifespec_recording_replay(context, 10, 12, &pixels))
        defer { lifespec_image_destroy(image) }
        let words = Array(UnsafeBufferPointer(start: try #require(pixels), count: 10 * 12))
        for y in 0..<12 {
            for x in 0..<10 {
                let inside = (2..<6).contains(x) && (3..<8).contains(y)
                #expect(words[y * 10 + x] == (inside ? 0xFFFF_0000 : 0), "pixel (\(x), \(y))")
            }
        }
        #expect(lifespec_recording_replay(context, 0, 12, &pixels) == nil, "an empty image is refused")
    }

    /// Cairo's images are at most 32,767 pixels a side. Graphviz scales a wider drawing down only
    /// when it makes the image itself, so such a drawing is not recorded but drawn as before.
    @Test("a bitmap wider than cairo's largest image is scaled down as Graphviz does it")
    func tooWideForARecording() throws {
        // 400 inches wide at 96 dpi is 38,400 pixels, but only about 2 megapixels.
        let dot = #"digraph { a [shape=box, width=400, height=0.4, fixedsize=true, label="wide"] }"#
        let ours = try DecodedPNG(GraphvizRenderer.shared.render(dot: dot, format: .png))
        let graphviz = try DecodedPNG(GraphvizRenderer.shared.render(dot: dot, device: "png:cairo").data)
        #expect(ours.width < 32_767 && ours.width > 30_000)
        #expect((graphviz.width - 1...graphviz.width).contains(ours.width))
        #expect(graphviz.differingPixels(from: ours) == 0)
    }

    @Test("a drawing too large for a screen-resolution bitmap is drawn at a lower dpi, with a warning")
    func hugeDrawingsAreScaledDown() throws {
        // 300 inches square is 28,800 pixels a side at 96 dpi: 830 megapixels, 3 GB in cairo.
        let dot = #"digraph { a [shape=box, width=300, height=300, fixedsize=true, label="huge"] }"#
        let output = try GraphvizRenderer.shared.renderWithWarnings(dot: dot, format: .png)
        let image = try DecodedPNG(output.data)
        #expect(Double(image.width * image.height) <= GraphvizRenderer.maximumBitmapPixels)
        #expect(image.width > 3000 && image.height > 3000, "scaled to the budget, not far below it")
        #expect(output.warnings.contains { $0.contains("dpi instead of 96") })
        // The SVG of the same graph is not scaled: the lowered dpi is undone after the bitmap.
        let both = try GraphvizRenderer.shared.render(dot: dot, formats: [.png, .svg])
        #expect(both[1].data == (try GraphvizRenderer.shared.render(dot: dot, format: .svg)))
    }

    @Test("one layout rendered in several formats gives the bytes of separate renders")
    func severalFormatsFromOneLayout() throws {
        let dot = try DiagramBuilder.build(
            for: SpecFixtures.appLifecycle, options: with(DiagramOptions()) { $0.detail = .events }
        ).dot
        let together = try GraphvizRenderer.shared.render(dot: dot, formats: [.svg, .png, .pdf])
        #expect(together.count == 3)
        #expect(together[0].data == (try GraphvizRenderer.shared.render(dot: dot, format: .svg)))
        #expect(together[1].data == (try GraphvizRenderer.shared.render(dot: dot, format: .png)))
        #expect(together[2].data == (try GraphvizRenderer.shared.render(dot: dot, format: .pdf)))
    }

    @Test(
        "the encoder writes every opaque pixel's colour, whatever the row's width (four pixels at a time, then the rest)",
        arguments: [(1, 1), (2, 3), (3, 2), (4, 4), (5, 3), (7, 5), (8, 2), (9, 4), (13, 3)])
    func encoderKeepsEveryPixel(width: Int, height: Int) throws {
        // Pixel words are cairo's ARGB32: opaque, with colours that tell channels and places apart.
        var generator = SystemRandomNumberGenerator()
        let pixels = (0..<(width * height)).map { _ in 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &generator)
        }
        let decoded = try DecodedPNG(try Self.encode(pixels, width: width, height: height))
        #expect(decoded.colorType == 2)
        #expect(decoded.width == width && decoded.height == height)
        let expected: [UInt8] = pixels.flatMap { pixel -> [UInt8] in
            [
                UInt8(truncatingIfNeeded: pixel >> 16), UInt8(truncatingIfNeeded: pixel >> 8),
                UInt8(truncatingIfNeeded: pixel), 0xFF,
            ]
        }
        #expect(decoded.rgba == expected)
    }

    /// The image data is deflated in stripes of about 1 MB, each primed with the 32 KB before it
    /// (`lifespec_png_deflate_stripe`): narrow rows (many to a window), rows wider than the window,
    /// a last stripe of one row, translucent pixels.
    @Test(
        "an image of many stripes decodes to every pixel it was made from",
        arguments: [(97, 12_000, true), (12_001, 90, true), (20_000, 53, false), (3, 1, true), (5_000, 210, false)])
    func stripedEncodingKeepsEveryPixel(width: Int, height: Int, opaque: Bool) throws {
        let pixels = Self.pixels(width: width, height: height, opaque: opaque)
        let bytes = try Self.encode(pixels, width: width, height: height)
        let plan = pixels.withUnsafeBufferPointer {
            lifespec_png_plan_for($0.baseAddress, UInt32(width), UInt32(height))
        }
        if width * height > 1_000_000 { #expect(lifespec_png_stripe_count(plan) > 2, "the image is cut into stripes") }
        let decoded = try DecodedPNG(bytes)
        #expect(decoded.colorType == (opaque ? 2 : 6))
        #expect(decoded.width == width && decoded.height == height)
        #expect(decoded.rgba == Self.straightRGBA(pixels))
    }

    /// The PNG's bytes are the same however many threads take part in the encoding, and whichever
    /// stripes each takes.
    @Test("the PNG is the same bytes whether one thread encodes it or several share the stripes")
    func encodingIsTheSameOnAnyNumberOfThreads() throws {
        let (width, height) = (3_001, 1_200)
        let pixels = Self.pixels(width: width, height: height, opaque: true)
        let alone = try Self.encode(pixels, width: width, height: height)
        for threads in [2, 4, 7] {
            // What the `lifespec_argb` device hands back: width and height, then the pixel words.
            let size = 8 + pixels.count * 4
            let buffer = try #require(malloc(size)?.bindMemory(to: CChar.self, capacity: size))
            let raw = UnsafeMutableRawPointer(buffer)
            raw.storeBytes(of: UInt32(width), as: UInt32.self)
            raw.storeBytes(of: UInt32(height), toByteOffset: 4, as: UInt32.self)
            pixels.withUnsafeBytes { raw.advanced(by: 8).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            let encoding = PNGEncoding(.buffer(buffer, length: size))
            DispatchQueue.concurrentPerform(iterations: threads - 1) { _ in encoding.work() }
            #expect(try encoding.result() == alone, "\(threads) threads")
        }
    }

    @Test("a bitmap handed back pending is the PNG the finished render gives, once asked for")
    func pendingBitmapIsTheFinishedPNG() throws {
        let dot = try DiagramBuilder.build(for: SpecFixtures.appLifecycle, options: DiagramOptions()).dot
        let drawn = try GraphvizRenderer.shared.renderPendingBitmaps(
            layout: dot, requests: [DrawingRequest(formats: [.png, .svg])])
        guard case .pending(let bitmap) = drawn[0][0], case .finished(let svg) = drawn[0][1] else {
            Issue.record("the PNG comes back pending, the SVG finished")
            return
        }
        let finished = try GraphvizRenderer.shared.render(dot: dot, formats: [.png, .svg])
        #expect(try bitmap.bytes() == finished[0].data)
        #expect(svg.data == finished[1].data)
    }

    /// The PNG `lifespec_png_encode_argb32` makes of `pixels`, every stripe on this thread.
    static func encode(_ pixels: [UInt32], width: Int, height: Int) throws -> [UInt8] {
        var encoded: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = pixels.withUnsafeBufferPointer {
            lifespec_png_encode_argb32($0.baseAddress, UInt32(width), UInt32(height), &encoded, &length)
        }
        defer { free(encoded) }
        try #require(status == 0)
        return [UInt8](UnsafeBufferPointer(start: encoded, count: length))
    }

    /// Opaque or translucent ARGB32 words (premultiplied, as cairo makes them) with colours that
    /// tell channels and places apart, in flat runs as diagrams have them.
    static func pixels(width: Int, height: Int, opaque: Bool) -> [UInt32] {
        var generator = SystemRandomNumberGenerator()
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        while pixels.count < width * height {
            var pixel = UInt32.random(in: 0...0xFF_FFFF, using: &generator)
            if opaque {
                pixel |= 0xFF00_0000
            } else {
                let alpha = UInt32.random(in: 0...255, using: &generator)
                let channel = { (shift: UInt32) in ((pixel >> shift) & 0xFF) * alpha / 255 }
                pixel = alpha << 24 | channel(16) << 16 | channel(8) << 8 | channel(0)
            }
            let run = Int.random(in: 1...40, using: &generator)
            pixels += repeatElement(pixel, count: min(run, width * height - pixels.count))
        }
        return pixels
    }

    /// What a decoder gives for such pixels: straight-alpha RGBA, as the encoder un-premultiplies.
    static func straightRGBA(_ pixels: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pixels.count * 4)
        for pixel in pixels {
            let alpha = pixel >> 24
            for shift: UInt32 in [16, 8, 0] {
                let value = (pixel >> shift) & 0xFF
                bytes.append(UInt8(alpha == 0 ? 0 : (alpha == 255 ? value : (value * 255 + alpha / 2) / alpha)))
            }
            bytes.append(UInt8(alpha))
        }
        return bytes
    }

    @Test("a bitmap drawn after an SVG restyle of the same labels still has their glyphs: the pixels drawn alone")
    func bitmapAfterRestyleKeepsItsGlyphs() throws {
        let dot =
            #"digraph { node [shape=box, fontcolor=black, color=black]; a [label=<<B>Alpha</B>>]; b [label="Beta"]; a -> b }"#
        let red =
            #"digraph { node [shape=box, fontcolor=black, color=black]; a [label=<<B>Alpha</B>>, fontcolor=red]; b [label="Beta", fontcolor=red]; a -> b }"#
        let outputs = try GraphvizRenderer.shared.render(
            layout: dot,
            requests: [
                DrawingRequest(formats: [.png]),
                // The red labels are built for an SVG, without glyph layouts (it needs none)…
                DrawingRequest(restyle: red, formats: [.svg]),
                // …so a bitmap of the same red labels must not draw those.
                DrawingRequest(restyle: red, formats: [.png]),
                DrawingRequest(formats: [.png]),
            ])
        let alone = try GraphvizRenderer.shared.render(
            layout: dot, requests: [DrawingRequest(formats: [.png]), DrawingRequest(restyle: red, formats: [.png])])
        #expect(outputs[2][0].data == alone[1][0].data)
        #expect(outputs[3][0].data == outputs[0][0].data)
        #expect(outputs[0][0].data != alone[1][0].data, "the red labels are drawn red")
    }

    @Test("the same diagram gives byte-identical PNG on every render")
    func deterministic() throws {
        let dot = try DiagramBuilder.build(
            for: SpecFixtures.appLifecycle, options: with(DiagramOptions()) { $0.detail = .states }
        ).dot
        let first = try GraphvizRenderer.shared.render(dot: dot, format: .png)
        #expect(try GraphvizRenderer.shared.render(dot: dot, format: .png) == first)
    }
}

/// A PNG decoded to straight-alpha RGBA with libpng's simplified API.
struct DecodedPNG {
    let width: Int
    let height: Int
    /// From the IHDR chunk: 2 is RGB, 6 is RGBA.
    let colorType: UInt8
    let rgba: [UInt8]

    struct DecodeError: Error, CustomStringConvertible {
        let description: String
    }

    init(_ bytes: [UInt8]) throws {
        guard bytes.count > 33, bytes.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw DecodeError(description: "not a PNG")
        }
        colorType = bytes[25]
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw DecodeError(description: "libpng cannot read the header") }
        // PNG_FORMAT_RGBA is a macro expression Swift does not import: colour (2) | alpha (1).
        image.format = 3
        width = Int(image.width)
        height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = bytes.withUnsafeBytes { _ in
            pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        }
        guard finished != 0 else { throw DecodeError(description: "libpng cannot decode the pixels") }
        rgba = pixels
    }

    /// Pixels of the region both images cover whose RGBA differs.
    func differingPixels(from other: DecodedPNG) -> Int {
        var count = 0
        for y in 0..<min(height, other.height) {
            for x in 0..<min(width, other.width) {
                let mine = (y * width + x) * 4
                let theirs = (y * other.width + x) * 4
                if rgba[mine..<mine + 4] != other.rgba[theirs..<theirs + 4] { count += 1 }
            }
        }
        return count
    }
}
