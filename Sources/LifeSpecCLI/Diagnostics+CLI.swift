import ArgumentParser
import Foundation
import LifeSpec
import LifeSpecRender

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

    /// `related:` references checked against the given specs and the other specs beside them,
    /// and the names `generate` would write, so `validate` accepts only what `generate` can write.
    static func relationDiagnostics(for loaded: [LoadedSpec], paths: [String]) -> [Diagnostic] {
        let known = loaded + neighbours(of: loaded, paths: paths)
        let loadedPaths = Set(loaded.map(\.path))
        return (SpecRelations.check(known).filter { loadedPaths.contains($0.location.path) } + outputNameDiagnostics(for: loaded)).sorted()
    }

    /// Every file name `generate` makes from ids must fit a file system (255 bytes a name), and no
    /// two specs may claim the same folder or suite file (`a-b` and `a--b` both give `AB…`).
    static func outputNameDiagnostics(for loaded: [LoadedSpec]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func check(_ name: String, for what: String, at location: SourceLocation) {
            let bytes = name.utf8.count
            guard bytes > OutputWriter.maximumNameLength else { return }
            diagnostics.append(.error(.inputLimit, "\(what) makes the file name '\(name.prefix(32))…' of \(bytes) bytes; file systems take at most \(OutputWriter.maximumNameLength)",
                                      at: location))
        }
        var folders: [String: LoadedSpec] = [:]
        var suites: [String: LoadedSpec] = [:]
        for spec in loaded.sorted(by: { $0.path < $1.path }) {
            let id = spec.document.id
            let location = idLocation(of: spec)
            check(id, for: "the spec id", at: location)
            check(SwiftSuiteRenderer.fileName(for: spec), for: "the spec id", at: location)
            for scenario in spec.document.scenarios {
                check(scenario.id + ".svg", for: "scenario '\(scenario.id.prefix(32))'", at: scenario.location)
            }
            for group in spec.machine.topLevelStates where group.isCompound {
                if let info = spec.document.states.first(where: { $0.id == group.id }) {
                    check(group.id + ".svg", for: "state '\(group.id.prefix(32))' (drawn alone when the machine is too large)", at: info.location)
                }
            }
            if let other = folders.updateValue(spec, forKey: id) {
                diagnostics.append(.error(.duplicateID, "spec id '\(id)' is also the id of \(other.path); each spec needs its own Output/\(id)/", at: location))
            } else if let other = suites.updateValue(spec, forKey: SwiftSuiteRenderer.fileName(for: spec)) {
                diagnostics.append(.error(.duplicateID, "spec id '\(id)' gives the same conformance suite file, \(SwiftSuiteRenderer.fileName(for: spec)), as '\(other.document.id)' in \(other.path); choose ids that differ in more than punctuation",
                                          at: location))
            }
        }
        return diagnostics
    }

    /// Where the top-level `id:` is written (the document keeps no location for it).
    private static func idLocation(of spec: LoadedSpec) -> SourceLocation {
        if let text = try? String(contentsOfFile: spec.path, encoding: .utf8) {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.hasPrefix("id:") {
                let value = line.dropFirst(3).prefix { $0 == " " }.count + 4
                return SourceLocation(path: spec.path, line: index + 1, column: value)
            }
        }
        return SourceLocation(path: spec.path, line: 1, column: 1)
    }

    /// The specs beside `paths` that `loaded` names under `related:` but that were not given.
    /// Siblings are read only when such a name exists, so a plain run never pays for them.
    static func neighbours(of loaded: [LoadedSpec], paths: [String]) -> [LoadedSpec] {
        let given = Set(loaded.map(\.document.id))
        // The related specs and a system's parts are linked; a system that includes a given spec
        // as a part is linked back from it ("Used by"), so every sibling is a candidate.
        let wanted = Set(loaded.flatMap { $0.document.related.map(\.id) + $0.document.parts.map(\.specID) }).subtracting(given)
        return SpecRelations.siblings(of: paths, extensions: extensions)
            .compactMap { SpecLoader.load(path: $0).spec }
            .filter { wanted.contains($0.document.id) || $0.document.parts.contains { given.contains($0.specID) } }
    }
}
