import LifeSpec
import LifecycleEngine

/// Emits a Swift file an app drops in to log its real lifecycle in `lifespec check-trace`'s
/// format. It imports the modules of the spec's API catalogs and, under `#if canImport(…)` of them,
/// observes the spec's notifications itself (on the posting thread); callbacks are logged with one
/// call each. Where those modules do not exist (UIKit on Linux) the file compiles to nothing.
package enum RecorderRenderer {
    /// `UIApplication.didBecomeActiveNotification`: ASCII identifiers joined by dots, nothing else.
    static func isDottedName(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                guard let first = part.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else {
                    return false
                }
                return part.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
                }
            }
    }

    /// What `#function` gives inside a method or initializer: `viewWillDisappear(_:)`, `init(coder:)`, `loadView()`.
    static func isFunctionName(_ text: String) -> Bool {
        guard text.hasSuffix(")"), let open = text.firstIndex(of: "("), isDottedName(String(text[..<open])),
            !text[..<open].contains(".")
        else { return false }
        let labels = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard !labels.isEmpty else { return true }
        guard labels.hasSuffix(":") else { return false }
        return labels.dropLast().split(separator: ":", omittingEmptySubsequences: false).allSatisfy {
            $0 == "_" || isDottedName(String($0)) && !$0.contains(".")
        }
    }

    /// Why the recorder cannot be written for `spec`, or `nil`. The file refers to the spec's
    /// notifications by their Swift names, so it needs the modules that declare them; a spec that
    /// names no framework (no `platform:`, no catalog with a `module`) cannot say what to import.
    package static func refusal(for spec: LoadedSpec) -> String? {
        guard spec.document.apiModules.isEmpty else { return nil }
        return
            "the recorder refers to the spec's callbacks and notifications in Swift, so it must know which framework declares them: add 'platform: uikit', or list an API catalog with a 'module' under 'catalogs:' (see docs/spec-format.md)"
    }

    /// The name the log gives each callback and notification whose Swift name another one shares
    /// (WKNavigationDelegate's two `webView(_:decidePolicyFor:decisionHandler:)`): its Objective-C
    /// selector when that is its own, else its spec id. check-trace reads either as that one.
    static func distinguishingLogNames(_ machine: Machine) -> [Observation: String] {
        var swiftNames: [String: Int] = [:]
        var objcNames: [String: Int] = [:]
        for (swift, objc) in machine.callbacks.map({ ($0.swiftName, $0.objcName) })
            + machine.notifications.map({ ($0.swiftName, $0.objcName) })
        {
            swiftNames[swift, default: 0] += 1
            if let objc { objcNames[objc, default: 0] += 1 }
        }
        func distinct(_ swift: String, _ objc: String?, _ id: String) -> String? {
            guard swiftNames[swift, default: 0] > 1 else { return nil }
            if let objc, objcNames[objc] == 1, swiftNames[objc] == nil { return objc }
            return id
        }
        var result: [Observation: String] = [:]
        for callback in machine.callbacks {
            if let name = distinct(callback.swiftName, callback.objcName, callback.id) {
                result[.callback(callback.id)] = name
            }
        }
        for notification in machine.notifications {
            if let name = distinct(notification.swiftName, notification.objcName, notification.id) {
                result[.notification(notification.id)] = name
            }
        }
        return result
    }

    package static func render(_ spec: LoadedSpec, specPath: String? = nil) -> String {
        let machine = spec.machine
        let logNames = distinguishingLogNames(machine)
        let typeName = SwiftSource.typeName(spec.document.id) + "Recorder"
        let shownPath = SwiftSource.commentText(specPath ?? spec.path)
        func literal(_ text: String) -> String { TextOutput.string { SwiftSource.writeStringLiteral(text, to: &$0) } }
        // Only plain module names become code; anything else could not be imported anyway.
        var modules: [String] = []
        for module in spec.document.apiModules
        where isDottedName(module) && !module.contains(".") && !modules.contains(module) {
            modules.append(module)
        }
        let condition = modules.map { "canImport(\($0))" }.joined(separator: " && ")
        let imports = (["Foundation"] + modules.filter { $0 != "Foundation" }).map { "import \($0)" }.joined(
            separator: "\n")
        var names: [String] = []
        for notification in machine.notifications {
            let logName = logNames[.notification(notification.id)] ?? notification.swiftName
            // Spec text becomes code only when it is a plain dotted Swift name; anything else is
            // passed as an escaped string to Notification.Name.
            if isDottedName(notification.swiftName), notification.swiftName.contains(".") {
                names.append("        (\(notification.swiftName), \(literal(logName))),")
            } else {
                let raw = notification.objcName ?? notification.swiftName
                names.append("        (Notification.Name(\(literal(raw))), \(literal(logName))),")
            }
        }
        let closures = Set(spec.document.callbacks.filter { $0.kind == .closure }.map(\.id))
        let callbacks = machine.callbacks.filter { !closures.contains($0.id) }.map { callback in
            let logName = logNames[.callback(callback.id)] ?? callback.swiftName
            var line =
                "///   - `\(SwiftSource.commentText(callback.swiftName))`: `record(\(SwiftSource.commentText(literal(logName))))`"
            if logName != callback.swiftName {
                // `#function` gives the shared name, which cannot say which of the methods ran.
                line += " (\(SwiftSource.commentText(callback.swiftName)) names more than one method)"
                return line
            }
            // `#function` names a part's method without its object (`viewWillDisappear(_:)`), so
            // the object says which part it plays; an object the whole app shares (the app
            // delegate) gives its own name, whichever part's region models the call.
            if let object = spec.document.receiver(of: callback.id), callback.swiftName.hasPrefix(object + "."),
                isFunctionName(String(callback.swiftName.dropFirst(object.count + 1)))
            {
                line += ", or in that method `record(#function, part: \(SwiftSource.commentText(literal(object))))`"
            }
            return line
        }
        let isSystem = spec.document.isSystem
        let functionHint =
            isSystem
            ? """
            /// 2. In each callback below, record its name. Each object plays a part of the system: in its
            ///    methods, `record(#function, part: "<its part>")` gives the part's name for the call
            ///    (`#function` alone names the method without its object, which check-trace cannot place);
            ///    give every object its part's name when you create it:
            """
            : """
            /// 2. In each callback below, record its name (in a delegate method, `record(#function)`
            ///    gives the same name):
            """
        let partRecord =
            isSystem
            ? """


                /// Records a method of the object that plays `part`: `record(#function, part: "A")` in
                /// `viewWillDisappear(_:)` logs `A.viewWillDisappear(_:)`, the name check-trace knows.
                public func record(_ function: String, part: String) {
                    record(part + "." + function)
                }
            """
            : ""
        // `#function` inside a closure names the enclosing function, so a closure records its own
        // name, as a literal, in the closure the app passes to UIKit.
        let closureSteps = spec.document.callbacks.filter { $0.kind == .closure }.map { closure in
            "///   - in the closure you pass to `\(SwiftSource.commentText(closure.passedTo ?? "UIKit"))`: "
                + "`\(typeName).shared.record(\(SwiftSource.commentText(literal(logNames[.callback(closure.id)] ?? machine.callback(closure.id)?.swiftName ?? closure.id))))`"
        }
        let closureLines =
            closureSteps.isEmpty
            ? "" : "\n/// 2b. Closures UIKit calls back, with their log names:\n" + closureSteps.joined(separator: "\n")
        return """
            // generated from \(shownPath) by lifespec — do not edit
            //
            // Drop this file into the app to record the lifecycle it really goes through, then check
            // the log with: lifespec check-trace \(shownPath) <log file>
            #if \(condition)
            \(imports)

            /// Records lifecycle callbacks and notifications, one per line, as `<seconds> <name>`: the
            /// format check-trace reads (a name runs to the end of its line, so names with spaces survive).
            ///
            /// 1. Call `\(typeName).shared.start()` before the first callback (for an app, first thing in
            ///    `application(_:willFinishLaunchingWithOptions:)`); notifications are then logged as
            ///    they are posted, on whatever thread posts them.
            \(functionHint)
            \(callbacks.joined(separator: "\n"))\(closureLines)
            /// 3. Copy the log (`logURL`, in the Caches folder) off the device and run check-trace.
            ///
            /// Safe to call from any thread: writes are serialized by a lock, in the order they happen.
            public final class \(typeName): @unchecked Sendable {
                public static let shared = \(typeName)()

                public let logURL: URL
                private let lock = NSLock()
                private var handle: FileHandle?
                private var observers: [NSObjectProtocol] = []
                private let startDate = Date()

                /// The spec's notifications and the names the log uses for them.
                public static let notifications: [(Notification.Name, String)] = [
            \(names.joined(separator: "\n"))
                ]

                private init() {
                    let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
                    logURL = caches.appendingPathComponent("lifespec-trace.log")
                }

                public func start(truncating: Bool = true) {
                    lock.lock()
                    defer { lock.unlock() }
                    guard handle == nil else { return }
                    if truncating || !FileManager.default.fileExists(atPath: logURL.path) {
                        FileManager.default.createFile(atPath: logURL.path, contents: nil)
                    }
                    handle = try? FileHandle(forWritingTo: logURL)
                    _ = try? handle?.seekToEnd()
                    for (name, logName) in Self.notifications {
                        // queue: nil runs the block on the posting thread, so the line is written
                        // before the post returns, in order with the callbacks around it.
                        let observer = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in
                            \(typeName).shared.record(logName)
                        }
                        observers.append(observer)
                    }
                }

                public func record(_ name: String) {
                    lock.lock()
                    defer { lock.unlock() }
                    let seconds = String(format: "%.6f", Date().timeIntervalSince(startDate))
                    // One line per name: a line break inside a name would split it.
                    let line = name.replacingOccurrences(of: "\\n", with: " ").replacingOccurrences(of: "\\r", with: " ")
                    handle?.write(Data("\\(seconds) \\(line)\\n".utf8))
                }\(partRecord)
            }
            #endif

            """
    }
}
