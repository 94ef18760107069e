import Foundation

/// Checks what one spec says about others (`related:`), which no single file can check alone.
package enum SpecRelations {
    /// Warnings for references to specs that are not among `specs`; an error for a spec relating to itself.
    package static func check(_ specs: [LoadedSpec]) -> [Diagnostic] {
        let ids = specs.map(\.document.id)
        var diagnostics: [Diagnostic] = []
        for spec in specs {
            for related in spec.document.related {
                if related.id == spec.document.id {
                    diagnostics.append(
                        .error(.unknownRelatedSpec, "a spec cannot relate to itself", at: related.location))
                } else if !ids.contains(related.id) {
                    // The spec itself is sound; its page just cannot link there (a spec copied alone).
                    diagnostics.append(
                        .warning(
                            .unknownRelatedSpec,
                            "no spec with id '\(related.id)' is loaded beside this one\(Suggestion.didYouMean(related.id, among: ids.filter { $0 != spec.document.id }))",
                            at: related.location))
                }
            }
        }
        return diagnostics.sorted()
    }

    /// The specs in the same folders as `paths`, the set `related:` ids are resolved against
    /// when only some files are named.
    package static func siblings(of paths: [String], extensions: Set<String>) -> [String] {
        var result: [String] = []
        for folder in Set(paths.map { ($0 as NSString).deletingLastPathComponent }).sorted() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
            for name in names.sorted() where extensions.contains((name as NSString).pathExtension.lowercased()) {
                let path = folder.isEmpty ? name : "\(folder)/\(name)"
                if !paths.contains(path) { result.append(path) }
            }
        }
        return result
    }
}
