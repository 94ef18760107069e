import Foundation
import LifecycleEngine
import Testing

@testable import LifeSpec

/// The four UIKit specs under `Spec/`: clean (every scenario replays through the engine, no
/// warning — so no ASCII punctuation in their Chinese either), and the fact-check's findings kept
/// fixed where a scenario cannot say it.
@Suite("The UIKit specs")
struct DomainSpecTests {
    static let specDirectory = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Spec")
    static let names = [
        "ios-app-lifecycle.yaml", "ios-scene-lifecycle.yaml", "ios-state-restoration.yaml",
        "uikit-protected-data.yaml", "uiviewcontroller-lifecycle.yaml",
    ]

    static func load(_ name: String) throws -> LoadedSpec {
        let result = SpecLoader.load(path: specDirectory.appendingPathComponent(name).path)
        #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics.map(\.description))")
        return try #require(result.spec)
    }

    /// Every text a spec writes, each translation on its own.
    static func texts(_ document: SpecDocument) -> [String] {
        var all: [LocalizedText?] = [document.title, document.summary]
        all += document.sources.map(\.title)
        all += document.states.flatMap { [$0.title, $0.description] }
        all += document.events.flatMap { [$0.title, $0.description] }
        all += document.flags.map(\.description)
        all += document.facts.flatMap { [$0.title, $0.description] }
        all += document.callbacks.flatMap { [$0.description, $0.usage, $0.deprecated?.note] }
        all += document.notifications.map(\.description)
        all += document.transitions.map(\.description)
        all += document.scenarios.flatMap { [$0.title, $0.description] }
        return all.compactMap { $0 }.flatMap { $0.translations.map(\.text) }
    }

    @Test("loads with no diagnostic at all", arguments: names)
    func clean(_ name: String) throws {
        _ = try Self.load(name)
    }

    @Test("UIApplicationExitsOnSuspend is always described as the legacy key of iOS 4.0–13.0", arguments: names)
    func exitsOnSuspendIsLegacy(_ name: String) throws {
        let document = try Self.load(name).document
        for text in Self.texts(document) where text.contains("UIApplicationExitsOnSuspend") {
            #expect(text.contains("4.0–13.0") || text.contains("iOS 13"), "\(name): \(text)")
        }
    }

    @Test("restoration: the view controllers decode, then the app delegate, then applicationFinishedRestoringState()")
    func restorationOrder() throws {
        let spec = try Self.load("ios-state-restoration.yaml")
        for scenario in spec.document.scenarios {
            let callbacks = scenario.expect.compactMap { observation -> String? in
                if case .callback(let id) = observation { id } else { nil }
            }
            guard let decode = callbacks.firstIndex(of: "decodeViewController") else { continue }
            let didDecode = try #require(callbacks.firstIndex(of: "didDecode"))
            let finished = try #require(callbacks.firstIndex(of: "finishedRestoring"))
            #expect(decode < didDecode && didDecode < finished, "\(scenario.id)")
            if let viewDidLoad = callbacks.firstIndex(of: "viewDidLoad") { #expect(viewDidLoad < decode) }
        }
        // Preservation starts after applicationDidEnterBackground(_:) returns, in every transition.
        for transition in spec.machine.transitions {
            let ids = transition.actions.compactMap { action -> String? in
                if case .callback(let id) = action { id } else { nil }
            }
            for ask in ["shouldSaveSecure", "shouldSaveLegacy"] {
                if let position = ids.firstIndex(of: ask) {
                    #expect(ids.firstIndex(of: "didEnterBackground").map { $0 < position } == true)
                }
            }
        }
    }

    @Test(
        "the expiration handler is a closure passed to beginBackgroundTask(expirationHandler:), not a delegate method")
    func expirationHandlerIsAClosure() throws {
        let document = try Self.load("ios-app-lifecycle.yaml").document
        let handler = try #require(document.callback("expirationHandler"))
        #expect(handler.kind == .closure)
        #expect(handler.passedTo == "UIApplication.beginBackgroundTask(expirationHandler:)")
        #expect(document.callbacks.filter { $0.kind == .closure }.map(\.id) == ["expirationHandler"])
    }

    @Test(
        "the scene page says the UIApplication notifications are not modelled there, and names the system spec that posts them"
    )
    func sceneSpecNotesTheMissingNotifications() throws {
        let document = try Self.load("ios-scene-lifecycle.yaml").document
        // A modelling choice, so it is a modelling note ("How this is modelled"), not the summary.
        let note = try #require(
            document.modelling.first {
                document.text($0.text, locale: "en")?.contains("leaves out the UIApplication notifications") == true
            })
        let english = try #require(document.text(note.text, locale: "en"))
        #expect(english.contains("The scene-based app system adds the app as a whole, which posts them."))
        let chinese = try #require(document.text(note.text, locale: "zh-Hans"))
        #expect(chinese.contains("不包含 UIKit 仍会为基于场景的 App 发布的 UIApplication 通知"))
        #expect(chinese.contains("基于场景的 App 系统加入了作为整体的 App，由它发布这些通知"))
        let summary = try #require(document.text(document.summary, locale: "en"))
        #expect(!summary.contains("Not modelled"))
        #expect(
            FileManager.default.fileExists(
                atPath: Self.specDirectory.appendingPathComponent("uikit-scene-based-app.yaml").path))
    }

    @Test("every fact a state states is declared, with a title in every locale", arguments: names)
    func factsHaveTitles(_ name: String) throws {
        let document = try Self.load(name).document
        let declared = Set(document.facts.map(\.id))
        for state in document.states {
            for fact in state.facts { #expect(declared.contains(fact.key), "\(name): \(state.id).\(fact.key)") }
        }
        for fact in document.facts {
            for locale in document.locales {
                #expect(fact.title?.hasTranslation(for: locale, defaultLocale: document.defaultLocale) == true)
            }
        }
    }
}
