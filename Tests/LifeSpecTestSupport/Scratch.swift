import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where tests put their scratch files: one folder per test process in the system's temporary
/// folder, removed when the process exits. Tests made folders there and never removed them (a
/// working day of runs left over 5,000), and a removal per test is easy to forget.
public enum Scratch {
    /// This process's folder, made on first use. Folders left by a test process that crashed are
    /// removed then, once their process is gone.
    public static let root: URL = {
        let temporary = FileManager.default.temporaryDirectory
        removeFoldersOfEndedProcesses(in: temporary)
        let root = temporary.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.root) }
        return root
    }()

    /// A fresh path under `root` whose name starts with `name` (nothing is created there).
    public static func url(_ name: String) -> URL {
        root.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    /// A fresh, empty folder under `root` whose name starts with `name`.
    public static func folder(_ name: String) throws -> URL {
        let folder = url(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static let prefix = "lifespec-tests-"

    private static func removeFoldersOfEndedProcesses(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            // Only `<prefix><pid>-<uuid>`, the names `root` makes.
            let rest = name.dropFirst(prefix.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard rest.dropFirst(digits.count).first == "-", let pid = pid_t(digits), kill(pid, 0) != 0,
                errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }
}
