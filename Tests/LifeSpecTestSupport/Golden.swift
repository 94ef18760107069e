import Foundation
import Testing

/// The one golden-file check of every test target: compares generated text with the file at
/// `relativePath` (from the package root). `LIFESPEC_RECORD=1` rewrites the golden and fails, so a
/// re-record is never silent; a difference names its first differing line. `whenMissing` says how
/// to make a golden that is not there yet.
public func assertGolden(
    _ text: String, at relativePath: String,
    whenMissing: String = "run with LIFESPEC_RECORD=1 to create it",
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
    let golden = SpecFixtures.url(relativePath)
    if ProcessInfo.processInfo.environment["LIFESPEC_RECORD"] == "1" {
        try FileManager.default.createDirectory(
            at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: golden, atomically: true, encoding: .utf8)
        Issue.record(
            "recorded \(relativePath); unset LIFESPEC_RECORD and run the tests again", sourceLocation: sourceLocation)
        return
    }
    guard let expected = try? String(contentsOf: golden, encoding: .utf8) else {
        Issue.record("missing golden \(relativePath); \(whenMissing)", sourceLocation: sourceLocation)
        return
    }
    guard text != expected else { return }
    let actualLines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let first =
        zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(actualLines.count, expectedLines.count)
    let expectedLine = first < expectedLines.count ? String(expectedLines[first]) : "<end of file>"
    let actualLine = first < actualLines.count ? String(actualLines[first]) : "<end of file>"
    Issue.record(
        "\(relativePath) differs from its golden at line \(first + 1):\n  expected: \(expectedLine.prefix(400))\n  actual:   \(actualLine.prefix(400))\n(LIFESPEC_RECORD=1 re-records)",
        sourceLocation: sourceLocation
    )
}
