import Foundation
import LifeSpecTestSupport
import Testing

@testable import LifeSpecGenerate
@testable import LifeSpecRender

/// A PNG's source digest names how its bitmap is deflated (the zlib level, and the stripes the
/// image data is cut into), so a change of either redraws every bitmap once. These tests hold that
/// name to the bytes: the PNGs drawn now, and the ones committed in Output/ (whose freshness is
/// judged by the digest alone), are deflated at `DrawingSource.bitmapDeflateLevel` in stripes of
/// `DrawingSource.bitmapStripeBytes`. A build that kept an older encoder (an incremental build does
/// not recompile a C shim) draws PNGs these tests reject.
@Suite("The deflate level a PNG is written with")
struct DeflateLevelTests {
    /// The zlib stream of a PNG: its IDAT chunks' data, in order.
    static func zlibStream(_ png: [UInt8]) throws -> [UInt8] {
        var stream: [UInt8] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= png.count else {
                throw DecodedPNG.DecodeError(description: "a chunk runs past the end")
            }
            if type == "IDAT" { stream += png[offset + 8..<offset + 8 + length] }
            offset += 12 + length
        }
        guard stream.count > 2 else { throw DecodedPNG.DecodeError(description: "no IDAT data") }
        return stream
    }

    /// The FLEVEL bits zlib writes in the stream's header for a compression level (deflate.c:
    /// 0 for levels 0–1, 1 for 2–5, 2 for 6, 3 for 7–9).
    static func headerLevelClass(forLevel level: Int) -> UInt8 {
        switch level {
        case ..<2: 0
        case 2...5: 1
        case 6: 2
        default: 3
        }
    }

    /// Deflates the PNG's image data again at `level`, as CLibPNG does (default strategy, memory
    /// level 8, stripes of `bitmapStripeBytes` rounded down to whole rows, each a raw stream primed
    /// with the 32 KB before it and ended by a sync flush, the last by the stream's end), and says
    /// whether that gives the same bytes: the exact level, where the header bits only tell a class
    /// of levels.
    static func reencodes(_ png: [UInt8], atLevel level: Int) throws -> Bool {
        let stream = try zlibStream(png)
        let folder = try Scratch.folder("lifespec-deflate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("stream.z")
        try Data(stream).write(to: file)
        // Width (bytes 16–19) and colour type (byte 25) from the header give a row's length.
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let rowBytes = 1 + width * (png[25] == 2 ? 3 : 4)
        let script = """
            import sys, zlib
            stream = open(sys.argv[1], 'rb').read()
            level, row_bytes, stripe_bytes = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            data = zlib.decompress(stream)
            step = max(1, stripe_bytes // row_bytes) * row_bytes
            again = bytes(stream[:2])
            for start in range(0, len(data), step):
                primer = data[max(0, start - 32768):start]
                options = {'zdict': primer} if primer else {}
                stripe = zlib.compressobj(level, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, **options)
                last = start + step >= len(data)
                again += stripe.compress(data[start:start + step]) + stripe.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)
            again += zlib.adler32(data).to_bytes(4, 'big')
            print('same' if again == stream else 'different')
            """
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", script, file.path, "\(level)", "\(rowBytes)", "\(DrawingSource.bitmapStripeBytes)"], in: folder)
        guard result.status == 0 else { throw DecodedPNG.DecodeError(description: "python3 failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "same"
    }

    static let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    @Test("a PNG drawn now carries the header bits of the level its digest names")
    func aFreshPNGsHeaderNamesTheLevel() throws {
        let dot = try DiagramBuilder.build(
            for: SpecFixtures.appLifecycle, options: with(DiagramOptions()) { $0.detail = .states }
        ).dot
        let stream = try Self.zlibStream(GraphvizRenderer.shared.render(dot: dot, format: .png))
        #expect(stream[1] >> 6 == Self.headerLevelClass(forLevel: DrawingSource.bitmapDeflateLevel))
        // The check tells the old level from the new one: zlib's default (6) has other bits.
        #expect(Self.headerLevelClass(forLevel: 6) != Self.headerLevelClass(forLevel: DrawingSource.bitmapDeflateLevel))
    }

    @Test(
        "a PNG drawn now is exactly what zlib makes at the level its digest names, and no other level makes it",
        .enabled(if: hasPython, "python3 re-encodes the stream with the system's zlib"))
    func aFreshPNGReencodesAtTheLevel() throws {
        let dot = try DiagramBuilder.build(
            for: SpecFixtures.appLifecycle, options: with(DiagramOptions()) { $0.detail = .states }
        ).dot
        let png = try GraphvizRenderer.shared.render(dot: dot, format: .png)
        let level = DrawingSource.bitmapDeflateLevel
        #expect(try Self.reencodes(png, atLevel: level))
        for other in [1, 3, 6, 9] where other != level {
            #expect(
                try !Self.reencodes(png, atLevel: other),
                "level \(other) gives the same bytes: the check could not tell it from \(level)")
        }
    }

    @Test("every PNG committed in Output/ is deflated at the level its digest names")
    func committedPNGsNameTheirLevel() throws {
        let output = SpecFixtures.packageRoot.appendingPathComponent("Output")
        let pngs = try #require(FileManager.default.subpaths(atPath: output.path)).filter { $0.hasSuffix(".png") }
            .sorted()
        #expect(!pngs.isEmpty)
        for path in pngs {
            let png = [UInt8](try Data(contentsOf: output.appendingPathComponent(path)))
            let stream = try Self.zlibStream(png)
            #expect(
                stream[1] >> 6 == Self.headerLevelClass(forLevel: DrawingSource.bitmapDeflateLevel), "Output/\(path)")
            // zlib's output can differ between zlib builds, so the exact bytes are compared only
            // where a machine's zlib is the one these were drawn with (CI's and the committer's Debian).
            if Self.hasPython, FileManager.default.fileExists(atPath: "/etc/debian_version") {
                #expect(
                    try Self.reencodes(png, atLevel: DrawingSource.bitmapDeflateLevel),
                    "Output/\(path) was not deflated at level \(DrawingSource.bitmapDeflateLevel)")
            }
        }
    }
}
