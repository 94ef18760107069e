import Foundation

/// Where the files a spec names (API catalogs, parts) may be. A spec is input a person may not
/// have written (a pull request, a downloaded chart): naming `/etc/…`, `../../..`, procfs or a
/// link out of the project must not make a command read that file, let alone print its lines.
enum ProjectPaths {
    /// The folder a file named by the spec at `specPath` must resolve inside: the project (the
    /// current folder) when the spec is in it, else the spec's own folder. Links are resolved.
    static func root(for specPath: String) -> String? {
        let folder = (specPath as NSString).deletingLastPathComponent
        guard let specFolder = resolved(folder.isEmpty ? "." : folder) else { return nil }
        if let project = resolved("."), project != "/", isInside(specFolder, project) { return project }
        return specFolder
    }

    /// Why `path` (a catalog or part that `specPath` names) may not be read; `nil` when it may.
    /// The reason never quotes the file: it was not read.
    static func refusal(of path: String, namedBy specPath: String) -> String? {
        guard let root = root(for: specPath) else { return "the spec's folder cannot be resolved" }
        // Callers ask only about files that are there: one that does not resolve is no file of the
        // project (procfs's `/dev/stdin` → `pipe:[…]`).
        let rule =
            "files a spec names must be inside the project (the current folder), or inside the spec's own folder when the spec is outside the project"
        guard let target = resolved(path) else { return "it does not resolve to a file inside \(root); \(rule)" }
        if isInside(target, root) { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        let linked = resolved(folder.isEmpty ? "." : folder).map { isInside($0, root) } ?? false
        return "it is \(linked ? "a symbolic link to a file outside" : "outside") \(root); \(rule)"
    }

    /// Why the file at `path`, named inside the project (a relative path without `..`, as every
    /// spec `generate` finds in `Spec/` is), may not be read: it resolves outside the project, so
    /// it, or a folder on the way to it, is a link out. `nil` when it may be read; a path named
    /// outside the project (absolute, or with `..`) is the caller's own choice and is not judged.
    static func linkRefusal(of path: String) -> String? {
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains(".."), let project = resolved("."),
            project != "/", let target = resolved(path), !isInside(target, project)
        else { return nil }
        return
            "it is named inside the project, \(project), but is a symbolic link (or is reached through one) to a file outside it; files a spec names must be inside the project"
    }

    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }
}
