import Foundation
import LifeSpec
import Testing

/// Hostile SCXML charts (issue #37), each a variant of an attack found against the reader: refused
/// with a located diagnostic, from the raw bytes where the parser would decode them otherwise.
@Suite("SCXMLHardening")
struct SCXMLHardeningTests {
    static func chart(_ body: String) -> String {
        "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">\n\(body)\n</scxml>\n"
    }

    static func read(_ bytes: [UInt8]) -> (document: SCXMLDocument?, diagnostics: [Diagnostic]) {
        SCXMLReader.read(data: Data(bytes), path: "chart.scxml")
    }

    /// A chart whose internal DTD defines an entity that a `<log>` prints, as the attack had it.
    static let entityChart =
        "<!DOCTYPE scxml [<!ENTITY pwn \"leaked-entity-text\">]>\n"
        + chart("<state id=\"a\"><onentry><log expr=\"'&pwn;'\"/></onentry></state>")

    @Test("a chart declared in another encoding is refused before parsing, its DTD never expanded")
    func otherEncodingsAreRefusedFromTheBytes() {
        // UTF-16 big-endian without a byte-order mark, and UTF-32: NUL bytes.
        let utf16 = Array(("<?xml version=\"1.0\" encoding=\"UTF-16BE\"?>\n" + Self.entityChart).utf16)
            .flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let utf32 = Array(Self.entityChart.unicodeScalars).flatMap { [0, 0, 0, UInt8($0.value)] as [UInt8] }
        // UTF-7, where '<' is "+ADw-": all ASCII, so only the declaration says how to read it.
        let utf7 = Array(
            ("<?xml version='1.0' encoding='utf-7'?>+ADw-!DOCTYPE scxml +AFs-+ADw-!ENTITY pwn 'x'+AD4-+AF0-+AD4-\n"
                + Self.chart("<state id=\"a\"/>")).utf8)
        // Latin-1 with nothing but ASCII in it, and a UTF-16 byte-order mark before UTF-8 text.
        let latin1 = Array(("<?xml version=\"1.0\" encoding=\"ISO-8859-1\" ?>" + Self.chart("<state id=\"a\"/>")).utf8)
        let bom = [0xFF, 0xFE] + Array(Self.chart("<state id=\"a\"/>").utf8)
        let utf7Mark = Array("+/v8".utf8) + Array(Self.chart("<state id=\"a\"/>").utf8)
        for (name, bytes) in [
            ("utf16", utf16), ("utf32", utf32), ("utf7", utf7), ("latin1", latin1), ("bom", bom),
            ("utf7 mark", utf7Mark),
        ] {
            let result = Self.read(bytes)
            #expect(result.document == nil, "\(name)")
            #expect(result.diagnostics.map(\.code) == [.unreadableFile], "\(name): \(result.diagnostics)")
            #expect(result.diagnostics.allSatisfy { $0.message.contains("UTF-8 only") }, "\(name)")
            #expect(!result.diagnostics.description.contains("leaked-entity-text"), "\(name)")
        }
        // UTF-8, declared in any spelling, still reads.
        let declared = Self.read(
            Array(("<?xml version='1.0' encoding='utf-8'?>\n" + Self.chart("<state id=\"a\"/>")).utf8))
        #expect(declared.document != nil, "\(declared.diagnostics)")
    }

    @Test("any DTD is refused, in any case and wherever it is, and located")
    func everyDTDIsRefused() {
        for text in [
            "<!doctype scxml>\n" + Self.chart("<state id=\"a\"/>"),
            Self.chart("<!-- <!DOCTYPE x> -->\n<state id=\"a\"/>"),
            "<?xml version=\"1.0\"?>\n\n  <!ENTITY x \"y\">" + Self.chart("<state id=\"a\"/>"),
        ] {
            let result = Self.read(Array(text.utf8))
            #expect(result.document == nil)
            #expect(result.diagnostics.map(\.code) == [.unsupportedSCXML], "\(result.diagnostics)")
        }
        let located = Self.read(Array(("<?xml version=\"1.0\"?>\n\n  <!ENTITY x \"y\">" + Self.chart("")).utf8))
        #expect(located.diagnostics.first?.location.line == 3 && located.diagnostics.first?.location.column == 3)
    }

    @Test("text from a predefined entity or a character reference is text content all the same")
    func entityTextIsTextContent() {
        for body in ["&amp;", "&#x41;", "&lt;b&gt;"] {
            let result = Self.read(Array(Self.chart("<state id=\"a\">\(body)</state>").utf8))
            #expect(result.document == nil, "\(body)")
            #expect(
                result.diagnostics.contains { $0.code == .unsupportedSCXML && $0.message.contains("text content") },
                "\(body): \(result.diagnostics)")
        }
    }

    /// The attack's conditions, varied: deeper, mixed, and chains of `&&` and `||`.
    static let deepConditions: [String: String] = [
        "30,000 !": String(repeating: "!", count: 30_000) + "true",
        "70,000 (": String(repeating: "(", count: 70_000) + "true",
        "65 ! (": String(repeating: "! (", count: 65) + "true" + String(repeating: ")", count: 65),
        "20,000 &&": (0..<20_000).map { _ in "In('a')" }.joined(separator: " && "),
        "20,000 ||": (0..<20_000).map { _ in "true" }.joined(separator: "||"),
    ]

    @Test(
        "a cond nested past the guard limit is refused with LS003, never a crash",
        arguments: ["30,000 !", "70,000 (", "65 ! (", "20,000 &&", "20,000 ||"])
    func deepConditionsAreRefused(_ name: String) throws {
        let cond = try #require(Self.deepConditions[name]).replacingOccurrences(of: "&", with: "&amp;")
        let result = Self.read(
            Array(
                Self.chart("<state id=\"a\"><transition event=\"go\" cond=\"\(cond)\" target=\"a\"/></state>").utf8))
        #expect(result.document == nil)
        #expect(result.diagnostics.map(\.code) == [.inputLimit], "\(result.diagnostics.map(\.message))")
        // The message quotes the condition's start, not all of it.
        #expect(result.diagnostics.allSatisfy { $0.message.count < 400 })
    }

    @Test("a cond at the guard limit reads, and means what it says")
    func conditionsWithinTheLimitRead() throws {
        let cond = String(repeating: "!", count: 64) + "In('b') &amp;&amp; flag || false"
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
            <datamodel><data id="flag" expr="true"/></datamodel>
            <state id="a"><transition event="go" cond="\(cond)" target="b"/></state>
            <state id="b"/>
            </scxml>
            """
        let result = Self.read(Array(text.utf8))
        let document = try #require(result.document, "\(result.diagnostics)")
        #expect(document.transitions.first?.condition?.states == ["b"])
        #expect(document.transitions.first?.condition?.flags == ["flag"])
    }

    @Test("bidirectional overrides and controls in SCXML are removed with LS015, and never printed raw")
    func controlsInSCXMLFollowTheTextPolicy() throws {
        let text = Self.chart(
            """
            <state id="on\u{202E}ffo"><transition event="t\u{2066}ap" target="off"/></state>
            <state id="off"/>
            <state id="c"><transition event="go" cond="In('c') \u{9B}2J &amp;&amp; \u{202E}x" target="c"/></state>
            """)
        let warned = Self.read(Array(text.utf8))
        let raw: (Unicode.Scalar) -> Bool = { [0x1B, 0x9B, 0x202E, 0x2066].contains($0.value) }
        for diagnostic in warned.diagnostics {
            #expect(
                !diagnostic.description.unicodeScalars.contains(where: raw),
                "\(diagnostic.description.debugDescription)")
        }
        #expect(warned.diagnostics.filter { $0.code == .controlCharacters }.count == 3, "\(warned.diagnostics)")
        // Without the unknown flag the chart reads, with the text cleaned everywhere.
        let clean = Self.read(Array(text.replacingOccurrences(of: " &amp;&amp; \u{202E}x", with: "").utf8))
        #expect(clean.diagnostics.contains { $0.code == .unsupportedSCXML })
        let readable = Self.read(Array(text.replacingOccurrences(of: " \u{9B}2J &amp;&amp; \u{202E}x", with: "").utf8))
        let document = try #require(readable.document, "\(readable.diagnostics)")
        #expect(document.states.map(\.id) == ["onffo", "off", "c"])
        #expect(document.eventNames.contains("tap"))
        #expect(readable.diagnostics.allSatisfy { $0.code == .controlCharacters && $0.severity == .warning })
    }

    @Test("an attribute flood or a namespace flood is LS003 before the XML parser reads it")
    func attributeFloodsAreRefused() {
        let attributes = (0..<5_000).map { " a\($0)=\"\($0)\"" }.joined()
        let oneElement = Self.chart("<state id=\"a\"\(attributes)/>")
        // Few per element, many in all.
        let namespaces = Self.chart(
            (0..<400).map { "<state id=\"s\($0)\" xmlns:n\($0)=\"urn:\($0)\"/>" }.joined(separator: "\n"))
        for (name, text, line) in [("attributes", oneElement, 2), ("namespaces", namespaces, 257)] {
            let result = Self.read(Array(text.utf8))
            #expect(result.document == nil, "\(name)")
            #expect(result.diagnostics.map(\.code) == [.inputLimit], "\(name): \(result.diagnostics)")
            #expect(result.diagnostics.first?.location.line == line, "\(name): \(result.diagnostics)")
        }
        // Under both limits the reader goes on to the elements themselves.
        let fine = Self.chart(
            (0..<40).map { "<state id=\"s\($0)\" xmlns:n\($0)=\"urn:\($0)\"/>" }.joined(separator: "\n"))
        #expect(!Self.read(Array(fine.utf8)).diagnostics.contains { $0.code == .inputLimit })
    }

    @Test("thousands of unknown targets in a flat chart are one LS101 each, read in near-linear work (#37)")
    func manyUnknownTargets() throws {
        let count = 6_000
        let text = Self.chart(
            (0..<count).map { "<state id=\"room\($0)\"><transition event=\"go\" target=\"rom\($0)\"/></state>" }
                .joined(separator: "\n"))
        let result = Self.read(Array(text.utf8))
        #expect(result.document == nil)
        let unknown = result.diagnostics.filter { $0.code == .unknownState }
        #expect(unknown.count == count)
        let first = try #require(unknown.first)
        #expect(first.location.line == 2)
        #expect(
            first.message == "target 'rom0' is not a state of this chart; did you mean 'room0'?", "\(first.message)")
    }

    @Test("a large flat or grouped chart loads with every state under its own parent, in document order (#37 break 13)")
    func largeChartsLoadWhole() throws {
        // 100 groups of 80 states (the loader once filtered every state's siblings for each state:
        // quadratic, see the SCXML rows of Benchmarks/run), a history state with its default.
        let groups = (0..<100).map { group in
            let states = (0..<80).map { index in
                let id = group * 80 + index
                return "<state id=\"s\(id)\"><transition event=\"e\(id % 5)\" target=\"s\((id + 1) % 8_000)\"/></state>"
            }
            let history = "<history id=\"h\(group)\"><transition target=\"s\(group * 80 + 79)\"/></history>"
            return "<state id=\"g\(group)\" initial=\"s\(group * 80)\">\(history)\(states.joined())</state>"
        }
        let text = Self.chart(groups.joined(separator: "\n"))
        let result = SpecLoader.load(data: Data(text.utf8), path: "groups.scxml")
        #expect(!result.hasErrors, "\(result.diagnostics.prefix(3))")
        let machine = try #require(result.spec).machine
        #expect(machine.states.count == 100 + 100 + 8_000)
        #expect(machine.state("s4321")?.parent == "g54")
        #expect(machine.state("g7")?.children.first == "h7" && machine.state("g7")?.children.last == "s639")
        // The history's default is its own transition, not another state's.
        let defaults = machine.transitions.filter { $0.sources == ["h7"] }
        #expect(defaults.map(\.targets) == [["s639"]], "\(defaults)")
    }

    @Test("a processing instruction is refused from the raw bytes (an empty one crashed Foundation's parser; fuzzer)")
    func processingInstructionsAreRefused() {
        for text in [
            "<?x?>\n" + Self.chart("<state id=\"a\"/>"),
            Self.chart("<state id=\"a\"><?pi?></state>"),
            "<?xml version=\"1.0\"?>\n" + Self.chart("<?target some data?><state id=\"a\"/>"),
            "\n<?xml version=\"1.0\"?>" + Self.chart("<state id=\"a\"/>"),
        ] {
            let result = Self.read(Array(text.utf8))
            #expect(result.document == nil, "\(text)")
            #expect(result.diagnostics.map(\.code) == [.unsupportedSCXML], "\(result.diagnostics)")
        }
        // The XML declaration first still reads, after a UTF-8 mark too.
        let declared = [0xEF, 0xBB, 0xBF] + Array(("<?xml version=\"1.0\"?>\n" + Self.chart("<state id=\"a\"/>")).utf8)
        #expect(Self.read(declared).document != nil, "\(Self.read(declared).diagnostics)")
    }
}
