import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

/// The overview (`--detail overview`): event titles only, larger type, a system's parts as boxes.
@Suite("overview drawings")
struct OverviewTests {
    static let specs = SequenceDiagramTests.specs

    static func svg(_ spec: LoadedSpec, locale: String?) throws -> String {
        let bytes = try DiagramBuilder.build(
            for: spec,
            options: with(DiagramOptions(locale: locale)) {
                $0.detail = .overview
                $0.legend = false
            }
        ).render(.svg)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The readability measure of issue #31 (see `TextSizes`), in every locale of the spec.
    @Test("every spec's overview, a system's too, is readable at 980 px", arguments: specs)
    func overviewIsReadable(_ id: String) throws {
        let spec = try SpecFixtures.load("Spec/\(id).yaml")
        for locale in spec.document.locales {
            let measure = try #require(TextSizes(svg: try Self.svg(spec, locale: locale)))
            #expect(measure.median >= 11, "\(id) (\(locale)): median text \(measure.median) px at 980 px")
            #expect(measure.shareAtLeast9 >= 0.9, "\(id) (\(locale)): \(measure.shareAtLeast9) of texts ≥ 9 px")
        }
    }

    /// What a reader of the committed pages sees: each page's first image, measured.
    @Test("every page's first drawing is readable at 980 px (en and zh-Hans)")
    func everyPagesFirstDrawingIsReadable() throws {
        var checked = 0
        for id in Self.specs {
            for page in ["README.md", "README.zh-Hans.md"] {
                let folder = SpecFixtures.url("Output/\(id)")
                let text = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
                let image = try #require(text.firstMatch(of: /!\[[^\]]*\]\(([^)]+)\)/), "\(id)/\(page): no image")
                let svg = try String(contentsOf: folder.appendingPathComponent(String(image.1)), encoding: .utf8)
                let measure = try #require(TextSizes(svg: svg), "\(id)/\(image.1): no viewBox")
                #expect(measure.median >= 11, "\(id)/\(image.1): median text \(measure.median) px at 980 px")
                #expect(measure.shareAtLeast9 >= 0.9, "\(id)/\(image.1): \(measure.shareAtLeast9) of texts ≥ 9 px")
                checked += 1
            }
        }
        #expect(checked == 2 * Self.specs.count)
    }

    @Test("an overview labels arrows with event titles only: no guard, no callback, no state id")
    func overviewSaysEventsOnly() throws {
        let spec = try SpecFixtures.flagship
        let dot = DOTEncoder.encode(
            try DiagramBuilder.graph(for: spec, options: DiagramOptions.pageOverview))
        #expect(dot.contains("Open the app"))
        #expect(!dot.contains("<I>["), "a guard is shown")
        #expect(!dot.contains("application("), "a callback is listed")
        #expect(!dot.contains(">notRunning<"), "a state id is shown under its title")
    }

    @Test("a system's overview draws each part as one box the system drives, and none of the parts' states")
    func systemOverviewDrawsPartsAsBoxes() throws {
        let spec = try SpecFixtures.load("Spec/uikit-navigation-stack.yaml")
        let graph = try DiagramBuilder.graph(for: spec, options: DiagramOptions.pageOverview)
        let dot = DOTEncoder.encode(graph)
        for part in ["A", "B"] {
            #expect(dot.contains("PORT=\"\(part)\""), "no box for part \(part)")
            #expect(
                dot.contains("headport=\"\(part):w\", id=\"drives-\(part)\""),
                "no arrow from the system to part \(part)")
        }
        #expect(!dot.contains("\"A.appeared\""), "a part's state is drawn as a node")
        #expect(
            dot.contains("Pushed onto a"), "B's box does not list the events the system raises in it")
        #expect(dot.contains("<B>Push B</B>"))
    }

    @Test(
        "labels wrap at spaces and between Chinese characters, keeping Latin words, closing punctuation and Chinese words before a break mark whole",
        arguments: [
            ("Swipe the app away in the app switcher", 20, ["Swipe the app away", "in the app switcher"]),
            ("在 App 切换器中上滑关闭应用", 12, ["在 App 切换", "器中上滑关闭", "应用"]),
            ("打断（来电、Siri、控制中心）", 10, ["打断（来电、", "Siri、", "控制中心）"]),
            ("Supercalifragilistic word", 8, ["Supercalifragilistic", "word"]),
            // A word is not split where a break a little earlier keeps it whole (其他, not 其|他) …
            ("回到主屏幕或切换到其他 App", 20, ["回到主屏幕或切换到", "其他 App"]),
            ("设为窗口的根视图控制器", 20, ["设为窗口的", "根视图控制器"]),
            // … and a line that ends at a mark already stays as it is.
            ("未实例化、已创建，视图未加载、视图已加载", 30, ["未实例化、已创建，视图未加载、", "视图已加载"]),
        ])
    func wrapping(_ text: String, _ columns: Int, _ expected: [String]) {
        #expect(DiagramComposer.wrap(text, columns: columns) == expected)
    }
}
