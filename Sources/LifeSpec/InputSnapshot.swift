import Foundation

/// Every input file's bytes as a run first read them (#37 break 14): with a snapshot installed,
/// a file read again (a spec read for the run's digest, then as a spec, then as a system's part)
/// gives the same bytes, so every output of the run derives from one state of its inputs even when
/// a file is replaced while the run goes on. `generate` installs one for its run; without one (the
/// library's callers, the tests in one process) every read goes to the disk, as before.
package enum InputSnapshot {
    private static let installed = Locked<[String: Data]?>(nil)
    private static let firstRead = Locked<(@Sendable (String) -> Void)?>(nil)

    /// Runs `body` with a fresh snapshot: for a process that does one run (the CLI's `generate`).
    package static func during<T>(_ body: () throws -> T) rethrows -> T {
        installed.withLock { $0 = [:] }
        defer { installed.withLock { $0 = nil } }
        return try body()
    }

    /// Called with a file's path right after the snapshot first took its bytes: the test host
    /// (Tests/LifeSpecTestHost) holds the run there while a test replaces the file.
    package static func onFirstRead(_ probe: @escaping @Sendable (String) -> Void) {
        firstRead.withLock { $0 = probe }
    }

    /// The bytes at `path` as this run first read them, else `read()`'s (kept when a snapshot is
    /// installed and the read succeeded).
    package static func bytes<Failure: Error>(at path: String, read: () -> Result<Data, Failure>) -> Result<
        Data, Failure
    > {
        let key = URL(fileURLWithPath: path).standardizedFileURL.path
        let (isInstalled, kept) = installed.withLock { ($0 != nil, $0?[key]) }
        if let kept { return .success(kept) }
        let result = read()
        guard isInstalled, case .success(let data) = result else { return result }
        // Two threads may read a file at once: the first bytes kept are the run's.
        let chosen = installed.withLock { files -> Data in
            if let earlier = files?[key] { return earlier }
            files?[key] = data
            return data
        }
        if chosen == data, let probe = firstRead.withLock({ $0 }) { probe(path) }
        return .success(chosen)
    }

    /// `FileManager.contents(atPath:)` through the snapshot.
    package static func contents(atPath path: String) -> Data? {
        struct Absent: Error {}
        return try? bytes(at: path) { () -> Result<Data, Absent> in
            FileManager.default.contents(atPath: path).map { .success($0) } ?? .failure(Absent())
        }.get()
    }
}
