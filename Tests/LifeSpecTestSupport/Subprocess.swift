import Foundation
import Testing

/// What a finished program printed.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    public let stdoutBytes: Data
}

public enum Subprocess {
    /// Runs a program to its end (`environment` is added to this process's own) and captures its output.
    public static func run(
        _ program: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain stderr on another thread while reading stdout, so a large output cannot block it.
        let errorBox = Guarded(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errorBox.withLock { $0 = data }
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errorBox.withLock { $0 }, as: UTF8.self), stdoutBytes: outData)
    }
}

/// A program running alongside the test, whose output (one stream, or standard output and error
/// together) the test waits on: a wait returns as soon as the text appears, and records a failure
/// when it does not appear in time or the program ends without it.
public final class WatchedProcess: @unchecked Sendable {
    public let process = Process()
    private let condition = NSCondition()
    private var output = ""
    private var ended = false

    /// Starts `program`, watching standard output, standard error or both.
    public init(
        _ program: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        watching stream: Stream = .both
    ) throws {
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let pipe = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stream == .standardError ? FileHandle.nullDevice : pipe
        process.standardError = stream == .standardOutput ? FileHandle.nullDevice : pipe
        try process.run()
        let reader = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = reader.availableData
                condition.lock()
                if chunk.isEmpty { ended = true } else { output += String(decoding: chunk, as: UTF8.self) }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    public enum Stream: Sendable { case standardOutput, standardError, both }

    /// Everything read so far.
    public var log: String {
        condition.lock()
        defer { condition.unlock() }
        return output
    }

    /// Waits until `text` has appeared `count` times in the output. Records a failure (and returns
    /// false) after `timeout` seconds, or when the program closed its output without it (unless
    /// `endingIsFailure` is false: then it only returns false).
    @discardableResult
    public func wait(
        for text: String, count: Int = 1, timeout: TimeInterval = 120, endingIsFailure: Bool = true,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while output.components(separatedBy: text).count - 1 < count {
            if ended {
                guard endingIsFailure else { return false }
                Issue.record(
                    "the program ended before printing '\(text)' (\(count)×); it printed:\n\(output.suffix(2000))",
                    sourceLocation: sourceLocation)
                return false
            }
            if !condition.wait(until: deadline) {
                Issue.record(
                    "'\(text)' (\(count)×) did not appear within \(timeout) s; the program printed:\n\(output.suffix(2000))",
                    sourceLocation: sourceLocation)
                return false
            }
        }
        return true
    }

    /// Waits for the program to end and for its output to be read to the end.
    public func waitUntilExit() {
        process.waitUntilExit()
        condition.lock()
        while !ended { condition.wait() }
        condition.unlock()
    }
}

/// A value shared between a test and the threads it starts.
public final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    public init(_ value: Value) { self.value = value }
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
