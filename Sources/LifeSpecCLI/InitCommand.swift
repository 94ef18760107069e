import ArgumentParser
import Foundation
import LifeSpec

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter spec (valid as written) whose first line points editors at the JSON Schema.",
        discussion: """
            Writes Spec/<ID>.yaml (or <ID>.yaml when there is no Spec/ folder) and, unless --schema is \
            given, a copy of the schema at schema/lifespec.schema.json when none is there, so editors \
            with the YAML language server (VS Code's YAML extension) complete and check the spec as it \
            is typed. Nothing is overwritten.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The spec's id: letters, digits and '-'. The id is its lowercase form; the title keeps its capitals (WKWebView-navigation: id wkwebview-navigation, title \"WKWebView Navigation\").",
            valueName: "id"))
    var name = "my-lifecycle"

    /// The spec id: lowercase, as ids are; the name as written still gives the title.
    var id: String { name.lowercased() }

    @Option(name: .shortAndLong, help: "Where to write the spec (default: Spec/<ID>.yaml).")
    var output: String?

    @Option(
        help: ArgumentHelp(
            "The schema's URL or path for the $schema line, instead of a local copy.", valueName: "LOCATION"))
    var schema: String?

    func validate() throws {
        guard SpecSchema.isValidSpecID(id) else {
            throw ValidationError(
                "'\(name)' cannot be a spec id: use letters, digits and '-', starting with a letter (e.g. video-playback)"
            )
        }
    }

    func run() throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let defaultFolder =
            manager.fileExists(atPath: "Spec", isDirectory: &isDirectory) && isDirectory.boolValue ? "Spec/" : ""
        let path = output ?? "\(defaultFolder)\(id).yaml"
        guard !manager.fileExists(atPath: path) else {
            StandardStreams.err(
                "\(path): error: the file exists already; init overwrites nothing (choose another -o)\n")
            throw ExitCode(1)
        }
        var notes: [String] = []
        let location: String
        if let schema {
            location = schema
        } else {
            location = Self.relativePath(
                to: SpecSchema.path, from: URL(fileURLWithPath: path).deletingLastPathComponent().path)
            if !manager.fileExists(atPath: SpecSchema.path) {
                let folder = (SpecSchema.path as NSString).deletingLastPathComponent
                do {
                    try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    StandardStreams.err(
                        "\(folder): error: [\(DiagnosticCode.unwritableFile.rawValue)] cannot create the folder: \(manager.fileExists(atPath: folder) ? "a file has its name" : "permission denied")\n"
                    )
                    throw ExitCode(1)
                }
                try writeOutput(Array(SpecSchema.json.utf8), to: SpecSchema.path)
                notes.append("wrote \(SpecSchema.path)")
            } else if (try? String(contentsOfFile: SpecSchema.path, encoding: .utf8)) != SpecSchema.json {
                notes.append(
                    "note: \(SpecSchema.path) differs from this lifespec's schema; 'lifespec schema -o \(SpecSchema.path)' updates it"
                )
            }
        }
        try writeOutput(
            Array(SpecSchema.starterSpec(id: id, path: path, schemaLocation: location, name: name).utf8), to: path)
        StandardStreams.out((["wrote \(path)"] + notes).joined(separator: "\n") + "\nnext: lifespec validate \(path)\n")
    }

    /// `target` relative to `folder` (both relative to the current directory, or absolute).
    static func relativePath(to target: String, from folder: String) -> String {
        let base = URL(fileURLWithPath: folder).standardizedFileURL.pathComponents
        let goal = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < goal.count, base[common] == goal[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        return (ups + goal[common...]).joined(separator: "/")
    }
}

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the spec format's JSON Schema (draft 2020-12), for editors and validators."
    )

    @OptionGroup var destination: OutputFileOption

    func run() throws {
        try writeOutput(Array(SpecSchema.json.utf8), to: destination.output)
    }
}
