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
    try assertGolden(text, at: relativePath, sourceLocation: sourceLocation)
}
