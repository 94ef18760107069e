import LifecycleEngine

/// With a platform or API catalogs, every callback and notification name must be one of theirs:
/// a name passes when any of the spec's catalogs has it.
struct PlatformNamesRule: RawSpecRule {
    static func catalogs(of raw: RawSpec) -> [APICatalog] {
        var catalogs = raw.platform.flatMap { APICatalog.catalog(for: $0.value) }.map { [$0] } ?? []
        for (_, catalog) in raw.catalogs where !catalogs.contains(where: { $0.name == catalog.name }) {
            catalogs.append(catalog)
        }
        return catalogs
    }

    static func check(_ raw: RawSpec) -> [Finding] {
        let catalogs = catalogs(of: raw)
        // A catalog that did not load might hold the names: its own error is the one to fix.
        guard !catalogs.isEmpty, !raw.catalogMissing else { return [] }
        var findings: [Finding] = []
        // One index per kind of name, for every misspelt name of the spec (a catalog may hold 50,000).
        var indexes: [KeyPath<APICatalog, Set<String>>: Suggestion.Index] = [:]
        func verify(_ name: Located<String>?, known: KeyPath<APICatalog, Set<String>>, kind: NameKind) {
            guard let name, !catalogs.contains(where: { $0[keyPath: known].contains(name.value) }) else { return }
            if indexes[known] == nil { indexes[known] = Suggestion.Index(catalogs.flatMap { $0[keyPath: known] }) }
            findings.append(
                Finding(
                    .unknownAPIName,
                    .notInCatalogs(
                        name.value, kind: kind, catalogs: catalogs.map(\.name),
                        closest: indexes[known]!.closest(to: name.value)),
                    at: name.location, notes: [Finding.Message.addToACatalog]))
        }
        // A part's names were checked against the part's own catalogs when it loaded.
        for callback in raw.callbacks where callback.part == nil {
            switch callback.kind {
            case .method:
                verify(callback.swift, known: \.callbackSwiftNames, kind: .method)
                verify(callback.objc, known: \.callbackObjCNames, kind: .selector)
            case .closure:
                // A closure's own name is the app's; the API it is handed to is UIKit's.
                verify(callback.passedTo, known: \.closureHostSwiftNames, kind: .closureHost)
            }
        }
        for notification in raw.notifications where notification.part == nil {
            verify(notification.swift, known: \.notificationSwiftNames, kind: .notification)
            verify(notification.objc, known: \.notificationObjCNames, kind: .notification)
        }
        return findings
    }
}

extension PlatformNamesRule {
    /// What kind of API a name in the spec claims to be, as the message names it.
    enum NameKind: String {
        case method, selector, notification
        case closureHost = "method taking a closure"
    }
}

extension Finding.Message {
    static func notInCatalogs(_ name: String, kind: PlatformNamesRule.NameKind, catalogs: [String], closest: String?)
        -> Self
    {
        let hint =
            closest.map { "; did you mean '\($0)'?" }
            ?? " (not in \(catalogs.count == 1 ? "the \(catalogs[0]) catalog" : "any of them"))"
        let message =
            catalogs.count == 1
            ? "\(catalogs[0]) has no \(kind.rawValue) named '\(name)'"
            : "none of the spec's API catalogs (\(catalogs.joined(separator: ", "))) has a \(kind.rawValue) named '\(name)'"
        return Self(message + hint)
    }

    static let addToACatalog =
        "if the name is right, add it to a catalog file of your own and list the file under 'catalogs:' (see docs/spec-format.md, API catalogs)"
}
