import ArgumentParser
import Foundation
import LifeSpec

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Regenerate Output/ whenever a spec in Spec/ changes (polling); Ctrl-C stops.",
        discussion: "An invalid save prints its diagnostics and the watch goes on; Output/ is left as it was."
    )

    @Option(name: .shortAndLong, help: "The output directory.")
    var output = "Output"

    @Option(help: "Seconds between polls.")
    var interval: Double = 0.5

    @Option(help: .hidden)
    var maxPasses: Int?

    func validate() throws {
        guard interval >= 0.05 else { throw ValidationError("--interval must be at least 0.05 seconds") }
    }

    func run() throws {
        var lastSnapshot: [String: Date]?
        var passes = 0
        let events = FolderEvents(folder: "Spec")
        StandardStreams.out("watching Spec/ (Ctrl-C to stop)\n")
        while maxPasses.map({ passes < $0 }) ?? true {
            let snapshot = Self.snapshot()
            if snapshot != lastSnapshot {
                passes += 1
                if let lastSnapshot {
                    let changed = Set(snapshot.keys).union(lastSnapshot.keys).filter { snapshot[$0] != lastSnapshot[$0] }.sorted()
                    StandardStreams.out("changed: \(changed.joined(separator: ", "))\n")
                }
                lastSnapshot = snapshot
                do {
                    let outcome = try GenerationRun(specs: [], output: output, suites: GenerationRun.defaultSuites, check: false).perform()
                    if !outcome.diagnostics.isEmpty { StandardStreams.out(DiagnosticPrinter.text(outcome.diagnostics)) }
                    if let report = outcome.report { StandardStreams.out(GenerationRun.describe(report)) }
                } catch let error as ValidationError {
                    StandardStreams.out("error: \(error.message)\n")
                }
            }
            // Woken as soon as a spec is saved (polling stays as the fallback and for other systems).
            if let events { events.wait(timeout: interval) } else { Thread.sleep(forTimeInterval: interval) }
        }
    }

    static func snapshot() -> [String: Date] {
        let manager = FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: "Spec")) ?? []
        var result: [String: Date] = [:]
        for name in names where SpecFiles.extensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()) {
            let path = "Spec/\(name)"
            let attributes = try? manager.attributesOfItem(atPath: path)
            result[path] = (attributes?[.modificationDate] as? Date) ?? .distantPast
        }
        return result
    }
}

/// Tells the watch when a file in a folder was written, renamed into place or removed (inotify),
/// so a save is answered in the time the changed outputs take rather than up to a poll interval
/// later. Not on systems without inotify: there the watch polls.
final class FolderEvents {
    #if canImport(Glibc)
    private let descriptor: Int32

    init?(folder: String) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        // Written and closed, or moved into place (how editors save); not on creation, when the
        // file may still be empty.
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }

    /// Returns when an event arrives or after `timeout` seconds, having read every pending event.
    func wait(timeout: Double) {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&request, 1, Int32(timeout * 1000))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }
    #else
    init?(folder: String) { return nil }
    func wait(timeout: Double) {}
    #endif
}
