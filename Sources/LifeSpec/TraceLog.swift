import Foundation
import LifecycleEngine

/// Reads a log of callbacks and notifications, one per line, as an app records it (and as
/// `lifespec recorder` writes it): optional leading timestamps, then one name — a Swift name, an
/// Objective-C selector or notification name, or a spec id — running to the end of the line, so a
/// name with spaces survives; `#` starts a comment, blank lines are ignored.
package struct TraceVocabulary: Sendable {
    /// Per name, what it names: two callbacks may share a Swift name (WKNavigationDelegate's two
    /// `webView(_:decidePolicyFor:decisionHandler:)`), told apart only by selector or id.
    private var names: [String: [Observation]] = [:]
    package let knownNames: [String]

    package init(machine: Machine) {
        var names: [String: [Observation]] = [:]
        func add(_ name: String, _ observation: Observation) {
            if !(names[name]?.contains(observation) ?? false) { names[name, default: []].append(observation) }
        }
        // Shortened names stand for one observation only: in a system spec `didEnterBackgroundNotification`
        // could be part A's or part B's, and a log must then say which.
        var aliases: [String: Set<Observation>] = [:]
        for callback in machine.callbacks {
            for name in [callback.id, callback.swiftName, callback.objcName].compactMap({ $0 }) {
                add(name, .callback(callback.id))
                // Logs often drop the argument labels: `viewDidLoad` for `viewDidLoad()`.
                if let bare = name.split(separator: "(").first.map(String.init), bare != name {
                    aliases[bare, default: []].insert(.callback(callback.id))
                }
            }
        }
        for notification in machine.notifications {
            for name in [notification.id, notification.swiftName, notification.objcName].compactMap({ $0 }) {
                add(name, .notification(notification.id))
                // `UIApplication.didBecomeActiveNotification` is also logged as `didBecomeActiveNotification`.
                if let last = name.split(separator: ".").last.map(String.init), last != name {
                    aliases[last, default: []].insert(.notification(notification.id))
                }
            }
        }
        for (alias, observations) in aliases where names[alias] == nil && observations.count == 1 {
            names[alias] = Array(observations)
        }
        self.names = names
        knownNames = names.keys.sorted()
    }

    /// What `name` names; the first declared when several share it (see `observations(named:)`).
    package func observation(named name: String) -> Observation? { names[name]?.first }
    package func observation(named name: Substring) -> Observation? { names[String(name)]?.first }
    /// Everything `name` names, in declaration order: more than one for a shared Swift name.
    package func observations(named name: String) -> [Observation] { names[name] ?? [] }

    /// The name on a log line, or `nil` for a blank or comment line. Scans UTF-8 bytes without
    /// allocating: this runs once per line of logs with millions of lines. Measured unsafe code:
    /// scanning a buffer pointer rather than the Substring's UTF-8 view takes `check-trace` on the
    /// benchmark's flagship log from 4.65 s to 4.0 s for 2 million lines (release, 3 runs each);
    /// the check-trace step of `Benchmarks/run` (10 million lines) is the figure to watch.
    package static func name(onLine line: Substring) -> Substring? {
        let bytes = line.utf8
        let found =
            bytes.withContiguousStorageIfAvailable(nameRange(in:))
            ?? Array(bytes).withUnsafeBufferPointer(nameRange(in:))
        guard let found else { return nil }
        let start = bytes.index(bytes.startIndex, offsetBy: found.lowerBound)
        return line[start..<bytes.index(start, offsetBy: found.count)]
    }

    /// Byte offsets of the name: everything after the leading timestamps (`12:00:01.234`,
    /// `2026-11-21T10:00:00Z`, `[0.123]`, `+0.5s`) up to a `#` comment or the end of the line,
    /// without trailing spaces; the last timestamp-looking token when nothing else is there.
    private static func nameRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        }
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
        first == UInt8(ascii: "[") || first == UInt8(ascii: "+")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    }
}

/// Why a trace cannot be read: `path:line:col: error: [LS001] message`.
package struct TraceInputError: Error, CustomStringConvertible, Sendable {
    package let location: SourceLocation
    package let message: String
    package var description: String { "\(location): error: [\(DiagnosticCode.unreadableFile.rawValue)] \(message)" }
}

/// Streams a file's lines in bounded memory, whatever the file holds: a line ends at LF, CR or
/// CRLF alike; a line longer than `maximumLineLength` bytes is an error located at its line (not
/// a buffer that grows with it); each byte is looked at once (the search for the end of a line
/// resumes where the last read stopped). Only a regular file is opened: a FIFO would block, a
/// device such as /dev/zero never ends, and a folder reads as empty on Linux.
package struct LineReader: Sequence, IteratorProtocol {
    /// The longest line read, in bytes. Log lines are short; past this the log is not one.
    package static let maximumLineLength = 64 * 1024
    private static let chunkSize = 64 * 1024

    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    /// Start of the current line in `buffer`.
    private var start = 0
    /// Where the search for the line's end resumes: bytes before it are known not to end a line.
    private var scanned = 0
    private var finished = false
    /// The last line ended with CR: a LF right after it belongs to that line ending.
    private var skipLineFeed = false
    package private(set) var lineNumber = 0
    /// Set when reading stopped on an error (`next()` then returns nil).
    package private(set) var error: TraceInputError?

    /// Refuses anything but a regular file before opening it.
    package static func open(_ path: String) throws(TraceInputError) -> LineReader {
        let start = SourceLocation(path: path, line: 1, column: 1)
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw TraceInputError(
                location: start, message: "cannot read the trace: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind =
                switch info.st_mode & S_IFMT {
                case S_IFDIR: "a folder"
                case S_IFIFO: "a FIFO"
                case S_IFCHR, S_IFBLK: "a device"
                default: "not a regular file"
                }
            throw TraceInputError(location: start, message: "the trace is \(kind); give a log file")
        }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw TraceInputError(
                location: start, message: "cannot read the trace: \(String(cString: strerror(errno)))")
        }
        // Checked again on the open file: the path may have changed in between.
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw TraceInputError(location: start, message: "the trace is not a regular file; give a log file")
        }
        return LineReader(descriptor: descriptor, path: path)
    }

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// A regular file at `path`, or `nil` (see `open` for the reason).
    package init?(path: String) {
        guard let reader = try? Self.open(path) else { return nil }
        self = reader
    }

    package mutating func next() -> String? {
        do {
            return try nextLine()
        } catch {
            self.error = error
            return nil
        }
    }

    /// The next line without its line ending, `nil` at the end, or an error for a line too long.
    package mutating func nextLine() throws(TraceInputError) -> String? {
        if let error { throw error }
        while true {
            if skipLineFeed, start < buffer.count {
                if buffer[start] == 0x0A { start += 1 }
                skipLineFeed = false
                scanned = Swift.max(scanned, start)
            }
            var index = Swift.max(scanned, start)
            while index < buffer.count, buffer[index] != 0x0A, buffer[index] != 0x0D { index += 1 }
            scanned = index
            if index < buffer.count {
                if index - start > Self.maximumLineLength { throw tooLong() }
                let line = String(decoding: buffer[start..<index], as: UTF8.self)
                skipLineFeed = buffer[index] == 0x0D
                start = index + 1
                scanned = start
                lineNumber += 1
                return line
            }
            if buffer.count - start > Self.maximumLineLength { throw tooLong() }
            if finished {
                guard start < buffer.count else {
                    if descriptorOpen { closeFile() }
                    return nil
                }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                scanned = start
                lineNumber += 1
                return line
            }
            // Keep only the unfinished line, then read more after it.
            if start > 0 {
                buffer.removeSubrange(0..<start)
                scanned -= start
                start = 0
            }
            let count = buffer.count
            buffer.reserveCapacity(Self.maximumLineLength + Self.chunkSize + 1)
            buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
            // read(2) fills memory through a pointer: C interop, not an optimisation.
            let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, Self.chunkSize) }
            if read < 0 && errno == EINTR {
                buffer.removeSubrange(count...)
                continue
            }
            if read < 0 {
                let reason = String(cString: strerror(errno))
                buffer.removeSubrange(count...)
                error = TraceInputError(
                    location: SourceLocation(path: path, line: lineNumber + 1, column: 1),
                    message: "cannot read the trace: \(reason)")
                throw error!
            }
            buffer.removeSubrange((count + read)...)
            if read == 0 { finished = true }
        }
    }

    private var descriptorOpen = true
    private mutating func closeFile() {
        close(descriptor)
        descriptorOpen = false
    }

    private mutating func tooLong() -> TraceInputError {
        let failure = TraceInputError(
            location: SourceLocation(path: path, line: lineNumber + 1, column: 1),
            message:
                "this line is longer than \(Self.maximumLineLength) bytes, the longest a trace line may be; is this a log of callback names?"
        )
        error = failure
        return failure
    }
}

/// Log text as it may be shown on a terminal: control characters (ESC, NUL …), bidirectional
/// overrides and line separators are written as `\u{…}` escapes, and a very long name is cut.
package enum TraceText {
    package static let maximumShownLength = 200

    package static func shown(_ text: Substring) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == maximumShownLength {
                result += "…"
                break
            }
            count += 1
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
