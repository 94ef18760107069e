import Foundation
import LifeSpecTestSupport
import Testing

@testable import LifeSpec

/// The region holding a system's own states has a title, as the parts' regions do, in every
/// locale the system declares, in the language `Language(locale:)` decides for it.
@Suite("The coordinator region's title")
struct CoordinatorTitleTests {
    @Test func theFixturesCoordinatorIsTitledInBothLocales() throws {
        let spec = try #require(SpecLoader.load(path: Fixtures.path("System", "navigation-pair.yaml")).spec)
        let coordinator = try #require(spec.document.state("coordinator"))
        let title = try #require(coordinator.title)
        #expect(title.text(for: "en", defaultLocale: "en") == "Coordinator")
        #expect(title.text(for: "zh-Hans", defaultLocale: "en") == "协调器")
    }

    @Test func localesAreMappedByTheOneLanguageDecision() {
        let title = SpecComposer.coordinatorTitle(locales: ["en-GB", "zh-CN", "zh-Hant", "fr"])
        #expect(title.translations.map(\.locale) == ["en-GB", "zh-CN", "zh-Hant", "fr"])
        // Traditional Chinese is not a language the tool writes: English, as for every page phrase.
        #expect(title.translations.map(\.text) == ["Coordinator", "协调器", "Coordinator", "Coordinator"])
        #expect(SpecComposer.coordinatorTitle(locales: []).translations.map(\.text) == ["Coordinator"])
    }

    /// A system with locales gets no missing-translation warning for a title it never wrote.
    @Test func aSystemThatDeclaresLocalesGetsNoWarningForTheTitle() throws {
        let folder = try Scratch.folder("lifespec-coordinator")
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        lifespec: 1
        id: lamp
        states: {off: {}, on: {}}
        initial: off
        events: {toggle: {}}
        transitions:
          - {from: off, on: toggle, to: on}
          - {from: on, on: toggle, to: off}
        """.write(to: folder.appendingPathComponent("lamp.yaml"), atomically: true, encoding: .utf8)
        let system = folder.appendingPathComponent("room.yaml").path
        try """
        lifespec: 1
        id: room
        title: {en-GB: A room, zh-CN: 房间}
        locales: [en-GB, zh-CN]
        parts: {A: lamp}
        states: {dark: {title: {en-GB: Dark, zh-CN: 暗}}, lit: {title: {en-GB: Lit, zh-CN: 亮}}}
        initial: dark
        events: {flip: {title: {en-GB: Flip, zh-CN: 切换}}}
        transitions:
          - {from: dark, on: flip, to: lit, raise: [A.toggle]}
          - {from: lit, on: flip, to: dark, raise: [A.toggle]}
        """.write(toFile: system, atomically: true, encoding: .utf8)
        let result = SpecLoader.load(path: system)
        #expect(result.diagnostics.filter { $0.location.path == system }.isEmpty, "\(result.diagnostics)")
        let title = try #require(result.spec?.document.state("coordinator")?.title)
        #expect(title.text(for: "zh-CN", defaultLocale: "en-GB") == "协调器")
        #expect(title.text(for: "en-GB", defaultLocale: "en-GB") == "Coordinator")
    }
}
