import Foundation
import LifeSpec
import LifeSpecRender

/// Replaces the one file a command was told to write (`-o FILE`) in a single step, with the same
/// primitive the output transaction stages its files with (`FileTree.create`). Only a regular file
/// is ever replaced: a link, a device (`-o /dev/full` as root replaced the device), a FIFO or a
/// folder is refused before anything is written. The bytes go to a new temporary file beside the
/// target (`O_EXCL | O_NOFOLLOW`, so a planted link is never written through), removed again if
/// writing fails (a full disk), then renamed over the target.
package enum AtomicFile {
    package struct Failure: Error, CustomStringConvertible {
        /// "cannot write the file: <reason>".
        package let message: String
        package var description: String { message }

        init(reason: String) { message = "cannot write the file: " + reason }
        init(_ error: OutputError) { message = error.message }
    }

    package static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        var info = stat()
        if lstat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFLNK: throw Failure(reason: "it is a symbolic link; -o only replaces a regular file")
            case S_IFDIR: throw Failure(reason: "it is a folder; -o names a file")
            default:
                throw Failure(
                    reason: "it is not a regular file (a device, FIFO or socket); -o only replaces a regular file")
            }
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        // The folder's own problem (missing, not writable) reads better than the temporary file's errno.
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR, access(folder, W_OK) == 0 else {
            throw Failure(reason: describeUnwritable(path))
        }
        let temporary =
            folder
            + "/.\(url.lastPathComponent).lifespec-tmp-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16))"
        do {
            try FileTree.create(temporary, bytes: bytes)
        } catch {
            throw Failure(error)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(reason: String(cString: strerror(code)))
        }
    }

    /// Why `path` cannot be written: its folder is missing or not a folder, or it cannot be written.
    static func describeUnwritable(_ path: String) -> String {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            return "the folder '\(folder)' does not exist"
        }
        if !isDirectory.boolValue { return "'\(folder)' is not a folder" }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a directory"
        }
        return "permission denied or the disk is full"
    }
}
