import Foundation
import Testing

/// The SwiftPM plugins, used as an app's package uses them: Tests/Fixtures/ConsumerPackage depends on
/// this checkout by path, its test target compiles a suite with the LifeSpecSuites build-tool plugin,
/// and `swift package lifespec generate|check` writes and checks its Output/.
///
/// This builds a second package (this one's library and tool again, in debug): about 4 minutes from
/// nothing on 2 busy cores, 20 s when the scratch folder is warm. So it is one test, every step on one
/// copy of the package with one scratch folder (`.build/plugin-consumer/scratch`, kept between runs).
@Suite struct PluginTests {
    static let work = CLI.packageRoot.appendingPathComponent(".build/plugin-consumer")
    static let scratch = work.appendingPathComponent("scratch")
    static let package = work.appendingPathComponent("package")

    /// `swift …` in the copied package, with the shared scratch folder. LIFESPEC_OPTIMIZE is cleared:
    /// the consumer builds LifeSpec as a user's package does, without the tests' optimized libraries.
    static func swift(_ arguments: [String]) throws -> CLIResult {
        let (command, rest) = (arguments[0], Array(arguments.dropFirst()))
        return try CLI.runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["swift", command, "--scratch-path", scratch.path] + rest,
            in: package, environment: ["LIFESPEC_PACKAGE": CLI.packageRoot.path, "LIFESPEC_OPTIMIZE": ""]
        )
    }

    static func log(_ result: CLIResult) -> String { "exit \(result.status)\n\(result.stdout)\n\(result.stderr)" }

    @Test(
        "Consumer package: the build-tool plugin's suite runs against the engine; the command plugin writes and checks Output/",
        .timeLimit(.minutes(30)))
    func consumerPackage() throws {
        let files = FileManager.default
        try? files.removeItem(at: Self.package)
        try files.createDirectory(at: Self.work, withIntermediateDirectories: true)
        try files.copyItem(at: CLI.fixtures.appendingPathComponent("ConsumerPackage"), to: Self.package)
        try? files.removeItem(at: Self.package.appendingPathComponent(".build"))
        let door = Self.package.appendingPathComponent("Tests/DoorTests/door.yaml")

        // Build-tool plugin: the suite generated from door.yaml compiles and passes against the engine.
        var result = try Self.swift(["test"])
        #expect(result.status == 0, "\(Self.log(result))")
        #expect(result.stdout.contains("Suite \"Conformance: A door with a lock\" passed"), "\(Self.log(result))")
        #expect(result.stdout.contains("Test \"Scenario: Walk through and lock up\" passed"), "\(Self.log(result))")

        // A spec change reaches the next build without a manual step…
        let original = try String(contentsOf: door, encoding: .utf8)
        let lockUnlock = """
              - id: lockUnlock
                title: Lock and unlock
                events: [turnKey, turnKey]
                expect: []
                end: closed

            """
        try (original + lockUnlock).write(to: door, atomically: true, encoding: .utf8)
        result = try Self.swift(["test"])
        #expect(result.status == 0, "\(Self.log(result))")
        #expect(result.stdout.contains("Test \"Scenario: Lock and unlock\" passed"), "\(Self.log(result))")

        // …and a spec with errors fails the build with lifespec's diagnostic, located in the spec.
        try original.replacingOccurrences(of: "end: locked", with: "end: open").write(
            to: door, atomically: true, encoding: .utf8)
        result = try Self.swift(["build", "--build-tests"])
        #expect(result.status != 0, "\(Self.log(result))")
        #expect((result.stdout + result.stderr).contains("door.yaml:"), "\(Self.log(result))")
        #expect((result.stdout + result.stderr).contains("[LS160]"), "\(Self.log(result))")
        try original.write(to: door, atomically: true, encoding: .utf8)

        // Command plugin: generate writes Output/ from Spec/ (and no suites: the build-tool plugin makes them)…
        let write = "--allow-writing-to-package-directory"
        result = try Self.swift(["package", write, "lifespec", "generate"])
        #expect(result.status == 0, "\(Self.log(result))")
        let output = Self.package.appendingPathComponent("Output")
        for file in [
            "README.md", "turnstile/README.md", "turnstile/diagram.svg", "turnstile/diagram.mmd",
            "turnstile/diagram.png",
            "turnstile/scenarios/payAndPass.svg",
        ] {
            #expect(files.fileExists(atPath: output.appendingPathComponent(file).path), "Output/\(file) missing")
        }
        let page = try String(contentsOf: output.appendingPathComponent("turnstile/README.md"), encoding: .utf8)
        #expect(page.contains("# A coin-operated turnstile"))
        #expect(!files.fileExists(atPath: Self.package.appendingPathComponent("Tests/GeneratedConformanceTests").path))

        // …check passes on it, and fails naming every stale or missing file once it is edited.
        result = try Self.swift(["package", write, "lifespec", "check"])
        #expect(result.status == 0, "\(Self.log(result))")
        // The count follows what generate writes (pages, drawings, their digests); the edits below give the check its teeth.
        #expect(result.stdout.contains("Output/ is up to date ("), "\(Self.log(result))")
        try (page + "edited by hand\n").write(
            to: output.appendingPathComponent("turnstile/README.md"), atomically: true, encoding: .utf8)
        try files.removeItem(at: output.appendingPathComponent("turnstile/diagram.png"))
        result = try Self.swift(["package", write, "lifespec", "check"])
        #expect(result.status != 0, "\(Self.log(result))")
        // SwiftPM passes on what lifespec prints, on either stream.
        #expect((result.stdout + result.stderr).contains("stale:   Output/turnstile/README.md"), "\(Self.log(result))")
        #expect(
            (result.stdout + result.stderr).contains("missing: Output/turnstile/diagram.png"), "\(Self.log(result))")

        // Paths given are passed on; a verb the plugin does not know is refused with its usage.
        result = try Self.swift(["package", write, "lifespec", "generate", "Spec/turnstile.yaml", "--suites", "Suites"])
        #expect(result.status == 0, "\(Self.log(result))")
        #expect(
            files.fileExists(
                atPath: Self.package.appendingPathComponent("Suites/TurnstileConformanceTests.swift").path),
            "\(Self.log(result))")
        result = try Self.swift(["package", write, "lifespec", "publish"])
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("unknown verb 'publish'"), "\(Self.log(result))")
    }
}
