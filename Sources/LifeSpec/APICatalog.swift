import Foundation
import Yams

/// The real API names of a framework, as data, so a spec's callback and notification names can be
/// checked for typos (LS170). The tool ships UIKit's (`Catalogs/`); a project adds its own for the
/// frameworks it uses (AVFoundation, SwiftUI, its own) as YAML files that a spec lists under
/// `catalogs:`. A spec's names are checked against every catalog it names, together.
package struct APICatalog: Sendable {
    package struct Entry: Sendable, Hashable {
        package let swift: String
        package let objc: String?
        package let owner: String?
        package let url: String?
    }

    package let name: String
    /// The Swift module that declares these names (`import <module>`), when there is one.
    package let module: String?
    package let callbacks: [Entry]
    package let notifications: [Entry]
    /// APIs that take a closure UIKit calls back (`kind: closure` callbacks name one in `passedTo`).
    package let closureHosts: [Entry]
    package let closureHostSwiftNames: Set<String>
    package let callbackSwiftNames: Set<String>
    package let callbackObjCNames: Set<String>
    package let notificationSwiftNames: Set<String>
    package let notificationObjCNames: Set<String>

    /// Owners with one object per app (the app's delegate, the application): in a system, their
    /// calls go to that object, whichever part models them. Owner → the object's name.
    package let sharedReceivers: [String: String]
    /// Owners whose methods every object of another owner inherits or adopts (NSObject's
    /// `awakeFromNib()`, a protocol every view controller adopts): the call goes to whichever
    /// object the spec is about, not to an object of that owner.
    package let inheritedOwners: Set<String>

    init(
        name: String, module: String?, callbacks: [Entry], notifications: [Entry], closureHosts: [Entry] = [],
        sharedReceivers: [String: String] = [:], inheritedOwners: Set<String> = []
    ) {
        self.name = name
        self.sharedReceivers = sharedReceivers
        self.inheritedOwners = inheritedOwners
        self.module = module
        self.callbacks = callbacks
        self.notifications = notifications
        self.closureHosts = closureHosts
        closureHostSwiftNames = Set(closureHosts.map(\.swift))
        callbackSwiftNames = Set(callbacks.map(\.swift))
        callbackObjCNames = Set(callbacks.compactMap(\.objc))
        notificationSwiftNames = Set(notifications.map(\.swift))
        notificationObjCNames = Set(notifications.compactMap(\.objc))
    }

    /// A built-in catalog: the tool's own data, covered by tests; a broken one reads as empty.
    init(
        name: String, module: String?, yaml: String, sharedReceivers: [String: String] = [:],
        inheritedOwners: Set<String> = []
    ) {
        let reader = YAMLReader(path: name, limits: LoaderLimits())
        let root = try? Yams.compose(yaml: yaml, .basic, .default)
        let parsed = root.flatMap { Self.parse($0, reader: reader, defaultName: name) }
        self.init(
            name: name, module: module, callbacks: parsed?.callbacks ?? [], notifications: parsed?.notifications ?? [],
            closureHosts: parsed?.closureHosts ?? [], sharedReceivers: sharedReceivers,
            inheritedOwners: inheritedOwners)
    }

    package static let uikit = APICatalog(
        name: "UIKit", module: "UIKit", yaml: UIKitCatalog.yaml,
        sharedReceivers: ["UIApplicationDelegate": "AppDelegate", "UIApplication": "UIApplication"],
        inheritedOwners: ["NSObject", "UIContentContainer"])

    /// The shared object that receives the call or posts the notification `swiftName`, if its
    /// owner has one per app.
    package func sharedReceiver(of swiftName: String) -> String? {
        let entry = callbacks.first { $0.swift == swiftName } ?? notifications.first { $0.swift == swiftName }
        return entry?.owner.flatMap { sharedReceivers[$0] }
    }

    /// The catalogs built into the tool, by the name a spec uses for them.
    package static let builtIn: [String: APICatalog] = ["uikit": uikit]

    /// `platform:` values; each names a built-in catalog.
    package static let platforms = ["uikit"]

    package static func catalog(for platform: String) -> APICatalog? { builtIn[platform] }

    static let fileKeys = ["name", "module", "callbacks", "notifications", "closureHosts"]
    static let entryKeys = ["swift", "objc", "owner", "url"]

    /// A catalog file: `name`, optional `module`, and `callbacks` / `notifications` lists of
    /// `{swift, objc, owner, url}`. Problems are reported in the catalog file, at their place.
    static func load(path: String, limits: LoaderLimits) -> (catalog: APICatalog?, diagnostics: [Diagnostic]) {
        let start = SourceLocation(path: path, line: 1, column: 1)
        // Through the same door as a spec file: only a regular file, never a FIFO or /dev/stdin
        // (which would hang the loader), never a link out of the project, at most maxFileBytes.
        let data: Data
        switch SpecLoader.readFile(path: path, limits: limits, what: "API catalog file") {
        case .success(let bytes): data = bytes
        case .failure(let problem): return (nil, [problem.diagnostic])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return (nil, [.error(.unreadableFile, "API catalog file is not valid UTF-8", at: start)])
        }
        // The same checks as a spec file: a catalog is YAML from the same kind of source.
        if let problem = SpecLoader.precheck(text, path: path, limits: limits) { return (nil, [problem]) }
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text, .basic, .default) else {
                return (nil, [.error(.missingKey, "API catalog file is empty", at: start)])
            }
            root = node
        } catch let error as YamlError {
            return (nil, [SpecLoader.diagnostic(for: error, text: text, path: path)])
        } catch {
            return (nil, [.error(.yamlSyntax, "YAML: \(error)", at: start)])
        }
        let reader = YAMLReader(path: path, limits: limits, documentBytes: text.utf8.count)
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let parsed = parse(root, reader: reader, defaultName: stem)
        let catalog = parsed.map {
            APICatalog(
                name: $0.name, module: $0.module, callbacks: $0.callbacks, notifications: $0.notifications,
                closureHosts: $0.closureHosts)
        }
        return (reader.diagnostics.hasErrors ? nil : catalog, reader.diagnostics)
    }

    private static func parse(_ root: Node, reader: YAMLReader, defaultName: String)
        -> (name: String, module: String?, callbacks: [Entry], notifications: [Entry], closureHosts: [Entry])?
    {
        guard let pairs = reader.mapping(root, what: "an API catalog", allowedKeys: fileKeys) else { return nil }
        var name = defaultName
        var module: String?
        var callbacks: [Entry] = []
        var notifications: [Entry] = []
        var closureHosts: [Entry] = []
        func entries(_ node: Node, what: String) -> [Entry] {
            guard let items = reader.sequence(node, what: "'\(what)'") else { return [] }
            return items.compactMap { item in
                guard let fields = reader.mapping(item, what: "an entry of '\(what)'", allowedKeys: entryKeys) else {
                    return nil
                }
                var values: [String: String] = [:]
                for (key, value) in fields { values[key.value] = reader.string(value, what: "'\(key.value)'")?.value }
                guard let swift = values["swift"] else {
                    reader.error(.missingKey, "an entry of '\(what)' needs 'swift' (its Swift name)", at: item)
                    return nil
                }
                return Entry(swift: swift, objc: values["objc"], owner: values["owner"], url: values["url"])
            }
        }
        for (key, value) in pairs {
            switch key.value {
            case "name": name = reader.string(value, what: "'name'")?.value ?? name
            case "module":
                guard let written = reader.string(value, what: "'module'") else { break }
                // It is written into Swift (`import`, `#if canImport`) as it is.
                guard isSwiftModuleName(written.value) else {
                    reader.report(
                        .error(
                            .invalidValue,
                            "'module' must be a Swift module name (letters, digits and '_', not starting with a digit), found '\(written.value)'",
                            at: written.location))
                    break
                }
                module = written.value
            case "callbacks": callbacks = entries(value, what: "callbacks")
            case "notifications": notifications = entries(value, what: "notifications")
            case "closureHosts": closureHosts = entries(value, what: "closureHosts")
            default: break
            }
        }
        return (name, module, callbacks, notifications, closureHosts)
    }

    static func isSwiftModuleName(_ text: String) -> Bool {
        guard let first = text.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return text.utf8.allSatisfy {
            (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F
        }
    }
}

/// Whether a file a spec names is there (a directory does not count).
enum FileProblemCheck {
    static func isMissing(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) || isDirectory.boolValue
    }
}
