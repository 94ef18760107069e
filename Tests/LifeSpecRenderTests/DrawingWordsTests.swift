import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a reader reads in a drawing: Chinese drawings name everything in Chinese, and a scenario's
/// step numbers sit beside the event each step took.
@Suite("Drawing words")
struct DrawingWordsTests {
    static let specPaths: [String] = {
        let folder = SpecFixtures.url("Spec")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "Spec/" + $0 }
    }()

    /// The ids a reader must not meet as words: states (a part's without its prefix too), events, flags.
    static func ids(of spec: LoadedSpec) -> Set<String> {
        let document = spec.document
        var ids = Set(document.states.map(\.id) + document.events.map(\.id) + document.flags.map(\.id))
        for id in ids {
            if let part = document.part(of: id), id.hasPrefix(part.prefix) {
                ids.insert(String(id.dropFirst(part.prefix.count)))
            }
        }
        // A part's region is named by the part's name, which callbacks and guards name it by too.
        ids.subtract(document.parts.map(\.name))
        return ids
    }

    /// The words of a text: runs of ASCII letters, digits and `_` (an id's `.` separates words).
    static func words(_ text: String) -> [String] {
        text.split { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_")) }.map(String.init)
    }

    static func svg(_ spec: LoadedSpec, _ options: DiagramOptions) throws -> ParsedSVG {
        try ParsedSVG(DiagramBuilder.build(for: spec, options: options).render(.svg))
    }

    @Test("no zh-Hans drawing shows a spec id as a word", arguments: specPaths)
    func chineseDrawingsShowNoIDs(_ path: String) throws {
        let spec = try SpecFixtures.load(path)
        let ids = Self.ids(of: spec)
        #expect(!ids.isEmpty)
        // The overview, and every scenario that starts with flags set (its title names them).
        var drawings = [DiagramOptions(locale: "zh-Hans")]
        for scenario in spec.document.scenarios
        where !scenario.flags.isEmpty || scenario.id == spec.document.scenarios.first?.id {
            drawings.append(with(DiagramOptions(locale: "zh-Hans")) { $0.scenario = scenario.id })
        }
        for options in drawings {
            let texts = try Self.svg(spec, options).drawnTexts
            let shown = texts.filter { text in Self.words(text).contains(where: ids.contains) }
            #expect(shown.isEmpty, "\(path) \(options.scenario ?? "overview"): \(shown)")
        }
    }

    @Test func guardsAndSetsReadInWords() throws {
        let spec = try SpecFixtures.load("Spec/ios-app-lifecycle.yaml")
        let chinese = try Self.svg(spec, DiagramOptions(locale: "zh-Hans")).drawnTexts
        #expect(chinese.contains("[不在挂起时退出]"))
        #expect(chinese.contains("此后存在后台工作"))
        let english = try Self.svg(spec, DiagramOptions(locale: "en")).drawnTexts
        #expect(english.contains("[not exiting on suspend]"))
        #expect(english.contains("now not having background work"))
    }

    /// A flag without a title keeps the guard as written.
    @Test func untitledFlagsKeepTheGuardAsWritten() throws {
        let spec = try SpecFixtures.load(
            yaml: """
                lifespec: 1
                id: door
                states: {closed: {}, locked: {}}
                initial: closed
                events: {lock: {}, unlock: {}}
                flags: {hasKey: {default: true}}
                transitions:
                  - {from: closed, on: lock, guard: hasKey, to: locked}
                  - {from: locked, on: unlock, guard: "!hasKey", to: closed}
                """)
        let texts = try Self.svg(spec, DiagramOptions()).drawnTexts
        #expect(texts.contains("[hasKey]") && texts.contains("[!hasKey]"))
    }

    /// Each `<text>`'s content and position.
    static func placedTexts(_ svg: ParsedSVG, inArrows: Bool = false) throws -> [(
        text: String, x: Double, y: Double, fill: String
    )] {
        let path =
            inArrows ? "//*[local-name()='g'][@class='edge']//*[local-name()='text']" : "//*[local-name()='text']"
        return try svg.document.nodes(forXPath: path).compactMap { node in
            func attribute(_ name: String) throws -> String? { try node.nodes(forXPath: "@" + name).first?.stringValue }
            guard let x = try attribute("x").flatMap(Double.init), let y = try attribute("y").flatMap(Double.init)
            else { return nil }
            let text = (node.stringValue ?? "").replacingOccurrences(of: "\u{2060}", with: "")
            return (text, x, y, try attribute("fill") ?? "")
        }
    }

    @Test(
        "a step badge sits beside the event its step took",
        arguments: [("1", "Lock the device"), ("4", "Unlock the device")])
    func badgeBesideTakenEvent(_ step: String, _ event: String) throws {
        let spec = try SpecFixtures.load("Spec/ios-app-lifecycle.yaml")
        let svg = try Self.svg(spec, with(DiagramOptions(locale: "en")) { $0.scenario = "lockAndUnlock" })
        let texts = try Self.placedTexts(svg)
        // The legend has a sample badge: the steps' are drawn with the arrows.
        let badges = try Self.placedTexts(svg, inArrows: true).filter { $0.fill == "white" }
        let badge = try #require(
            badges.first {
                $0.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains(step)
            })
        func distance(_ text: (text: String, x: Double, y: Double, fill: String)) -> Double {
            ((text.x - badge.x) * (text.x - badge.x) + (text.y - badge.y) * (text.y - badge.y)).squareRoot()
        }
        // The event may label several arrows: the badge's own arrow has the nearest.
        let others = texts.filter { $0.fill != "white" && $0.text != event }
        let taken = try #require(texts.filter { $0.text == event }.min { distance($0) < distance($1) })
        let nearestOther = try #require(others.min { distance($0) < distance($1) })
        #expect(distance(taken) < distance(nearestOther), "badge \(step) is nearer '\(nearestOther.text)'")
    }

    @Test func scenarioTitleHeadsTheDrawing() throws {
        let spec = try SpecFixtures.load("Spec/ios-app-lifecycle.yaml")
        let texts = try Self.placedTexts(
            Self.svg(spec, with(DiagramOptions(locale: "en")) { $0.scenario = "lockAndUnlock" }))
        let title = try #require(texts.first { $0.text.hasPrefix("Scenario: Lock and unlock the device") })
        // SVG's y grows downwards: nothing is drawn above the title.
        #expect(texts.allSatisfy { $0.y >= title.y })
    }
}
