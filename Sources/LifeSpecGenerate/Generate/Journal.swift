import Foundation
import LifeSpec
import LifeSpecRender

/// One step of a commit. Staged files are `s<n>` in the staging folder; a file a step replaces is
/// kept as `b<n>` and a stale file moved out as `r<n>` until the commit is over, so every step can
/// be undone.
enum JournalStep: Equatable, Sendable {
    case makeFolder(String)
    case put(Int, String, replacing: Bool)
    case remove(Int, String)
}

/// A complete journal: its steps and, in a commit of several folders, its link to the others.
/// The primary's journal (the first folder's, written last) is the commit point of them all: a
/// secondary's journal alone decides nothing (see `OutputStage.commit(_:whileLocked:)`).
struct JournalRecord: Equatable, Sendable {
    var steps: [JournalStep]
    /// In a secondary folder's journal: the primary's staging folder, whose journal decides.
    var primary: String? = nil
    /// In the primary's journal: the secondaries' staging folders that have steps to carry out.
    var secondaries: [String] = []
}

enum Journal {
    static let name = "journal"
    static let abortName = "abort"
    private static let header = "lifespec-journal 1"
    /// Written in full under another name, then renamed: a journal is there whole or not at all.
    static func write(_ steps: [JournalStep], staging: String) throws(OutputError) {
        try write(JournalRecord(steps: steps), staging: staging)
    }

    static func write(_ record: JournalRecord, staging: String) throws(OutputError) {
        var text = header + "\n"
        if let primary = record.primary { text += "primary\t\(escaped(primary))\n" }
        for secondary in record.secondaries { text += "secondary\t\(escaped(secondary))\n" }
        for step in record.steps {
            switch step {
            case .makeFolder(let path): text += "mkdir\t\(path)\n"
            case .put(let number, let path, let replacing):
                text += "put\t\(number)\t\(replacing ? "replace" : "new")\t\(path)\n"
            case .remove(let number, let path): text += "remove\t\(number)\t\(path)\n"
            }
        }
        text += "end\n"
        let partial = staging + "/" + name + ".partial"
        try FileTree.create(partial, bytes: Array(text.utf8))
        guard rename(partial, staging + "/" + name) == 0 else {
            throw OutputError(
                path: staging, message: "cannot write the commit journal: \(String(cString: strerror(errno)))")
        }
        TransactionProbe.announce(.journal)
    }

    /// The complete journal of a staging folder; `nil` if there is none (the run died before its
    /// commit).
    static func read(staging: String) -> JournalRecord? {
        guard let bytes = FileTree(root: staging).readRegularFile(name) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(header), lines.contains("end") else { return nil }
        var record = JournalRecord(steps: [])
        for line in lines.dropFirst() {
            if line == "end" { return record }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "primary" where fields.count == 2: record.primary = unescaped(fields[1])
            case "secondary" where fields.count == 2: record.secondaries.append(unescaped(fields[1]))
            case "mkdir" where fields.count == 2: record.steps.append(.makeFolder(fields[1]))
            case "put" where fields.count == 4:
                record.steps.append(.put(Int(fields[1]) ?? -1, fields[3], replacing: fields[2] == "replace"))
            case "remove" where fields.count == 3: record.steps.append(.remove(Int(fields[1]) ?? -1, fields[2]))
            default: return nil
            }
        }
        return nil
    }

    /// A folder path on one journal line: `%`, tabs, line breaks and other control bytes as `%XX`.
    static func escaped(_ path: String) -> String {
        var result: [UInt8] = []
        for byte in path.utf8 {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") {
                result += Array(("%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)).utf8)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    static func unescaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Marks the staging folder's commit as abandoned: from then on recovery undoes it (and, for a
    /// primary, its secondaries) rather than carrying it out.
    static func markAborted(staging: String) {
        let marker = staging + "/" + abortName
        if !FileTree.exists(marker) { close(open(marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)) }
    }

    private static func isSafe(_ path: String) -> Bool {
        path == OutputWriter.manifestName || (try? OutputWriter.validate(path)) != nil
    }

    /// Carries out every step not yet done; running it again after a kill finishes the job.
    static func carryOut(_ steps: [JournalStep], in tree: FileTree, staging: String) throws(OutputError) {
        func fail(_ path: String, _ what: String) -> OutputError {
            OutputError(
                path: tree.full(path), message: "\(what): \(String(cString: strerror(errno))); nothing was changed")
        }
        var removedFolders: [String] = []
        for step in steps {
            TransactionProbe.announce(.commit)
            switch step {
            case .makeFolder(let path):
                guard isSafe(path) else { continue }
                switch tree.entry(path) {
                case .folder: continue
                case .missing:
                    guard mkdir(tree.full(path), 0o755) == 0 else { throw fail(path, "cannot create the folder") }
                case .file:
                    errno = ENOTDIR
                    throw fail(path, "cannot create the folder")
                case .refused(let prefix, let reason):
                    throw OutputError(path: tree.full(prefix), message: reason + "; nothing was changed")
                }
            case .put(let number, let path, _):
                let staged = staging + "/s\(number)"
                guard isSafe(path), FileTree.exists(staged) else { continue }
                switch tree.entry(path) {
                case .missing: break
                case .file:
                    let backup = staging + "/b\(number)"
                    if !FileTree.exists(backup), link(tree.full(path), backup) != 0,
                        rename(tree.full(path), backup) != 0
                    {
                        throw fail(path, "cannot replace the file")
                    }
                case .folder:
                    errno = EISDIR
                    throw fail(path, "cannot replace the file")
                case .refused(let prefix, let reason):
                    throw OutputError(path: tree.full(prefix), message: reason + "; nothing was changed")
                }
                guard rename(staged, tree.full(path)) == 0 else { throw fail(path, "cannot replace the file") }
            case .remove(let number, let path):
                guard isSafe(path), tree.entry(path) == .file else { continue }
                guard rename(tree.full(path), staging + "/r\(number)") == 0 else {
                    throw fail(path, "cannot remove the file")
                }
                removedFolders.append(path)
            }
        }
        // Folders emptied by removals go too (never the output folder itself).
        for path in removedFolders {
            var components = path.split(separator: "/").dropLast()
            while !components.isEmpty, rmdir(tree.full(components.joined(separator: "/"))) == 0 {
                components = components.dropLast()
            }
        }
    }

    /// Undoes every step that was carried out, newest first; marks the journal so a kill during
    /// the undo is undone, not redone, by the next run.
    static func undo(_ steps: [JournalStep], in tree: FileTree, staging: String) {
        markAborted(staging: staging)
        for step in steps.reversed() {
            switch step {
            case .makeFolder(let path):
                if isSafe(path), tree.entry(path) == .folder { rmdir(tree.full(path)) }
            case .put(let number, let path, let replacing):
                guard isSafe(path) else { continue }
                let backup = staging + "/b\(number)"
                if replacing {
                    if FileTree.exists(backup), tree.entry(path) != .folder { rename(backup, tree.full(path)) }
                } else if !FileTree.exists(staging + "/s\(number)"), tree.entry(path) == .file {
                    unlink(tree.full(path))
                }
            case .remove(let number, let path):
                let moved = staging + "/r\(number)"
                guard isSafe(path), FileTree.exists(moved) else { continue }
                var components = path.split(separator: "/").dropLast()
                var parents: [String] = []
                while !components.isEmpty {
                    parents.append(components.joined(separator: "/"))
                    components = components.dropLast()
                }
                for folder in parents.reversed() where tree.entry(folder) == .missing {
                    mkdir(tree.full(folder), 0o755)
                }
                rename(moved, tree.full(path))
            }
        }
    }
}
