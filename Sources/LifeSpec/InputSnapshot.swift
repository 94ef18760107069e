import Foundation

/// Why the input policy (`SpecLoader.readFile`) refused a file: the diagnostic's code and its
/// words after the file's kind ("spec file", "API catalog file"), which the caller supplies.
struct InputRefusal: Error, Sendable {
    let code: DiagnosticCode
    let reason: String
}

/// Every input file as a run first read it (#37 break 14): with a snapshot installed, a file read
/// again (a spec read for the run's digest, then as a spec, then as a system's part) gives the same
/// outcome, so every output of the run derives from one state of its inputs even when a file is
/// replaced while the run goes on. `generate` installs one for its run; without one (the library's
/// callers, the tests in one process) every read goes to the disk, as before.
///
/// What is kept is the outcome of the input policy's checked read, refusals included, never a raw
/// read: the snapshot has no way in but `SpecLoader.checkedRead`, so a file first read by a caller
/// that skipped the checks cannot hand later readers bytes the policy would have refused (a digest
/// that read a linked secret once made the loader print its lines).
package enum InputSnapshot {
    /// The file as named (the policy judges a relative path without `..` for links out of the
    /// project, so `Spec/a.yaml` and `/…/Spec/a.yaml` may be judged differently and are two
    /// entries) and the size limit it was read under.
    private struct Key: Hashable {
        let path: String
        let maxFileBytes: Int
    }

    private static let installed = Locked<[Key: Result<Data, InputRefusal>]?>(nil)
    private static let firstRead = Locked<(@Sendable (String) -> Void)?>(nil)

    /// Runs `body` with a fresh snapshot: for a process that does one run at a time.
    package static func during<T>(_ body: () throws -> T) rethrows -> T {
        installed.withLock { $0 = [:] }
        defer { installed.withLock { $0 = nil } }
        return try body()
    }

    /// Called with a file's path right after the snapshot first kept it: the test host
    /// (Tests/LifeSpecTestHost) holds the run there while a test replaces the file.
    package static func onFirstRead(_ probe: @escaping @Sendable (String) -> Void) {
        firstRead.withLock { $0 = probe }
    }

    /// The checked read of `path`, as this run first did it when a snapshot is installed.
    static func read(path: String, limits: LoaderLimits) -> Result<Data, InputRefusal> {
        let key = Key(path: lexicallyNormal(path), maxFileBytes: limits.maxFileBytes)
        let (isInstalled, kept) = installed.withLock { ($0 != nil, $0?[key]) }
        if let kept { return kept }
        let result = SpecLoader.checkedRead(path: path, limits: limits)
        guard isInstalled else { return result }
        // Two threads may read a file at once: the first outcome kept is the run's.
        let (chosen, first) = installed.withLock { files -> (Result<Data, InputRefusal>, Bool) in
            if let earlier = files?[key] { return (earlier, false) }
            files?[key] = result
            return (result, true)
        }
        if first, let probe = firstRead.withLock({ $0 }) { probe(path) }
        return chosen
    }

    /// `path` without `.` components or repeated slashes: the same file, judged the same way by the
    /// policy (absolute stays absolute, `..` stays).
    private static func lexicallyNormal(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
