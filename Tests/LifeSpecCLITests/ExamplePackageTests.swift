import Foundation
import LifeSpecTestSupport
import Testing

/// `Examples/MediaPlayer`, the package docs/spec-format.md points a reader at, stays correct without
/// building a second package in CI: its manifest names the LifeSpec product it needs, its generated
/// suite is what `lifespec tests` writes today, and its sources and tests compile against the
/// `LifecycleEngine` module this build just made (with Swift 6's checks).
@Suite("the example package")
struct ExamplePackageTests {
    static let example = CLI.packageRoot.appendingPathComponent("Examples/MediaPlayer")
    static let spec = "docs/examples/media-player.yaml"

    @Test func theExampleSpecIsCleanAndItsGeneratedSuiteIsFresh() throws {
        let validate = try CLI.run(["validate", Self.spec])
        #expect(validate.stdout == "1 spec checked: 0 errors, 0 warnings\n", "\(validate.stdout)")
        let suite = try CLI.run(["tests", Self.spec])
        #expect(suite.status == 0, "\(suite.stderr)")
        let committed = try String(
            contentsOf: Self.example.appendingPathComponent("Tests/MediaPlayerTests/MediaPlayerConformanceTests.swift"),
            encoding: .utf8)
        #expect(
            suite.stdout == committed,
            "regenerate it: lifespec tests \(Self.spec) -o Examples/MediaPlayer/Tests/MediaPlayerTests/MediaPlayerConformanceTests.swift"
        )
    }

    /// The spec of the reference's "ten minutes" section, as a reader would copy it.
    @Test func theReferencesFirstSpecIsValidAsPrinted() throws {
        let reference = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("docs/spec-format.md"), encoding: .utf8)
        let blocks = reference.components(separatedBy: "```yaml\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
        let spec = try #require(blocks.first { $0.contains("lifespec: 1") })
        let folder = try Scratch.folder("lifespec-doc")
        let file = folder.appendingPathComponent("door.yaml")
        try spec.write(to: file, atomically: true, encoding: .utf8)
        let validate = try CLI.run(["validate", file.path])
        #expect(validate.stdout == "1 spec checked: 0 errors, 0 warnings\n", "\(validate.stdout)")
        #expect(try CLI.run(["simulate", file.path, "lock", "unlock", "open"]).stdout.hasSuffix("final state: open\n"))
    }

    @Test func theManifestDependsOnTheEngineProductByPath() throws {
        let result = try Self.run(
            "/usr/bin/env", ["swift", "package", "dump-package", "--package-path", Self.example.path])
        #expect(result.status == 0, "\(result.output)")
        // SwiftPM resolves the path: it must be this checkout, whatever its folder is called.
        #expect(
            result.output.contains("\"path\" : \"\(CLI.packageRoot.standardizedFileURL.path)\""), "\(result.output)")
        #expect(result.output.contains("\"LifecycleEngine\""))
    }

    @Test func theSourcesAndTestsCompileAgainstThisBuildsEngine() throws {
        let modules = CLI.executable.deletingLastPathComponent().appendingPathComponent("Modules")
        #expect(
            FileManager.default.fileExists(atPath: modules.appendingPathComponent("LifecycleEngine.swiftmodule").path))
        let scratch = try Scratch.folder("lifespec-example")
        defer { try? FileManager.default.removeItem(at: scratch) }
        func swiftFiles(_ folder: String) throws -> [String] {
            let url = Self.example.appendingPathComponent(folder)
            return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".swift") }
                .sorted()
                .map { url.appendingPathComponent($0).path }
        }
        let library = try Self.run(
            "/usr/bin/env",
            [
                "swiftc", "-emit-module", "-module-name", "MediaPlayer", "-swift-version", "6",
                "-emit-module-path", scratch.appendingPathComponent("MediaPlayer.swiftmodule").path,
            ]
                + swiftFiles("Sources/MediaPlayer"))
        #expect(library.status == 0, "\(library.output)")
        let tests = try Self.run(
            "/usr/bin/env",
            ["swiftc", "-typecheck", "-swift-version", "6", "-I", scratch.path, "-I", modules.path]
                + swiftFiles("Tests/MediaPlayerTests"))
        #expect(tests.status == 0, "\(tests.output)")
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
