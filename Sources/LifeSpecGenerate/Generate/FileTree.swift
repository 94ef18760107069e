import Foundation
import LifeSpec
import LifeSpecRender

/// What is at a path inside the output tree, found without following any symbolic link.
enum TreeEntry: Equatable {
    case missing
    case file
    case folder
    /// A symbolic link, or something that is not a file or a folder, at this prefix of the path.
    case refused(String, String)
}

/// Path operations relative to a root folder that never follow a symbolic link below the root.
struct FileTree: Sendable {
    let root: String

    func full(_ relative: String) -> String { root + "/" + relative }

    /// Walks `relative` one component at a time with lstat(2).
    func entry(_ relative: String) -> TreeEntry {
        var prefix = ""
        let components = relative.split(separator: "/")
        for (index, component) in components.enumerated() {
            prefix += prefix.isEmpty ? String(component) : "/" + component
            var info = stat()
            guard lstat(full(prefix), &info) == 0 else { return .missing }
            let kind = info.st_mode & S_IFMT
            let last = index == components.count - 1
            switch kind {
            case S_IFLNK:
                return .refused(
                    prefix, "is a symbolic link; lifespec never writes or deletes through a link in its output folder")
            case S_IFDIR: if last { return .folder }
            case S_IFREG:
                if last { return .file } else { return .refused(prefix, "is a file where a folder is needed") }
            default: return .refused(prefix, "is not a regular file or folder")
            }
        }
        return .folder
    }

    /// The bytes of a regular file, opened without following a link; `nil` for anything else.
    func readRegularFile(_ relative: String) -> [UInt8]? {
        guard entry(relative) == .file else { return nil }
        return Self.readRegularFile(atPath: full(relative))
    }

    /// The bytes of the regular file at `path` (its last component is not followed if a link).
    static func readRegularFile(atPath path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // read(2) fills memory through a pointer: C interop, not an optimisation.
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Creates a new file (never an existing one, never through a link) and writes `bytes`.
    static func create(_ path: String, bytes: [UInt8]) throws(OutputError) {
        // write(2) reads memory through a pointer: C interop, not an optimisation.
        let failure: Int32? = bytes.withUnsafeBytes { buffer -> Int32? in
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return errno }
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    let code = count == 0 ? ENOSPC : errno
                    close(descriptor)
                    return code
                }
                offset += count
            }
            return close(descriptor) == 0 ? nil : errno
        }
        if let failure {
            unlink(path)
            throw OutputError(path: path, message: "cannot write the file: \(String(cString: strerror(failure)))")
        }
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Removes a folder of plain files (a staging folder) and the folder itself.
    static func removeFlatFolder(_ path: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
    }
}
