import LifecycleEngine

/// What each event does in each leaf state, asked of the engine.
///
/// A cell is a `Runner` placed in the leaf and sent the event: the outcome is every transition the
/// engine takes until it settles (raised events and eventless transitions included), or "not
/// handled". Where guards matter, the cell is run once per assignment of the flags that guards
/// read, and each distinct outcome is shown with the exact flag condition that produces it.
/// Assignments under which the leaf is not at rest (an eventless transition would leave it at
/// once) are left out of event rows: an event never finds the app there. The eventless row
/// shows exactly those.
struct EventStateMatrix: Sendable, Hashable {
    /// The flag condition under which a branch happens.
    enum Condition: Sendable, Hashable {
        /// The only outcome: flags do not matter.
        case always
        /// Exactly when every listed flag has the listed value (a conjunction, declaration order).
        case when([Literal])
        /// Exactly when one of the conjunctions holds.
        case whenAny([[Literal]])
        /// Every other assignment (the last branch, when its condition is no simple conjunction).
        case otherwise
    }

    struct Literal: Sendable, Hashable {
        let flag: String
        let value: Bool
    }

    struct Branch: Sendable, Hashable {
        /// The transitions taken, in order; `nil` when the event is not handled.
        let steps: [TransitionStep]?
        let condition: Condition
    }

    struct Row: Sendable, Hashable {
        /// `nil` for the eventless row: what happens on its own in each state.
        let event: String?
        /// One cell per leaf state, in `leaves` order; each cell has at least one branch.
        let cells: [[Branch]]
    }

    /// Leaf states, in document order.
    let leaves: [String]
    let rows: [Row]
    /// The flags whose assignments were enumerated, in declaration order.
    let flags: [String]

    /// More guard flags than this and only the flags read by a cell's own candidate transitions
    /// are enumerated (the others keep their defaults).
    static let flagLimit = 8

    init(machine: Machine) {
        leaves = machine.leafStates.map(\.id)
        let guardFlags = Set(machine.transitions.flatMap { $0.guardExpression?.flags ?? [] })
        let allFlags = machine.flags.map(\.id).filter(guardFlags.contains)
        flags = allFlags.count <= Self.flagLimit ? allFlags : []
        let events: [String?] = machine.events.map(\.id) + (machine.transitions.contains(where: \.isEventless) ? [nil] : [])
        // Column by column (one leaf, every event), so each leaf's runners are placed once and
        // dropped before the next leaf; then turned into rows.
        var columns: [[[Branch]]] = []
        for leaf in leaves {
            var runners = LeafRunners(machine: machine, leaf: leaf)
            columns.append(events.map { event in
                Self.branches(machine: machine, leaf: leaf, event: event, flags: allFlags, runners: &runners)
            })
        }
        rows = events.indices.map { row in
            Row(event: events[row], cells: columns.map { $0[row] })
        }
    }

    /// Runners placed in one leaf, one per flag assignment, each copied for every event sent:
    /// placing a runner costs about as much as a short run, and a leaf's column asks for the
    /// same assignments for every event. Which assignments leave the leaf at rest does not
    /// depend on the event either, so it is asked once too.
    struct LeafRunners {
        let machine: Machine
        let leaf: String
        /// Per flag list, a runner (or `nil` when the engine refuses to place one) per bit mask.
        private var placed: [[String]: [Runner?]] = [:]
        private var resting: [[String]: [Int]] = [:]

        init(machine: Machine, leaf: String) {
            self.machine = machine
            self.leaf = leaf
        }

        mutating func runners(flags: [String]) -> [Runner?] {
            if let runners = placed[flags] { return runners }
            let runners = (0..<(1 << flags.count)).map { mask in
                try? Runner(machine: machine, state: leaf, flags: EventStateMatrix.assignment(mask, flags: flags))
            }
            placed[flags] = runners
            return runners
        }

        /// The masks under which no eventless transition would leave the leaf at once.
        mutating func restingMasks(flags: [String]) -> [Int] {
            if let masks = resting[flags] { return masks }
            let runners = runners(flags: flags)
            let masks = runners.indices.filter { runners[$0]?.enabledEventlessTransition == nil }
            resting[flags] = masks
            return masks
        }
    }

    /// The flag values a bit mask over `flags` stands for.
    static func assignment(_ mask: Int, flags: [String]) -> [String: Bool] {
        var values: [String: Bool] = [:]
        for (offset, flag) in flags.enumerated() { values[flag] = mask & (1 << offset) != 0 }
        return values
    }

    static func branches(machine: Machine, leaf: String, event: String?, flags allFlags: [String], runners: inout LeafRunners) -> [Branch] {
        // No transition for the event anywhere on the way up from the leaf: the engine rejects
        // it whatever the flags say (`Machine.handledEvents` ignores guards), so there is
        // nothing to run. Most cells of a large machine's matrix are such cells.
        if let event, !machine.handledEvents(in: leaf).contains(event) {
            return [Branch(steps: nil, condition: .always)]
        }
        var flags = allFlags
        if flags.count > flagLimit {
            // Only the guards this leaf can meet first; the rest stay at their defaults.
            let trigger: Trigger = event.map(Trigger.event) ?? .always
            let local = Set(machine.ancestry(of: leaf).flatMap { state in
                machine.transitions(declaredOn: state).filter { $0.trigger == trigger }.flatMap { $0.guardExpression?.flags ?? [] }
            })
            flags = flags.filter(local.contains)
            if flags.count > flagLimit { flags = [] }
        }

        // Outcome → the assignments (as bit masks over `flags`) that produce it, in first-seen order.
        var outcomes: [[TransitionStep]?] = []
        var masks: [[Int]] = []
        let defaults = machine.flagValues()
        var defaultMask = 0
        for (offset, flag) in flags.enumerated() where defaults[flag] == true { defaultMask |= 1 << offset }
        // An event finds the app at rest: flag values under which the leaf would leave on its own
        // at once (an enabled eventless transition) are not a situation the event can meet.
        var universe = Array(0..<(1 << flags.count))
        if event != nil {
            let stable = runners.restingMasks(flags: flags)
            if !stable.isEmpty { universe = stable }
        }
        let placed = runners.runners(flags: flags)
        // On its own, a leaf at rest does nothing: `settle()` has no eventless transition to take.
        let resting = event == nil ? Set(runners.restingMasks(flags: flags)) : []
        for mask in universe {
            let outcome = resting.contains(mask) ? nil : run(placed[mask], event: event)
            if let index = outcomes.firstIndex(where: { $0 == outcome }) {
                masks[index].append(mask)
            } else {
                outcomes.append(outcome)
                masks.append([mask])
            }
        }
        if outcomes.count == 1 { return [Branch(steps: outcomes[0], condition: .always)] }

        // The outcome under the default flag values first, then first-seen order; outcomes whose
        // condition is no simple conjunction go last, so the very last one can read "otherwise".
        var order = Array(outcomes.indices)
        if let first = order.firstIndex(where: { masks[$0].contains(defaultMask) }) {
            order.insert(order.remove(at: first), at: 0)
        }
        let cubes = order.map { cube(masks[$0], within: universe, flags: flags) }
        let ranked = zip(order, cubes).enumerated()
            .sorted { ($0.element.1 == nil ? 1 : 0, $0.offset) < ($1.element.1 == nil ? 1 : 0, $1.offset) }
            .map(\.element)
        return ranked.enumerated().map { position, item in
            let (index, literals) = item
            let condition: Condition
            if let literals {
                condition = .when(literals)
            } else if position == ranked.count - 1 {
                condition = .otherwise
            } else {
                condition = .whenAny(masks[index].map { minterm($0, flags: flags) })
            }
            return Branch(steps: outcomes[index], condition: condition)
        }
    }

    /// The shortest conjunction (dropping literals greedily, in declaration order) that picks
    /// exactly `masks` out of `universe`, if there is one.
    private static func cube(_ masks: [Int], within universe: [Int], flags: [String]) -> [Literal]? {
        let target = Set(masks)
        func selects(_ literals: [(offset: Int, value: Bool)]) -> Bool {
            Set(universe.filter { mask in literals.allSatisfy { (mask & (1 << $0.offset) != 0) == $0.value } }) == target
        }
        var literals: [(offset: Int, value: Bool)] = []
        for offset in flags.indices {
            let values = Set(masks.map { $0 & (1 << offset) != 0 })
            if values.count == 1, let value = values.first { literals.append((offset, value)) }
        }
        guard selects(literals) else { return nil }
        var index = 0
        while index < literals.count {
            var shorter = literals
            shorter.remove(at: index)
            if selects(shorter) { literals = shorter } else { index += 1 }
        }
        return literals.map { Literal(flag: flags[$0.offset], value: $0.value) }
    }

    private static func minterm(_ mask: Int, flags: [String]) -> [Literal] {
        flags.enumerated().map { offset, flag in Literal(flag: flag, value: mask & (1 << offset) != 0) }
    }

    /// The transitions the engine takes for `event` (or on its own, for `nil`) from where
    /// `placed` stands; `placed` itself is left as it is (runners are values).
    private static func run(_ placed: Runner?, event: String?) -> [TransitionStep]? {
        guard var runner = placed else { return nil }
        let steps: [Step]
        do {
            if let event {
                steps = try runner.send(event)
            } else {
                steps = try runner.settle()
            }
        } catch {
            return nil
        }
        let transitions = steps.compactMap { step -> TransitionStep? in
            if case .transition(let taken) = step { return taken }
            return nil
        }
        // Nothing happening on its own is "not handled" too.
        return transitions.isEmpty ? nil : transitions
    }
}
