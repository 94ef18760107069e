import CGraphviz
import Foundation
import LifeSpec

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
        let errorText =
            errors.isEmpty
            ? (warnings.isEmpty ? fallback : warnings.joined(separator: "\n")) : errors.joined(separator: "\n")
        return (errorText, warnings)
    }
}
