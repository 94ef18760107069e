import LifecycleEngine

/// Writes a machine as a LifeSpec YAML spec (what `lifespec import` makes of an SCXML chart).
/// Every string is double-quoted and escaped, so no id or name can break the YAML.
package enum SpecYAMLWriter {
    package struct Failure: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    package static func yaml(for spec: LoadedSpec, header: String? = nil) throws(Failure) -> String {
        let machine = spec.machine
        for state in machine.states where !state.initialActions.isEmpty {
            throw Failure(
                message: "the <initial> of '\(state.id)' has executable content, which the YAML format has no place for"
            )
        }
        for state in machine.states where state.isHistory {
            if let transition = machine.transitions(declaredOn: state.id).first,
                !transition.actions.isEmpty || !transition.raises.isEmpty || !transition.assignments.isEmpty
            {
                throw Failure(
                    message:
                        "the default transition of history state '\(state.id)' has executable content, which the YAML format has no place for"
                )
            }
        }
        var writer = Writer(machine: machine)
        writer.document(spec, header: header)
        return writer.output.text
    }
}

extension SpecYAMLWriter {
    /// What `lifespec import` writes for a chart loaded as `chart`, to be read at `path`: the YAML
    /// the chart carries (`<lifespec:yaml>`, written by `export`) as it is, when it loads there as
    /// the chart's machine; else the machine's own YAML (`yaml(for:header:)`), with a warning
    /// naming why the carried words were left behind (the chart was edited after export, or it
    /// carries a system spec whose parts are not beside `path`).
    package static func imported(
        _ chart: LoadedSpec, path: String, header: String? = nil, limits: LoaderLimits = LoaderLimits()
    ) throws(Failure) -> (yaml: String, diagnostics: [Diagnostic]) {
        guard let carried = chart.carriedYAML else { return (try yaml(for: chart, header: header), []) }
        let check = SpecLoader.load(text: carried.text, path: path, limits: limits)
        let why: String
        if let spec = check.spec, !check.hasErrors {
            if spec.machine == chart.machine { return (carried.text, []) }
            why = "it gives another machine than the chart's (was the chart edited after export?)"
        } else {
            let first = check.diagnostics.first { $0.severity == .error }
            why = "it does not load at \(path)" + (first.map { " (\($0.code.rawValue) \($0.message))" } ?? "")
        }
        let warning = Diagnostic.warning(
            .invalidValue,
            "the LifeSpec YAML this chart carries is not imported: \(why); the chart's machine is, without the spec's titles, descriptions, scenarios and other words",
            at: carried.location)
        return (try yaml(for: chart, header: header), [warning])
    }
}

/// The YAML, written flow style inside block mappings: every id and name a quoted scalar.
private struct Writer {
    let machine: Machine
    var output = TextOutput()

    init(machine: Machine) { self.machine = machine }

    mutating func document(_ spec: LoadedSpec, header: String?) {
        if let header {
            for line in header.split(separator: "\n", omittingEmptySubsequences: false) {
                output.write("# ")
                output.write(line)
                output.newline()
            }
        }
        output.line("lifespec: 1")
        output.write("id: ")
        quoted(machine.id)
        output.newline()
        if let title = spec.document.title?.translations.first?.text {
            output.write("title: ")
            quoted(title)
            output.newline()
        }
        output.line("unhandled: \(machine.unhandledEvents.rawValue)")
        output.write("initial: ")
        list(machine.initialTargets)
        output.newline()
        let done = Set(Machine.doneEvents(for: machine.states))
        let declared = machine.events.filter { !done.contains($0.id) }
        // `events:` and `flags:` map an id to one field each.
        for (key, entries) in [
            ("events", declared.map { ($0.id, "kind: \($0.kind.rawValue)") }),
            ("flags", machine.flags.map { ($0.id, "default: \($0.defaultValue)") }),
        ] where !entries.isEmpty {
            output.line("\(key):")
            for (id, field) in entries {
                output.write("  ")
                quoted(id)
                output.write(": {\(field)}\n")
            }
        }
        if !machine.callbacks.isEmpty {
            output.line("callbacks:")
            for callback in machine.callbacks {
                var fields = names(id: callback.id, swift: callback.swiftName, objc: callback.objcName)
                if let posts = callback.posts {
                    fields.next(&output)
                    output.write("posts: {notification: ")
                    quoted(posts.notification)
                    output.write(", order: \(posts.order.rawValue)}")
                }
                output.write("}\n")
            }
        }
        if !machine.notifications.isEmpty {
            output.line("notifications:")
            for notification in machine.notifications {
                _ = names(id: notification.id, swift: notification.swiftName, objc: notification.objcName)
                output.write("}\n")
            }
        }
        output.line("states:")
        output.indentation = 2
        for state in machine.topLevelStates { write(state) }
        output.indentation = 0
        let transitions = machine.transitions.filter { transition in
            !transition.sources.contains { machine.state($0)?.isHistory == true }
        }
        if !transitions.isEmpty {
            output.line("transitions:")
            for transition in transitions { write(transition) }
        }
    }

    /// `  "id": {swift: "…", objc: "…"` with the names that differ, the mapping left open.
    mutating func names(id: String, swift: String, objc: String?) -> FieldSeparator {
        output.write("  ")
        quoted(id)
        output.write(": {")
        var fields = FieldSeparator()
        if swift != id {
            fields.next(&output)
            output.write("swift: ")
            quoted(swift)
        }
        if let objc {
            fields.next(&output)
            output.write("objc: ")
            quoted(objc)
        }
        return fields
    }

    mutating func write(_ transition: Transition) {
        output.write("  - {from: ")
        list(transition.sources)
        if transition.events.isEmpty {
            output.write(", always: true")
        } else {
            output.write(", on: ")
            list(transition.events)
        }
        if let condition = transition.guardExpression {
            output.write(", guard: ")
            quoted(condition.description)
        }
        if !transition.targets.isEmpty {
            output.write(", to: ")
            list(transition.targets)
        }
        if transition.type == .internal { output.write(", type: internal") }
        if !transition.actions.isEmpty {
            output.write(", do: [")
            for (offset, action) in transition.actions.enumerated() {
                if offset > 0 { output.write(", ") }
                write(action)
            }
            output.write("]")
        }
        if !transition.assignments.isEmpty {
            output.write(", set: ")
            assignments(transition.assignments)
        }
        if !transition.raises.isEmpty {
            output.write(", raise: ")
            list(transition.raises)
        }
        output.write("}\n")
    }

    /// What a state says besides its children, each field written by `field`.
    private enum StateField {
        case history(HistoryDepth)
        case defaultTargets([String])
        case parallel, final
        case initial([String])
        case entry(ActionBlock)
        case exit(ActionBlock)
    }

    mutating func write(_ state: StateNode) {
        var fields: [StateField] = []
        if let depth = state.history {
            fields.append(.history(depth))
            if let transition = machine.transitions(declaredOn: state.id).first {
                fields.append(.defaultTargets(transition.targets))
            }
        }
        if state.isParallel { fields.append(.parallel) }
        if state.isFinal { fields.append(.final) }
        if !state.children.isEmpty, !state.isParallel, !state.initialTargets.isEmpty {
            fields.append(.initial(state.initialTargets))
        }
        if !state.entry.isEmpty { fields.append(.entry(state.entry)) }
        if !state.exit.isEmpty { fields.append(.exit(state.exit)) }
        output.startLine()
        quoted(state.id)
        if state.children.isEmpty {
            output.write(": {")
            for (offset, field) in fields.enumerated() {
                if offset > 0 { output.write(", ") }
                write(field)
            }
            output.write("}\n")
            return
        }
        output.write(":\n")
        output.indentation += 2
        for field in fields {
            output.startLine()
            write(field)
            output.newline()
        }
        output.line("states:")
        output.indentation += 2
        for child in state.children { if let node = machine.state(child) { write(node) } }
        output.indentation -= 4
    }

    private mutating func write(_ field: StateField) {
        switch field {
        case .history(let depth): output.write("history: \(depth.rawValue)")
        case .defaultTargets(let targets):
            output.write("default: ")
            list(targets)
        case .parallel: output.write("parallel: true")
        case .final: output.write("final: true")
        case .initial(let targets):
            output.write("initial: ")
            list(targets)
        case .entry(let block):
            output.write("entry: ")
            write(block)
        case .exit(let block):
            output.write("exit: ")
            write(block)
        }
    }

    mutating func write(_ action: Action) {
        let (key, id) =
            switch action {
            case .callback(let id): ("callback", id)
            case .notify(let id): ("notify", id)
            }
        output.write("{\(key): ")
        quoted(id)
        output.write("}")
    }

    mutating func write(_ block: ActionBlock) {
        output.write("[")
        var items = FieldSeparator()
        for action in block.actions {
            items.next(&output)
            write(action)
        }
        if !block.assignments.isEmpty {
            items.next(&output)
            output.write("{set: ")
            assignments(block.assignments)
            output.write("}")
        }
        for event in block.raises {
            items.next(&output)
            output.write("{raise: ")
            quoted(event)
            output.write("}")
        }
        output.write("]")
    }

    /// `{"flag": true, …}`.
    mutating func assignments(_ assignments: [FlagAssignment]) {
        output.write("{")
        for (offset, assignment) in assignments.enumerated() {
            if offset > 0 { output.write(", ") }
            quoted(assignment.flag)
            output.write(": \(assignment.value)")
        }
        output.write("}")
    }

    /// One quoted item, or a flow sequence of them.
    mutating func list(_ items: [String]) {
        guard items.count != 1 else { return quoted(items[0]) }
        output.write("[")
        for (offset, item) in items.enumerated() {
            if offset > 0 { output.write(", ") }
            quoted(item)
        }
        output.write("]")
    }

    mutating func quoted(_ value: String) { YAMLText.writeQuoted(value, to: &output) }
}

/// Writes `, ` before every item but the first.
private struct FieldSeparator {
    private var first = true
    mutating func next(_ output: inout TextOutput) {
        if !first { output.write(", ") }
        first = false
    }
}
