import Foundation
import LifeSpec

/// `watch`'s loop: looks at the watched specs every `interval` seconds (woken at once by inotify
/// where there is one) and runs a generation pass whenever one changed. Passes share one
/// `SpecCache`, so a pass loads only what changed. Named specs bring the files they use (parts,
/// related specs) into the watch.
package struct SpecWatch {
    /// The specs named; empty: every spec in `Spec/` (files added or removed there count as changes).
    package let specs: [String]
    package let interval: Double
    /// Stop after this many passes (tests); nil: until the process is stopped.
    package let maxPasses: Int?

    package init(specs: [String], interval: Double, maxPasses: Int? = nil) {
        self.specs = specs
        self.interval = interval
        self.maxPasses = maxPasses
    }

    /// `changed(paths)` is called before each pass but the first, with the watched files that
    /// changed; `pass(cache)` runs one generation with the shared cache and reports it.
    package func run(changed: ([String]) -> Void, pass: (SpecCache) throws -> Void) rethrows {
        var lastSnapshot: [String: FileStamp]?
        var passes = 0
        let cache = SpecCache()
        var used: Set<String> = []
        // One folder to wake on (polling covers several, and other systems).
        let folders = Set(
            specs.isEmpty ? ["Spec"] : specs.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
        let events = folders.count == 1 ? FolderEvents(folder: folders.first!) : nil
        while maxPasses.map({ passes < $0 }) ?? true {
            let snapshot = Self.snapshot(specs.isEmpty ? [] : specs + used.subtracting(specs).sorted())
            if snapshot != lastSnapshot {
                passes += 1
                if let lastSnapshot {
                    changed(
                        Set(snapshot.keys).union(lastSnapshot.keys).filter { snapshot[$0] != lastSnapshot[$0] }.sorted()
                    )
                }
                lastSnapshot = snapshot
                // The files beside the named specs as the pass begins: a file the pass uses for the
                // first time is watched from this state, so a save made while the pass runs (or
                // right after it prints) is still a change the next look sees.
                let besideBefore =
                    specs.isEmpty
                    ? [:] : Self.snapshot(SpecRelations.siblings(of: specs, extensions: SpecFiles.extensions))
                defer {
                    if !specs.isEmpty {
                        // Files this pass used for the first time are watched from their state before it
                        // (those beside the specs) or now (any other).
                        used = cache.usedPaths
                        let new = used.subtracting(lastSnapshot?.keys.map { $0 } ?? [])
                        var added = besideBefore.filter { new.contains($0.key) }
                        added.merge(Self.snapshot(new.filter { added[$0] == nil }.sorted())) { old, _ in old }
                        lastSnapshot?.merge(added) { old, _ in old }
                    }
                }
                try pass(cache)
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
