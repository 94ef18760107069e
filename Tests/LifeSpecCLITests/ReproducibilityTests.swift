import Foundation
import Testing

/// `generate --check` holds on a machine whose fonts differ from the one that drew `Output/`:
/// layouts are measured with LifeSpec's own text metrics, and drawings are compared by what they
/// were drawn from (the digests they record), not by their bytes. Other machines are simulated
/// with fontconfig files that hide DejaVu or offer a single other family.
@Suite("generate is reproducible across machines with other fonts", .serialized)
struct ReproducibilityTests {
    /// The fonts `.ci/run` and the README's setup line install.
    static let liberation = "/usr/share/fonts/truetype/liberation2"
    static let noto = "/usr/share/fonts/opentype/noto"

    enum Fonts: String, CaseIterable, CustomStringConvertible {
        case withoutDejaVu, onlyLiberation, onlyNoto
        var description: String { rawValue }

        /// A fontconfig file for this machine, written into `folder`.
        func configuration(in folder: URL) throws -> URL {
            let cache = folder.appendingPathComponent("fontconfig-cache-\(rawValue)").path
            let body: String
            switch self {
            case .withoutDejaVu:
                body = """
                      <include ignore_missing="no">/etc/fonts/fonts.conf</include>
                      <selectfont><rejectfont><glob>/usr/share/fonts/truetype/dejavu/*</glob><pattern><patelt name="family"><string>DejaVu Sans</string></patelt></pattern></rejectfont></selectfont>
                    """
            case .onlyLiberation:
                body = "  <dir>\(ReproducibilityTests.liberation)</dir>"
            case .onlyNoto:
                body = "  <dir>\(ReproducibilityTests.noto)</dir>"
            }
            let text = """
                <?xml version="1.0"?>
                <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
                <fontconfig>
                \(body)
                  <cachedir>\(cache)</cachedir>
                </fontconfig>

                """
            let url = folder.appendingPathComponent("fonts-\(rawValue).conf")
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url
        }
    }

    /// A scratch copy of the specs, the committed `Output/` and the committed suites.
    func committedProject() throws -> URL {
        for folder in [Self.liberation, Self.noto] {
            try #require(
                FileManager.default.fileExists(atPath: folder),
                "\(folder) is missing: install fonts-liberation2 and fonts-noto-cjk (README, Setup)")
        }
        let project = try CLI.scratchProject()
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("Output"), to: project.appendingPathComponent("Output"))
        let suites = project.appendingPathComponent("Tests/GeneratedConformanceTests")
        try FileManager.default.createDirectory(at: suites, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("Tests/GeneratedConformanceTests/Generated"),
            to: suites.appendingPathComponent("Generated"))
        return project
    }

    func files(under folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                !url.path.contains("/.lifespec-cache/")
            else { continue }
            result[String(url.path.dropFirst(folder.path.count))] = try? Data(contentsOf: url)
        }
        return result
    }

    /// Every number in an SVG's geometry (points, paths, positions, sizes), in document order.
    static func coordinates(_ svg: Data) -> [String] {
        let text = String(decoding: svg, as: UTF8.self)
        var numbers: [String] = []
        for attribute in ["points", "d", "x", "y", "cx", "cy", "rx", "ry", "width", "height", "viewBox", "transform"] {
            var rest = text[...]
            while let range = rest.range(of: " \(attribute)=\"") {
                let value = rest[range.upperBound...].prefix { $0 != "\"" }
                numbers.append("\(attribute)=\(value)")
                rest = rest[range.upperBound...]
            }
        }
        return numbers
    }

    @Test("with the committed Output/, check passes and generate changes nothing", arguments: Fonts.allCases)
    func committedOutputHoldsUnderOtherFonts(_ fonts: Fonts) throws {
        let project = try committedProject()
        let environment = ["FONTCONFIG_FILE": try fonts.configuration(in: project).path]
        let check = try CLI.run(["generate", "--check"], in: project, environment: environment)
        #expect(check.status == 0, "\(fonts): \(check.stderr)")
        let before = files(under: project.appendingPathComponent("Output"))
        let generate = try CLI.run(["generate"], in: project, environment: environment)
        #expect(generate.status == 0, "\(generate.stderr)")
        #expect(
            generate.stdout.contains(" 0 updated,") && generate.stdout.hasPrefix("0 created"),
            "\(fonts): \(generate.stdout)")
        #expect(files(under: project.appendingPathComponent("Output")) == before, "\(fonts): generate rewrote drawings")
    }

    @Test("SVGs drawn from scratch under other fonts have the committed coordinates")
    func drawingsFromScratchHaveTheSameCoordinates() throws {
        let project = try committedProject()
        let committed = files(under: project.appendingPathComponent("Output"))
        try FileManager.default.removeItem(at: project.appendingPathComponent("Output"))
        let environment = ["FONTCONFIG_FILE": try Fonts.onlyNoto.configuration(in: project).path]
        let generate = try CLI.run(["generate"], in: project, environment: environment)
        #expect(generate.status == 0, "\(generate.stderr)")
        let drawn = files(under: project.appendingPathComponent("Output"))
        let svgs = committed.keys.filter { $0.hasSuffix(".svg") }.sorted()
        #expect(svgs.count > 20)
        for path in svgs {
            let new = try #require(drawn[path], "\(path) was not drawn")
            #expect(
                Self.coordinates(new) == Self.coordinates(committed[path]!),
                "\(path) has other coordinates under other fonts")
        }
        // Bitmaps record the same sources; only their glyphs may differ.
        for manifest in committed.keys.filter({ $0.hasSuffix("/drawings.sha256") }) {
            func sources(_ data: Data?) -> [String] {
                String(decoding: data ?? Data(), as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
                    .map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
            }
            #expect(sources(drawn[manifest]) == sources(committed[manifest]), "\(manifest)")
        }
    }

    @Test("a spec edit that changes a drawing still fails --check under other fonts")
    func specEditStillFailsTheCheck() throws {
        let project = try committedProject()
        let environment = ["FONTCONFIG_FILE": try Fonts.onlyLiberation.configuration(in: project).path]
        let spec = project.appendingPathComponent("Spec/ios-app-lifecycle.yaml")
        let text = try String(contentsOf: spec, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "en: Not running\n", with: "en: Not yet running\n")
        try #require(edited != text)
        try edited.write(to: spec, atomically: true, encoding: .utf8)
        let check = try CLI.run(["generate", "--check"], in: project, environment: environment)
        #expect(check.status == 1)
        for path in ["diagram.svg", "diagram.png", "scenarios/coldLaunch.svg", "drawings.sha256"] {
            #expect(
                check.stderr.contains("stale:   Output/ios-app-lifecycle/\(path)"),
                "\(path) not reported: \(check.stderr)")
        }
        #expect(
            !check.stderr.contains("Output/ios-scene-lifecycle/diagram.svg"), "an untouched spec's drawing is fresh")
    }

    @Test("a hand-edited SVG or PNG no longer matches its digest: reported, then drawn again")
    func handEditedDrawingsAreReported() throws {
        let project = try committedProject()
        let svg = project.appendingPathComponent("Output/ios-app-lifecycle/diagram.svg")
        let png = project.appendingPathComponent("Output/ios-scene-lifecycle/diagram.png")
        let originalSVG = try Data(contentsOf: svg)
        let originalPNG = try Data(contentsOf: png)
        // The digest line stays; the content it vouches for changes.
        let editedSVG = String(decoding: originalSVG, as: UTF8.self).replacingOccurrences(
            of: ">Not running<", with: ">Not runnin<")
        #expect(editedSVG.utf8.count != originalSVG.count)
        try Data(editedSVG.utf8).write(to: svg)
        var editedPNG = originalPNG
        editedPNG[editedPNG.count / 2] ^= 0xFF
        try editedPNG.write(to: png)

        let check = try CLI.run(["generate", "--check"], in: project)
        #expect(check.status == 1)
        #expect(
            check.stderr.contains(
                "Output/ios-app-lifecycle/diagram.svg: error: its bytes no longer match the content digest it records"),
            "\(check.stderr)")
        #expect(
            check.stderr.contains(
                "Output/ios-scene-lifecycle/diagram.png: error: its bytes no longer match the content digest it records"
            ))
        #expect(check.stderr.contains("stale:   Output/ios-app-lifecycle/diagram.svg"))
        #expect(check.stderr.contains("stale:   Output/ios-scene-lifecycle/diagram.png"))

        let generate = try CLI.run(["generate"], in: project)
        #expect(generate.status == 0, "\(generate.stderr)")
        #expect(try Data(contentsOf: svg) == originalSVG, "drawn again as committed")
        #expect(try Data(contentsOf: png) == originalPNG)
        #expect(try CLI.run(["generate", "--check"], in: project).status == 0)
    }
}
