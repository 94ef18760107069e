import Foundation

/// Why a file named on the command line cannot be used, in the tool's words (Foundation's own
/// messages name neither the file nor the cause: "The file doesn't exist.").
enum FileProblem {
    /// "does not exist", "is a directory" or "cannot be read" for an input file.
    static func describe(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "does not exist" }
        return isDirectory.boolValue ? "is a directory" : "cannot be read (permission denied?)"
    }

    /// Not there at all: a wrong argument (64). One that is there but is not a file to read (a
    /// folder, FIFO or device) is bad input, an LS001 with exit status 1, as for a trace.
    static func isMissing(_ path: String) -> Bool {
        !FileManager.default.fileExists(atPath: path)
    }

    /// Whether a file named on the command line is not there: the command exits 64 (after
    /// reporting everything else it found).
    static func anyMissing(_ paths: [String]) -> Bool { paths.contains(where: isMissing) }

}
