import ArgumentParser
import Foundation
import LifeSpec
import LifeSpecRender

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Regenerate whenever a watched spec changes (polling); Ctrl-C stops.",
        discussion: """
            Watches the specs named (and the part files and related specs they use), or every spec in \
            Spec/ (files added or removed there count as changes). A save loads and generates again \
            only the specs it changed: the spec saved, and every system that uses it as a part. An \
            invalid save prints its diagnostics and the watch goes on; the output is left as it was.
            """
    )

    @Argument(help: "Spec files to watch (default: every spec in Spec/).")
    var specs: [String] = []

    @OptionGroup var destination: OutputFolders

    @Option(help: "Seconds between polls.")
    var interval: Double = 0.5

    @Option(help: .hidden)
    var maxPasses: Int?

    func validate() throws {
        guard interval >= 0.05 else { throw ValidationError("--interval must be at least 0.05 seconds") }
        // Nothing to watch is a usage error up front, not a message on every poll.
        if specs.isEmpty {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: "Spec", isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ValidationError(
                    "nothing to watch: no spec given and no 'Spec/' folder here; name the specs: lifespec watch SPEC…")
            }
        }
        for spec in specs where FileProblem.isMissing(spec) {
            throw missingFile(spec, what: "spec file")
        }
    }

    func run() throws {
        var lastSnapshot: [String: FileStamp]?
        var passes = 0
        // The specs loaded by the passes before: a pass loads only what changed.
        let cache = SpecCache()
        // Named specs bring the files they use (parts, related specs) into the watch.
        var used: Set<String> = []
        // One folder to wake on (polling covers several, and other systems).
        let folders = Set(
            specs.isEmpty ? ["Spec"] : specs.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
        let events = folders.count == 1 ? FolderEvents(folder: folders.first!) : nil
        StandardStreams.out("watching \(specs.isEmpty ? "Spec/" : specs.joined(separator: ", ")) (Ctrl-C to stop)\n")
        while maxPasses.map({ passes < $0 }) ?? true {
            let snapshot = Self.snapshot(specs.isEmpty ? [] : specs + used.subtracting(specs).sorted())
            if snapshot != lastSnapshot {
                passes += 1
                if let lastSnapshot {
                    let changed = Set(snapshot.keys).union(lastSnapshot.keys).filter {
                        snapshot[$0] != lastSnapshot[$0]
                    }.sorted()
                    StandardStreams.out("changed: \(changed.joined(separator: ", "))\n")
                }
                lastSnapshot = snapshot
                // The files beside the named specs as the pass begins: a file the pass uses for the
                // first time is watched from this state, so a save made while the pass runs (or
                // right after it prints) is still a change the next look sees.
                let besideBefore =
                    specs.isEmpty
                    ? [:] : Self.snapshot(SpecRelations.siblings(of: specs, extensions: SpecFiles.extensions))
                do {
                    var run = GenerationRun(
                        specs: specs, output: destination.output, suites: destination.suites, check: false,
                        toolVersion: LifeSpecVersion.current)
                    run.cache = cache
                    defer {
                        if !specs.isEmpty {
                            // Files this pass used for the first time are watched from their state
                            // before it (those beside the specs) or now (any other).
                            used = cache.usedPaths
                            let new = used.subtracting(lastSnapshot?.keys.map { $0 } ?? [])
                            var added = besideBefore.filter { new.contains($0.key) }
                            added.merge(Self.snapshot(new.filter { added[$0] == nil }.sorted())) { old, _ in old }
                            lastSnapshot?.merge(added) { old, _ in old }
                        }
                    }
                    let outcome = try run.performInCommand()
                    if !outcome.diagnostics.isEmpty { StandardStreams.out(DiagnosticPrinter.text(outcome.diagnostics)) }
                    if let report = outcome.report {
                        StandardStreams.out(GenerationRun.describe(report))
                    } else {
                        StandardStreams.out("nothing was generated: fix the errors above; watching for the next save\n")
                    }
                } catch let error as ValidationError {
                    StandardStreams.out("error: \(error.message)\n")
                } catch is ExitCode {
                    // The pass printed its own error (an unwritable output folder); keep watching.
                }
            }
            // Woken as soon as a spec is saved (polling stays as the fallback and for other systems).
            if let events { events.wait(timeout: interval) } else { Thread.sleep(forTimeInterval: interval) }
        }
    }

    /// What tells a saved spec from the one before: its modification time, size and inode. Size
    /// and inode catch a save within the file system's timestamp resolution (a second on some),
    /// and editors that save by renaming a new file into place always change the inode.
    struct FileStamp: Equatable {
        let modified: Date
        let size: UInt64
        let inode: UInt64
    }

    /// The watched specs' stamps (a deleted one reads as absent).
    static func snapshot(_ specs: [String]) -> [String: FileStamp] {
        let manager = FileManager.default
        let paths =
            specs.isEmpty
            ? ((try? manager.contentsOfDirectory(atPath: "Spec")) ?? [])
                .filter { SpecFiles.extensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
                .map { "Spec/\($0)" }
            : specs
        var result: [String: FileStamp] = [:]
        for path in paths {
            guard let attributes = try? manager.attributesOfItem(atPath: path) else { continue }
            result[path] = FileStamp(
                modified: (attributes[.modificationDate] as? Date) ?? .distantPast,
                size: (attributes[.size] as? NSNumber)?.uint64Value ?? 0,
                inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0)
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
