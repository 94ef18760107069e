import Foundation
import Testing

/// Compares generated text with the file at `packagePath` (from the package root).
/// `LIFESPEC_RECORD=1` rewrites the file and fails, so a re-record is never silent.
func assertGolden(_ text: String, at packagePath: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let golden = SpecMachines.url(packagePath)
    if ProcessInfo.processInfo.environment["LIFESPEC_RECORD"] == "1" {
        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: golden, atomically: true, encoding: .utf8)
        Issue.record("recorded \(packagePath); unset LIFESPEC_RECORD and run the tests again", sourceLocation: sourceLocation)
        return
    }
    guard let expected = try? String(contentsOf: golden, encoding: .utf8) else {
        Issue.record("missing \(packagePath); run 'swift run lifespec generate' (or the tests with LIFESPEC_RECORD=1) to create it", sourceLocation: sourceLocation)
        return
    }
    guard text != expected else { return }
    let actualLines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let first = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(actualLines.count, expectedLines.count)
    let expectedLine = first < expectedLines.count ? String(expectedLines[first]) : "<end of file>"
    let actualLine = first < actualLines.count ? String(actualLines[first]) : "<end of file>"
    Issue.record(
        "\(packagePath) is stale from line \(first + 1):\n  in file:   \(expectedLine)\n  generated: \(actualLine)\n(regenerate, or LIFESPEC_RECORD=1 re-records)",
        sourceLocation: sourceLocation
    )
}
