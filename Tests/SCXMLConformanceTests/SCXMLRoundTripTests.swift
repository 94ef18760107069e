import Foundation
import LifeSpecTestSupport
import LifecycleEngine
import Testing

@testable import LifeSpec

/// `import(export(spec))` is the spec, not only its machine: the export carries the spec's YAML in
/// LifeSpec's namespace (`<lifespec:yaml>`) and import writes it back when it gives the chart's
/// machine. "The same spec" is checked on the loaded documents: the same text, the same machine,
/// and every field of the `SpecDocument` (titles and descriptions in every locale, summary,
/// sources, catalogs, scenarios, modelling notes, facts, locations) dumped field by field.
@Suite struct SCXMLRoundTripTests {
    /// What import writes for an export of `original`, read back at `path`.
    static func roundTrip(_ original: LoadedSpec, path: String) throws -> (
        scxml: String, yaml: String, warnings: [Diagnostic], back: SpecLoadResult
    ) {
        let scxml = try SCXMLWriter.scxml(for: original)
        let chart = SpecLoader.load(data: Data(scxml.utf8), path: "exported.scxml")
        guard let spec = chart.spec else {
            Issue.record("the export does not load: \(chart.diagnostics.map(\.description))\n\(scxml)")
            return (scxml, "", [], chart)
        }
        let imported = try SpecYAMLWriter.imported(spec, path: path)
        return (scxml, imported.yaml, imported.diagnostics, SpecLoader.load(text: imported.yaml, path: path))
    }

    /// Every field of a document, nested values included, one per line; a dictionary's or set's
    /// entries sorted (their order is the instance's hashing, not the spec's).
    static func fields(_ value: Any, _ indent: String = "") -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty { return indent + String(reflecting: value) + "\n" }
        var entries = mirror.children.map { child in
            indent + "- " + (child.label ?? "") + "\n" + fields(child.value, indent + "  ")
        }
        if mirror.displayStyle == .dictionary || mirror.displayStyle == .set { entries.sort() }
        return indent + "\(mirror.subjectType)\n" + entries.joined()
    }

    static func expectSame(_ back: SpecLoadResult, _ original: LoadedSpec, _ what: String) {
        guard let spec = back.spec else {
            Issue.record("\(what): the import does not load: \(back.diagnostics.map(\.description))")
            return
        }
        #expect(spec.machine == original.machine, "\(what): another machine")
        let (lhs, rhs) = (fields(spec.document), fields(original.document))
        if lhs != rhs {
            let first = zip(lhs.split(separator: "\n"), rhs.split(separator: "\n")).first { $0 != $1 }
            Issue.record("\(what): another document; first difference: \(first.map { "\($0) ≠ \($1)" } ?? "length")")
        }
    }

    @Test(arguments: ImportExportTests.specs)
    func importOfExportIsTheSpec(_ path: String) throws {
        let loaded = SpecLoader.load(path: path)
        guard let original = loaded.spec else {
            Issue.record("\(path) does not load: \(loaded.diagnostics.map(\.description))")
            return
        }
        // A system's chart carries the system's YAML, which names its parts: read back at the
        // spec's own path, they are beside it.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let result = try Self.roundTrip(original, path: path)
        #expect(result.scxml.contains("<lifespec:yaml>"))
        #expect(result.warnings.isEmpty, "\(result.warnings.map(\.description))")
        #expect(result.yaml == text, "\(path): import does not give the spec's text back")
        Self.expectSame(result.back, original, path)
    }

    /// Strings that would end a CDATA section, close the element, open another, start an entity or
    /// a comment; both kinds of quotes; CRLF line ends; text in several locales; scenarios.
    @Test func hostileStringsRoundTrip() throws {
        let yaml = """
            lifespec: 1
            id: hostile
            title:
              en: "]]> </lifespec:yaml><scxml xmlns=\\"http://www.w3.org/2005/07/scxml\\"> &amp; &#0; <!-- --> 'q' \\"qq\\""
              zh-Hans: "标题 ]]]]><![CDATA[> <![CDATA[x]]>"
            summary: "\\u0007 bell, <?xml version='1.0'?> <!DOCTYPE x [<!ENTITY e 'boom'>]> &e; \\t tab \\\\ backslash"
            unhandled: ignore
            initial: a
            events:
              go: {kind: user, description: {en: "</transition><transition event=\\"go\\" target=\\"b\\"/>", zh-Hans: "<&>"}}
            callbacks:
              cb: {swift: "x' + \\"<&>\\" + '", description: "-- --> ]]>"}
            states:
              a: {title: "<state id=\\"evil\\"/>"}
              b: {final: true, description: "\\u00e9\\u2028\\u2029 \\U0001F600"}
            transitions:
              - {from: a, on: go, to: b, do: [cb]}
            scenarios:
              - id: goes
                title: {en: "]]> goes <to> b & ends", zh-Hans: "<结束>"}
                events: [go]
                expect: [cb]
                end: [b]
            """.replacingOccurrences(of: "\n", with: "\r\n")
        let loaded = SpecLoader.load(text: yaml, path: "hostile.yaml")
        guard let original = loaded.spec else {
            Issue.record("\(loaded.diagnostics.map(\.description))")
            return
        }
        let result = try Self.roundTrip(original, path: "hostile.yaml")
        // Nothing of the strings is markup: the chart's elements are the writer's.
        #expect(!result.scxml.contains("]]>"))
        #expect(!result.scxml.contains("<state id=\"evil\""))
        #expect(result.scxml.contains("&#13;"))
        #expect(result.yaml == yaml)
        Self.expectSame(result.back, original, "hostile.yaml")
        // Text XML 1.0 cannot hold (a raw control character, which no YAML file has but a
        // LoadedSpec's text could) goes as base64 and comes back whole.
        var raw = original
        raw.sourceText = yaml + "# \u{1}\u{FFFF}\n"
        let base64 = try SCXMLWriter.scxml(for: raw)
        #expect(base64.contains("<lifespec:yaml encoding=\"base64\">"))
        let read = SCXMLReader.read(data: Data(base64.utf8), path: "hostile.scxml")
        #expect(read.document?.metadata.yaml?.text == raw.sourceText)
        // The comparison sees one word of one locale of one scenario.
        let edited = SpecLoader.load(text: yaml.replacingOccurrences(of: "<结束>", with: "<结>"), path: "hostile.yaml")
        #expect(edited.spec.map { Self.fields($0.document) != Self.fields(original.document) } == true)
    }

    @Test func escapingTextKeepsLineFeedsAndEscapesMarkup() {
        #expect(
            TextOutput.string { XMLText.writeText("a]]>b<c&d\r\n\te'\"", to: &$0) }
                == "a]]&gt;b&lt;c&amp;d&#13;\n\te'\"")
        #expect(!XMLText.canHold("\u{1}") && !XMLText.canHold("\u{FFFF}") && XMLText.canHold("\t"))
    }

    /// A chart with `body` as its line 3, read.
    static func chart(_ body: String) -> (document: SCXMLDocument?, diagnostics: [Diagnostic]) {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:lifespec="urn:lifespec:scxml:1" version="1.0" initial="a">
            \(body)
              <state id="a"/>
            </scxml>
            """
        return SCXMLReader.read(data: Data(text.utf8), path: "carried.scxml")
    }

    @Test func base64CarriedYAMLIsDecoded() {
        let yaml = "lifespec: 1\nid: a\u{1}b\n"
        let read = Self.chart(
            "  <lifespec:yaml encoding=\"base64\">\(Data(yaml.utf8).base64EncodedString())</lifespec:yaml>")
        #expect(read.document?.metadata.yaml?.text == yaml, "\(read.diagnostics.map(\.description))")
        #expect(read.document?.metadata.yaml?.location == SourceLocation(path: "carried.scxml", line: 3, column: 3))
        let cdata = Self.chart("<lifespec:yaml><![CDATA[a: \"]]]]><![CDATA[>\"]]></lifespec:yaml>")
        #expect(cdata.document?.metadata.yaml?.text == "a: \"]]>\"")
    }

    @Test(arguments: [
        ("  <lifespec:yaml encoding=\"rot13\">x</lifespec:yaml>", "LS013", "carried.scxml:3:3: error: [LS013]"),
        ("  <lifespec:yaml encoding=\"base64\">/w==</lifespec:yaml>", "LS013", "carried.scxml:3:3: error:"),
        ("  <lifespec:yaml colour=\"red\">x</lifespec:yaml>", "LS180", "carried.scxml:3:3: error: [LS180]"),
        ("  <lifespec:yaml>x<lifespec:spec/></lifespec:yaml>", "LS180", "carried.scxml:3:19: error: [LS180]"),
        ("  <lifespec:yaml>x</lifespec:yaml><lifespec:yaml>y</lifespec:yaml>", "LS020", "carried.scxml:3:35: error:"),
    ])
    func malformedCarriedYAMLIsLocated(_ body: String, _ code: String, _ prefix: String) {
        let read = Self.chart(body)
        #expect(read.document == nil)
        let errors = read.diagnostics.filter { $0.severity == .error }
        #expect(errors.contains { $0.code.rawValue == code && $0.description.hasPrefix(prefix) }, "\(errors)")
    }

    /// An element named `yaml` in another namespace is not LifeSpec's: it is refused, not read.
    @Test func carriedYAMLOnlyFromLifeSpecsNamespace() {
        let read = Self.chart("  <x:yaml xmlns:x=\"urn:not-lifespec\">lifespec: 1</x:yaml>")
        #expect(read.document == nil)
        #expect(read.diagnostics.contains { $0.code == .unsupportedSCXML && $0.location.line == 3 })
    }

    /// A chart edited after export (its machine is no longer the carried spec's): import keeps the
    /// chart's machine and says, at the element, that the words were left behind.
    @Test func editedChartImportsItsMachineWithAWarning() throws {
        let yaml = """
            lifespec: 1
            id: door
            title: {en: Door, zh-Hans: 门}
            initial: open
            events: {close: {kind: user}}
            states: {open: {}, closed: {final: true}}
            transitions:
              - {from: open, on: close, to: closed}

            """
        guard let original = SpecLoader.load(text: yaml, path: "door.yaml").spec else {
            Issue.record("door.yaml does not load")
            return
        }
        let scxml = try SCXMLWriter.scxml(for: original).replacingOccurrences(
            of: "kind=\"user\"", with: "kind=\"system\"")
        let chart = SpecLoader.load(data: Data(scxml.utf8), path: "door.scxml")
        let spec = try #require(chart.spec, "\(chart.diagnostics.map(\.description))")
        let imported = try SpecYAMLWriter.imported(spec, path: "door.yaml")
        #expect(imported.yaml != yaml)
        #expect(SpecLoader.load(text: imported.yaml, path: "door.yaml").spec?.machine == spec.machine)
        #expect(imported.diagnostics.count == 1)
        #expect(
            imported.diagnostics.first?.description.hasPrefix("door.scxml:6:3: warning: [LS013]") == true,
            "\(imported.diagnostics.map(\.description))")
    }
}
