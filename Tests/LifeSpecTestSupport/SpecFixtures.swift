import Foundation
import LifeSpec

/// The package's files, found from this file (no bundles), and specs loaded from them for tests.
public enum SpecFixtures {
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // LifeSpecTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// A package-relative path as a URL (an absolute path is taken as it is).
    public static func url(_ relativePath: String) -> URL {
        relativePath.hasPrefix("/")
            ? URL(fileURLWithPath: relativePath) : packageRoot.appendingPathComponent(relativePath)
    }

    /// Loads a spec by its package-relative path, so generated files and diagnostics name that path.
    public static func load(_ relativePath: String) throws -> LoadedSpec {
        let text = try String(contentsOf: url(relativePath), encoding: .utf8)
        return try load(yaml: text, path: relativePath)
    }

    /// Loads spec text as if it were the file at `path`; a spec with errors throws them.
    public static func load(yaml: String, path: String = "Spec/inline.yaml") throws -> LoadedSpec {
        let result = SpecLoader.load(text: yaml, path: path)
        guard let spec = result.spec else {
            throw FixtureError(
                description: "\(path) does not load:\n" + result.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return spec
    }

    public struct FixtureError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }
}

/// Specs the render and generate tests share.
extension SpecFixtures {
    public static var appLifecycle: LoadedSpec { get throws { try load("Tests/Fixtures/Diagram/app-lifecycle.yaml") } }
    public static var hostile: LoadedSpec { get throws { try load("Tests/Fixtures/Diagram/hostile-labels.yaml") } }
    public static var flagship: LoadedSpec { get throws { try load("Spec/ios-app-lifecycle.yaml") } }
}
