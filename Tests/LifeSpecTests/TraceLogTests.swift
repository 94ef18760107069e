import Foundation
import LifeSpec
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
