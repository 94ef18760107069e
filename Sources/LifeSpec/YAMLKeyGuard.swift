import CYaml

/// A walk over libyaml's events before Yams composes the tree. Yams checks a mapping's keys for
/// duplicates by hashing them as composed, aliases expanded, before LifeSpec's node budget can
/// apply: a 429-byte document whose key is an alias bomb (`? *a8`) hashed 10⁸ nodes (107 s). Here
/// every key's size, aliases expanded, is counted from the events (an anchor's size is known when
/// it closes, so an alias costs one lookup), and a document whose keys add up to more than the
/// node budget is refused before it is composed.
enum YAMLKeyGuard {
    /// The first key past `budget`, or `nil` (also for YAML libyaml cannot parse: Yams reports that).
    static func check(_ text: String, path: String, budget: Int) -> Diagnostic? {
        // libyaml reads the text through a pointer that must stay valid while it parses: C interop.
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer -> Diagnostic? in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)

            struct Frame {
                let isMapping: Bool
                let anchor: String?
                let line: Int
                let column: Int
                var size = 1
                var nextIsKey = true
            }
            var stack: [Frame] = []
            var anchors: [String: Int] = [:]
            var keyNodes = 0
            func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
                pointer.map { String(cString: $0) }
            }
            // Returns the diagnostic when a finished node, as a key, spends the budget.
            func finish(size: Int, anchor: String?, line: Int, column: Int) -> Diagnostic? {
                if let anchor { anchors[anchor] = size }
                guard var parent = stack.popLast() else { return nil }
                defer { stack.append(parent) }
                parent.size = min(parent.size + size, Int.max / 4)
                guard parent.isMapping else { return nil }
                defer { parent.nextIsKey.toggle() }
                guard parent.nextIsKey else { return nil }
                keyNodes = min(keyNodes + size, Int.max / 4)
                guard keyNodes > budget else { return nil }
                return .error(
                    .inputLimit,
                    "this mapping key expands through aliases to \(size > budget ? "more than \(budget)" : "\(size)") YAML nodes, past the document's budget of \(budget) for all keys; a key is a name, not an alias of a collection",
                    at: SourceLocation(path: path, line: line + 1, column: column + 1))
            }
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line)
                let column = Int(event.start_mark.column)
                var problem: Diagnostic?
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_DOCUMENT_START_EVENT:
                    anchors = [:]
                    stack = []
                case YAML_SCALAR_EVENT:
                    problem = finish(size: 1, anchor: name(event.data.scalar.anchor), line: line, column: column)
                case YAML_ALIAS_EVENT:
                    problem = finish(
                        size: name(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1, anchor: nil, line: line,
                        column: column)
                case YAML_SEQUENCE_START_EVENT:
                    stack.append(
                        Frame(
                            isMapping: false, anchor: name(event.data.sequence_start.anchor), line: line, column: column
                        ))
                case YAML_MAPPING_START_EVENT:
                    stack.append(
                        Frame(
                            isMapping: true, anchor: name(event.data.mapping_start.anchor), line: line, column: column))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let frame = stack.popLast() else { return nil }
                    problem = finish(size: frame.size, anchor: frame.anchor, line: frame.line, column: frame.column)
                default:
                    break
                }
                if let problem { return problem }
            }
            return nil
        }
    }
}
