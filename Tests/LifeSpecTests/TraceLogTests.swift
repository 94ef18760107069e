import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

@Suite("Trace logs: the name on each line")
struct TraceLogLineTests {
    @Test(arguments: [
        ("applicationDidBecomeActive(_:)", "applicationDidBecomeActive(_:)"),
        ("  \tviewDidLoad\r", "viewDidLoad"),
        ("12:00:01.234 viewDidLoad", "viewDidLoad"),
        // A name runs to the end of the line: Swift names of KVO observations have spaces.
        ("2026-11-21T10:00:00Z [0.5] +0.5s viewDidLoad extra words", "viewDidLoad extra words"),
        ("0.25 observe(\\.status) readyToPlay  \t", "observe(\\.status) readyToPlay"),
        ("0.25 status changed 2 times # note", "status changed 2 times"),
        ("viewDidLoad # a comment", "viewDidLoad"),
        ("viewDidLoad#comment", "viewDidLoad"),
        // A timestamp-looking token is the name when nothing follows it.
        ("[0.1] 42", "42"),
        ("+1s", "+1s"),
        ("0.1 # 0.2 viewDidLoad", "0.1"),
        ("é viewDidLoad", "é viewDidLoad"),
    ])
    func nameRunsFromAfterTheTimestampsToTheEndOfTheLine(_ line: String, _ name: String) {
        #expect(TraceVocabulary.name(onLine: Substring(line)) == Substring(name))
    }

    @Test(arguments: ["", "   \t", "# only a comment", "  # indented comment"])
    func blankAndCommentLinesHaveNoName(_ line: String) {
        #expect(TraceVocabulary.name(onLine: Substring(line)) == nil)
    }

    /// Error messages give the name's column in characters, from its position in the line (a
    /// no-break space is two bytes and not a separator).
    @Test func theNameIsASliceOfTheLine() throws {
        let line = "[0.001]\u{00A0}x  applicationDidBecomeActive(_:)"
        let name = try #require(TraceVocabulary.name(onLine: Substring(line)))
        #expect(name == "applicationDidBecomeActive(_:)")
        #expect(line.distance(from: line.startIndex, to: name.startIndex) == 11)
    }

    @Test func aLineInsideALargerStringKeepsItsPosition() throws {
        let text = "first line\n  0.5 second(_:) # done\n"
        let lines = text.split(separator: "\n")
        let name = try #require(TraceVocabulary.name(onLine: lines[1]))
        #expect(name == "second(_:)")
        #expect(text.distance(from: text.startIndex, to: name.startIndex) == 17)
    }
}

@Suite("Trace line reader: bounded, any line ending, regular files only")
struct LineReaderHardeningTests {
    private func file(_ bytes: [UInt8]) throws -> String {
        let path = Scratch.url("lifespec-trace").appendingPathExtension("log").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func lines(_ path: String) throws -> [String] {
        var reader = try LineReader.open(path)
        var result: [String] = []
        while let line = try reader.nextLine() { result.append(line) }
        return result
    }

    @Test("LF, CR and CRLF end lines alike, also where a line ending straddles a read")
    func lineEndings() throws {
        for ending in ["\n", "\r", "\r\n"] {
            let text = ["first", "", "third"].map { $0 + ending }.joined()
            #expect(try lines(file(Array(text.utf8))) == ["first", "", "third"], "\(ending.debugDescription)")
        }
        // A CRLF split by the 64 KiB read: CR is the last byte of one read, LF the first of the next.
        let long = String(repeating: "x", count: 65_535)
        #expect(try lines(file(Array((long + "\r\nnext\r").utf8))) == [long, "next"])
        #expect(try lines(file(Array("no ending".utf8))) == ["no ending"])
    }

    @Test("a line past the limit is an error at its line, in bounded memory, whatever follows")
    func overlongLine() throws {
        let limit = LineReader.maximumLineLength
        #expect(try lines(file(Array((String(repeating: "a", count: limit) + "\nb\n").utf8))).count == 2)
        for tail in ["", "\n", "\r"] {
            let path = try file(Array(("ok\r\nok\n" + String(repeating: "a", count: limit * 3 + 7) + tail).utf8))
            var reader = try LineReader.open(path)
            #expect(try reader.nextLine() == "ok")
            #expect(try reader.nextLine() == "ok")
            #expect {
                _ = try reader.nextLine()
            } throws: { error in
                (error as? TraceInputError).map {
                    $0.location.line == 3 && $0.description.contains("[LS001]") && $0.message.contains("\(limit) bytes")
                } ?? false
            }
            #expect(reader.next() == nil && reader.error != nil)
        }
    }

    @Test("a folder, a device and a FIFO are refused before they are opened")
    func notRegularFiles() throws {
        let fifo = Scratch.url("lifespec-fifo")
            .path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(NSTemporaryDirectory(), "a folder"), ("/dev/zero", "a device"), (fifo, "a FIFO")] {
            #expect {
                _ = try LineReader.open(path)
            } throws: { error in
                (error as? TraceInputError).map { $0.message.contains(kind) && $0.location.line == 1 } ?? false
            }
            #expect(LineReader(path: path) == nil)
        }
        #expect(throws: TraceInputError.self) { _ = try LineReader.open("/nonexistent/trace.log") }
    }

    @Test("log text shown on a terminal has its controls, bidi overrides and separators escaped, and is cut when huge")
    func shownText() {
        #expect(TraceText.shown("\u{1B}[2Jevil\u{0}x\u{202E}y\u{2028}") == "\\u{1B}[2Jevil\\u{0}x\\u{202E}y\\u{2028}")
        #expect(TraceText.shown("viewDidLoad()") == "viewDidLoad()")
        #expect(
            TraceText.shown(Substring(String(repeating: "a", count: 10_000))).count == TraceText.maximumShownLength + 1)
    }
}

@Suite("Trace logs: Swift names two callbacks share")
struct SharedSwiftNameTraceTests {
    /// WKNavigationDelegate's two `webView(_:decidePolicyFor:decisionHandler:)`, action then response.
    static let spec = """
        lifespec: 1
        id: web-navigation
        states:
          idle:
          decidingAction:
          loading:
          decidingResponse:
        initial: idle
        events:
          load: {kind: user}
          allow: {kind: system}
          respond: {kind: system}
          finish: {kind: system}
        callbacks:
          decideAction:
            swift: "webView(_:decidePolicyFor:decisionHandler:)"
            objc: "webView:decidePolicyForNavigationAction:decisionHandler:"
          didStart: {swift: "webView(_:didStartProvisionalNavigation:)"}
          decideResponse:
            swift: "webView(_:decidePolicyFor:decisionHandler:)"
            objc: "webView:decidePolicyForNavigationResponse:decisionHandler:"
          didFinish: {swift: "webView(_:didFinish:)"}
        transitions:
          - {from: idle, on: load, to: decidingAction, do: decideAction}
          - {from: decidingAction, on: allow, to: loading, do: didStart}
          - {from: loading, on: respond, to: decidingResponse, do: decideResponse}
          - {from: decidingResponse, on: finish, to: idle, do: didFinish}

        """

    static let decide = "webView(_:decidePolicyFor:decisionHandler:)"

    func judge(_ lines: [String]) throws -> TraceCheck.Outcome {
        let loaded = SpecLoader.load(text: Self.spec, path: "web-navigation.yaml")
        let machine = try #require(loaded.spec?.machine, "\(loaded.diagnostics)")
        let path = Scratch.url("lifespec-shared").appendingPathExtension("log").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return try TraceCheck(machine: machine, from: nil, fixedFlags: [:], observe: []).judge(path)
    }

    @Test func validateWarnsAtTheSecondNameSayingWhichItShares() throws {
        let loaded = SpecLoader.load(text: Self.spec, path: "web-navigation.yaml")
        let shared = loaded.diagnostics.filter { $0.code == .sharedName }
        #expect(shared.count == 1, "\(loaded.diagnostics)")
        #expect(shared.first?.severity == .warning)
        #expect(shared.first?.location.line == 20)
        #expect(
            shared.first?.message
                == "callback 'decideResponse' has the Swift name '\(Self.decide)' of callback 'decideAction'")
    }

    @Test func aLogOfTheSharedNameConformsAndTwoLinesSwappedDoNot() throws {
        let log = [Self.decide, "webView(_:didStartProvisionalNavigation:)", Self.decide, "webView(_:didFinish:)"]
        guard case .conforms = try judge(log) else {
            Issue.record("\(try judge(log))")
            return
        }
        let swapped = [Self.decide, Self.decide, "webView(_:didStartProvisionalNavigation:)", "webView(_:didFinish:)"]
        guard case .fails(let message) = try judge(swapped) else {
            Issue.record("the swapped log conforms")
            return
        }
        #expect(message.contains(".log:2:1: error:"), "\(message)")
        #expect(message.contains("the spec allows next: webView(_:didStartProvisionalNavigation:)\n"), "\(message)")
    }

    @Test func theSelectorOrIdTellsThemApartAndTheMessageNeverContradictsItself() throws {
        let byID = ["decideAction", "webView(_:didStartProvisionalNavigation:)", "decideResponse"]
        guard case .conforms = try judge(byID) else {
            Issue.record("\(try judge(byID))")
            return
        }
        let response = "webView:decidePolicyForNavigationResponse:decisionHandler:"
        guard case .fails(let message) = try judge([response]) else {
            Issue.record("the response's selector conforms where only the action's is allowed")
            return
        }
        #expect(
            message.contains(
                "the spec does not allow \(Self.decide) (\(response)) here\n"), "\(message)")
        #expect(
            message.contains(
                "the spec allows next: \(Self.decide) (webView:decidePolicyForNavigationAction:decisionHandler:)\n"),
            "\(message)")
    }
}
