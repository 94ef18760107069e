import Foundation
import LifeSpec
import LifeSpecRender
import LifecycleEngine
import Testing

/// Fixtures and goldens for the Swift suite tests.
enum SwiftSuiteFixtures {
    /// The package root, found from this file (no bundles).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ relativePath: String) -> URL { packageRoot.appendingPathComponent(relativePath) }

    /// Loads a spec by its package-relative path, so generated files name that relative path.
    static func load(_ relativePath: String) throws -> LoadedSpec {
        let text = try String(contentsOf: url(relativePath), encoding: .utf8)
        return try load(yaml: text, path: relativePath)
    }

    static func load(yaml: String, path: String = "Spec/inline.yaml") throws -> LoadedSpec {
        let result = SpecLoader.load(text: yaml, path: path)
        guard let spec = result.spec else {
            throw FixtureError(message: "\(path) does not load:\n" + result.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return spec
    }

    struct FixtureError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// Compares generated text with the file at `relativePath` (from the package root).
/// `LIFESPEC_RECORD=1` rewrites the golden and fails, so a re-record is never silent.
func assertSwiftSuiteGolden(_ text: String, at relativePath: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let golden = SwiftSuiteFixtures.url(relativePath)
    if ProcessInfo.processInfo.environment["LIFESPEC_RECORD"] == "1" {
        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: golden, atomically: true, encoding: .utf8)
        Issue.record("recorded \(relativePath); unset LIFESPEC_RECORD and run the tests again", sourceLocation: sourceLocation)
        return
    }
    guard let expected = try? String(contentsOf: golden, encoding: .utf8) else {
        Issue.record("missing golden \(relativePath); run with LIFESPEC_RECORD=1 to create it", sourceLocation: sourceLocation)
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
        "\(relativePath) differs from the generated text at line \(first + 1):\n  expected: \(expectedLine)\n  actual:   \(actualLine)\n(LIFESPEC_RECORD=1 re-records)",
        sourceLocation: sourceLocation
    )
}
