/// Folds errors that only follow from another one under it. A state written one indentation
/// level off becomes an unknown key of the mapping around it (LS010), and then every transition
/// and scenario naming it, or a state nested in it, fails with "not declared" (LS101): one
/// mistake, dozens of errors. The unknown key keeps its error, gains a hint about indentation and
/// a note that counts the references it broke; those references are not listed on their own.
public enum KnockOnErrors {
    struct UnknownKey {
        let key: Located<String>
        /// The mapping it was found in, as messages name it ("the spec", "state 'active'").
        let context: String
        /// The key and the states nested under it, had it been a state.
        let stateNames: [String]
    }

    struct Reference {
        let name: String
        let code: DiagnosticCode
        let location: SourceLocation
    }

    static func collapse(_ diagnostics: [Diagnostic], unknownKeys: [UnknownKey], unresolved: [Reference]) -> [Diagnostic] {
        var result = diagnostics
        var folded: Set<SourceLocation> = []
        for unknown in unknownKeys {
            let names = Set(unknown.stateNames)
            let broken = unresolved.filter { $0.code == .unknownState && names.contains($0.name) && !folded.contains($0.location) }
            guard !broken.isEmpty,
                  let index = result.firstIndex(where: { $0.code == .unknownKey && $0.location == unknown.key.location }) else { continue }
            let original = result[index]
            let place = unknown.context == "the spec"
                ? "it looks like a state: indent it under 'states:'"
                : "it looks like a state: indent it under the 'states:' of \(unknown.context) to make it a child, or one level less to make it a sibling"
            let lines = broken.map { "\($0.location.line)" }
            let shown = lines.prefix(8).joined(separator: ", ") + (lines.count > 8 ? ", …" : "")
            let count = broken.count == 1 ? "1 reference" : "\(broken.count) references"
            let note = "\(count) to it fail because of this (line\(lines.count == 1 ? "" : "s") \(shown)), not listed separately"
            result[index] = Diagnostic(original.severity, original.code, original.message + "; " + place, at: original.location,
                                       notes: original.notes + [note])
            folded.formUnion(broken.map(\.location))
        }
        guard !folded.isEmpty else { return diagnostics }
        return result.filter { !($0.code == .unknownState && folded.contains($0.location)) }
    }
}
