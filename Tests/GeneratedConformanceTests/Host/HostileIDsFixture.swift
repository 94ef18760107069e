import LifeSpecRender
import LifeSpecTestSupport
import LifecycleEngine
import Testing

/// A machine made in code with ids no spec file may use (the loader restricts them): digits first,
/// quotes, backslashes, interpolations, newlines, comment terminators, non-ASCII, Swift keywords.
/// Its generated suite, the golden Fixtures/hostile-ids-swift-testing.swift, is compiled by this
/// target and run against this same machine.
enum HostileIDsFixture {
    static let specID = "7-hostile ids/ünï\"code"

    static func machine() throws -> Machine {
        let start = "0-start"
        let etat = "état"
        let quoted = "a\"b"
        let interpolated = "x\\(y)"
        let group = "grüppe */"
        let broken = "line\nbreak"
        let comment = "*/ /*"
        let flag = "1flag"
        return try Machine(
            id: specID,
            states: [
                StateNode(id: start),
                StateNode(id: etat),
                StateNode(id: quoted),
                StateNode(id: interpolated),
                StateNode(id: group, children: [broken, comment], initial: broken),
                StateNode(id: broken, parent: group),
                StateNode(id: comment, parent: group),
            ],
            initial: start,
            events: [
                LifecycleEvent(id: "1go", kind: .user),
                LifecycleEvent(id: "ñ", kind: .user),
                LifecycleEvent(id: "\"\"\"", kind: .system),
                LifecycleEvent(id: "#raw#", kind: .internal),
                LifecycleEvent(id: "class", kind: .user),
            ],
            flags: [LifecycleFlag(id: flag)],
            callbacks: [
                LifecycleCallback(
                    id: "did\"Quote", posts: PostedNotification(notification: "note\n\\(x)", order: .after)),
                LifecycleCallback(
                    id: "🚀launch", posts: PostedNotification(notification: "\u{202E}rtl", order: .before)),
            ],
            notifications: [LifecycleNotification(id: "note\n\\(x)"), LifecycleNotification(id: "\u{202E}rtl")],
            transitions: [
                Transition(sources: [start], trigger: .event("1go"), target: etat, actions: [.callback("did\"Quote")]),
                Transition(
                    sources: [etat], trigger: .event("ñ"), guardExpression: .flag(flag), target: quoted,
                    actions: [.callback("🚀launch")]),
                Transition(
                    sources: [etat], trigger: .event("ñ"), guardExpression: .not(.flag(flag)), target: interpolated,
                    actions: [.notify("note\n\\(x)")], assignments: [FlagAssignment(flag: flag, value: true)]),
                Transition(sources: [interpolated], trigger: .event("\"\"\""), target: group),
                Transition(sources: [broken], trigger: .always, target: comment, raises: ["#raw#"]),
                Transition(
                    sources: [comment], trigger: .event("#raw#"), target: nil, actions: [.callback("did\"Quote")]),
                Transition(sources: [group], trigger: .event("class"), target: start),
                Transition(sources: [quoted], trigger: .event("class"), target: start, actions: [.callback("🚀launch")]),
            ]
        )
    }

    static func input() throws -> SwiftSuiteInput {
        SwiftSuiteInput(
            specID: specID,
            specPath: "Tests/GeneratedConformanceTests/Host/HostileIDsFixture.swift",
            title: "ids \"\"\" \\(boom) */ #\"x\"#\nsecond line",
            machine: try machine(),
            scenarios: [
                ConformanceScenario(
                    id: "1 \"quoted\" \\(scenario)", title: "*/\"\"\"\\(fatalError())\n",
                    events: ["1go", "ñ", "\"\"\""]),
                ConformanceScenario(id: "ünï", from: "état", flags: ["1flag": true], events: ["ñ", "class"]),
            ]
        )
    }
}

/// The engine, built from the fixture in code: there is no spec file to load.
extension Spec7HostileIdsU00FCNU00EFCodeConformance {
    static func makeSystem() throws -> EngineLifecycleSystem {
        try EngineLifecycleSystem(machine: HostileIDsFixture.machine())
    }
}

struct HostileIDsTests {
    @Test("The hostile-ids golden is what the renderer writes today")
    func goldenIsCurrent() throws {
        try assertGolden(
            SwiftSuiteRenderer.render(HostileIDsFixture.input()),
            at: "Tests/Fixtures/SwiftSuite/Golden/hostile-ids-swift-testing.swift")
    }

    @Test("The generated type is named from the spec id")
    func typeName() {
        #expect(
            SwiftSuiteRenderer.suiteTypeName(forSpecID: HostileIDsFixture.specID)
                == String(describing: Spec7HostileIdsU00FCNU00EFCodeConformance.self))
    }

    @Test("The hostile ids reach the cases unchanged")
    func idsSurvive() throws {
        let cases = Spec7HostileIdsU00FCNU00EFCodeConformance.cases
        let events = Set(cases.flatMap(\.steps).map(\.event))
        #expect(events.isSuperset(of: ["1go", "ñ", "\"\"\"", "class"]))
        #expect(cases.contains { $0.start == "*/ /*" || $0.start == "line\nbreak" || $0.start == "a\"b" })
        #expect(cases.map(\.id).contains("scenario:1 \"quoted\" \\(scenario)"))
    }
}
