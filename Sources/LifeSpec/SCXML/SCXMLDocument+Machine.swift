import LifecycleEngine

extension SCXMLDocument {
    /// The engine's machine for this chart. Unhandled events are ignored, as in SCXML.
    /// `extraEvents` declares events a caller will send that no transition names (an SCXML engine
    /// accepts any event name; LifeSpec's machines number the ones they know).
    package func machine(id: String? = nil, extraEvents: [String] = []) throws(MachineError) -> Machine {
        var children = [[String]](repeating: [], count: states.count)
        for state in states { if let parent = state.parent { children[parent].append(state.id) } }
        func block(_ content: [Content]) -> ActionBlock {
            var block = ActionBlock()
            for item in content {
                switch item {
                case .raise(let event): block.raises.append(event)
                case .log(let name): block.actions.append(.callback(name))
                case .notify(let name): block.actions.append(.notify(name))
                case .assign(let flag, let value): block.assignments.append(FlagAssignment(flag: flag, value: value))
                }
            }
            return block
        }
        var nodes: [StateNode] = []
        nodes.reserveCapacity(states.count)
        for (offset, state) in states.enumerated() {
            let parentID = state.parent.map { states[$0].id }
            switch state.kind {
            case .state:
                var initial = state.initial
                if initial.isEmpty, !children[offset].isEmpty {
                    // SCXML: the first child state in document order (not a history pseudo-state).
                    if let first = states.indices.first(where: { states[$0].parent == offset && !states[$0].isHistory })
                    {
                        initial = [states[first].id]
                    }
                }
                nodes.append(
                    StateNode(
                        id: state.id, parent: parentID, children: children[offset], initial: initial.first,
                        entry: block(state.entry), exit: block(state.exit),
                        initialTargets: children[offset].isEmpty ? [] : initial,
                        initialActions: block(state.initialContent)))
            case .parallel:
                nodes.append(
                    StateNode(
                        id: state.id, parent: parentID, children: children[offset], isParallel: true,
                        entry: block(state.entry), exit: block(state.exit)))
            case .final:
                nodes.append(
                    StateNode(
                        id: state.id, parent: parentID, isFinal: true, entry: block(state.entry),
                        exit: block(state.exit)))
            case .history(let depth):
                nodes.append(StateNode(id: state.id, parent: parentID, history: depth))
            }
        }
        let raised = Set(raisedEvents)
        var events: [LifecycleEvent] = []
        var seen: Set<String> = []
        for name in eventNames + extraEvents where seen.insert(name).inserted {
            events.append(
                LifecycleEvent(
                    id: name, kind: metadata.eventKinds[name] ?? (raised.contains(name) ? .internal : .system)))
        }
        let machineTransitions = transitions.map { transition in
            let content = block(transition.content)
            return LifecycleEngine.Transition(
                sources: ([transition.source] + transition.extraSources).map { states[$0].id },
                events: transition.events, guardExpression: transition.condition,
                targets: transition.targets, type: transition.type, actions: content.actions, raises: content.raises
            )
        }
        return try Machine(
            id: id ?? name ?? "scxml", states: nodes, initial: initial.first ?? "", initialTargets: initial,
            events: events,
            flags: flags, callbacks: allCallbacks,
            notifications: notificationNames.map { name in
                metadata.notifications.first { $0.id == name } ?? LifecycleNotification(id: name)
            },
            transitions: machineTransitions, unhandledEvents: metadata.unhandled ?? .ignore
        )
    }
}
