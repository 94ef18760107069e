import Foundation
import LifeSpec
import LifecycleEngine
import Testing

/// The SCXML reader on its own: ids kept or generated, located diagnostics for everything outside
/// the subset, and the commands that take a spec taking an `.scxml` file.
@Suite struct SCXMLReaderTests {
    static func read(_ text: String, path: String = "chart.scxml") -> (document: SCXMLDocument?, diagnostics: [String])
    {
        let result = SCXMLReader.read(data: Data(text.utf8), path: path)
        return (result.document, result.diagnostics.map(\.description))
    }

    static func chart(_ body: String, attributes: String = "") -> String {
        "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\"\(attributes)>\n\(body)\n</scxml>\n"
    }

    @Test func everyConstructOutsideTheSubsetIsALocatedErrorNamingTheElement() {
        let text = Self.chart(
            """
            <datamodel><data id="x" expr="1"/></datamodel>
            <state id="a">
              <onentry><script>x = 2</script><send event="go" delay="1s"/><if cond="true"><raise event="go"/></if></onentry>
              <transition event="go" cond="x &gt; 1" target="b"/>
              <invoke src="other.scxml"/>
            </state>
            <final id="b"><donedata><content expr="1"/></donedata></final>
            """)
        let result = Self.read(text)
        #expect(result.document == nil)
        #expect(
            result.diagnostics == [
                "chart.scxml:2:1: error: [LS180] <datamodel> is not supported: data needs datamodel=\"ecmascript\" on <scxml> (LifeSpec reads boolean <data> as flags)",
                "chart.scxml:4:12: error: [LS180] <script> is not supported: LifeSpec runs SCXML with the null datamodel (no scripts)",
                "chart.scxml:4:34: error: [LS180] <send> is not supported: <send> is outside LifeSpec's subset (use <raise> for an internal event)",
                "chart.scxml:4:63: error: [LS180] <if> is not supported: conditional and looping executable content needs a datamodel",
                "chart.scxml:5:3: error: [LS180] cond=\"x > 1\" is not supported: 'x' is not a boolean <data> of this chart (conditions read In('state') and the chart's flags)",
                "chart.scxml:6:3: error: [LS180] <invoke> is not supported: invoking other services is outside LifeSpec's subset",
                "chart.scxml:8:15: error: [LS180] <donedata> is not supported: event data needs a datamodel",
            ])
    }

    @Test func malformedXMLAndDoctypesAreRefused() {
        let broken = Self.read("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n<state id=\"a\">\n</scxml>")
        #expect(broken.document == nil)
        #expect(broken.diagnostics.count == 1 && broken.diagnostics[0].contains("error: [LS181] XML:"))
        let doctype = Self.read("<!DOCTYPE scxml [<!ENTITY a \"aaaa\">]>\n" + Self.chart("<state id=\"a\"/>"))
        #expect(
            doctype.diagnostics == [
                "chart.scxml:1:1: error: [LS180] <!DOCTYPE> is not supported in SCXML files (no DTD or entities)"
            ])
        let foreign = Self.read("<chart/>")
        #expect(
            foreign.diagnostics == [
                "chart.scxml:1:1: error: [LS180] the root element <chart> is in no namespace; an SCXML document is <scxml xmlns=\"http://www.w3.org/2005/07/scxml\">"
            ])
    }

    @Test func brokenReferencesAreLocated() {
        let result = Self.read(
            Self.chart(
                """
                <state id="a" initial="a9">
                  <state id="a1"><transition event="go" target="b1" cond="In('a2')"/></state>
                </state>
                <state id="a"/>
                """))
        #expect(
            result.diagnostics == [
                "chart.scxml:2:1: error: [LS101] initial state 'a9' is not a state of this chart; did you mean 'a'?",
                "chart.scxml:3:18: error: [LS101] In() of 'a2' is not a state of this chart; did you mean 'a'?",
                "chart.scxml:3:18: error: [LS101] target 'b1' is not a state of this chart; did you mean 'a1'?",
                "chart.scxml:5:1: error: [LS020] duplicate state id 'a'\n    first declared at chart.scxml:2:1",
            ])
    }

    @Test func idsAreKeptAsWrittenAndMissingOnesGeneratedInDocumentOrder() throws {
        let result = Self.read(
            Self.chart(
                """
                <state id="b1.2"><state/><state id="s-1"/><final/></state>
                <parallel><state/><state id="_state2"/></parallel>
                """))
        let document = try #require(result.document, "\(result.diagnostics)")
        #expect(document.states.map(\.id) == ["b1.2", "_state1", "s-1", "_final2", "_parallel3", "_state4", "_state2"])
        #expect(document.states.map(\.idIsGenerated) == [false, true, false, true, true, true, false])
        let machine = try document.machine()
        #expect(machine.unhandledEvents == .ignore)
        var (runner, _) = try Runner.start(machine: machine)
        #expect(runner.states == ["_state1"])
        #expect(try runner.send("anything").isEmpty)
    }

    @Test func everyEventNamedByATransitionOrARaiseIsDeclared() throws {
        let result = Self.read(
            Self.chart(
                """
                <state id="a">
                  <onentry><raise event="ready"/></onentry>
                  <transition event="go.fast  stop error.*" target="b"/>
                  <transition event="*" target="a"/>
                </state>
                <state id="b"/>
                """))
        let document = try #require(result.document)
        #expect(document.eventNames == ["go.fast", "stop", "error", "ready"])
    }

    @Test func commandsThatTakeASpecTakeAnSCXMLFile() throws {
        let chart = ConformanceCharts.packageRoot.appendingPathComponent("Tests/Fixtures/SCXML/player.scxml").path
        let loaded = SpecLoader.load(path: chart)
        guard let spec = loaded.spec else {
            Issue.record("\(loaded.diagnostics.map(\.description))")
            return
        }
        #expect(spec.document.id == "player")
        // <log> names that are not ids become ids; the name is what a trace prints.
        #expect(spec.machine.callbacks.map(\.id) == ["powered_on", "powered_off", "redraw"])
        #expect(spec.machine.callbacks.map(\.swiftName) == ["powered on", "powered off", "redraw"])
        var (runner, _) = try Runner.start(machine: spec.machine)
        try runner.send(["power", "play", "show", "tick", "power", "power"])
        // Deep history restored both regions.
        #expect(runner.activeStates == ["on", "p", "audio", "playing", "ui", "ui.shown"])
        let steps = try runner.send("tick")
        #expect(steps.contains(.callback("redraw")))
        try runner.send("quit")
        #expect(runner.states == ["done"] && !runner.isRunning)
    }
}
