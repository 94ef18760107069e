import LifeSpec
import LifecycleEngine

/// Emits a Swift file an iOS app drops in to log its real lifecycle in `lifespec check-trace`'s
/// format. Under `#if canImport(UIKit)` it observes the spec's notifications itself; delegate
/// callbacks are logged with one call each (`record(#function)`, which yields the Swift name).
/// Elsewhere (Linux) the file compiles to nothing.
public enum RecorderRenderer {
    /// `UIApplication.didBecomeActiveNotification`: ASCII identifiers joined by dots, nothing else.
    static func isDottedName(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
            return part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
        }
    }

    public static func render(_ spec: LoadedSpec, specPath: String? = nil) -> String {
        let machine = spec.machine
        let typeName = SwiftSource.typeName(spec.document.id) + "Recorder"
        let shownPath = SwiftSource.commentText(specPath ?? spec.path)
        var names: [String] = []
        for notification in machine.notifications {
            // Spec text becomes code only when it is a plain dotted Swift name; anything else is
            // passed as an escaped string to Notification.Name.
            if isDottedName(notification.swiftName), notification.swiftName.contains(".") {
                names.append("        (\(notification.swiftName), \(SwiftSource.stringLiteral(notification.swiftName))),")
            } else {
                let raw = notification.objcName ?? notification.swiftName
                names.append("        (Notification.Name(\(SwiftSource.stringLiteral(raw))), \(SwiftSource.stringLiteral(notification.swiftName))),")
            }
        }
        let closures = Set(spec.document.callbacks.filter { $0.kind == .closure }.map(\.id))
        let callbacks = machine.callbacks.filter { !closures.contains($0.id) }.map { "///   - `\(SwiftSource.commentText($0.swiftName))`" }
        // `#function` inside a closure names the enclosing function, so a closure records its own
        // name, as a literal, in the closure the app passes to UIKit.
        let closureSteps = spec.document.callbacks.filter { $0.kind == .closure }.map { closure in
            "///   - in the closure you pass to `\(SwiftSource.commentText(closure.passedTo ?? "UIKit"))`: "
                + "`\(typeName).shared.record(\(SwiftSource.commentText(SwiftSource.stringLiteral(machine.callback(closure.id)?.swiftName ?? closure.id))))`"
        }
        let closureLines = closureSteps.isEmpty ? "" : "\n/// 2b. Closures UIKit calls back, with their log names:\n" + closureSteps.joined(separator: "\n")
        return """
        // generated from \(shownPath) by lifespec — do not edit
        //
        // Drop this file into an iOS app to record the lifecycle it really goes through, then check
        // the log with: lifespec check-trace \(shownPath) <log file>
        #if canImport(UIKit)
        import Foundation
        import UIKit

        /// Records lifecycle callbacks and notifications, one per line, as `<seconds> <name>`.
        ///
        /// 1. Call `\(typeName).shared.start()` first thing in
        ///    `application(_:willFinishLaunchingWithOptions:)`; notifications are then logged automatically.
        /// 2. In each delegate method below, call `\(typeName).shared.record(#function)`:
        \(callbacks.joined(separator: "\n"))\(closureLines)
        /// 3. Copy the log (`logURL`, in the app's Caches folder) off the device and run check-trace.
        @MainActor
        public final class \(typeName) {
            public static let shared = \(typeName)()

            public let logURL: URL
            private var handle: FileHandle?
            private var observers: [NSObjectProtocol] = []
            private let start = Date()

            /// The spec's notifications and the names the log uses for them.
            public static let notifications: [(Notification.Name, String)] = [
        \(names.joined(separator: "\n"))
            ]

            private init() {
                let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
                logURL = caches.appendingPathComponent("lifespec-trace.log")
            }

            public func start(truncating: Bool = true) {
                if truncating || !FileManager.default.fileExists(atPath: logURL.path) {
                    FileManager.default.createFile(atPath: logURL.path, contents: nil)
                }
                handle = try? FileHandle(forWritingTo: logURL)
                _ = try? handle?.seekToEnd()
                for (name, logName) in Self.notifications {
                    let observer = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in
                        MainActor.assumeIsolated { \(typeName).shared.record(logName) }
                    }
                    observers.append(observer)
                }
            }

            public func record(_ name: String) {
                let seconds = String(format: "%.6f", Date().timeIntervalSince(start))
                handle?.write(Data("\\(seconds) \\(name)\\n".utf8))
            }
        }
        #endif

        """
    }
}
