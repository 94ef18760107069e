import CLibPNG
import Foundation
import LifeSpec
import LifeSpecRender

/// What a laid-out file (SVG, PNG, PDF) was drawn from: the DOT text, the styles and overlays drawn
/// on its layout, and the settings of the drawing (format, layout engine, bitmap resolution, the
/// text metrics). Never the Graphviz release or the fonts installed: on a machine with other ones
/// the same spec has the same source, so its committed drawings stay fresh there.
package struct DrawingSource: Sendable, Hashable, CustomStringConvertible {
    /// `sha256:` and 64 hexadecimal digits.
    package let digest: String

    /// Bump when LifeSpec draws the same DOT differently (a new overlay style, a new device):
    /// every drawing is then stale once.
    static let recipe = "lifespec drawing 4"

    /// The zlib level CLibPNG's encoder deflates bitmaps at, and the size of the stripes it cuts
    /// the image data into (`lifespec_png_deflate_stripe`), named in every PNG's source;
    /// `DeflateLevelTests` reads them back from the PNGs drawn and committed.
    static let bitmapDeflateLevel = Int(LIFESPEC_PNG_LEVEL)
    static let bitmapStripeBytes = Int(LIFESPEC_PNG_STRIPE_BYTES)

    package init(
        layout dot: String, restyle: String? = nil, overlays: [Overlay] = [], format: GraphvizFormat,
        engine: String = "dot"
    ) {
        self.init(
            layoutDigest: Self.digest(of: dot), restyle: restyle, overlays: overlays, format: format, engine: engine)
    }

    /// The digest of a layout's DOT text, for drawings made from one layout: taken once, not once
    /// per scenario.
    package static func digest(of dot: String) -> String { SHA256.hex(Array(dot.utf8)) }

    package init(
        layoutDigest: String, restyle: String? = nil, overlays: [Overlay] = [], format: GraphvizFormat,
        engine: String = "dot"
    ) {
        var hasher = SHA256()
        func field(_ name: String, _ text: String) {
            hasher.update("\(name) \(text.utf8.count)\n")
            hasher.update(text)
            hasher.update("\n")
        }
        hasher.update(
            "\(Self.recipe)\nformat \(format.rawValue)\nengine \(engine)\ntext-metrics \(GraphvizRenderer.textMetricsVersion)\n"
        )
        if format == .png {
            // How the image data is deflated is named so a change of it redraws every bitmap once.
            hasher.update(
                "bitmap 96 dpi, at most \(Int(GraphvizRenderer.maximumBitmapPixels)) pixels, deflate level \(Self.bitmapDeflateLevel)"
                    + " in stripes of \(Self.bitmapStripeBytes) bytes\n")
        }
        hasher.update("layout sha256:\(layoutDigest)\n")
        if let restyle { field("restyle", restyle) }
        for overlay in overlays {
            field("overlay \(overlay.edgeID) \(overlay.fontName) \(overlay.fontSize)", overlay.html)
            if let above = overlay.linesAbove { field("below", above) }
            if overlay.isHeading { hasher.update("heading\n") }
        }
        digest = "sha256:" + hasher.finalize()
    }

    init(digest: String) { self.digest = digest }

    package var description: String { digest }
}

/// The line an SVG carries to say what it was drawn from, and a digest of the rest of its bytes,
/// so a hand edit is found: `<!-- lifespec: source sha256:… content sha256:… -->`, right after
/// the XML declaration.
package enum DrawingStamp {
    static let opening = Array("<!-- lifespec: source ".utf8)
    static let closing = " -->\n"

    /// `svg` with the stamp inserted (any earlier stamp removed first).
    package static func stamp(_ svg: [UInt8], source: DrawingSource) -> [UInt8] {
        var body = svg
        if let existing = stampRange(in: body) { body.removeSubrange(existing) }
        let at = insertionPoint(in: body)
        let line = "<!-- lifespec: source \(source.digest) content sha256:\(SHA256.hex(body))\(closing)"
        body.insert(contentsOf: Array(line.utf8), at: at)
        return body
    }

    /// What a stamped SVG records: its source digest, and whether the rest of its bytes are still
    /// the ones its content digest was taken from. `nil` when it carries no stamp.
    package static func read(_ svg: [UInt8]) -> (source: DrawingSource, intact: Bool)? {
        guard let range = stampRange(in: svg) else { return nil }
        let line = String(decoding: svg[range], as: UTF8.self)
        let words = line.split(separator: " ")
        guard words.count >= 6, words[2] == "source", words[4] == "content",
            words[3].hasPrefix("sha256:"), words[5].hasPrefix("sha256:")
        else { return nil }
        var hasher = SHA256()
        hasher.update(svg[..<range.lowerBound])
        hasher.update(svg[range.upperBound...])
        return (DrawingSource(digest: String(words[3])), "sha256:" + hasher.finalize() == words[5])
    }

    /// The source digest a stamped SVG records, without checking the rest of its bytes (for a file
    /// known to be unchanged since it was checked).
    static func recordedSource(_ svg: [UInt8]) -> DrawingSource? {
        guard let range = stampRange(in: svg) else { return nil }
        let words = String(decoding: svg[range], as: UTF8.self).split(separator: " ")
        guard words.count >= 6, words[2] == "source", words[3].hasPrefix("sha256:") else { return nil }
        return DrawingSource(digest: String(words[3]))
    }

    private static func insertionPoint(in svg: [UInt8]) -> Int {
        guard svg.starts(with: Array("<?xml".utf8)), let newline = svg.firstIndex(of: UInt8(ascii: "\n")) else {
            return 0
        }
        return newline + 1
    }

    /// The stamp line, newline included: it is at the insertion point or nowhere.
    private static func stampRange(in svg: [UInt8]) -> Range<Int>? {
        let start = insertionPoint(in: svg)
        guard svg.count - start > opening.count, svg[start..<(start + opening.count)].elementsEqual(opening),
            let end = svg[start...].firstIndex(of: UInt8(ascii: "\n"))
        else { return nil }
        return start..<(end + 1)
    }
}

/// The bitmaps of one spec folder and what each was drawn from: `Output/<id>/drawings.sha256`, a
/// generated text file (compared byte for byte like every text output). A line per bitmap:
/// `<path> source sha256:… content sha256:…`, the path relative to the folder.
package struct DrawingManifest: Sendable, Hashable {
    package static let fileName = "drawings.sha256"

    package struct Entry: Sendable, Hashable {
        package let source: String
        package let content: String
    }

    package var entries: [String: Entry] = [:]

    package init() {}

    package init?(text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ")
            guard words.count == 5, words[1] == "source", words[3] == "content" else { return nil }
            entries[String(words[0])] = Entry(source: String(words[2]), content: String(words[4]))
        }
    }

    package var text: String {
        var text =
            "# generated by lifespec — do not edit: what each bitmap here was drawn from (source) and its bytes (content);\n"
            + "# 'lifespec generate' redraws a bitmap only when its source changes, and '--check' compares these digests, not pixels\n"
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            text += "\(path) source \(entry.source) content \(entry.content)\n"
        }
        return text
    }
}

/// The generator asks it whether a drawing on disk is still what the spec would draw: a laid-out
/// file is fresh when the source digest it records (in the SVG, or in the folder's manifest for
/// bitmaps) is the one of what would be drawn now, and its bytes are still the ones that digest
/// was recorded with. A fresh file is kept as it is — whatever Graphviz release or fonts drew it —
/// so `generate` neither redraws nor rewrites it and `--check` does not call it stale. A file whose
/// bytes no longer match its recorded content digest (edited by hand) is never fresh, and is
/// remembered in `edited`.
package final class DrawingFreshness: Sendable {
    package let directory: URL
    private let manifests = Locked([String: DrawingManifest]())
    private let editedPaths = Locked(Set<String>())
    /// Files known, by their stat, to be the bytes the last run left (see `NoOpRecord.unchanged`):
    /// that run drew or verified them, so their content digests need not be taken again.
    private let unchanged = Locked([String: UInt64]())

    package func trust(_ files: [String: UInt64]) { unchanged.withLock { $0 = files } }

    package init(directory: URL) {
        self.directory = directory.standardizedFileURL
    }

    /// Paths (relative to the directory) of drawings whose bytes no longer match their digest.
    package var edited: [String] { editedPaths.withLock { $0.sorted() } }

    /// The bytes of `path` when it is fresh for `source`; `nil` when it must be drawn.
    package func reusable(_ path: String, source: DrawingSource) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(path).path) else {
            return nil
        }
        let bytes = [UInt8](data)
        let vouched = unchanged.withLock { $0[path] } != nil
        if path.hasSuffix(".svg") {
            if vouched { return DrawingStamp.recordedSource(bytes) == source ? bytes : nil }
            guard let recorded = DrawingStamp.read(bytes) else { return nil }
            guard recorded.intact else {
                editedPaths.withLock { _ = $0.insert(path) }
                return nil
            }
            return recorded.source == source ? bytes : nil
        }
        guard let entry = manifestEntry(for: path) else { return nil }
        guard vouched || "sha256:" + SHA256.hex(bytes) == entry.content else {
            editedPaths.withLock { _ = $0.insert(path) }
            return nil
        }
        return entry.source == source.digest ? bytes : nil
    }

    /// The recorded entry of a bitmap, from the manifest of its spec folder.
    package func manifestEntry(for path: String) -> DrawingManifest.Entry? {
        guard let slash = path.firstIndex(of: "/") else { return nil }
        let folder = String(path[..<slash])
        let relative = String(path[path.index(after: slash)...])
        let manifest = manifests.withLock { cache -> DrawingManifest in
            if let cached = cache[folder] { return cached }
            let url = directory.appendingPathComponent(folder).appendingPathComponent(DrawingManifest.fileName)
            let loaded =
                FileManager.default.contents(atPath: url.path).flatMap { String(data: $0, encoding: .utf8) }.flatMap(
                    DrawingManifest.init(text:)) ?? DrawingManifest()
            cache[folder] = loaded
            return loaded
        }
        return manifest.entries[relative]
    }
}
