import Foundation
import LifeSpecTestSupport
import Testing

/// The command line with SCXML: a chart is a spec for every command, import and export write
/// files only when they are right, simulate --json lists configurations.
@Suite struct SCXMLCommandTests {
    static let chart = "Tests/Fixtures/SCXML/player.scxml"

    @Test func simulateListsEveryConfigurationStartingAsSCXMLDoes() throws {
        let result = try CLI.run(["simulate", Self.chart, "power", "play", "show", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        let configurations = try #require(object["configurations"] as? [[String]])
        #expect(
            configurations == [
                ["off"],
                ["on", "p", "audio", "paused", "ui", "ui.hidden"],
                ["on", "p", "audio", "playing", "ui", "ui.hidden"],
                ["on", "p", "audio", "playing", "ui", "ui.shown"],
            ])
        let text = try CLI.run(["simulate", Self.chart, "power"])
        #expect(
            text.stdout.hasPrefix("start: off\npower: off → paused\n    callback      powered on\n"), "\(text.stdout)")
        #expect(text.stdout.hasSuffix("final state: paused, ui.hidden\n"))
    }

    @Test func theYAMLSpecsStartAsSCXMLDoesWithoutFrom() throws {
        let result = try CLI.run(["simulate", "Spec/ios-app-lifecycle.yaml", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        #expect(object["configurations"] as? [[String]] == [["notRunning"]])
    }

    @Test func everySpecCommandTakesAnSCXMLFile() throws {
        for arguments in [
            ["validate", Self.chart], ["diagram", Self.chart, "--format", "dot"], ["docs", Self.chart],
            ["tests", Self.chart],
        ] {
            let result = try CLI.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(arguments)")
        }
    }

    @Test func importWritesYAMLThatLoadsAsTheSameMachineAndExportRoundTrips() throws {
        let folder = try Scratch.folder("lifespec-scxml")
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = folder.appendingPathComponent("player.yaml").path
        let imported = try CLI.run(["import", Self.chart, "-o", yaml])
        #expect(imported.status == 0, "\(imported.stderr)")
        let validate = try CLI.run(["validate", yaml])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let exported = try CLI.run(["export", yaml, "--format", "scxml"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("<log label=\"callback\" expr=\"'powered_on'\"/>"))
        // Wrong input: not SCXML, a format that does not exist, a chart outside the subset.
        #expect(try CLI.run(["import", "Spec/ios-app-lifecycle.yaml"]).status == 64)
        #expect(try CLI.run(["export", yaml, "--format", "xmi"]).status == 64)
        let bad = folder.appendingPathComponent("bad.scxml")
        try Data(
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"><onentry><script/></onentry></state></scxml>"
                .utf8
        ).write(to: bad)
        let refused = try CLI.run(["import", bad.path, "-o", folder.appendingPathComponent("bad.yaml").path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("[LS180] <script> is not supported"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad.yaml").path))
    }

    /// `import(export(spec))` through the command line: the file import writes is the spec's own.
    @Test func exportThenImportGivesTheSpecBack() throws {
        let folder = try Scratch.folder("lifespec-roundtrip")
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = "Spec/uiviewcontroller-lifecycle.yaml"
        let chart = folder.appendingPathComponent("vc.scxml").path
        let exported = try CLI.run(["export", spec, "--format", "scxml", "-o", chart])
        #expect(exported.status == 0, "\(exported.stderr)")
        let yaml = folder.appendingPathComponent("vc.yaml").path
        let imported = try CLI.run(["import", chart, "-o", yaml])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.isEmpty, "\(imported.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: yaml)) == Data(contentsOf: URL(fileURLWithPath: spec)))
    }
}

/// An SCXML processor takes any event: SCION's prefix-matching chart sends `foobar`, which no
/// transition names, and `foo.bar.bat.bif`, which `foo` takes by prefix.
@Suite struct SCXMLAnyEventTests {
    static let chart = """
        <scxml datamodel="ecmascript" xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
            <state id="a"><transition target="b" event="foo"/></state>
            <state id="b"><transition target="c" event="foo.bar"/></state>
            <state id="c"><transition target="d" event="foo.bar.bat"/></state>
            <state id="d"><transition target="e" event="foo"/></state>
            <state id="e"><transition target="f" event="foo.bar"/></state>
            <state id="f"><transition target="g" event="foo.bar.bat"/></state>
            <state id="g"/>
        </scxml>
        """

    @Test func aChartTakesAnEventItNeverNamesAndDiscardsItWhereNothingMatches() throws {
        let folder = try Scratch.folder("lifespec-scxml-events")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("prefix.scxml").path
        try Self.chart.write(toFile: path, atomically: true, encoding: .utf8)
        // SCION's script (scxml-prefix-event-name-matching/test0): the configuration after each.
        let script = [
            "foo", "foo.bar", "foo.bar.bat", "foo.bar.bat", "foo", "foo.bar.bat", "foobar", "foo.bar.bat.bif",
        ]
        let result = try CLI.run(["simulate", path] + script + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        #expect(
            object["configurations"] as? [[String]] == [["a"], ["b"], ["c"], ["d"], ["e"], ["e"], ["f"], ["f"], ["g"]])
        let text = try CLI.run(["simulate", path] + script)
        #expect(text.stdout.contains("foo.bar.bat: d → e\nfoo: discarded (no transition takes it"), "\(text.stdout)")
        #expect(text.stdout.contains("\nfoobar: discarded (no transition takes it"), "\(text.stdout)")
        #expect(text.stdout.hasSuffix("foo.bar.bat.bif: f → g\nfinal state: g\n"), "\(text.stdout)")
    }

    @Test func aYAMLSpecStillRefusesAnEventItDoesNotDeclare() throws {
        let result = try CLI.run(["simulate", "Spec/ios-app-lifecycle.yaml", "pressHoem"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown event 'pressHoem'; did you mean 'pressHome'?"), "\(result.stderr)")
    }
}
