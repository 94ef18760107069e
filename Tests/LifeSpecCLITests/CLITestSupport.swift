import Foundation
import Testing

/// Runs the real `lifespec` executable, as a user would, and captures what it prints.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
    let stdoutBytes: Data
}

enum CLI {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var fixtures: URL { packageRoot.appendingPathComponent("Tests/Fixtures") }

    /// The executable sits beside the test bundle in the build folder.
    static var executable: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("lifespec").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("lifespec")
    }

    @discardableResult
    static func run(_ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:]) throws -> CLIResult {
        try runProcess(executable, arguments, in: directory, environment: environment)
    }

    /// Runs any program (`environment` is added to this process's own) and captures its output.
    static func runProcess(_ program: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> CLIResult {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain stderr on another thread while reading stdout, so a large output cannot block it.
        let errorBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorBox.set(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        let errData = errorBox.get()
        return CLIResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: outData)
    }

    /// A scratch copy of the project's specs in a fresh temporary folder.
    static func scratchProject() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lifespec-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Spec"), to: folder.appendingPathComponent("Spec"))
        return folder
    }
}

private final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
