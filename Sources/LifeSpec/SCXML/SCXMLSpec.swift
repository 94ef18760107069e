import Foundation
import LifecycleEngine

extension SCXMLDocument {
    /// The spec id for a chart: its `<scxml name>`, else the file's name, as lowercase letters,
    /// digits and '-' (it names `Output/<id>/`).
    package var specID: String {
        let base = name ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        var id = ""
        for scalar in base.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                id.unicodeScalars.append(scalar)
            } else if !id.isEmpty, !id.hasSuffix("-") {
                id += "-"
            }
        }
        while id.hasSuffix("-") { id.removeLast() }
        if id.isEmpty || !(id.unicodeScalars.first.map { ("a"..."z").contains($0) } ?? false) {
            id = "chart" + (id.isEmpty ? "" : "-" + id)
        }
        return id
    }

    /// A spec id for each `<log>` callback name that is not one (`entering A` → `entering_A`); the
    /// name itself becomes the callback's Swift name, which traces print.
    var callbackIDs: [String: String] {
        var result: [String: String] = [:]
        var used = Set(callbackNames.filter(SpecParser.isValidElementID))
        for name in callbackNames where !SpecParser.isValidElementID(name) {
            var base = String(
                name.unicodeScalars.map { scalar -> Character in
                    scalar.isASCII
                        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                            || "_-.".unicodeScalars.contains(scalar))
                        ? Character(scalar) : "_"
                })
            if let first = base.unicodeScalars.first, !(first.isASCII && first.properties.isAlphabetic) && first != "_"
            {
                base = "_" + base
            }
            if base.isEmpty { base = "_" }
            var candidate = base
            var counter = 1
            while used.contains(candidate) {
                counter += 1
                candidate = "\(base)_\(counter)"
            }
            used.insert(candidate)
            result[name] = candidate
        }
        return result
    }

    /// The chart as the loader's `RawSpec`, so the same resolver and validation rules run on SCXML
    /// as on YAML. Every element keeps the location of the SCXML element it came from.
    func rawSpec() -> RawSpec {
        var raw = RawSpec(path: path, rootLocation: rootLocation)
        raw.id = Located(specID, at: rootLocation)
        raw.title = LocalizedText(
            metadata.title ?? name ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        raw.unhandled = Located(metadata.unhandled ?? .ignore, at: rootLocation)
        raw.carriedYAML = metadata.yaml
        raw.flags = flags.map {
            SpecDocument.FlagInfo(
                id: $0.id, title: nil, defaultValue: $0.defaultValue, description: nil, source: nil,
                location: rootLocation)
        }
        raw.notifications = notificationNames.map { name in
            let known = metadata.notifications.first { $0.id == name }
            return RawSpec.Notification(
                id: Located(name, at: rootLocation),
                swift: known.flatMap { $0.swiftName == name ? nil : Located($0.swiftName, at: rootLocation) },
                objc: known?.objcName.map { Located($0, at: rootLocation) })
        }
        raw.initial = initial.map { Located($0, at: rootLocation) }
        let callbackIDs = self.callbackIDs
        func block(_ content: [Content], at location: SourceLocation) -> RawSpec.Block {
            var block = RawSpec.Block()
            for item in content {
                switch item {
                case .raise(let event): block.raise.append(Located(event, at: location))
                case .log(let name): block.actions.append(.callback(Located(callbackIDs[name] ?? name, at: location)))
                case .notify(let name): block.actions.append(.notify(Located(name, at: location)))
                case .assign(let flag, let value): block.set.append((Located(flag, at: location), value))
                }
            }
            return block
        }
        let nodes = (try? machine())?.states
        // Children by parent, gathered once: filtering every state's siblings for each state made
        // loading a flat chart quadratic (16,000 states: 168 s, debug).
        var childrenOf = [[Int]](repeating: [], count: states.count)
        for (offset, state) in states.enumerated() {
            if let parent = state.parent { childrenOf[parent].append(offset) }
        }
        // A history state's default transition: its first transition.
        var firstTransitionOf: [Int: Int] = [:]
        for (position, transition) in transitions.enumerated() where firstTransitionOf[transition.source] == nil {
            firstTransitionOf[transition.source] = position
        }
        for (offset, state) in states.enumerated() {
            var node = RawSpec.State(id: Located(state.id, at: state.location))
            node.parent = state.parent.map { states[$0].id }
            node.children = childrenOf[offset].map { Located(states[$0].id, at: states[$0].location) }
            node.entry = block(state.entry, at: state.location)
            node.exit = block(state.exit, at: state.location)
            switch state.kind {
            case .state:
                // The default SCXML gives a compound state without one: its first child state.
                let initial = state.initial.isEmpty ? (nodes?[offset].initialTargets ?? []) : state.initial
                if !node.children.isEmpty {
                    node.initial = initial.map { Located($0, at: state.location) }
                    node.initialLocation = state.location
                }
                node.initialBlock = block(state.initialContent, at: state.location)
            case .parallel:
                node.parallel = Located(true, at: state.location)
            case .final:
                node.isFinal = true
            case .history(let depth):
                node.history = Located(depth, at: state.location)
                if let transition = firstTransitionOf[offset].map({ transitions[$0] }) {
                    node.historyDefault = transition.targets.map { Located($0, at: transition.location) }
                    node.historyDefaultBlock = block(transition.content, at: transition.location)
                }
            }
            raw.states.append(node)
        }
        for transition in transitions where !states[transition.source].isHistory {
            var entry = RawSpec.Transition(location: transition.location)
            entry.from = ([transition.source] + transition.extraSources).map {
                Located(states[$0].id, at: transition.location)
            }
            entry.on = transition.events.map { Located($0, at: transition.location) }
            entry.always = transition.events.isEmpty
            entry.type = transition.type
            if let condition = transition.condition {
                entry.guardText = Located(condition.description, at: transition.location)
                entry.guardExpression = condition
            }
            entry.to = transition.targets.map { Located($0, at: transition.location) }
            let content = block(transition.content, at: transition.location)
            entry.actions = content.actions
            entry.set = content.set
            entry.raise = content.raise
            raw.transitions.append(entry)
        }
        // Events: every name a transition or <raise> uses, except the engine's own done.state.* events.
        let doneEvents = Set(nodes.map { Machine.doneEvents(for: $0) } ?? [])
        let raised = Set(raisedEvents)
        var firstUse: [String: SourceLocation] = [:]
        for transition in transitions {
            for descriptor in transition.events {
                if let name = Self.eventName(descriptor), firstUse[name] == nil { firstUse[name] = transition.location }
            }
            for case .raise(let name) in transition.content where firstUse[name] == nil {
                firstUse[name] = transition.location
            }
        }
        for state in states {
            for case .raise(let name) in state.entry + state.initialContent + state.exit where firstUse[name] == nil {
                firstUse[name] = state.location
            }
        }
        for name in eventNames where !doneEvents.contains(name) {
            raw.events.append(
                SpecDocument.EventInfo(
                    id: name, title: nil,
                    kind: metadata.eventKinds[name] ?? (raised.contains(name) ? .internal : .system), description: nil,
                    source: nil,
                    location: firstUse[name] ?? rootLocation
                ))
        }
        // Callbacks the metadata describes first (names, posted notifications), then other <log>s.
        for callback in metadata.callbacks {
            raw.callbacks.append(
                RawSpec.Callback(
                    id: Located(callback.id, at: rootLocation),
                    swift: callback.swiftName == callback.id ? nil : Located(callback.swiftName, at: rootLocation),
                    objc: callback.objcName.map { Located($0, at: rootLocation) },
                    posts: callback.posts.map { (Located($0.notification, at: rootLocation), $0.order) }
                ))
        }
        var callbackSeen = Set(metadata.callbacks.map(\.id))
        func addCallbacks(_ content: [Content], at location: SourceLocation) {
            for case .log(let name) in content where callbackSeen.insert(name).inserted {
                let id = callbackIDs[name] ?? name
                raw.callbacks.append(
                    RawSpec.Callback(
                        id: Located(id, at: location), swift: id == name ? nil : Located(name, at: location)))
            }
        }
        for state in states {
            addCallbacks(state.entry, at: state.location)
            addCallbacks(state.initialContent, at: state.location)
            addCallbacks(state.exit, at: state.location)
        }
        for transition in transitions { addCallbacks(transition.content, at: transition.location) }
        return raw
    }
}
