import Foundation
import LifeSpec
import LifeSpecRender

/// What a `generate` is made from, as one digest for `NoOpRecord`: the tool (its version and the
/// executable file itself, so a rebuilt binary never trusts an older one's record), the working
/// folder and the arguments, and the bytes of every spec file in each folder a spec is read from
/// (the specs a run loads, and the siblings `related:` or `parts:` may name).
enum GenerateInputs {
    static func digest(
        version: String, specs: [String], paths: [String], output: String, suites: String?, docc: String?
    ) -> String? {
        guard let tool = executableIdentity() else { return nil }
        var hasher = SHA256()
        func field(_ name: String, _ text: String) {
            hasher.update("\(name) \(text.utf8.count)\n")
            hasher.update(text)
            hasher.update("\n")
        }
        field("lifespec", version)
        field("tool", tool)
        field("cwd", FileManager.default.currentDirectoryPath)
        field("output", output)
        field("suites", suites ?? "-")
        field("docc", docc ?? "-")
        for spec in specs { field("argument", spec) }
        for path in paths { field("spec", path) }
        // Each file is named as the loader names it (the folder as the spec's path gives it), and
        // read through the input policy: within a run (InputSnapshot) the loader then gets the very
        // outcome digested here, bytes or refusal, and never bytes the policy refuses.
        let folders = Set(paths.map { ($0 as NSString).deletingLastPathComponent }).sorted()
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)
            else { return nil }
            for name in names.sorted()
            where SpecFiles.extensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()) {
                let path = folder.isEmpty ? name : folder + "/" + name
                field("file", URL(fileURLWithPath: path).path)
                switch SpecLoader.readFile(path: path, limits: LoaderLimits()) {
                case .success(let data):
                    hasher.update("bytes \(data.count)\n")
                    hasher.update(data)
                case .failure(let problem):
                    field("refused", problem.diagnostic.description)
                }
            }
        }
        return "sha256:" + hasher.finalize()
    }

    /// The running executable's file: device, inode, size and times.
    private static func executableIdentity() -> String? {
        #if os(Linux)
            let path = "/proc/self/exe"  // stat follows the link to the binary
        #else
            guard let path = Bundle.main.executablePath else { return nil }
        #endif
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
            let changed = info.st_ctimespec
        #else
            let modified = info.st_mtim
            let changed = info.st_ctim
        #endif
        return
            "\(info.st_dev) \(info.st_ino) \(info.st_size) \(modified.tv_sec).\(modified.tv_nsec) \(changed.tv_sec).\(changed.tv_nsec)"
    }
}
