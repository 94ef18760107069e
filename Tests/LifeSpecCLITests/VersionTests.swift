import Foundation
import Testing

/// `lifespec --version` comes from one place (LifeSpecVersion) and the README's installation section
/// names the same version.
@Suite("Version")
struct VersionTests {
    @Test("--version matches the README's install lines")
    func versionMatchesReadme() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        let version = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." },
            "not a version: \(version)")

        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // Every versioned install line: the Mint line, the release tag, the dependency, the --version output.
        let mentions = readme.split(separator: "\n").filter {
            $0.contains("LifeSpec@") || $0.contains("--version") || $0.contains("from: \"")
                || $0.contains("git checkout")
        }
        #expect(mentions.count >= 4, "the README's installation section is missing its versioned lines")
        let found = readme.matches(of: /(?:LifeSpec@|from: "|checkout |--version` prints `)(\d+\.\d+\.\d+)/).map {
            String($0.output.1)
        }
        #expect(
            found.count >= 4, "expected the checkout, Mint, dependency and --version lines to name a version: \(found)")
        for other in found { #expect(other == version, "README names \(other), lifespec --version prints \(version)") }
    }
}
