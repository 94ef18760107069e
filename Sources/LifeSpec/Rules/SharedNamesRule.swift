import LifecycleEngine

/// Two callbacks or notifications with one Swift (or Objective-C) name: WKNavigationDelegate's two
/// `webView(_:decidePolicyFor:decisionHandler:)` differ only in their selectors. A log in Swift names
/// cannot tell them apart, so `check-trace` keeps both open; the author should know which are shared.
struct SharedNamesRule: RawSpecRule {
    static func check(_ raw: RawSpec) -> [Finding] {
        var findings: [Finding] = []
        // Swift names are the id when not given; a part's names are the part's (checked when it loaded).
        var firstBySwift: [String: (id: String, kind: String)] = [:]
        var firstByObjC: [String: (id: String, kind: String)] = [:]
        func note(
            _ name: Located<String>?, of id: String, kind: String, language: String,
            in table: inout [String: (id: String, kind: String)]
        ) {
            guard let name else { return }
            if let first = table[name.value] {
                findings.append(
                    Finding(
                        .sharedName, .sharedName(name.value, language: language, kind: kind, id: id, other: first),
                        at: name.location, notes: [Finding.Message.sharedNameInLogs.text]))
            } else {
                table[name.value] = (id, kind)
            }
        }
        for callback in raw.callbacks where callback.part == nil && callback.kind == .method {
            let swift = callback.swift ?? callback.id
            note(swift, of: callback.id.value, kind: "callback", language: "Swift", in: &firstBySwift)
            note(callback.objc, of: callback.id.value, kind: "callback", language: "Objective-C", in: &firstByObjC)
        }
        for notification in raw.notifications where notification.part == nil {
            let swift = notification.swift ?? notification.id
            note(swift, of: notification.id.value, kind: "notification", language: "Swift", in: &firstBySwift)
            note(
                notification.objc, of: notification.id.value, kind: "notification", language: "Objective-C",
                in: &firstByObjC)
        }
        return findings
    }
}

extension Finding.Message {
    static func sharedName(
        _ name: String, language: String, kind: String, id: String, other: (id: String, kind: String)
    ) -> Self {
        Self("\(kind) '\(id)' has the \(language) name '\(name)' of \(other.kind) '\(other.id)'")
    }

    static let sharedNameInLogs = Self(
        "check-trace reads that name in a log as either of them; a log names one apart by its Objective-C selector or its spec id"
    )
}
