import LifecycleEngine

/// Writes a machine as a LifeSpec YAML spec (what `lifespec import` makes of an SCXML chart).
/// Every string is double-quoted and escaped, so no id or name can break the YAML.
public enum SpecYAMLWriter {
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    public static func yaml(for spec: LoadedSpec, header: String? = nil) throws(Failure) -> String {
        let machine = spec.machine
        for state in machine.states where !state.initialActions.isEmpty {
            throw Failure(message: "the <initial> of '\(state.id)' has executable content, which the YAML format has no place for")
        }
        for state in machine.states where state.isHistory {
            if let transition = machine.transitions(declaredOn: state.id).first, !transition.actions.isEmpty || !transition.raises.isEmpty || !transition.assignments.isEmpty {
                throw Failure(message: "the default transition of history state '\(state.id)' has executable content, which the YAML format has no place for")
            }
        }
        var text = ""
        if let header { text += header.split(separator: "\n", omittingEmptySubsequences: false).map { "# " + $0 }.joined(separator: "\n") + "\n" }
        text += "lifespec: 1\n"
        text += "id: \(quoted(machine.id))\n"
        if let title = spec.document.title?.translations.first?.text { text += "title: \(quoted(title))\n" }
        text += "unhandled: \(machine.unhandledEvents.rawValue)\n"
        text += "initial: \(list(machine.initialTargets))\n"
        let done = Set(Machine.doneEvents(for: machine.states))
        let declared = machine.events.filter { !done.contains($0.id) }
        if !declared.isEmpty {
            text += "events:\n"
            for event in declared { text += "  \(quoted(event.id)): {kind: \(event.kind.rawValue)}\n" }
        }
        if !machine.flags.isEmpty {
            text += "flags:\n"
            for flag in machine.flags { text += "  \(quoted(flag.id)): {default: \(flag.defaultValue)}\n" }
        }
        if !machine.callbacks.isEmpty {
            text += "callbacks:\n"
            for callback in machine.callbacks {
                var fields: [String] = []
                if callback.swiftName != callback.id { fields.append("swift: \(quoted(callback.swiftName))") }
                if let objc = callback.objcName { fields.append("objc: \(quoted(objc))") }
                if let posts = callback.posts { fields.append("posts: {notification: \(quoted(posts.notification)), order: \(posts.order.rawValue)}") }
                text += "  \(quoted(callback.id)): {\(fields.joined(separator: ", "))}\n"
            }
        }
        if !machine.notifications.isEmpty {
            text += "notifications:\n"
            for notification in machine.notifications {
                var fields: [String] = []
                if notification.swiftName != notification.id { fields.append("swift: \(quoted(notification.swiftName))") }
                if let objc = notification.objcName { fields.append("objc: \(quoted(objc))") }
                text += "  \(quoted(notification.id)): {\(fields.joined(separator: ", "))}\n"
            }
        }
        text += "states:\n"
        for state in machine.topLevelStates { write(state, machine: machine, indent: "  ", into: &text) }
        let transitions = machine.transitions.filter { transition in !transition.sources.contains { machine.state($0)?.isHistory == true } }
        if !transitions.isEmpty {
            text += "transitions:\n"
            for transition in transitions {
                var fields = ["from: \(list(transition.sources))"]
                if transition.events.isEmpty { fields.append("always: true") } else { fields.append("on: \(list(transition.events))") }
                if let condition = transition.guardExpression { fields.append("guard: \(quoted(condition.description))") }
                if !transition.targets.isEmpty { fields.append("to: \(list(transition.targets))") }
                if transition.type == .internal { fields.append("type: internal") }
                if !transition.actions.isEmpty { fields.append("do: [\(transition.actions.map(action).joined(separator: ", "))]") }
                if !transition.assignments.isEmpty {
                    fields.append("set: {\(transition.assignments.map { "\(quoted($0.flag)): \($0.value)" }.joined(separator: ", "))}")
                }
                if !transition.raises.isEmpty { fields.append("raise: \(list(transition.raises))") }
                text += "  - {\(fields.joined(separator: ", "))}\n"
            }
        }
        return text
    }

    private static func write(_ state: StateNode, machine: Machine, indent: String, into text: inout String) {
        var fields: [String] = []
        if let depth = state.history {
            fields.append("history: \(depth.rawValue)")
            if let transition = machine.transitions(declaredOn: state.id).first { fields.append("default: \(list(transition.targets))") }
        }
        if state.isParallel { fields.append("parallel: true") }
        if state.isFinal { fields.append("final: true") }
        if !state.children.isEmpty, !state.isParallel, !state.initialTargets.isEmpty { fields.append("initial: \(list(state.initialTargets))") }
        if !state.entry.isEmpty { fields.append("entry: \(block(state.entry))") }
        if !state.exit.isEmpty { fields.append("exit: \(block(state.exit))") }
        if state.children.isEmpty {
            text += "\(indent)\(quoted(state.id)): {\(fields.joined(separator: ", "))}\n"
            return
        }
        text += "\(indent)\(quoted(state.id)):\n"
        for field in fields { text += "\(indent)  \(field)\n" }
        text += "\(indent)  states:\n"
        for child in state.children { if let node = machine.state(child) { write(node, machine: machine, indent: indent + "    ", into: &text) } }
    }

    private static func action(_ action: Action) -> String {
        switch action {
        case .callback(let id): "{callback: \(quoted(id))}"
        case .notify(let id): "{notify: \(quoted(id))}"
        }
    }

    private static func block(_ block: ActionBlock) -> String {
        var items = block.actions.map(action)
        if !block.assignments.isEmpty {
            items.append("{set: {\(block.assignments.map { "\(quoted($0.flag)): \($0.value)" }.joined(separator: ", "))}}")
        }
        items += block.raises.map { "{raise: \(quoted($0))}" }
        return "[\(items.joined(separator: ", "))]"
    }

    private static func list(_ items: [String]) -> String {
        items.count == 1 ? quoted(items[0]) : "[\(items.map(quoted).joined(separator: ", "))]"
    }

    /// A double-quoted YAML scalar: backslash, quote and every control character escaped.
    static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar == "\u{FEFF}" {
                    result += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
