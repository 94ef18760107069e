/// Read-only questions renderers and rules ask of a machine, answered from the engine's own tables
/// so nobody outside the engine rebuilds a state index or re-derives how transitions are selected.
///
/// States are answered by position in `Machine.states` (document order, parents before children).

/// What a state is, as the engine runs it.
package enum StateKind: Sendable, Hashable {
    case atomic
    case compound
    /// Every child region is active at once.
    case parallel
    case history(HistoryDepth)
}

extension Machine {
    // MARK: Structure by position

    /// The position of a state in `states`.
    package func position(of state: String) -> Int? { stateIndex(of: state) }

    package func kind(at position: Int) -> StateKind {
        switch tables.kind[position] {
        case .atomic: .atomic
        case .compound: .compound
        case .parallel: .parallel
        case .shallowHistory: .history(.shallow)
        case .deepHistory: .history(.deep)
        }
    }

    /// The parent's position; `nil` at the top level.
    package func parentPosition(of position: Int) -> Int? {
        let parent = tables.parent[position]
        return parent < 0 ? nil : parent
    }

    /// Child states in document order, history pseudo-states excluded. For a parallel state these
    /// are its regions.
    package func childPositions(of position: Int) -> [Int] { tables.children[position] }

    /// The history pseudo-states declared inside a state.
    package func historyPositions(of position: Int) -> [Int] { tables.historyChildren[position] }

    /// The state and its ancestors, innermost first.
    package func ancestryPositions(of position: Int) -> [Int] { tables.ancestry[position] }

    /// Whether `position` lies strictly inside `ancestor`.
    package func isDescendant(_ position: Int, of ancestor: Int) -> Bool { tables.isDescendant(position, of: ancestor) }

    /// Whether `position` is `ancestor` or lies inside it.
    package func isWithin(_ position: Int, _ ancestor: Int) -> Bool {
        position == ancestor || tables.isDescendant(position, of: ancestor)
    }

    /// The regions of a parallel state (its child states), or `[]` for any other state.
    package func regions(of state: String) -> [String] {
        guard let position = stateIndex(of: state), tables.kind[position] == .parallel else { return [] }
        return tables.children[position].map { states[$0].id }
    }

    /// The innermost parallel state strictly enclosing `position` and the region (child of that
    /// parallel state) `position` lies in; `nil` outside every parallel state.
    package func enclosingRegion(of position: Int) -> (parallel: Int, region: Int)? {
        let chain = tables.ancestry[position]
        for (offset, ancestor) in chain.enumerated().dropFirst() where tables.kind[ancestor] == .parallel {
            return (ancestor, chain[offset - 1])
        }
        return nil
    }

    /// Whether the machine has a parallel state anywhere.
    package var hasParallelRegions: Bool { tables.hasParallelStates }

    /// The atomic states a plain default entry of `state` ends in (every region of a parallel
    /// state), ascending. For a history state: its default transition's.
    package func defaultLeaves(entering state: String) -> [String] {
        guard let position = stateIndex(of: state), let runner = try? Runner(machine: self, state: states[position].id)
        else { return [] }
        return runner.states
    }

    /// The default transition of a history pseudo-state (the eventless transition declared on it).
    package func historyDefault(of state: String) -> Transition? {
        guard let position = stateIndex(of: state), tables.kind[position].isHistory,
            let first = tables.declared[position].first
        else { return nil }
        return transitions[first]
    }

    /// The `done.state.<id>` event raised when `state` completes; `nil` when it cannot complete.
    package func doneEvent(of state: String) -> String? {
        guard let position = stateIndex(of: state), tables.doneEvent[position] >= 0 else { return nil }
        return events[tables.doneEvent[position]].id
    }

    /// Whether transition `transition` is triggered by `event` (`nil`: eventless), by SCXML matching.
    package func transition(_ transition: Int, matches event: String?) -> Bool {
        guard let event else { return tables.trigger[transition] == -1 }
        guard let number = eventIndex(of: event) else { return tables.matchesAll[transition] }
        return tables.matches(transition, event: number)
    }

    // MARK: Guards the engine may read

    /// The flags (positions in `flags`) that the guards of `event`'s transitions on the ancestry of
    /// `position` read (`nil`: eventless transitions): everything the engine can read while looking
    /// for a transition in that state.
    package func guardFlags(for event: String?, onAncestryOf position: Int) -> [Int] {
        let tables = tables
        let number: Int
        if let event {
            guard let known = eventIndex(of: event) else { return [] }
            number = known
        } else {
            number = -1
        }
        var result: [Int] = []
        for state in tables.ancestry[position] {
            for transition in tables.declared[state] where tables.matches(transition, event: number) {
                tables.guards[transition]?.collectFlags(into: &result)
            }
        }
        return result
    }

    /// Whether some eventless transition is declared on the ancestry of `position`.
    package func hasEventlessTransition(onAncestryOf position: Int) -> Bool {
        let tables = tables
        return tables.ancestry[position].contains { state in
            tables.declared[state].contains { tables.trigger[$0] == -1 }
        }
    }
}

extension FlagGuard {
    func collectFlags(into result: inout [Int]) {
        switch self {
        case .flag(let index): if !result.contains(index) { result.append(index) }
        case .constant, .inState: break
        case .not(let inner): inner.collectFlags(into: &result)
        case .and(let lhs, let rhs), .or(let lhs, let rhs):
            lhs.collectFlags(into: &result)
            rhs.collectFlags(into: &result)
        }
    }
}

/// What an event does in one configuration, asked before it is sent.
package struct EnabledTransitions: Sendable, Hashable {
    /// The transitions of the microstep the event would start, in document order (empty: none).
    package let transitions: [Transition]
    /// The flags any guard the engine evaluated while selecting them reads, in `Machine.flags` order.
    package let flagsRead: [String]
}

extension Runner {
    /// The transitions `event` enables where the runner stands (`nil`: eventless ones), and the
    /// flags every guard met on the way up from each active atomic state reads.
    package func enabled(for event: String?) -> EnabledTransitions {
        let number: Int
        if let event {
            guard let known = machine.eventIndex(of: event) else {
                return EnabledTransitions(transitions: [], flagsRead: [])
            }
            number = known
        } else {
            number = -1
        }
        var read: [Int] = []
        for state in activeAtomicPositions {
            for flag in machine.guardFlags(for: event, onAncestryOf: state) where !read.contains(flag) {
                read.append(flag)
            }
        }
        let enabled = isRunning ? select(event: number).map { machine.transitions[$0.transition] } : []
        return EnabledTransitions(transitions: enabled, flagsRead: read.sorted().map { machine.flags[$0].id })
    }

    /// Every active atomic state, by position in `machine.states`.
    package var activeAtomicPositions: [Int] {
        let kind = machine.tables.kind
        return active.filter { kind[$0] == .atomic }
    }

    /// Every active state (atomic, compound, parallel), by position.
    package var activePositions: [Int] { active }
}
