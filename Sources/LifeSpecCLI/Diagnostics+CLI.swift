import ArgumentParser
import Foundation
import LifeSpec

enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// Prints diagnostics the way compilers do, so editors and CI annotate the right line.
enum DiagnosticPrinter {
    static func text(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { $0.description + "\n" }.joined()
    }

    static func json(_ diagnostics: [Diagnostic]) -> String {
        let items = diagnostics.map { diagnostic -> JSONValue in
            .object([
                ("path", .string(diagnostic.location.path)),
                ("line", .int(diagnostic.location.line)),
                ("column", .int(diagnostic.location.column)),
                ("severity", .string(diagnostic.severity.rawValue)),
                ("code", .string(diagnostic.code.rawValue)),
                ("message", .string(diagnostic.message)),
                ("notes", .array(diagnostic.notes.map(JSONValue.string))),
            ])
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        return JSONValue.object([
            ("diagnostics", .array(items)),
            ("errors", .int(errors)),
            ("warnings", .int(warnings)),
        ]).text + "\n"
    }

    static func summary(_ diagnostics: [Diagnostic], files: Int) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        return "\(plural(files, "spec")) checked: \(plural(errors, "error")), \(plural(warnings, "warning"))\n"
    }
}

enum StandardStreams {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// The spec files a command works on: the ones named, or every spec in `Spec/`.
enum SpecFiles {
    static let extensions: Set<String> = ["yaml", "yml", "json"]

    static func resolve(_ paths: [String], specDirectory: String = "Spec") throws -> [String] {
        guard paths.isEmpty else { return paths }
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: specDirectory) else {
            throw ValidationError("no spec given and no '\(specDirectory)/' directory here; pass a spec file")
        }
        let specs = names.filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }.sorted()
        guard !specs.isEmpty else {
            throw ValidationError("no spec files (*.yaml, *.yml, *.json) in '\(specDirectory)/'")
        }
        return specs.map { "\(specDirectory)/\($0)" }
    }

    /// `related:` references checked against the given specs and the other specs beside them.
    static func relationDiagnostics(for loaded: [LoadedSpec], paths: [String]) -> [Diagnostic] {
        let known = loaded + neighbours(of: loaded, paths: paths)
        let loadedPaths = Set(loaded.map(\.path))
        return SpecRelations.check(known).filter { loadedPaths.contains($0.location.path) }
    }

    /// The specs beside `paths` that `loaded` names under `related:` but that were not given.
    /// Siblings are read only when such a name exists, so a plain run never pays for them.
    static func neighbours(of loaded: [LoadedSpec], paths: [String]) -> [LoadedSpec] {
        let given = Set(loaded.map(\.document.id))
        let wanted = Set(loaded.flatMap { $0.document.related.map(\.id) }).subtracting(given)
        guard !wanted.isEmpty else { return [] }
        return SpecRelations.siblings(of: paths, extensions: extensions)
            .compactMap { SpecLoader.load(path: $0).spec }
            .filter { wanted.contains($0.document.id) }
    }
}
