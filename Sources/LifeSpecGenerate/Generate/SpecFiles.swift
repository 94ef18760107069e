import Foundation
import LifeSpec
import LifeSpecRender

/// The spec files a command works on: the ones named, or every spec in `Spec/`.
package enum SpecFiles {
    package static let extensions: Set<String> = ["yaml", "yml", "json"]

    /// No spec was named and there is none to take instead: a usage error.
    package struct ResolveError: Error, CustomStringConvertible {
        package let description: String
    }

    package static func resolve(_ paths: [String], specDirectory: String = "Spec") throws(ResolveError) -> [String] {
        guard paths.isEmpty else { return paths }
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: specDirectory) else {
            throw ResolveError(description: "no spec given and no '\(specDirectory)/' directory here; pass a spec file")
        }
        let specs = names.filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }.sorted()
        guard !specs.isEmpty else {
            throw ResolveError(description: "no spec files (*.yaml, *.yml, *.json) in '\(specDirectory)/'")
        }
        return specs.map { "\(specDirectory)/\($0)" }
    }

    /// `related:` references checked against the given specs and the other specs beside them,
    /// and the names `generate` would write, so `validate` accepts only what `generate` can write.
    package static func relationDiagnostics(
        for loaded: [LoadedSpec], paths: [String], load: (String) -> SpecLoadResult = { SpecLoader.load(path: $0) }
    ) -> [Diagnostic] {
        // Only the named specs are looked for: which systems use a spec does not change a diagnostic.
        let known = loaded + neighbours(of: loaded, paths: paths, includingUsers: false, load: load)
        let loadedPaths = Set(loaded.map(\.path))
        return
            (SpecRelations.check(known).filter { loadedPaths.contains($0.location.path) }
            + outputNameDiagnostics(for: loaded)).sorted()
    }

    /// Every file name `generate` makes from ids must fit a file system (255 bytes a name), and no
    /// two specs may claim the same folder or suite file (`a-b` and `a--b` both give `AB…`).
    package static func outputNameDiagnostics(for loaded: [LoadedSpec]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func check(_ name: String, for what: String, at location: SourceLocation) {
            let bytes = name.utf8.count
            guard bytes > OutputWriter.maximumNameLength else { return }
            diagnostics.append(
                .error(
                    .inputLimit,
                    "\(what) makes the file name '\(name.prefix(32))…' of \(bytes) bytes; file systems take at most \(OutputWriter.maximumNameLength)",
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
                    check(
                        group.id + ".svg",
                        for: "state '\(group.id.prefix(32))' (drawn alone when the machine is too large)",
                        at: info.location)
                }
            }
            if let other = folders.updateValue(spec, forKey: id) {
                diagnostics.append(
                    .error(
                        .duplicateID,
                        "spec id '\(id)' is also the id of \(other.path); each spec needs its own Output/\(id)/",
                        at: location))
            } else if let other = suites.updateValue(spec, forKey: SwiftSuiteRenderer.fileName(for: spec)) {
                diagnostics.append(
                    .error(
                        .duplicateID,
                        "spec id '\(id)' gives the same conformance suite file, \(SwiftSuiteRenderer.fileName(for: spec)), as '\(other.document.id)' in \(other.path); choose ids that differ in more than punctuation",
                        at: location))
            }
        }
        return diagnostics
    }

    /// Where the top-level `id:` is written (the document keeps no location for it).
    private static func idLocation(of spec: LoadedSpec) -> SourceLocation {
        // Line by line until the first match, over bytes: splitting a large spec into Character
        // lines first was a tenth of `validate`'s instructions on a 2,000-state spec (callgrind).
        guard let data = try? SpecLoader.readFile(path: spec.path, limits: LoaderLimits()).get(),
            let text = String(data: data, encoding: .utf8)
        else {
            return SourceLocation(path: spec.path, line: 1, column: 1)
        }
        let bytes = text.utf8
        let prefix = "id:".utf8
        var lineStart = bytes.startIndex
        var line = 1
        while lineStart < bytes.endIndex {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let content = bytes[lineStart..<lineEnd]
            if content.starts(with: prefix) {
                let spaces = content.dropFirst(prefix.count).prefix { $0 == UInt8(ascii: " ") }.count
                return SourceLocation(path: spec.path, line: line, column: prefix.count + spaces + 1)
            }
            guard lineEnd < bytes.endIndex else { break }
            lineStart = bytes.index(after: lineEnd)
            line += 1
        }
        return SourceLocation(path: spec.path, line: 1, column: 1)
    }

    /// The specs beside `paths` that `loaded` names under `related:` or `parts:`, or (with
    /// `includingUsers`) that use one of `loaded` as a part, but that were not given.
    ///
    /// A named spec is looked for first under its own file name (`<id>.yaml`, as parts must be
    /// named), and the other siblings are loaded only when that finds none; a sibling is loaded as
    /// a possible user only when its text names both `parts` and a given spec's id (or has a YAML
    /// escape, which could spell them). So validating one spec does not load every spec beside it.
    package static func neighbours(
        of loaded: [LoadedSpec], paths: [String], includingUsers: Bool = true,
        load: (String) -> SpecLoadResult = { SpecLoader.load(path: $0) }
    ) -> [LoadedSpec] {
        let given = Set(loaded.map(\.document.id))
        let wanted = Set(loaded.flatMap { $0.document.related.map(\.id) + $0.document.parts.map(\.specID) })
            .subtracting(given)
        let siblings = SpecRelations.siblings(of: paths, extensions: extensions)
        var found: [String: LoadedSpec] = [:]
        var tried: Set<String> = []
        func take(_ path: String) {
            guard tried.insert(path).inserted, let spec = load(path).spec else { return }
            let id = spec.document.id
            guard wanted.contains(id) || (includingUsers && spec.document.parts.contains { given.contains($0.specID) })
            else { return }
            if found[path] == nil { found[path] = spec }
        }
        let byName = Dictionary(
            siblings.map { (((($0 as NSString).lastPathComponent) as NSString).deletingPathExtension, $0) },
            uniquingKeysWith: { first, _ in first })
        for id in wanted.sorted() {
            if let path = byName[id] { take(path) }
        }
        let foundIDs = Set(found.values.map(\.document.id))
        let missing = wanted.subtracting(foundIDs)
        let givenIDs = given.map { Array($0.utf8) }
        for path in siblings where !tried.contains(path) {
            if !missing.isEmpty {
                // A spec whose file is not named by its id: only a full look finds it.
                take(path)
                continue
            }
            guard includingUsers, let bytes = try? SpecLoader.readFile(path: path, limits: LoaderLimits()).get()
            else { continue }
            let text = [UInt8](bytes)
            // A YAML escape (`"l\x61mp"`, or a quoted line broken with `\`) can spell `parts` or an
            // id without its letters in a row: such a file is loaded and looked at whole.
            guard
                text.contains(UInt8(ascii: "\\"))
                    || (contains(text, Array("parts".utf8)) && givenIDs.contains(where: { contains(text, $0) }))
            else { continue }
            take(path)
        }
        // In the order of the files beside them, as before.
        return siblings.compactMap { found[$0] }
    }

    private static func contains(_ text: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= text.count else { return needle.isEmpty }
        let first = needle[0]
        var index = 0
        let last = text.count - needle.count
        while index <= last {
            if text[index] == first, text[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
