import Foundation
import LifecycleEngine

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension SCXMLReader.Builder {
    func reason(for element: String, in parent: Frame) -> String {
        switch element {
        case "script": return "LifeSpec runs SCXML with the null datamodel (no scripts)"
        case "assign", "data", "datamodel":
            return
                "LifeSpec reads only boolean flags: a top-level <datamodel> of <data id expr=\"true|false\"/> (datamodel=\"ecmascript\") and <assign location=\"flag\" expr=\"true|false\"/> in executable content"
        case "invoke", "finalize": return "invoking other services is outside LifeSpec's subset"
        case "send": return "<send> is outside LifeSpec's subset (use <raise> for an internal event)"
        case "cancel": return "there are no delayed <send>s to cancel"
        case "if", "elseif", "else", "foreach":
            return "conditional and looping executable content needs a datamodel"
        case "donedata", "content", "param": return "event data needs a datamodel"
        case "raise", "log": return "executable content belongs in <onentry>, <onexit> or a <transition>"
        case "onentry", "onexit", "transition": return "it belongs inside a <state>, <parallel> or <final>"
        case "state", "parallel", "final", "history", "initial":
            return "it cannot appear inside this element"
        default: return "it is not an SCXML element LifeSpec knows"
        }
    }

    func check(
        _ attributes: [String: String], allowed: Set<String>, element: String, at location: SourceLocation
    ) {
        for key in attributes.keys.sorted()
        where !allowed.contains(key) && !key.hasPrefix("xmlns") && !key.hasPrefix("lifespec:") {
            let what: String
            switch key {
            case "expr", "targetexpr", "eventexpr", "delay", "delayexpr", "idlocation", "namelist":
                what = "it needs a datamodel or delayed events"
            default: what = "not part of LifeSpec's subset"
            }
            error(.unsupportedSCXML, "attribute '\(key)' of <\(element)> is not supported: \(what)", at: location)
        }
    }

    func addTransition(source: Int, attributes: [String: String], at location: SourceLocation) -> Int {
        check(attributes, allowed: ["event", "cond", "target", "type"], element: "transition", at: location)
        var type = TransitionType.external
        switch attributes["type"] ?? "external" {
        case "external": break
        case "internal": type = .internal
        case let other:
            error(.invalidValue, "<transition type='\(other)'>: the type is 'external' or 'internal'", at: location)
        }
        let events = tokens(attributes["event"])
        if attributes["event"] != nil, events.isEmpty {
            error(
                .invalidValue,
                "<transition event=''> names no event (leave 'event' out for an eventless transition)", at: location
            )
        }
        if case .history = states[source].kind {
            if !events.isEmpty || attributes["cond"] != nil {
                error(
                    .invalidValue, "a <history> state's default transition has no event or condition", at: location)
            }
            if tokens(attributes["target"]).isEmpty {
                error(.missingKey, "a <history> state's default transition needs a target", at: location)
            }
            if transitions.contains(where: { $0.source == source }) {
                error(.invalidValue, "a <history> state has one default transition", at: location)
            }
        }
        transitions.append(
            SCXMLDocument.Transition(
                source: source, events: events, condition: nil, targets: tokens(attributes["target"]), type: type,
                content: [], location: location, specIndex: attributes["lifespec:index"].flatMap { Int($0) }
            ))
        if let cond = attributes["cond"] { conditions[transitions.count - 1] = (cond, location) }
        return transitions.count - 1
    }

    func append(_ content: SCXMLDocument.Content, to frame: Frame?) {
        switch frame {
        case .handler(let state, let isEntry)?:
            if isEntry { states[state].entry.append(content) } else { states[state].exit.append(content) }
        case .transition(let index)?: transitions[index].content.append(content)
        case .initialTransition(let state)?: states[state].initialContent.append(content)
        default: break
        }
    }

    /// A `<log>`'s callback: the string literal of `expr` (`'name'`), else the label. Other
    /// expressions need a datamodel.
    func logName(_ attributes: [String: String], at location: SourceLocation) -> String? {
        if let expr = attributes["expr"]?.trimmingCharacters(in: .whitespaces), !expr.isEmpty {
            if let literal = stringLiteral(expr) { return literal }
            error(
                .unsupportedSCXML,
                "<log expr=\"\(expr)\"> is not supported: only a string literal ('name') names a callback without a datamodel",
                at: location)
            return nil
        }
        if let label = attributes["label"], !label.isEmpty { return label }
        error(
            .missingKey, "<log> needs a 'label' or a string-literal 'expr' (it stands for a callback of that name)",
            at: location)
        return nil
    }

    func stringLiteral(_ text: String) -> String? {
        guard text.count >= 2, let quote = text.first, quote == "'" || quote == "\"", text.last == quote else {
            return nil
        }
        let body = text.dropFirst().dropLast()
        guard !body.contains(quote), !body.contains("\\") else { return nil }
        return String(body)
    }

    func tokens(_ text: String?) -> [String] {
        text.map { $0.split(whereSeparator: \.isWhitespace).map(String.init) } ?? []
    }

    /// Names generated ids, resolves references and conditions, checks what the engine needs.
    func finish() -> (document: SCXMLDocument?, diagnostics: [Diagnostic]) {
        guard rootSeen else {
            if diagnostics.hasErrors { return (nil, diagnostics.sorted()) }
            diagnostics.append(
                .error(
                    .unsupportedSCXML, "no <scxml> root element", at: SourceLocation(path: path, line: 1, column: 1)
                ))
            return (nil, diagnostics.sorted())
        }
        // Generated ids: document order, skipping any id the document writes.
        var used = Set(idLocations.keys)
        var counter = 0
        for index in states.indices where states[index].idIsGenerated {
            let prefix: String
            switch states[index].kind {
            case .state: prefix = "state"
            case .parallel: prefix = "parallel"
            case .final: prefix = "final"
            case .history: prefix = "history"
            }
            var candidate: String
            repeat {
                counter += 1
                candidate = "_\(prefix)\(counter)"
            } while used.contains(candidate)
            used.insert(candidate)
            states[index].id = candidate
            idLocations[candidate] = states[index].location
        }
        let index = Dictionary(states.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
            var current = states[state].parent
            while let parent = current {
                if parent == ancestor { return true }
                current = states[parent].parent
            }
            return false
        }
        // Built once, on the first unknown id: thousands of them must not cost thousands of scans.
        var suggestions: Suggestion.Index?
        func known(_ id: String, at location: SourceLocation, _ context: String) -> Int? {
            if let position = index[id] { return position }
            if suggestions == nil { suggestions = Suggestion.Index(states.map(\.id)) }
            let suggestion = suggestions?.closest(to: id).map { "; did you mean '\($0)'?" } ?? ""
            diagnostics.append(
                .error(.unknownState, "\(context) '\(id)' is not a state of this chart\(suggestion)", at: location))
            return nil
        }
        if states.isEmpty {
            diagnostics.append(.error(.missingKey, "<scxml> holds no state", at: rootLocation))
            return (nil, diagnostics.sorted())
        }
        if rootInitial.isEmpty {
            rootInitial = states.first.map { [$0.id] } ?? []
        } else {
            for id in rootInitial { _ = known(id, at: rootLocation, "initial state") }
        }
        // Children and transition sources gathered once: a filter of every state per state was
        // quadratic (a flat chart of 8,000 states took minutes, #37).
        var childrenOf: [Int: [Int]] = [:]
        for position in states.indices {
            if let parent = states[position].parent { childrenOf[parent, default: []].append(position) }
        }
        let sources = Set(transitions.map(\.source))
        for (position, state) in states.enumerated() {
            let children = childrenOf[position] ?? []
            switch state.kind {
            case .state:
                for id in state.initial {
                    guard let target = known(id, at: state.location, "initial state") else { continue }
                    if !isDescendant(target, of: position) {
                        diagnostics.append(
                            .error(
                                .compoundWithoutInitial, "initial state '\(id)' of '\(state.id)' is not inside it",
                                at: state.location))
                    }
                }
                if !state.initial.isEmpty, children.allSatisfy({ states[$0].isHistory }) {
                    diagnostics.append(
                        .error(
                            .compoundWithoutInitial, "state '\(state.id)' has an initial state but no child states",
                            at: state.location))
                }
            case .parallel:
                if children.allSatisfy({ states[$0].isHistory }) {
                    diagnostics.append(
                        .error(.invalidValue, "<parallel> '\(state.id)' has no regions", at: state.location))
                }
            case .history:
                if !sources.contains(position) {
                    diagnostics.append(
                        .error(
                            .missingKey,
                            "<history> '\(state.id)' needs a default <transition> to states inside its parent",
                            at: state.location))
                }
            case .final: break
            }
        }
        for (position, transition) in transitions.enumerated() {
            for id in transition.targets {
                guard let target = known(id, at: transition.location, "target") else { continue }
                if case .history = states[transition.source].kind, let parent = states[transition.source].parent,
                    !isDescendant(target, of: parent)
                {
                    diagnostics.append(
                        .error(
                            .invalidValue,
                            "the default of <history> '\(states[transition.source].id)' targets '\(id)', which is not inside its parent",
                            at: transition.location))
                }
            }
            if let condition = conditions[position] {
                do {
                    let expression = try SCXMLCondition.parse(condition.text, flags: Set(flags.map(\.id)))
                    for id in expression.states { _ = known(id, at: condition.location, "In() of") }
                    transitions[position].condition = expression
                } catch {
                    // A hostile condition can be megabytes long: quote its start.
                    let shown = condition.text.count > 80 ? condition.text.prefix(80) + "…" : condition.text
                    diagnostics.append(
                        .error(
                            error.isLimit ? .inputLimit : .unsupportedSCXML,
                            "cond=\"\(shown)\" is not supported: \(error.message)", at: condition.location))
                }
            }
        }
        // An exported spec's transitions in its own order, one per `lifespec:index` (several sources).
        if !transitions.isEmpty, transitions.allSatisfy({ $0.specIndex != nil }) {
            var merged: [SCXMLDocument.Transition] = []
            var conditionsByIndex: [Int: (text: String, location: SourceLocation)] = [:]
            for (position, transition) in transitions.enumerated().sorted(by: {
                $0.element.specIndex! < $1.element.specIndex!
            }) {
                if let last = merged.last, last.specIndex == transition.specIndex {
                    merged[merged.count - 1].extraSources.append(transition.source)
                } else {
                    if let condition = conditions[position] { conditionsByIndex[merged.count] = condition }
                    merged.append(transition)
                }
            }
            transitions = merged
            conditions = conditionsByIndex
        }
        let flagIDs = Set(flags.map(\.id))
        for (flag, location) in assignments where !flagIDs.contains(flag) {
            diagnostics.append(
                .error(
                    .unknownFlag,
                    "<assign location=\"\(flag)\"> sets no <data> of this chart\(Suggestion.didYouMean(flag, among: flagIDs.sorted()))",
                    at: location))
        }
        // Variables the chart's LifeSpec metadata names flags for (an exported system's `A$needsLayout`
        // is its flag `A.needsLayout`): the flags, conditions and assignments take the flag's name.
        let renamed = metadata.flagNames
        // Each flag named once: by its own <data> or by one <lifespec:flag>, never by both or by two.
        var named = Set(flagIDs.filter { renamed[$0] == nil })
        for (variable, name) in renamed.sorted(by: { $0.value.location < $1.value.location }) {
            if !flagIDs.contains(variable) {
                diagnostics.append(
                    .error(
                        .unknownFlag, "<lifespec:flag var=\"\(variable)\"> names no <data> of this chart",
                        at: name.location))
            } else if !SpecParser.isValidElementID(name.id) {
                diagnostics.append(
                    .error(
                        .invalidValue,
                        "<lifespec:flag id=\"\(name.id)\"> is not a flag id (letters, digits, '_', '-' and '.')",
                        at: name.location))
            } else if !named.insert(name.id).inserted {
                diagnostics.append(
                    .error(
                        .duplicateID, "<lifespec:flag id=\"\(name.id)\"> names a flag another <data> already has",
                        at: name.location))
            }
        }
        if !renamed.isEmpty {
            func rename(_ flag: String) -> String { renamed[flag]?.id ?? flag }
            func rename(_ content: [SCXMLDocument.Content]) -> [SCXMLDocument.Content] {
                content.map { item in
                    if case .assign(let flag, let value) = item { return .assign(flag: rename(flag), value: value) }
                    return item
                }
            }
            flags = flags.map { LifecycleFlag(id: rename($0.id), defaultValue: $0.defaultValue) }
            for index in states.indices {
                states[index].entry = rename(states[index].entry)
                states[index].exit = rename(states[index].exit)
                states[index].initialContent = rename(states[index].initialContent)
            }
            for index in transitions.indices {
                transitions[index].content = rename(transitions[index].content)
                transitions[index].condition = transitions[index].condition?.renamed(flag: rename, state: { $0 })
            }
        }
        var document = SCXMLDocument(
            path: path, name: name, initial: rootInitial, states: states, transitions: transitions,
            rootLocation: rootLocation)
        document.flags = flags
        document.metadata = metadata
        guard !diagnostics.hasErrors else { return (nil, diagnostics.sorted()) }
        // The engine checks the rest (targets of several regions and the like) by refusing a model it cannot run.
        do {
            _ = try document.machine()
        } catch {
            diagnostics.append(.error(.invalidValue, "the chart cannot run: \(error)", at: rootLocation))
            return (nil, diagnostics.sorted())
        }
        return (document, diagnostics.sorted())
    }
}

/// `cond` under the null datamodel: `In('id')`, `true`, `false`, `!`, `&&`, `||` and parentheses,
/// read by the guard parser's SCXML dialect, so a `cond` has a guard's depth and size limits.
enum SCXMLCondition {
    /// `flags`: the chart's boolean `<data>`, which a condition may name.
    static func parse(_ text: String, flags: Set<String> = []) throws(GuardParseError) -> GuardExpression {
        try GuardExpression(parsing: text, dialect: .scxml(flags: flags))
    }
}
