import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

/// The overview (`--detail overview`): event titles only, larger type, a system's parts as boxes.
@Suite("overview drawings")
struct OverviewTests {
    static let singles = [
        "ios-app-lifecycle", "ios-scene-lifecycle", "ios-state-restoration", "uiviewcontroller-lifecycle",
    ]

    static func svg(_ spec: LoadedSpec, locale: String?) throws -> String {
        let bytes = try DiagramBuilder.build(
            for: spec, options: DiagramOptions(detail: .overview, locale: locale, legend: false)
        ).render(.svg)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The readability measure of issue #31 (see `TextSizes`), in every locale of the spec.
    @Test("a single lifecycle's overview is readable at 980 px", arguments: singles)
    func singleOverviewIsReadable(_ id: String) throws {
        let spec = try SpecFixtures.load("Spec/\(id).yaml")
        for locale in spec.document.locales {
            let measure = try #require(TextSizes(svg: try Self.svg(spec, locale: locale)))
            #expect(measure.median >= 11, "\(id) (\(locale)): median text \(measure.median) px at 980 px")
            #expect(measure.shareAtLeast9 >= 0.9, "\(id) (\(locale)): \(measure.shareAtLeast9) of texts ≥ 9 px")
        }
    }

    @Test("an overview labels arrows with event titles only: no guard, no callback, no state id")
    func overviewSaysEventsOnly() throws {
        let spec = try SpecFixtures.flagship
        let dot = DOTEncoder.encode(
            try DiagramBuilder.graph(for: spec, options: DiagramOptions(detail: .overview, legend: false)))
        #expect(dot.contains("Open the app"))
        #expect(!dot.contains("<I>["), "a guard is shown")
        #expect(!dot.contains("application("), "a callback is listed")
        #expect(!dot.contains(">notRunning<"), "a state id is shown under its title")
    }

    @Test("a system's overview draws each part as one box the system drives, and none of the parts' states")
    func systemOverviewDrawsPartsAsBoxes() throws {
        let spec = try SpecFixtures.load("Spec/uikit-navigation-stack.yaml")
        let graph = try DiagramBuilder.graph(for: spec, options: DiagramOptions(detail: .overview, legend: false))
        let dot = DOTEncoder.encode(graph)
        for part in ["A", "B"] {
            #expect(dot.contains("id=\"part-\(part)\""), "no box for part \(part)")
            #expect(dot.contains("id=\"drives-\(part)\""), "no arrow from the system to part \(part)")
        }
        #expect(!dot.contains("\"A.appeared\""), "a part's state is drawn as a node")
        #expect(
            dot.contains("Pushed onto a"), "B's box does not list the events the system raises in it")
        #expect(dot.contains("<B>Push B</B>"))
    }

    @Test(
        "labels wrap at spaces and between Chinese characters, keeping Latin words and closing punctuation whole",
        arguments: [
            ("Swipe the app away in the app switcher", 20, ["Swipe the app away", "in the app switcher"]),
            ("在 App 切换器中上滑关闭应用", 12, ["在 App 切换", "器中上滑关闭", "应用"]),
            ("打断（来电、Siri、控制中心）", 10, ["打断（来电、", "Siri、控制", "中心）"]),
            ("Supercalifragilistic word", 8, ["Supercalifragilistic", "word"]),
        ])
    func wrapping(_ text: String, _ columns: Int, _ expected: [String]) {
        #expect(DiagramComposer.wrap(text, columns: columns) == expected)
    }
}
