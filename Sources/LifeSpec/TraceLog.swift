import Foundation
import LifecycleEngine

/// Reads a log of callbacks and notifications, one per line, as an app records it (and as
/// `lifespec recorder` writes it): optional leading timestamps, then one name — a Swift name, an
/// Objective-C selector or notification name, or a spec id — running to the end of the line, so a
/// name with spaces survives; `#` starts a comment, blank lines are ignored.
public struct TraceVocabulary: Sendable {
    private var names: [String: Observation] = [:]
    public let knownNames: [String]

    public init(machine: Machine) {
        var names: [String: Observation] = [:]
        for callback in machine.callbacks {
            for name in [callback.id, callback.swiftName, callback.objcName].compactMap({ $0 }) {
                names[name] = names[name] ?? .callback(callback.id)
                // Logs often drop the argument labels: `viewDidLoad` for `viewDidLoad()`.
                if let bare = name.split(separator: "(").first.map(String.init), bare != name { names[bare] = names[bare] ?? .callback(callback.id) }
            }
        }
        for notification in machine.notifications {
            for name in [notification.id, notification.swiftName, notification.objcName].compactMap({ $0 }) {
                names[name] = names[name] ?? .notification(notification.id)
                // `UIApplication.didBecomeActiveNotification` is also logged as `didBecomeActiveNotification`.
                if let last = name.split(separator: ".").last.map(String.init), last != name { names[last] = names[last] ?? .notification(notification.id) }
            }
        }
        self.names = names
        knownNames = names.keys.sorted()
    }

    public func observation(named name: String) -> Observation? { names[name] }
    public func observation(named name: Substring) -> Observation? { names[String(name)] }

    /// The name on a log line, or `nil` for a blank or comment line. Scans UTF-8 bytes without
    /// allocating: this runs once per line of logs with millions of lines.
    public static func name(onLine line: Substring) -> Substring? {
        let bytes = line.utf8
        let found = bytes.withContiguousStorageIfAvailable(nameRange(in:)) ?? Array(bytes).withUnsafeBufferPointer(nameRange(in:))
        guard let found else { return nil }
        let start = bytes.index(bytes.startIndex, offsetBy: found.lowerBound)
        return line[start..<bytes.index(start, offsetBy: found.count)]
    }

    /// Byte offsets of the name: everything after the leading timestamps (`12:00:01.234`,
    /// `2026-11-21T10:00:00Z`, `[0.123]`, `+0.5s`) up to a `#` comment or the end of the line,
    /// without trailing spaces; the last timestamp-looking token when nothing else is there.
    private static func nameRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        var index = 0
        var token: Range<Int>?
        while true {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] != UInt8(ascii: "#") else { return token }
            let start = index
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "#") { index += 1 }
            token = start..<index
            guard looksLikeTimestamp(first: bytes[start]) else { break }
        }
        // The name runs on, spaces and all, to a comment or the end of the line.
        guard var name = token else { return nil }
        while index < bytes.count, bytes[index] != UInt8(ascii: "#") {
            if !isSpace(bytes[index]) { name = name.lowerBound..<index + 1 }
            index += 1
        }
        return name
    }

    private static func looksLikeTimestamp(first: UInt8) -> Bool {
        first == UInt8(ascii: "[") || first == UInt8(ascii: "+") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    }
}

/// Streams a file's lines with a fixed-size buffer, so memory stays flat on huge logs.
public struct LineReader: Sequence, IteratorProtocol {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false
    public private(set) var lineNumber = 0

    public init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        self.handle = handle
    }

    public mutating func next() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                lineNumber += 1
                return line
            }
            if finished {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                lineNumber += 1
                return line
            }
            buffer.removeFirst(start)
            start = 0
            let chunk = (try? handle.read(upToCount: 1 << 16)) ?? nil
            if let chunk, !chunk.isEmpty { buffer += chunk } else { finished = true }
        }
    }
}
