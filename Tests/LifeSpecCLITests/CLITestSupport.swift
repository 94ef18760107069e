import Foundation
import LifeSpecTestSupport
import Testing

typealias CLIResult = ProcessResult

/// Runs the real `lifespec` executable, as a user would, and captures what it prints.
enum CLI {
    static let packageRoot = SpecFixtures.packageRoot

    static var fixtures: URL { packageRoot.appendingPathComponent("Tests/Fixtures") }

    /// The executable sits beside the test bundle in the build folder.
    static var executable: URL { built("lifespec") }

    /// `lifespec` with the output transaction's test probe (Tests/LifeSpecTestHost), for tests
    /// that stop a run inside a chosen step.
    static var testHost: URL { built("lifespec-test-host") }

    static func built(_ name: String) -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent(name)
    }

    @discardableResult
    static func run(_ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:]) throws
        -> CLIResult
    {
        try Subprocess.run(executable, arguments, in: directory, environment: environment)
    }

    /// Runs any program (`environment` is added to this process's own) and captures its output.
    static func runProcess(
        _ program: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) throws -> CLIResult {
        try Subprocess.run(program, arguments, in: directory, environment: environment)
    }

    /// A scratch copy of the project's specs in a fresh temporary folder.
    static func scratchProject() throws -> URL {
        let folder = try Scratch.folder("lifespec-cli")
        try FileManager.default.copyItem(
            at: packageRoot.appendingPathComponent("Spec"), to: folder.appendingPathComponent("Spec"))
        return folder
    }
}
