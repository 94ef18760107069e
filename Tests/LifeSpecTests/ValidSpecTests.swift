import Foundation
import LifeSpec
import LifecycleEngine
import Testing

@Suite("Valid specs")
struct ValidSpecTests {
    static let fixtureNames = Fixtures.names(in: "Valid")

    @Test(arguments: fixtureNames)
    func loadsWithoutDiagnostics(_ name: String) throws {
        let result = Fixtures.load("Valid", name)
        // These specs leave some elements untitled on purpose (the fallbacks are what they test), so
        // their Chinese drawings show ids, which LS152 says (Invalid/untitled-for-drawing.yaml).
        let diagnostics = result.diagnostics.filter { $0.code != .missingDrawingTitle }
        #expect(diagnostics.isEmpty, "\(name): \(diagnostics.map(\.description))")
        #expect(result.spec != nil)
    }

    private func deskLamp() throws -> LoadedSpec {
        try #require(Fixtures.load("Valid", "desk-lamp.yaml").spec)
    }

    // MARK: The document

    @Test func titlesPerLocaleFallBackToTheDefault() throws {
        let document = try deskLamp().document
        #expect(document.locales == ["en", "zh-Hans"])
        #expect(document.defaultLocale == "en")
        #expect(document.text(document.title) == "Desk lamp")
        #expect(document.text(document.title, locale: "zh-Hans") == "台灯")
        #expect(document.text(document.title, locale: "fr") == "Desk lamp")
        #expect(document.text(document.summary, locale: "zh-Hans") == "一盏带调光、童锁和过热保护的台灯。")
        #expect(document.text(document.state("bright")?.title, locale: "zh-Hans") == "亮光")
        #expect(document.text(document.state("powered")?.description) == "The plug is in the wall.")
        #expect(document.text(document.event("plug")?.title, locale: "zh-Hans") == "插上电源")
        // No title written: nothing, rather than an invented one.
        #expect(document.text(document.event("unplug")?.title) == nil)
        #expect(document.text(document.flag("childLock")?.description, locale: "zh-Hans") == "忽略按键。")
    }

    @Test func localizedTextFallbackOrder() {
        let both = LocalizedText(translations: [("en", "Off"), ("zh-Hans", "关")])
        #expect(both.text(for: "zh-Hans", defaultLocale: "en") == "关")
        #expect(both.text(for: "de", defaultLocale: "en") == "Off")
        #expect(both.text(for: "de", defaultLocale: "zh-Hans") == "关")
        #expect(both.text(for: "de", defaultLocale: "fr") == "Off")
        let plain = LocalizedText("Lamp")
        #expect(plain.text(for: "zh-Hans", defaultLocale: "en") == "Lamp")
        #expect(plain.hasTranslation(for: "en", defaultLocale: "en"))
        #expect(!plain.hasTranslation(for: "zh-Hans", defaultLocale: "en"))
        #expect(both.hasTranslation(for: "zh-Hans", defaultLocale: "en"))
    }

    @Test func factsKeepTheirWrittenOrderAndTypes() throws {
        let document = try deskLamp().document
        let off = try #require(document.state("off"))
        #expect(off.facts.map(\.key) == ["glows", "watts", "mood"])
        #expect(off.facts[0].value == .bool(false))
        #expect(off.facts[1].value == .number("0.5"))
        #expect(off.facts[2].value == .text(LocalizedText(translations: [("en", "standby"), ("zh-Hans", "待机")])))
        #expect(off.facts.map(\.value.description) == ["no", "0.5", "standby"])
        // Every leaf carries the same fact keys, in the same order.
        let leaves = try deskLamp().machine.leafStates.map(\.id)
        #expect(leaves == ["unplugged", "off", "dim", "bright", "fading", "retired"])
        for leaf in leaves {
            #expect(document.state(leaf)?.facts.map(\.key) == ["glows", "watts", "mood"], "\(leaf)")
        }
        #expect(document.state("powered")?.facts.isEmpty == true)
    }

    @Test func callbacksKeepPostsOrderAndDetails() throws {
        let spec = try deskLamp()
        let document = spec.document
        #expect(document.callbacks.map(\.id) == ["lampWillPowerUp", "lampDidLight", "lampWillDim", "lampDidSurge"])
        let powerUp = try #require(document.callback("lampWillPowerUp"))
        #expect(powerUp.posts == PostedNotification(notification: "powerNote", order: .before))
        #expect(powerUp.swift == "lampWillPowerUp(_:)")
        #expect(powerUp.objc == "lampWillPowerUp:")
        #expect(powerUp.returns == "Void")
        #expect(powerUp.timeLimit == "5s")
        #expect(powerUp.source == "wiring")
        #expect(document.text(powerUp.usage, locale: "zh-Hans") == "预热驱动。")
        // A bare notification id means "posted after the callback returns".
        #expect(
            document.callback("lampDidLight")?.posts == PostedNotification(notification: "lightNote", order: .after))
        #expect(document.callback("lampDidSurge")?.posts == nil)
        let dim = try #require(document.callback("lampWillDim")?.deprecated)
        #expect(dim.since == "2.0")
        #expect(dim.replacement == "lampDidLight(_:)")
        #expect(document.text(dim.note, locale: "zh-Hans") == "请改用点亮回调。")
        // The engine sees the same posts, so expansion follows them.
        #expect(spec.machine.callback("lampWillPowerUp")?.posts?.order == .before)
        #expect(spec.machine.callback("lampWillPowerUp")?.objcName == "lampWillPowerUp:")
        #expect(
            spec.machine.expand(.callback("lampWillPowerUp")) == [
                .notification("powerNote"), .callback("lampWillPowerUp"),
            ])
        #expect(
            spec.machine.expand(.callback("lampDidLight")) == [.callback("lampDidLight"), .notification("lightNote")])
        #expect(document.notification("powerNote")?.objc == "LampPowerNotification")
        #expect(spec.machine.notification("lightNote")?.swiftName == "Lamp.lightNotification")
        #expect(spec.machine.notification("coolNote")?.swiftName == "coolNote")
    }

    @Test func scenarioDataIsKeptAsWritten() throws {
        let document = try deskLamp().document
        #expect(
            document.scenarios.map(\.id) == [
                "plugIn", "lightUp", "childLocked", "boostThenFade", "surgeWhileBright", "overheat", "recycle",
            ])
        let plugIn = try #require(document.scenario("plugIn"))
        #expect(plugIn.from == nil)
        #expect(plugIn.flags.isEmpty)
        #expect(plugIn.events == ["plug"])
        #expect(plugIn.expect == [.notification("powerNote"), .callback("lampWillPowerUp")])
        #expect(plugIn.end == "off")
        #expect(plugIn.source == "manual")
        #expect(document.text(plugIn.title, locale: "zh-Hans") == "插上电源")
        let locked = try #require(document.scenario("childLocked"))
        #expect(locked.flags == ["childLock": true])
        let fade = try #require(document.scenario("boostThenFade"))
        #expect(fade.from == "dim")
        #expect(fade.events == ["boost", "press"])
        #expect(document.scenario("recycle")?.expect == [])
        #expect((plugIn.location.line, plugIn.location.column) == (92, 9))
    }

    @Test func sourcesTransitionsAndEventsAreInDocumentOrder() throws {
        let document = try deskLamp().document
        #expect(document.sources.map(\.id) == ["manual", "wiring"])
        #expect(document.source("wiring")?.url == "https://example.com/lamp/wiring")
        #expect(document.text(document.source("manual")?.title, locale: "zh-Hans") == "台灯说明书")
        #expect(
            document.events.map(\.id) == ["plug", "unplug", "press", "boost", "surge", "overheat", "cooled", "recycle"])
        #expect(document.event("cooled")?.kind == .internal)
        #expect(document.event("press")?.source == "manual")
        #expect(document.flags.map(\.id) == ["childLock", "hot"])
        #expect(document.transitions.map(\.index) == Array(0..<12))
        #expect(document.transitions[2].guardText == "!childLock")
        #expect((document.transitions[2].location.line, document.transitions[2].location.column) == (81, 5))
        #expect(document.text(document.transitions[3].description, locale: "zh-Hans") == "童锁吞掉了按键。")
        #expect(document.transitions[11].source == "manual")
        #expect(
            document.state("unplugged")?.location
                == SourceLocation(path: Fixtures.path("Valid", "desk-lamp.yaml"), line: 15, column: 3))
    }

    // MARK: The machine

    @Test func machineIsLoweredFaithfully() throws {
        let machine = try deskLamp().machine
        #expect(machine.id == "desk-lamp")
        #expect(
            machine.states.map(\.id) == ["unplugged", "powered", "off", "on", "dim", "bright", "fading", "retired"])
        #expect(machine.state("on")?.parent == "powered")
        #expect(machine.state("powered")?.children == ["off", "on", "fading"])
        #expect(machine.state("retired")?.isFinal == true)
        #expect(machine.initialLeaf == "unplugged")
        #expect(machine.leaf(entering: "powered") == "off")
        #expect(machine.leaf(entering: "on") == "dim")
        #expect(machine.events.map(\.kind) == [.user, .user, .user, .user, .system, .system, .internal, .user])
        #expect(
            machine.flags == [
                LifecycleFlag(id: "childLock", defaultValue: false), LifecycleFlag(id: "hot", defaultValue: false),
            ])

        let transitions = machine.transitions
        #expect(transitions.count == 12)
        #expect(transitions[2].guardExpression == .not(.flag("childLock")))
        #expect(transitions[3].isInternal && transitions[3].actions.isEmpty)
        #expect(transitions[7].isEventless && transitions[7].target == "off")
        #expect(transitions[8].isInternal)
        #expect(transitions[8].actions == [.callback("lampDidSurge"), .notify("surgeNote")])
        #expect(transitions[9].assignments == [FlagAssignment(flag: "hot", value: true)])
        #expect(transitions[9].raises == ["cooled"])
        #expect(transitions[11].sources == ["unplugged", "off"])
    }

    @Test func scenariosReplayThroughTheEngine() throws {
        let spec = try deskLamp()
        for scenario in spec.document.scenarios {
            var runner = try Runner(machine: spec.machine, state: scenario.from, flags: scenario.flags)
            let steps = try runner.send(scenario.events)
            #expect(steps.compactMap(\.observation) == scenario.expect, "\(scenario.id)")
            if let end = scenario.end {
                #expect(spec.machine.ancestry(of: runner.state).contains(end), "\(scenario.id) ends in \(runner.state)")
            }
        }
        // The pass-through state: pressing while on fades, then settles in off by itself.
        var runner = try Runner(machine: spec.machine, state: "bright")
        #expect(
            try runner.send("press").compactMap { step -> String? in
                if case .transition(let taken) = step { "\(taken.from)->\(taken.to)" } else { nil }
            } == ["bright->fading", "fading->off"])
    }

    // MARK: Encodings and twins

    @Test func jsonTwinLoadsTheSameAsYAML() throws {
        let yaml = try #require(Fixtures.load("Valid", "door.yaml").spec)
        let json = try #require(Fixtures.load("Valid", "door.json").spec)
        #expect(json.machine == yaml.machine)
        #expect(Contents(json.document) == Contents(yaml.document))
        #expect(json.document.text(json.document.state("closed")?.description) == "Shut,\nbut not locked.\n")
    }

    @Test(arguments: ["door-bom.yaml", "door-crlf.yaml"])
    func bomAndCRLFLoadExactlyLikeThePlainFile(_ name: String) throws {
        let plain = try #require(Fixtures.load("Valid", "door.yaml").spec)
        let variant = try #require(Fixtures.load("Valid", name).spec)
        #expect(variant.machine == plain.machine)
        #expect(Contents(variant.document) == Contents(plain.document))
        // Same lines and columns as the plain file: a BOM is not a column, CRLF is one line break.
        #expect(variant.document.states.map(\.location.line) == plain.document.states.map(\.location.line))
        #expect(variant.document.states.map(\.location.column) == plain.document.states.map(\.location.column))
        #expect(variant.document.scenarios.map(\.location.line) == plain.document.scenarios.map(\.location.line))
        // A literal block keeps '\n' line breaks, never '\r'.
        #expect(variant.document.text(variant.document.state("closed")?.description) == "Shut,\nbut not locked.\n")
        #expect(variant.document.id == "door")
    }
}

/// Everything a document says except where it was written.
private struct Contents: Equatable, CustomStringConvertible {
    let lines: [String]

    init(_ document: SpecDocument) {
        var lines = ["\(document.formatVersion) \(document.id) \(document.platform ?? "-") \(document.locales)"]
        lines.append("title \(String(describing: document.title)) summary \(String(describing: document.summary))")
        lines += document.sources.map { "source \($0.id) \($0.title) \($0.url)" }
        lines += document.states.map { state in
            let facts = state.facts.map { "\($0.key)=\($0.value)" }
            return
                "state \(state.id) \(String(describing: state.title)) \(String(describing: state.description)) \(facts) \(state.source ?? "-")"
        }
        lines += document.events.map { "event \($0.id) \($0.kind) \(String(describing: $0.title)) \($0.source ?? "-")" }
        lines += document.flags.map { "flag \($0.id) \($0.defaultValue) \(String(describing: $0.description))" }
        lines += document.callbacks.map {
            "callback \($0.id) \($0.swift ?? "-") \($0.objc ?? "-") \(String(describing: $0.posts)) \(String(describing: $0.deprecated)) \($0.timeLimit ?? "-")"
        }
        lines += document.notifications.map { "notification \($0.id) \($0.swift ?? "-") \($0.objc ?? "-")" }
        lines += document.transitions.map {
            "transition \($0.index) \($0.guardText ?? "-") \(String(describing: $0.description)) \($0.source ?? "-")"
        }
        lines += document.scenarios.map {
            "scenario \($0.id) \(String(describing: $0.title)) \($0.from ?? "-") \($0.flags.sorted { $0.key < $1.key }) \($0.events) \($0.expect) \($0.end ?? "-") \($0.source ?? "-")"
        }
        self.lines = lines
    }

    var description: String { lines.joined(separator: "\n") }
}
