import Yams

/// The real API names of a platform, shipped with the tool as data (`Catalogs/`), so a spec's
/// callback and notification names can be checked for typos.
public struct APICatalog: Sendable {
    public struct Entry: Sendable, Hashable {
        public let swift: String
        public let objc: String?
        public let owner: String?
        public let url: String?
    }

    public let name: String
    public let callbacks: [Entry]
    public let notifications: [Entry]
    /// APIs that take a closure UIKit calls back (`kind: closure` callbacks name one in `passedTo`).
    public let closureHosts: [Entry]
    public let closureHostSwiftNames: Set<String>
    public let callbackSwiftNames: Set<String>
    public let callbackObjCNames: Set<String>
    public let notificationSwiftNames: Set<String>
    public let notificationObjCNames: Set<String>

    init(name: String, yaml: String) {
        self.name = name
        func entries(_ key: String, in root: Node?) -> [Entry] {
            guard let list = root?.mapping?[key]?.sequence else { return [] }
            return list.compactMap { item in
                guard let swift = item.mapping?["swift"]?.scalar?.string else { return nil }
                return Entry(swift: swift, objc: item.mapping?["objc"]?.scalar?.string,
                             owner: item.mapping?["owner"]?.scalar?.string, url: item.mapping?["url"]?.scalar?.string)
            }
        }
        // The catalog is the tool's own data, covered by tests; a broken one reads as empty.
        let root = try? Yams.compose(yaml: yaml, .basic, .default)
        callbacks = entries("callbacks", in: root)
        notifications = entries("notifications", in: root)
        closureHosts = entries("closureHosts", in: root)
        closureHostSwiftNames = Set(closureHosts.map(\.swift))
        callbackSwiftNames = Set(callbacks.map(\.swift))
        callbackObjCNames = Set(callbacks.compactMap(\.objc))
        notificationSwiftNames = Set(notifications.map(\.swift))
        notificationObjCNames = Set(notifications.compactMap(\.objc))
    }

    public static let uikit = APICatalog(name: "UIKit", yaml: UIKitCatalog.yaml)

    public static let platforms = ["uikit"]

    public static func catalog(for platform: String) -> APICatalog? {
        platform == "uikit" ? uikit : nil
    }
}
