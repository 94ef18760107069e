import Foundation
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpec

/// `lifespec import` and `export` as library calls: SCXML → YAML gives the same machine on every
/// conformance chart, YAML → SCXML → YAML gives the same machine on every spec in `Spec/`, and Qt
/// SCXML runs an exported spec with the engine's trace.
@Suite struct ImportExportTests {
    static let specs: [String] = {
        let folder = ConformanceCharts.packageRoot.appendingPathComponent("Spec")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0).path }
    }()

    /// Charts the resolver refuses: SCION's history4 and history4b name a history state as a
    /// compound state's `initial`, which SCXML allows and LifeSpec's resolver does not (yet).
    static let refusedCharts: Set<String> = []

    @Test func importingEveryConformanceChartGivesTheSameMachine() throws {
        guard ConformanceCharts.folder != nil else {
            print(ConformanceCharts.skipMessage)
            return
        }
        var imported = 0
        for chart in ConformanceCharts.scion + ConformanceCharts.w3c {
            let loaded = SpecLoader.load(path: ConformanceCharts.url(chart).path)
            guard let spec = loaded.spec else {
                #expect(
                    Self.refusedCharts.contains(chart),
                    "\(chart) does not load: \(loaded.diagnostics.map(\.description))")
                continue
            }
            #expect(!Self.refusedCharts.contains(chart), "\(chart) loads now: take it off refusedCharts")
            let yaml = try SpecYAMLWriter.yaml(for: spec)
            let reloaded = SpecLoader.load(text: yaml, path: "imported.yaml")
            #expect(
                reloaded.spec?.machine == spec.machine,
                "\(chart): \(reloaded.diagnostics.filter { $0.severity == .error }.map(\.description))\n\(yaml)")
            // The loader's machine runs the chart as the reader's own does.
            #expect(try ConformanceCharts.machine(chart).states.map(\.id) == spec.machine.states.map(\.id))
            if reloaded.spec?.machine == spec.machine { imported += 1 }
        }
        print(
            "SCXML import: \(imported)/\(ConformanceCharts.scion.count + ConformanceCharts.w3c.count) conformance charts give the same machine as YAML"
        )
    }

    @Test(arguments: specs)
    func yamlToSCXMLToYAMLKeepsTheMachine(_ path: String) throws {
        let loaded = SpecLoader.load(path: path)
        guard let original = loaded.spec else {
            Issue.record("\(path) does not load: \(loaded.diagnostics.map(\.description))")
            return
        }
        let scxml = try SCXMLWriter.scxml(for: original)
        // A system's part flags (`A.needsLayout`) are variables with `$` for the `.`, each listed.
        for flag in original.machine.flags where flag.id.contains(".") {
            let variable = flag.id.replacingOccurrences(of: ".", with: "$")
            #expect(scxml.contains("<data id=\"\(variable)\""), "\(path): \(flag.id)")
            #expect(scxml.contains("<lifespec:flag id=\"\(flag.id)\" var=\"\(variable)\"/>"), "\(path): \(flag.id)")
        }
        let fromSCXML = SpecLoader.load(data: Data(scxml.utf8), path: "exported.scxml")
        guard let chart = fromSCXML.spec else {
            Issue.record("the export of \(path) does not load: \(fromSCXML.diagnostics.map(\.description))")
            return
        }
        #expect(chart.machine == original.machine, "\(Self.difference(chart.machine, original.machine))")
        let yaml = try SpecYAMLWriter.yaml(for: chart)
        let back = SpecLoader.load(text: yaml, path: "roundtrip.yaml")
        #expect(
            back.spec?.machine == original.machine,
            "\(back.diagnostics.map(\.description)) \(back.spec.map { Self.difference($0.machine, original.machine) } ?? "")"
        )
    }

    /// `<lifespec:flag id var>` gives a `<data>` variable its flag's name back: in the datamodel, in
    /// conditions and in assignments. A listed variable no `<data>` declares, an id that is not a
    /// flag id, and an id another `<data>` has are each an error at the element.
    @Test func flagNamesComeBackFromTheirVariables() throws {
        func chart(_ listed: String, id: String = "A.ready", data: String = "") -> String {
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:lifespec="urn:lifespec:scxml:1" version="1.0" datamodel="ecmascript" initial="a">
              <lifespec:flag id="\(id)" var="\(listed)"/>
              <datamodel><data id="A$ready" expr="false"/>\(data)</datamodel>
              <state id="a">
                <transition event="prepare"><assign location="A$ready" expr="true"/></transition>
                <transition event="go" cond="A$ready &amp;&amp; In('a')" target="b"/>
              </state>
              <state id="b"/>
            </scxml>
            """
        }
        let loaded = SpecLoader.load(data: Data(chart("A$ready").utf8), path: "system.scxml")
        let spec = try #require(loaded.spec, "\(loaded.diagnostics.map(\.description))")
        #expect(spec.machine.flags.map(\.id) == ["A.ready"])
        #expect(spec.machine.transitions.compactMap(\.guardExpression).map(\.description) == ["A.ready && in(a)"])
        #expect(spec.machine.transitions.flatMap(\.assignments).map(\.flag) == ["A.ready"])
        // Exported again, the flag is the same variable and listed the same way.
        let again = try SCXMLWriter.scxml(for: spec)
        #expect(again.contains("<lifespec:flag id=\"A.ready\" var=\"A$ready\"/>"), "\(again)")
        #expect(again.contains("cond=\"A$ready &amp;&amp; In('a')\""), "\(again)")

        let stray = SpecLoader.load(data: Data(chart("B$ready").utf8), path: "stray.scxml")
        #expect(stray.spec == nil)
        #expect(
            stray.diagnostics.contains {
                $0.code == .unknownFlag && $0.location.line == 2 && $0.message.contains("var=\"B$ready\"")
            }, "\(stray.diagnostics.map(\.description))")
        // The name it gives must be a flag id, and no other <data>'s.
        for (id, data, code) in [
            ("bad id!", "", DiagnosticCode.invalidValue), ("ready", #"<data id="ready" expr="true"/>"#, .duplicateID),
        ] {
            let wrong = SpecLoader.load(data: Data(chart("A$ready", id: id, data: data).utf8), path: "wrong.scxml")
            #expect(wrong.spec == nil)
            #expect(
                wrong.diagnostics.contains { $0.code == code && $0.location.line == 2 && $0.message.contains(id) },
                "\(wrong.diagnostics.map(\.description))")
        }
    }

    @Test func exportedTextIsEscaped() throws {
        #expect(TextOutput.string { XMLText.writeAttribute("a\"<b>&'c\n", to: &$0) } == "a&quot;&lt;b&gt;&amp;'c&#10;")
        #expect(TextOutput.string { ECMAScriptText.writeString("it's \\ \n", to: &$0) } == "'it\\'s \\\\ \\n'")
        #expect(TextOutput.string { YAMLText.writeQuoted("a\"b\\c\u{1}", to: &$0) } == "\"a\\\"b\\\\c\\u0001\"")
        #expect(
            TextOutput.string { JSONText.writeString("a\"b\\c\u{1}\u{2028}", to: &$0) }
                == "\"a\\\"b\\\\c\\u0001\\u2028\"")
        // Inside a page's <script>: the markup characters as \u escapes too, and nothing else differs.
        #expect(
            TextOutput.string { JSONText.writeString("</script><!--&\u{1}", to: &$0, scriptSafe: true) }
                == "\"\\u003c/script\\u003e\\u003c!--\\u0026\\u0001\"")
        #expect(
            TextOutput.string { HTMLText.write("<a href=\"x\">'&'</a>", to: &$0) }
                == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        // A callback name that would break out of the expression and the attribute stays inside both.
        let yaml = """
            lifespec: 1
            id: escapes
            callbacks:
              cb: {swift: "x' + \\"<&>\\" + '"}
            states: {a: {}, b: {final: true}}
            initial: a
            events: {go: {}}
            transitions:
              - {from: a, on: go, to: b, do: [cb]}
            """
        let first = SpecLoader.load(text: yaml, path: "escapes.yaml")
        guard let spec = first.spec else {
            Issue.record("\(first.diagnostics.map(\.description))")
            return
        }
        let scxml = try SCXMLWriter.scxml(for: spec)
        let second = SpecLoader.load(data: Data(scxml.utf8), path: "escapes.scxml")
        #expect(second.spec?.machine == spec.machine, "\(second.diagnostics.map(\.description))\n\(scxml)")
    }

    /// Each spec exported, then run by Qt SCXML: the scenarios that start as SCXML does, and seeded
    /// random walks over the events the engine accepts; callbacks, notifications and the atomic
    /// configuration must match after every event.
    @Test func qtRunsExportedSpecsWithTheEnginesTrace() throws {
        let folder = try Scratch.folder("lifespec-export")
        defer { try? FileManager.default.removeItem(at: folder) }
        var requests: [QtSCXML.Request] = []
        var expected: [(name: String, events: [String], run: (configurations: [[String]], logs: [[String]]))] = []
        for path in Self.specs {
            guard let spec = SpecLoader.load(path: path).spec else {
                Issue.record("\(path) does not load")
                continue
            }
            let file = folder.appendingPathComponent(
                URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".scxml"
            ).path
            try Data(try SCXMLWriter.scxml(for: spec).utf8).write(to: URL(fileURLWithPath: file))
            var scripts = spec.document.scenarios.filter { $0.from == nil && $0.flags.isEmpty }.map(\.events)
            for seed in 1...8 { scripts.append(try Self.walk(spec.machine, seed: UInt64(seed), length: 12)) }
            for events in scripts {
                requests.append(QtSCXML.Request(path: file, events: events))
                expected.append((path, events, try Self.run(spec.machine, events)))
            }
        }
        guard case .ran(let results) = try QtSCXML.run(requests) else {
            print("Qt export differential: skipped (PySide2.QtScxml unavailable)")
            return
        }
        var agreeing = 0
        for (item, qt) in zip(expected, results) {
            #expect(qt.errors.isEmpty, "\(item.name): Qt refuses the export: \(qt.errors)")
            let same = qt.configurations == item.run.configurations && qt.logs == item.run.logs
            #expect(
                same,
                "\(item.name) events \(item.events): engine \(item.run.configurations) \(item.run.logs), Qt \(qt.configurations) \(qt.logs)"
            )
            if same { agreeing += 1 }
        }
        print(
            "Qt export differential: \(agreeing)/\(expected.count) runs of \(Self.specs.count) exported specs agree with Qt SCXML"
        )
    }

    /// The first part in which two machines differ, for a failure message.
    static func difference(_ lhs: Machine, _ rhs: Machine) -> String {
        if lhs.id != rhs.id { return "id \(lhs.id) / \(rhs.id)" }
        if lhs.initialTargets != rhs.initialTargets || lhs.initial != rhs.initial {
            return "initial \(lhs.initialTargets) / \(rhs.initialTargets)"
        }
        if lhs.unhandledEvents != rhs.unhandledEvents { return "unhandled" }
        for (a, b) in zip(lhs.states, rhs.states) where a != b { return "state \(a) / \(b)" }
        for (a, b) in zip(lhs.events, rhs.events) where a != b { return "event \(a) / \(b)" }
        if lhs.events.count != rhs.events.count { return "events \(lhs.events.map(\.id)) / \(rhs.events.map(\.id))" }
        if lhs.flags != rhs.flags { return "flags \(lhs.flags) / \(rhs.flags)" }
        for (a, b) in zip(lhs.callbacks, rhs.callbacks) where a != b { return "callback \(a) / \(b)" }
        if lhs.notifications != rhs.notifications { return "notifications" }
        for (a, b) in zip(lhs.transitions, rhs.transitions) where a != b { return "transition \(a) / \(b)" }
        return lhs.transitions.count != rhs.transitions.count
            ? "transition count" : "states count \(lhs.states.count)/\(rhs.states.count)"
    }

    static func run(_ machine: Machine, _ events: [String]) throws -> (configurations: [[String]], logs: [[String]]) {
        func observed(_ steps: [Step]) -> [String] {
            steps.compactMap { step in
                switch step {
                case .callback(let id): "callback:" + id
                case .notification(let id): "notification:" + id
                case .transition: nil
                }
            }
        }
        var (runner, steps) = try Runner.start(machine: machine)
        var configurations = [runner.states.sorted()]
        var logs = [observed(steps)]
        for event in events {
            logs.append(observed(try runner.send(event)))
            configurations.append(runner.states.sorted())
        }
        return (configurations, logs)
    }

    /// A random walk over the events the engine accepts (Qt ignores an event the spec calls an error).
    static func walk(_ machine: Machine, seed: UInt64, length: Int) throws -> [String] {
        var random = SplitMix64(seed: seed &* 7919)
        var (runner, _) = try Runner.start(machine: machine)
        var events: [String] = []
        for _ in 0..<length {
            let accepted = runner.acceptedEvents.filter {
                !$0.hasPrefix("done.") && machine.event($0)?.kind != .internal
            }
            // An event with a transition whose guard is false here is not handled (a system's
            // coordinator guards on its parts' states): a random one of those the engine takes.
            var candidates = accepted
            var taken: String?
            while !candidates.isEmpty, taken == nil {
                let event = candidates.remove(at: candidates.firstIndex(of: random.pick(candidates))!)
                var trial = runner
                if (try? trial.send(event)) != nil {
                    runner = trial
                    taken = event
                }
            }
            guard let event = taken else { break }
            events.append(event)
        }
        return events
    }
}
