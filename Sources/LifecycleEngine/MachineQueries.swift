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

    // MARK: Settling

    /// The transitions that may run while the machine settles after an event (SCXML's macrostep
    /// after its first microstep): eventless ones, and those an internal event can trigger — an
    /// event some action raises, a `done.state.*` a final state queues, or any event (`*`).
    package var transitionsThatMayRunWhileSettling: [Transition] {
        let tables = tables
        var internalEvents = Set(tables.raises.joined())
        for state in states.indices {
            for block in [tables.entry[state], tables.exit[state], tables.initialBlock[state]] {
                internalEvents.formUnion(block.raises)
            }
            if tables.doneEvent[state] >= 0 { internalEvents.insert(tables.doneEvent[state]) }
        }
        return transitions.indices.filter { transition in
            tables.trigger[transition] == -1 || tables.matchesAll[transition]
                || internalEvents.contains { tables.matches(transition, event: $0) }
        }.map { transitions[$0] }
    }

    /// Flags that settling never reads in a guard nor sets (in a transition that may run while
    /// settling, or in any entry, exit or initial action): a run's settling is the same whatever
    /// their values.
    package var flagsSettlingIgnores: Set<String> {
        var touched: Set<String> = []
        for transition in transitionsThatMayRunWhileSettling {
            touched.formUnion(transition.guardExpression?.flags ?? [])
            touched.formUnion(transition.assignments.map(\.flag))
        }
        for state in states {
            for block in [state.entry, state.exit, state.initialActions] {
                touched.formUnion(block.assignments.map(\.flag))
            }
        }
        return Set(flags.map(\.id)).subtracting(touched)
    }

    /// Per atomic state, the atomic states an eventless transition whose guard can hold may lead
    /// to, with that transition: a targetless one stays; a target is entered as the engine enters
    /// it (every region of a parallel state); a history target may restore any atomic state of its
    /// parent. A graph over single atomic states, so an over-approximation for parallel states,
    /// for checks that cannot run every flag assignment.
    package func eventlessSuccessors() -> [(from: String, to: [String], transition: Int)] {
        let tables = tables
        var result: [(from: String, to: [String], transition: Int)] = []
        for atomic in states.indices where tables.kind[atomic] == .atomic {
            for state in tables.ancestry[atomic] {
                for transition in tables.declared[state] where tables.trigger[transition] == -1 {
                    guard transitions[transition].guardExpression?.isSatisfiable() ?? true else { continue }
                    let targets = tables.targets[transition]
                    var leaves: [Int] = targets.isEmpty ? [atomic] : []
                    for target in targets {
                        if tables.kind[target].isHistory {
                            let parent = tables.parent[target]
                            leaves += states.indices.filter {
                                tables.kind[$0] == .atomic && tables.isDescendant($0, of: parent)
                            }
                        } else {
                            leaves += defaultLeaves(entering: states[target].id).compactMap(stateIndex(of:))
                        }
                    }
                    result.append((states[atomic].id, Set(leaves).sorted().map { states[$0].id }, transition))
                }
            }
        }
        return result
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

// MARK: Target sets

/// Why two states cannot be targets of one transition (or one `initial`): SCXML enters a target
/// set as one configuration, so its states must lie in different regions of a parallel state.
package enum TargetSetConflict: Sendable, Hashable {
    /// One state is the other or lies inside it.
    case nested
    /// Their innermost common ancestor is a compound state, which has one active child.
    case sameCompound(String)
    /// Both are top-level states, of which one is active.
    case topLevel
}

extension Machine {
    /// The first pair of `targets` the engine cannot enter together, and why; `nil` when every
    /// pair lies in different regions of a parallel state. Asked of a state tree that is not yet a
    /// machine (the loader checks a spec before building one): `parent` and `isParallel` describe
    /// it, and `parent` must not loop (a walk stops after `limit` steps).
    package static func targetSetConflict(
        _ targets: [String], limit: Int, parent: (String) -> String?, isParallel: (String) -> Bool
    ) -> (first: Int, second: Int, reason: TargetSetConflict)? {
        /// Whether `state` is `ancestor` or lies inside it.
        func isWithin(_ state: String, _ ancestor: String) -> Bool {
            var current: String? = state
            var steps = 0
            while let id = current, steps <= limit {
                if id == ancestor { return true }
                current = parent(id)
                steps += 1
            }
            return false
        }
        for (first, one) in targets.enumerated() {
            for (second, other) in targets.enumerated() where second > first {
                if isWithin(one, other) || isWithin(other, one) { return (first, second, .nested) }
                var common = parent(one)
                var steps = 0
                while let candidate = common, !isWithin(other, candidate), steps <= limit {
                    common = parent(candidate)
                    steps += 1
                }
                if let common, isParallel(common) { continue }
                return (first, second, common.map(TargetSetConflict.sameCompound) ?? .topLevel)
            }
        }
        return nil
    }
}
