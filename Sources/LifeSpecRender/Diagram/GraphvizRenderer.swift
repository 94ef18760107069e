import CGraphviz
import Foundation

/// Output formats produced in-process by libgvc.
public enum GraphvizFormat: String, Sendable, Hashable, CaseIterable {
    case svg
    case png
    case pdf
    /// The input annotated with layout coordinates (Graphviz's `-Tdot`).
    case dot

    /// The Graphviz device name; PNG goes through cairo for anti-aliased text.
    var device: String {
        switch self {
        case .svg: "svg"
        case .png: "png:cairo"
        case .pdf: "pdf:cairo"
        case .dot: "dot"
        }
    }

    public var fileExtension: String { rawValue }
}

/// A failure reported by Graphviz, with the text Graphviz wrote (which is captured, never
/// printed to stderr).
public struct GraphvizError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Stage: String, Sendable, Hashable {
        /// `agmemread` could not parse the DOT text.
        case parse
        /// `gvLayout` failed (e.g. an unknown layout engine).
        case layout
        /// `gvRenderData` failed (e.g. an unknown format), or Graphviz reported an error while
        /// laying out or rendering.
        case render
    }

    public let stage: Stage
    /// Graphviz's own messages, one per line, without the `Error: ` prefix.
    public let message: String

    public init(stage: Stage, message: String) {
        self.stage = stage
        self.message = message
    }

    public var description: String { "Graphviz \(stage.rawValue) failed: \(message)" }
}

/// Rendered bytes plus any warnings Graphviz reported on the way.
public struct GraphvizOutput: Sendable, Hashable {
    public let data: [UInt8]
    public let warnings: [String]
}

/// Renders DOT text to SVG, PNG or PDF in memory through libgvc: no `dot` process is spawned.
///
/// Graphviz keeps global state (the DOT parser, the error hook, caches) and crashes when two
/// threads use it at once, so there is exactly one renderer, `shared`, which owns the process's
/// one `GVC_t` context and serialises every call behind a lock. Each call frees what it made
/// (`gvFreeRenderData`, `gvFreeLayout`, `agclose`); the context itself lives for the process
/// (making a new one per render leaks a few KB each time). Graphviz's messages go to a hook
/// installed with `agseterrf` and come back in the thrown `GraphvizError` or in
/// `GraphvizOutput.warnings`, never on stderr.
public final class GraphvizRenderer: Sendable {
    public static let shared = GraphvizRenderer()

    /// The `GVC_t*`, created on first use. Only touched while the lock is held.
    private let context = Locked<OpaquePointer?>(nil)

    private init() {}

    /// Lays out `dot` with `layout` (`dot`, `neato`, …) and renders it as `format`.
    public func render(dot: String, format: GraphvizFormat, layout: String = "dot") throws(GraphvizError) -> [UInt8] {
        try renderWithWarnings(dot: dot, format: format, layout: layout).data
    }

    /// Like `render`, also returning the warnings Graphviz printed.
    public func renderWithWarnings(dot: String, format: GraphvizFormat, layout: String = "dot") throws(GraphvizError) -> GraphvizOutput {
        try render(dot: dot, device: format.device, layout: layout, normalizePDF: format == .pdf)
    }

    /// Renders with any Graphviz device name (`"svg"`, `"png:cairo"`, `"json"`, …).
    public func render(dot: String, device: String, layout: String = "dot") throws(GraphvizError) -> GraphvizOutput {
        try render(dot: dot, device: device, layout: layout, normalizePDF: device.hasPrefix("pdf"))
    }

    private func render(dot: String, device: String, layout: String, normalizePDF: Bool) throws(GraphvizError) -> GraphvizOutput {
        if dot.utf8.contains(0) {
            throw GraphvizError(stage: .parse, message: "DOT text contains a NUL character")
        }
        return try context.withLock { (context: inout OpaquePointer?) throws(GraphvizError) -> GraphvizOutput in
            let gvc: OpaquePointer
            if let existing = context {
                gvc = existing
            } else {
                GraphvizMessages.install()
                guard let created = gvContext() else {
                    throw GraphvizError(stage: .layout, message: "could not create a Graphviz context")
                }
                context = created
                gvc = created
            }
            GraphvizMessages.reset()
            _ = agreseterrors()

            guard var graph = lifespec_agmemread(dot) else {
                throw GraphvizError(stage: .parse, message: GraphvizMessages.take(orDefault: "syntax error in DOT text").errors)
            }
            defer { agclose(graph) }

            // dot reports some failures through agerr while still returning 0.
            if gvLayout(gvc, graph, layout) != 0 || agerrors() >= Int32(AGERR.rawValue) {
                let failure = GraphvizMessages.take(orDefault: "layout engine '\(layout)' failed").errors
                // dot's classic ranking gives up on some clustered graphs that newrank handles: try
                // once more on a fresh copy of the graph with newrank set.
                guard layout == "dot", failure.contains("init_rank"), let retry = lifespec_agmemread(dot) else {
                    throw GraphvizError(stage: .layout, message: failure)
                }
                agclose(graph)
                graph = retry
                lifespec_set_newrank(graph)
                _ = agreseterrors()
                guard gvLayout(gvc, graph, layout) == 0, agerrors() < Int32(AGERR.rawValue) else {
                    throw GraphvizError(stage: .layout, message: GraphvizMessages.take(orDefault: failure).errors)
                }
            }
            defer {
                if layout == "dot" { lifespec_gv_repair_dot_ranks(graph) }
                gvFreeLayout(gvc, graph)
            }

            var buffer: UnsafeMutablePointer<CChar>?
            var length: UInt32 = 0
            let status = gvRenderData(gvc, graph, device, &buffer, &length)
            defer { if let buffer { gvFreeRenderData(buffer) } }
            guard status == 0, let buffer else {
                throw GraphvizError(stage: .render, message: GraphvizMessages.take(orDefault: "format '\(device)' failed").errors)
            }
            var data = [UInt8](UnsafeRawBufferPointer(start: buffer, count: Int(length)))
            let messages = GraphvizMessages.take(orDefault: "")
            if agerrors() >= Int32(AGERR.rawValue) {
                throw GraphvizError(stage: .render, message: messages.errors.isEmpty ? "Graphviz reported an error" : messages.errors)
            }
            if normalizePDF { Self.normalizePDFDates(&data) }
            return GraphvizOutput(data: data, warnings: messages.warnings)
        }
    }

    /// Cairo stamps `/CreationDate (D:…)` into every PDF. The date is overwritten in place with
    /// the epoch (same length, so the cross-reference offsets stay valid) to make output
    /// byte-identical across runs.
    static func normalizePDFDates(_ data: inout [UInt8]) {
        for key in ["/CreationDate (", "/ModDate ("] {
            let pattern = Array(key.utf8)
            var index = 0
            while let start = data.firstRange(of: pattern, from: index) {
                var cursor = start + pattern.count
                let epoch = Array("D:19700101000000".utf8)
                var offset = 0
                while cursor < data.count, data[cursor] != UInt8(ascii: ")") {
                    if offset < epoch.count {
                        data[cursor] = epoch[offset]
                    } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(data[cursor]) {
                        data[cursor] = UInt8(ascii: "0")
                    }
                    offset += 1
                    cursor += 1
                }
                index = cursor
            }
        }
    }
}

private extension Array where Element == UInt8 {
    func firstRange(of pattern: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, count >= pattern.count, start <= count - pattern.count else { return nil }
        for index in start...(count - pattern.count) where self[index] == pattern[0] {
            if self[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
        }
        return nil
    }
}

/// Collects what Graphviz reports through `agseterrf`. Graphviz delivers one message in pieces:
/// `"Error"` or `"Warning"`, then `": "`, then the text; a continuation of the previous message
/// (Graphviz's `AGPREV`) comes without the prefix pieces.
enum GraphvizMessages {
    struct Message {
        var isError: Bool
        var text: String
    }

    struct Log {
        var messages: [Message] = []
        var expectingSeparator = false
    }

    static let log = Locked(Log())

    /// Installs the hook; called once, under the renderer's lock, before the context exists.
    static func install() {
        _ = agseterr(AGWARN)
        _ = agseterrf { piece in
            guard let piece else { return 0 }
            let text = String(cString: piece)
            GraphvizMessages.log.withLock { log in
                if text == "Error" || text == "Warning" {
                    log.messages.append(Message(isError: text == "Error", text: ""))
                    log.expectingSeparator = true
                } else if log.expectingSeparator && text == ": " {
                    log.expectingSeparator = false
                } else {
                    log.expectingSeparator = false
                    if log.messages.isEmpty { log.messages.append(Message(isError: true, text: "")) }
                    log.messages[log.messages.count - 1].text += text
                }
            }
            return 0
        }
    }

    static func reset() { log.withLock { $0 = Log() } }

    /// The errors (joined into one text, or `fallback` when there are none) and the warnings
    /// reported since the last reset, each message on one line.
    static func take(orDefault fallback: String) -> (errors: String, warnings: [String]) {
        let messages = log.withLock { log -> [Message] in
            defer { log = Log() }
            return log.messages
        }
        func clean(_ text: String) -> String {
            text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.joined(separator: " ")
        }
        let errors = messages.filter(\.isError).map { clean($0.text) }.filter { !$0.isEmpty }
        let warnings = messages.filter { !$0.isError }.map { clean($0.text) }.filter { !$0.isEmpty }
        let errorText = errors.isEmpty ? (warnings.isEmpty ? fallback : warnings.joined(separator: "\n")) : errors.joined(separator: "\n")
        return (errorText, warnings)
    }
}

/// A value behind a lock. The one place that vouches for sendability by hand: `state` is only
/// read or written inside `withLock`.
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
