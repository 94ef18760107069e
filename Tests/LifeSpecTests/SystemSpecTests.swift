import Foundation
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpec

/// System specs (`parts:`): composition, namespacing, and the diagnostics of including a part.
@Suite("System specs")
struct SystemSpecTests {
    static let fixture = Fixtures.path("System", "navigation-pair.yaml")

    @Test func fixtureComposesIntoOneParallelMachine() throws {
        let result = SpecLoader.load(path: Self.fixture)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let spec = try #require(result.spec)
        #expect(spec.document.parts.map(\.name) == ["A", "B"])
        #expect(spec.document.parts.map(\.specID) == ["uiviewcontroller-lifecycle", "uiviewcontroller-lifecycle"])
        let root = try #require(spec.machine.state("navigation-pair"))
        #expect(root.isParallel)
        #expect(root.children == ["A", "B", "coordinator"])
        // The part's states, events, callbacks and flags are all namespaced, for both instances.
        for part in ["A", "B"] {
            #expect(spec.machine.state("\(part).appeared")?.parent == "\(part).viewLoaded")
            #expect(spec.machine.event("\(part).push") != nil)
            #expect(spec.machine.flag("\(part).needsLayout") != nil)
            #expect(spec.machine.callback("\(part).viewWillDisappear")?.swiftName == "\(part).viewWillDisappear(_:)")
        }
        #expect(spec.machine.state("appeared") == nil)
        #expect(spec.document.part(of: "B.appeared")?.name == "B")
        #expect(spec.document.part(of: "rootShown") == nil)
    }

    @Test func elementsKeepTheLocationInTheirOwnFile() throws {
        let spec = try #require(SpecLoader.load(path: Self.fixture).spec)
        let partState = try #require(spec.document.state("A.appeared"))
        #expect(partState.location.path.hasSuffix("System/uiviewcontroller-lifecycle.yaml"))
        let ownState = try #require(spec.document.state("rootShown"))
        #expect(ownState.location.path == Self.fixture)
        #expect(spec.document.parts[0].location.path == Self.fixture)
        #expect(spec.document.parts[0].location.line == 14)
    }

    @Test func pushInterleavesBothControllersInAppleOrder() throws {
        let spec = try #require(SpecLoader.load(path: Self.fixture).spec)
        var runner = try Runner.begin(machine: spec.machine, from: nil, flags: [:]).runner
        _ = try runner.send("showRoot")
        let names = try runner.send("pushB").compactMap { step -> String? in
            guard case .callback(let id) = step else { return nil }
            return spec.machine.callback(id)?.swiftName
        }
        #expect(
            names == [
                "B.init(nibName:bundle:)", "A.viewWillDisappear(_:)", "B.loadView()", "B.viewDidLoad()",
                "B.viewWillAppear(_:)",
                "B.viewIsAppearing(_:)", "B.viewWillLayoutSubviews()", "B.viewDidLayoutSubviews()",
                "A.viewDidDisappear(_:)", "B.viewDidAppear(_:)",
            ])
        #expect(Set(runner.states) == ["A.disappeared", "B.appeared", "pushed"])
        // The coordinator's guard reads B's state: pushing again is refused while B is on top.
        #expect(throws: RunError.self) { try runner.send("pushB") }
    }

    // MARK: Diagnostics of including parts

    /// A folder with a system spec and the part specs beside it.
    struct Folder {
        let url: URL
        init(_ files: [String: String]) throws {
            url = try Scratch.folder("lifespec-parts")
            for (name, text) in files {
                try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
        }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        func load(_ name: String = "system.yaml") -> SpecLoadResult { SpecLoader.load(path: path(name)) }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static let lamp = """
        lifespec: 1
        id: lamp
        title: A lamp
        initial: off
        events: {toggle: {}}
        flags: {bright: {}}
        callbacks: {didLight: {}, didDarken: {}}
        states: {off: {}, on: {}}
        transitions:
          - {from: off, on: toggle, to: on, do: [didLight], set: {bright: true}}
          - {from: on, on: toggle, to: off, do: [didDarken], guard: bright}
        """

    static func system(_ body: String) -> String {
        """
        lifespec: 1
        id: system
        title: Two lamps
        parts:
          A: lamp
          B: {spec: lamp, title: Second lamp}
        \(body)
        """
    }

    @Test func twoInstancesOfOnePartRunIndependently() throws {
        let folder = try Folder([
            "lamp.yaml": Self.lamp,
            "system.yaml": Self.system(
                """
                states: {idle: {}, lit: {}}
                initial: idle
                events: {lightBoth: {}}
                transitions:
                  - {from: idle, on: lightBoth, to: lit, raise: [A.toggle, B.toggle]}
                  - {from: lit, on: A.didNotExist, to: idle}
                """),
        ])
        defer { folder.remove() }
        let result = folder.load()
        // `on: A.didNotExist` names no event of part A.
        let unknown = try #require(result.diagnostics.first { $0.code == .unknownPartMember })
        #expect(unknown.message.contains("part 'A' (lamp) has no event 'didNotExist'"))
        #expect(unknown.location.path == folder.path("system.yaml"))
        #expect(unknown.location.line == 12)
    }

    /// `initial:` may name part states: that part's region starts there, the others at their own
    /// initial states and the coordinator at the rest, as SCXML's `initial` may list a state in each
    /// region of a parallel state.
    @Test func initialMayNameWhereAPartStarts() throws {
        let folder = try Folder([
            "lamp.yaml": Self.lamp,
            "system.yaml": Self.system(
                """
                states: {idle: {}, lit: {}}
                initial: [idle, B.on]
                events: {switch: {}}
                transitions: [{from: idle, on: switch, to: lit}, {from: lit, on: switch, to: idle}]
                """),
            "parts-only.yaml": Self.system("initial: A.on").replacingOccurrences(
                of: "id: system", with: "id: parts-only"),
        ])
        defer { folder.remove() }
        for (name, expected) in [("system.yaml", ["A.off", "B.on", "idle"]), ("parts-only.yaml", ["A.on", "B.off"])] {
            let result = folder.load(name)
            let spec = try #require(result.spec, "\(name): \(result.diagnostics.map(\.description))")
            let runner = try Runner(machine: spec.machine)
            #expect(runner.states == expected, "\(name)")
        }
    }

    /// A part state `initial:` names must exist, and one part region starts in one state.
    @Test(arguments: [
        (
            "initial: [idle, B.dim]", DiagnosticCode.compoundWithoutInitial,
            "'B.dim' of 'B' is not one of its child states"
        ),
        ("initial: [idle, B.on, B.off]", DiagnosticCode.invalidTargetSet, "B.off"),
    ])
    func initialPartStatesAreChecked(_ line: String, _ code: DiagnosticCode, _ named: String) throws {
        let folder = try Folder(["lamp.yaml": Self.lamp, "system.yaml": Self.system("states: {idle: {}}\n" + line)])
        defer { folder.remove() }
        let result = folder.load()
        #expect(result.spec == nil)
        let error = try #require(
            result.diagnostics.first { $0.code == code }, "\(result.diagnostics.map(\.description))")
        #expect(error.message.contains(named), "\(error.message)")
        #expect(error.location.path == folder.path("system.yaml"))
        #expect(error.location.line == 8)
    }

    /// `receiver:` names the object a call of the system's own region goes to (#34: a delegate
    /// whichever object the app assigns, a closure's holder): its names carry it, as
    /// `AppDelegate.` does, and it wins over what the parts or catalogs would say.
    @Test func aDeclaredReceiverNamesTheCallsOfTheSystemsOwnRegion() throws {
        let folder = try Folder([
            "lamp.yaml": Self.lamp,
            "system.yaml": Self.system(
                """
                states: {idle: {}, lit: {}}
                initial: idle
                events: {lightBoth: {}}
                callbacks:
                  didLightBoth: {swift: "switchboardDidLightBoth(_:)", objc: "switchboardDidLightBoth:", receiver: SwitchboardDelegate}
                  unnamed: {}
                transitions:
                  - {from: idle, on: lightBoth, to: lit, raise: [A.toggle, B.toggle], do: [didLightBoth, unnamed]}
                  - {from: lit, on: lightBoth, to: idle}
                """),
        ])
        defer { folder.remove() }
        let result = folder.load()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let spec = try #require(result.spec)
        #expect(spec.machine.callback("didLightBoth")?.swiftName == "SwitchboardDelegate.switchboardDidLightBoth(_:)")
        #expect(spec.machine.callback("didLightBoth")?.objcName == "SwitchboardDelegate.switchboardDidLightBoth:")
        #expect(spec.document.receiver(of: "didLightBoth") == "SwitchboardDelegate")
        // Without one, a call of the region names no object; a part's calls stay the part's.
        #expect(spec.document.receiver(of: "unnamed") == nil)
        #expect(spec.document.receiver(of: "A.didLight") == "A")
    }

    @Test(
        "a receiver must be an object's name, not a part and not text",
        arguments: [
            ("receiver: A", "receiver 'A' of callback 'didLightBoth' is a part", 12),
            ("receiver: \"Switchboard delegate\"", "receiver 'Switchboard delegate' must be an object's name", 12),
            ("receiver: 2ndDelegate", "receiver '2ndDelegate' must be an object's name", 12),
        ])
    func receiverMustNameAnotherObject(_ line: String, _ message: String, _ at: Int) throws {
        let folder = try Folder([
            "lamp.yaml": Self.lamp,
            "system.yaml": Self.system(
                """
                states: {idle: {}, lit: {}}
                initial: idle
                events: {lightBoth: {}}
                callbacks:
                  didLightBoth:
                    \(line)
                transitions:
                  - {from: idle, on: lightBoth, to: lit, do: [didLightBoth]}
                """),
        ])
        defer { folder.remove() }
        let result = folder.load()
        #expect(result.spec == nil)
        let diagnostic = try #require(
            result.diagnostics.first { $0.message.contains(message) }, "\(result.diagnostics)")
        #expect(diagnostic.code == .invalidValue)
        #expect(diagnostic.location.line == at)
    }

    @Test func raisedEventsRunInOrderAcrossParts() throws {
        let folder = try Folder([
            "lamp.yaml": Self.lamp,
            "system.yaml": Self.system(
                """
                states: {idle: {}, lit: {}}
                initial: idle
                events: {lightBoth: {}}
                transitions:
                  - {from: idle, on: lightBoth, to: lit, raise: [B.toggle, A.toggle]}
                  - {from: lit, on: lightBoth, to: idle, guard: "in(A.on) && A.bright", raise: [A.toggle, B.toggle]}
                scenarios:
                  - id: both
                    events: [lightBoth, lightBoth]
                    expect: [B.didLight, A.didLight, A.didDarken, B.didDarken]
                    end: [A.off, B.off, idle]
                """),
        ])
        defer { folder.remove() }
        let result = folder.load()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let spec = try #require(result.spec)
        #expect(spec.document.parts.map(\.title) == [nil, LocalizedText("Second lamp")])
        // A part's guard is rewritten into its namespace.
        let partGuard = spec.machine.transitions.compactMap(\.guardExpression).map(\.description)
        #expect(partGuard.contains("A.bright") && partGuard.contains("B.bright"))
    }

    @Test func unknownPartSpecSuggestsASibling() throws {
        let folder = try Folder([
            "lamp.yaml": Self.lamp,
            "system.yaml": """
            lifespec: 1
            id: system
            parts: {A: lamp, B: lammp}
            """,
        ])
        defer { folder.remove() }
        let result = folder.load()
        #expect(result.spec == nil)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
        #expect(diagnostic.code == .unknownPartSpec)
        #expect(
            diagnostic.message.contains("there is no spec 'lammp'")
                && diagnostic.message.contains("did you mean 'lamp'?"))
        #expect(diagnostic.location == SourceLocation(path: folder.path("system.yaml"), line: 3, column: 21))
    }

    @Test func aPartsOwnErrorPointsIntoItsFileAndTheIncludeIsNamed() throws {
        let broken = Self.lamp.replacingOccurrences(of: "to: off, do", with: "to: offf, do")
        let folder = try Folder(["lamp.yaml": broken, "system.yaml": Self.system("")])
        defer { folder.remove() }
        let result = folder.load()
        #expect(result.spec == nil)
        let inPart = result.diagnostics.filter { $0.location.path == folder.path("lamp.yaml") }
        #expect(inPart.map(\.code) == [.unknownState])
        #expect(inPart.first?.location.line == 11)
        // Each include that uses the broken spec is named where it is written; the part's own
        // error is listed once.
        let includes = result.diagnostics.filter { $0.code == .invalidPart }
        #expect(includes.map(\.location.line) == [5, 6])
        #expect(
            includes.allSatisfy { $0.location.path == folder.path("system.yaml") && $0.message.contains("has 1 error") }
        )
    }

    @Test func partsDoNotNestAndASpecIsNotItsOwnPart() throws {
        let folder = try Folder([
            "lamp.yaml": Self.lamp,
            "pair.yaml": Self.system("").replacingOccurrences(of: "id: system", with: "id: pair"),
            "system.yaml": """
            lifespec: 1
            id: system
            parts: {P: pair, S: system}
            """,
        ])
        defer { folder.remove() }
        let result = folder.load()
        let messages = result.diagnostics.map {
            "\($0.code.rawValue) \($0.location.line):\($0.location.column) \($0.message)"
        }
        #expect(result.diagnostics.map(\.code) == [.invalidPart, .invalidPart], "\(messages)")
        #expect(messages[0].contains("has parts of its own"))
        #expect(messages[1].contains("cannot be a part of itself"))
    }

    @Test func namesThatClashWithThePartsNamespace() throws {
        let folder = try Folder([
            "lamp.yaml": Self.lamp,
            "system.yaml": Self.system(
                """
                states: {A: {}, idle: {}, coordinator: {}}
                initial: idle
                events: {B.toggle: {}, go: {}}
                transitions:
                  - {from: idle, on: go, to: A}
                  - {from: A, on: go, to: coordinator}
                  - {from: coordinator, on: go, to: idle}
                """),
        ])
        defer { folder.remove() }
        let result = folder.load()
        let clashes = result.diagnostics.filter { $0.code == .partNameClash }
        #expect(clashes.map(\.location.line) == [7, 7, 9], "\(result.diagnostics)")
        #expect(clashes.map(\.message).contains { $0.contains("state 'A' has the name of part 'A'") })
        #expect(clashes.map(\.message).contains { $0.contains("event 'B.toggle' is in part 'B''s namespace") })
        #expect(result.spec == nil)
    }

    @Test func theSystemDrivesPartsThroughEventsNotTheirStates() throws {
        let folder = try Folder([
            "lamp.yaml": Self.lamp,
            "system.yaml": Self.system(
                """
                states: {idle: {}}
                initial: idle
                events: {go: {}}
                transitions:
                  - {from: idle, on: go, to: A.on}
                  - {from: idle, on: go, to: idle, guard: "in(B.onn) || A.brigt", raise: [B.togle]}
                scenarios:
                  - {id: s, events: [A.toggel], expect: [B.didLite]}
                """),
        ])
        defer { folder.remove() }
        let result = folder.load()
        let lines = result.diagnostics.map {
            "\($0.code.rawValue) \($0.location.line):\($0.location.column) \($0.message)"
        }
        #expect(lines.contains { $0.hasPrefix("LS194 11:30") && $0.contains("a state of part 'A'") }, "\(lines)")
        // Every misspelled member of a part gets LS193 with the part's own names to choose from.
        #expect(
            lines.contains {
                $0.hasPrefix("LS193 12:47") && $0.contains("part 'B' (lamp) has no state 'onn'; did you mean 'B.on'?")
            }, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("LS193 12:57") && $0.contains("has no flag 'brigt'; did you mean 'A.bright'?")
            }, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("LS193 12:75") && $0.contains("has no event 'togle'; did you mean 'B.toggle'?")
            }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("LS193 14:22") && $0.contains("has no event 'toggel'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("LS193 14:42") && $0.contains("has no callback 'didLite'") }, "\(lines)")
    }
}

@Suite("README's system example")
struct READMESystemExampleTests {
    @Test func isValidAndRunsAsDocumented() throws {
        let root = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "### Systems: specs as parts"))
        let fence = try #require(readme.range(of: "```yaml\n", range: start.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: fence.upperBound..<readme.endIndex))
        // Where the README says it is saved: its parts are the spec beside it.
        let path = root.appendingPathComponent("Spec/push-and-pop.yaml").path
        let result = SpecLoader.load(text: String(readme[fence.upperBound..<end.lowerBound]), path: path)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let spec = try #require(result.spec)
        var runner = try Runner.begin(machine: spec.machine, from: nil, flags: [:]).runner
        _ = try runner.send("showRoot")
        let lines = try runner.send("pushB").map { step -> String in
            switch step {
            case .transition(let move):
                "\(move.event ?? "(eventless)"): \(move.isInternal ? "stays in \(move.from)" : "\(move.from) → \(move.to)")"
            case .callback(let id): "    callback      " + (spec.machine.callback(id)?.swiftName ?? id)
            case .notification(let id): "    notification  " + (spec.machine.notification(id)?.swiftName ?? id)
            }
        }
        // The console excerpt under the example, line for line where it does not elide.
        let console = try #require(
            readme.range(
                of: "$ swift run lifespec simulate Spec/push-and-pop.yaml showRoot pushB\n…\n",
                range: end.upperBound..<readme.endIndex))
        let shown = readme[console.upperBound...].prefix { _ in true }.split(separator: "\n").prefix(7).map(String.init)
        #expect(Array(lines.prefix(7)) == shown)
        let tail = readme[console.upperBound...].split(separator: "\n").drop { $0 != "…" }.dropFirst().prefix(4).map(
            String.init)
        #expect(Array(lines.suffix(4)) == tail)
        #expect(Set(runner.states) == ["A.disappeared", "B.appeared", "pushed"])
    }
}
