/// A scenario as the conformance planner needs it: where it starts and which events it sends. Its
/// expected trace and final state come from replaying it through the engine.
package struct ConformanceScenario: Sendable, Hashable {
    package let id: String
    package let title: String?
    /// The state the scenario starts in; `nil` for the machine's initial state.
    package let from: String?
    package let flags: [String: Bool]
    package let events: [String]

    package init(id: String, title: String? = nil, from: String? = nil, flags: [String: Bool] = [:], events: [String]) {
        self.id = id
        self.title = title
        self.from = from
        self.flags = flags
        self.events = events
    }
}

/// What the coverage cases of a suite must take.
package enum CoverageCriterion: String, Sendable, Hashable, CaseIterable {
    /// Every transition (`CoveragePlan`).
    case transitions
    /// Every transition, and every feasible pair of transitions taken by two events in a row
    /// (`PairCoverage`): the transition paths, then paths for the pairs they miss.
    case pairs
}

/// Every case of a machine's conformance suite, planned and replayed by the engine:
/// - one per scenario (exact trace and final state);
/// - one per path of the transition-coverage plan (`CoveragePlan`), every step checked;
/// - with `CoverageCriterion.pairs`, one per path that takes transition pairs those paths miss;
/// - one per reachable leaf state: every event it does not handle is rejected and changes nothing,
///   internal events aside (they are the machine's own, never sent by a test),
///   then one event it does handle still behaves (so a rejection cannot have changed hidden state);
/// - one per callback that posts a notification: the notification is on the declared side.
///
/// Cases are in that order, each group in document order, so the plan is deterministic.
/// The plan is data: each case says what it checks (`Case.Origin`) and each note what could not be
/// tested (`Note`); the words a suite shows for them are the suite writer's.
package struct ConformancePlan: Sendable {
    package let machine: Machine
    package let coverage: CoveragePlan
    package let cases: [Case]
    /// What the plan could not test and why, for the generated header.
    package let notes: [Note]
    /// Transition-pair coverage, when planned (`CoverageCriterion.pairs` on a machine explored exactly).
    package let pairs: PairFigures?

    /// What a suite's coverage cases take of the feasible transition pairs (`PairCoverage`), each
    /// pair counted per target of its two transitions.
    package struct PairFigures: Sendable, Hashable {
        /// Feasible pairs.
        package let feasible: Int
        /// Of `feasible`, those the coverage cases take (transition paths and pair paths).
        package let covered: Int
        /// The paths added for pairs, and their events.
        package let pathCount: Int
        package let stepCount: Int
    }

    /// One planned case: what a generated suite writes as a `ConformanceCase`, with its origin.
    package struct Case: Sendable, Hashable {
        /// Unique within the plan: `<kind>:<name>`, e.g. `scenario:launch`, `coverage:3`.
        package let id: String
        /// The part of `id` after its kind, e.g. `launch`, `3`, `entry:playing`.
        package let name: String
        package let origin: Origin
        package let start: String
        /// Flags that differ from their declared defaults at the start.
        package let flags: [String: Bool]
        package let steps: [ConformanceStep]
        package let checks: [ConformanceCheck]

        package var kind: ConformanceCase.Kind { origin.kind }

        /// The case as a generated suite holds it, with `summary` as its one line for people.
        package func conformanceCase(summary: String) -> ConformanceCase {
            ConformanceCase(
                id: id, kind: kind, summary: summary, start: start, flags: flags, steps: steps, checks: checks)
        }
    }

    /// What a case checks, and what it was planned from.
    package enum Origin: Sendable, Hashable {
        /// A spec scenario (`title` as the spec gives it, if it does).
        case scenario(id: String, title: String?)
        /// Path `number` (from 1) of `of` in the coverage plan, the first to take `newlyCovered` transitions.
        case coveragePath(number: Int, of: Int, newlyCovered: Int)
        /// Pair path `number` (from 1) of `of`, the first to take `newlyCovered` transition pairs.
        case pairPath(number: Int, of: Int, newlyCovered: Int)
        /// `events` are rejected in the configuration `configuration`.
        case rejection(configuration: String, events: [String])
        /// `notification` is observed on the declared side of `callback`.
        case notificationOrder(callback: String, notification: String, order: PostedNotification.Order)
        /// The entry (or exit) actions of `state` run in the engine's order.
        case actionOrder(state: String, entry: Bool)

        package var kind: ConformanceCase.Kind {
            switch self {
            case .scenario: .scenario
            case .coveragePath, .pairPath: .coverage
            case .rejection: .rejection
            case .notificationOrder, .actionOrder: .ordering
            }
        }
    }

    /// Something the plan could not test, and why.
    package enum Note: Sendable, Hashable {
        case scenarioCannotStart(scenario: String, error: RunError)
        /// The engine rejects `event` in `state`: the case expects the rejection.
        case scenarioRejects(scenario: String, event: String, state: String)
        case scenarioFails(scenario: String, error: RunError)
        case coveragePathCannotStart(number: Int, state: String)
        /// The configuration is never at rest after an event: no rejection test for it.
        case neverAtRest(configuration: String)
        case callbackNeverCalled(callback: String)
        /// `state` is never entered (or exited) on a reachable path: no test of those actions.
        case actionsNeverRun(state: String, entry: Bool)
        /// Transition pairs were asked for, but the machine is too large to explore exactly as one
        /// graph of configurations.
        case pairsNotPlanned
    }

    package init(machine: Machine, scenarios: [ConformanceScenario] = []) {
        self.init(space: StateSpace(machine: machine), scenarios: scenarios)
    }

    package init(space: StateSpace, scenarios: [ConformanceScenario] = [], criterion: CoverageCriterion = .transitions)
    {
        self.init(space: space, scenarios: scenarios, criterion: criterion, reusesReplays: true)
    }

    /// `reusesReplays: false` replays every coverage path of a composed space anew, as the tests
    /// compare the reuse against (see `Builder.addCoverage`).
    init(
        space: StateSpace, scenarios: [ConformanceScenario] = [], criterion: CoverageCriterion = .transitions,
        reusesReplays: Bool
    ) {
        var builder = Builder(space: space, reusesReplays: reusesReplays)
        for scenario in scenarios { builder.addScenario(scenario) }
        builder.addCoverage()
        if criterion == .pairs { builder.addPairCoverage() }
        builder.addRejections()
        builder.addOrderings()
        builder.addEntryExitOrderings()
        machine = space.machine
        coverage = builder.coverage
        cases = builder.cases
        notes = builder.notes
        pairs = builder.pairs
    }

    /// Internal rather than private: tests hold its shortcuts to what they stand for.
    struct Builder {
        let space: StateSpace
        let machine: Machine
        let graph: CoverageGraph
        let coverage: CoveragePlan
        var cases: [Case] = []
        var notes: [Note] = []
        var pairs: PairFigures?
        var usedIDs: Set<String> = []
        /// `machine.flagValues()`, asked for by every case.
        let defaults: [String: Bool]
        /// Per coverage path, how the composed plan replayed it (nil for a plan of the graph).
        let replays: [CoveragePlan.Replay]?
        /// With a composed space, per coverage path the name of each step's end (`name(step.to)`):
        /// its coverage case and the composed routes of its orderings name them, the same names
        /// over and over (naming them anew cost a 4-region 2,000-state suite 0.06 G, callgrind).
        let stepNames: [[String]]?

        init(space: StateSpace, reusesReplays: Bool) {
            self.space = space
            machine = space.machine
            graph = CoverageGraph(space: space)
            // Composed from independent regions, the graph is empty: the plan is the regions'.
            if space.isComposed {
                let composed = CoveragePlan.composed(space)
                coverage = composed.plan
                replays = reusesReplays ? composed.replays : nil
                stepNames = composed.plan.paths.map { path in
                    path.steps.map { ConformanceCase.configurationName($0.to.states) }
                }
            } else {
                coverage = CoveragePlan(space: space, graph: graph)
                replays = nil
                stepNames = nil
            }
            defaults = machine.flagValues()
        }

        mutating func append(
            _ name: String, _ origin: Origin, start: Configuration,
            steps: [ConformanceStep], checks: [ConformanceCheck] = []
        ) {
            append(name, origin, start: self.name(start), overrides: overrides(start), steps: steps, checks: checks)
        }

        mutating func append(
            _ name: String, _ origin: Origin, start: String,
            flags: [String: Bool], steps: [ConformanceStep], checks: [ConformanceCheck] = []
        ) {
            append(
                name, origin, start: start, overrides: flags.filter { defaults[$0.key] != $0.value }, steps: steps,
                checks: checks)
        }

        /// `overrides`: the flags that differ from their defaults.
        private mutating func append(
            _ name: String, _ origin: Origin, start: String,
            overrides: [String: Bool], steps: [ConformanceStep], checks: [ConformanceCheck]
        ) {
            var unique = name
            var counter = 2
            while !usedIDs.insert("\(origin.kind.rawValue):\(unique)").inserted {
                unique = "\(name)#\(counter)"
                counter += 1
            }
            cases.append(
                Case(
                    id: "\(origin.kind.rawValue):\(unique)", name: unique, origin: origin, start: start,
                    flags: overrides,
                    steps: steps, checks: checks))
        }

        mutating func addScenario(_ scenario: ConformanceScenario) {
            var runner: Runner
            do {
                // As the validator replays it; the case resets to where starting ends (what the
                // start itself emits is the machine's start, not the scenario's events).
                runner = try Runner.begin(machine: machine, from: scenario.from, flags: scenario.flags).runner
            } catch {
                notes.append(.scenarioCannotStart(scenario: scenario.id, error: error))
                return
            }
            let start = ConformanceCase.configurationName(runner.states)
            var steps: [ConformanceStep] = []
            var trace: [Observation] = []
            for event in scenario.events {
                do {
                    trace += try runner.send(event).compactMap(\.observation)
                    steps.append(.send(event))
                } catch .unhandledEvent {
                    notes.append(.scenarioRejects(scenario: scenario.id, event: event, state: runner.state))
                    steps.append(.reject(event))
                    break
                } catch {
                    notes.append(.scenarioFails(scenario: scenario.id, error: error))
                    return
                }
            }
            append(
                scenario.id, .scenario(id: scenario.id, title: scenario.title), start: start, flags: scenario.flags,
                steps: steps, checks: [.trace(trace), .state(ConformanceCase.configurationName(runner.states))])
        }

        mutating func addCoverage() {
            for (offset, path) in coverage.paths.enumerated() {
                guard placedRunner(in: path.start) != nil else {
                    notes.append(.coveragePathCannotStart(number: offset + 1, state: path.start.state))
                    continue
                }
                // Every step is an edge of the space, whose transitions are the engine's own run of
                // that event from that configuration (`StateSpace` records them as it runs): what a
                // `Runner` replaying the path would report is each transition's actions as emitted
                // (`Runner.send`'s steps less the transitions) and the step's target state, so the
                // path is not run a second time.
                let actionSteps = machine.tables.actionSteps
                func summed() -> [ConformanceStep] {
                    path.steps.enumerated().map { position, step in
                        ConformanceStep.send(
                            step.event, expect: step.transitions.flatMap { actionSteps[$0] }.compactMap(\.observation),
                            state: stepNames?[offset][position] ?? name(step.to))
                    }
                }
                var steps: [ConformanceStep]
                // Entry and exit actions (and everything a statechart runs around its transitions)
                // are in no transition's own actions: such a machine's path is replayed by the engine.
                if runsActionsOutsideTransitions, var runner = placedRunner(in: path.start) {
                    // The composed plan ran the path through the engine already: from the same
                    // runner, the same events do the same. Replaying them again cost a 4-region
                    // 2,000-state suite 0.44 G of its 5.18 G instructions (callgrind).
                    if let replay = replays?[offset], replay.start.standsWhere(runner) {
                        steps = path.steps.indices.map { position in
                            .send(
                                path.steps[position].event, expect: replay.observations[position],
                                state: stepNames?[offset][position] ?? name(path.steps[position].to))
                        }
                    } else {
                        var replayed: [ConformanceStep] = []
                        for step in path.steps {
                            guard let observed = try? runner.send(step.event).compactMap(\.observation) else { break }
                            replayed.append(
                                .send(
                                    step.event, expect: observed,
                                    state: ConformanceCase.configurationName(runner.states))
                            )
                        }
                        steps = replayed.count == path.steps.count ? replayed : summed()
                    }
                } else {
                    steps = summed()
                }
                let origin = Origin.coveragePath(
                    number: offset + 1, of: coverage.paths.count, newlyCovered: path.newlyCovered.count)
                append("\(offset + 1)", origin, start: path.start, steps: steps)
            }
        }

        /// Pair paths after the transition paths: the pairs those take already count, and each pair
        /// path goes for the feasible pairs still missing (`PairCoverage`). Every step is replayed by
        /// the engine, so what a case expects, and the pairs it is said to take, are the engine's.
        mutating func addPairCoverage() {
            // A space explored region by region has no graph of configurations: pairs across
            // regions need the product.
            let pairing =
                space.isComposed
                ? PairCoverage(space: StateSpace(machine: machine, strategy: .product))
                : space.isExact ? PairCoverage(machine: machine, graph: graph) : nil
            guard let pairing else {
                notes.append(.pairsNotPlanned)
                return
            }
            var covered: Set<Int> = []
            for path in coverage.paths {
                guard var runner = placedRunner(in: path.start) else { continue }
                var taken: [[Int]] = []
                for step in path.steps {
                    guard let units = pairing.send(step.event, to: &runner)?.units else { break }
                    taken.append(units)
                }
                covered.formUnion(pairing.pairs(of: taken))
            }
            // A case resets its system to a start's states and flags alone: a start whose eventless
            // transitions recorded history is not where the case starts, and a walk from it would
            // take other pairs in the suite than in the graph. Such starts are left out while
            // others exist; what only they reach is then not taken, and the figures say so.
            let graph = pairing.graph
            let reproducible = graph.orderedStarts.filter { start in
                placedRunner(in: graph.node(start))?.configuration == graph.node(start)
            }
            let walks = pairing.walks(
                covering: pairing.feasible.subtracting(covered), from: reproducible.isEmpty ? nil : reproducible)
            var pathCount = 0
            var stepCount = 0
            for (offset, walk) in walks.enumerated() {
                let start = pairing.graph.node(walk.start)
                guard var runner = placedRunner(in: start) else {
                    notes.append(
                        .coveragePathCannotStart(number: coverage.paths.count + offset + 1, state: start.state))
                    continue
                }
                var steps: [ConformanceStep] = []
                var taken: [[Int]] = []
                for edge in walk.edges {
                    let event = machine.events[pairing.graph.edgeEvent[edge]].id
                    guard let step = pairing.send(event, to: &runner) else { break }
                    taken.append(step.units)
                    steps.append(
                        .send(event, expect: step.observations, state: ConformanceCase.configurationName(runner.states))
                    )
                }
                // A path the engine cannot replay whole takes, as far as the suite knows, nothing.
                guard steps.count == walk.edges.count else { continue }
                let newlyCovered = pairing.feasible(in: pairing.pairs(of: taken)).subtracting(covered)
                covered.formUnion(newlyCovered)
                pathCount += 1
                stepCount += steps.count
                let origin = Origin.pairPath(
                    number: offset + 1, of: walks.count, newlyCovered: pairing.weight(of: newlyCovered))
                append("pairs-\(offset + 1)", origin, start: start, steps: steps)
            }
            pairs = PairFigures(
                feasible: pairing.feasibleCount, covered: pairing.weight(of: pairing.feasible(in: covered)),
                pathCount: pathCount, stepCount: stepCount)
        }

        mutating func addRejections() {
            let defaultValues = machine.flags.map(\.defaultValue)
            func distance(_ configuration: Configuration) -> Int {
                zip(configuration.flagValues, defaultValues).filter { $0 != $1 }.count
            }
            let external = machine.events.filter { $0.kind != .internal }.map(\.id)
            // With parallel regions a leaf is no situation of its own: one test per configuration
            // (a leaf per region) the machine rests in.
            var subjects: [(name: String, candidates: [Configuration])] = []
            if machine.hasParallelRegions {
                // Composed from independent regions, the configurations are too many to test one
                // by one: of those the coverage paths pass through (each a real configuration at
                // rest), the first to put each region's leaf to the test, as a flat machine has
                // one test per leaf.
                var nodes = graph.nodes
                if space.isComposed {
                    nodes = coverage.paths.flatMap { [$0.start] + $0.steps.map(\.to) }
                    // Marked by position when every node holds its states so (the engine's
                    // configurations do): a set of names cost a 4-region 2,000-state suite 0.02 G
                    // (callgrind). A node counts when its first leaf not tested yet is found;
                    // the leaves after it wait for a node of their own.
                    if nodes.allSatisfy({ $0.positions != nil }) {
                        let kind = machine.tables.kind
                        var isTested = [Bool](repeating: false, count: machine.states.count)
                        nodes = nodes.filter { node in
                            for state in node.positions!.active where kind[state] == .atomic && !isTested[state] {
                                isTested[state] = true
                                return true
                            }
                            return false
                        }
                    } else {
                        var tested: Set<String> = []
                        nodes = nodes.filter { node in node.states.reduce(false) { $0 || tested.insert($1).inserted } }
                    }
                }
                var byStates: [[String]: Int] = [:]
                for node in nodes {
                    if let index = byStates[node.states] {
                        subjects[index].candidates.append(node)
                    } else {
                        byStates[node.states] = subjects.count
                        subjects.append((ConformanceCase.configurationName(node.states), [node]))
                    }
                }
            } else {
                subjects = machine.leafStates.map { ($0.id, (graph.nodesByState[$0.id] ?? []).map { graph.nodes[$0] }) }
            }
            for (subject, candidates) in subjects {
                // Each candidate's distance once, not once per comparison; the first found among the nearest.
                let chosenIndex = candidates.indices.map { (distance: distance(candidates[$0]), node: $0) }.min {
                    ($0.distance, $0.node) < ($1.distance, $1.node)
                }
                guard let chosen = chosenIndex.map({ candidates[$0.node] }) else {
                    if space.isExact { notes.append(.neverAtRest(configuration: subject)) }
                    continue
                }
                guard let runner = placedRunner(in: chosen) else { continue }
                // The few events with an enabled transition here, rather than a transition looked
                // up for every event of the machine.
                let accepted = runner.acceptedEvents
                let rejected = external.filter { !accepted.contains($0) }
                guard !rejected.isEmpty else { continue }
                var steps = rejected.map(ConformanceStep.reject)
                // One handled event afterwards: a rejection must not have changed flags or anything else.
                for event in external where accepted.contains(event) {
                    var probe = runner
                    guard let observed = try? probe.send(event).compactMap(\.observation) else { continue }
                    steps.append(.send(event, expect: observed, state: ConformanceCase.configurationName(probe.states)))
                    break
                }
                append(subject, .rejection(configuration: subject, events: rejected), start: chosen, steps: steps)
            }
        }

        mutating func addOrderings() {
            struct Ordering {
                let callback: LifecycleCallback
                let posted: PostedNotification
                let calling: CoverageGraph.Targets
                /// Edges that take a transition calling the callback.
                let candidates: [Int]
                var best: (start: Int, route: [Int])?
            }
            var orderings: [Ordering] = []
            var callingByCallback: [String: [Int]] = [:]
            for transition in machine.transitions {
                for case .callback(let id) in transition.actions where callingByCallback[id]?.last != transition.index {
                    callingByCallback[id, default: []].append(transition.index)
                }
            }
            for callback in machine.callbacks {
                guard let posted = callback.posts else { continue }
                let calling = callingByCallback[callback.id] ?? []
                var candidates = Set<Int>()
                for transition in calling { candidates.formUnion(graph.edgesByTransition[transition]) }
                orderings.append(
                    Ordering(
                        callback: callback, posted: posted,
                        calling: CoverageGraph.Targets(calling, transitionCount: graph.transitionCount),
                        candidates: candidates.sorted()))
            }
            // The shortest route to a calling transition, from the first start that has one that short.
            // One complete search per start serves every callback (`CoverageGraph.route(in:)` reads
            // the same route a search per callback would find).
            if orderings.contains(where: { !$0.candidates.isEmpty }) {
                for start in graph.orderedStarts {
                    let tree = graph.tree(from: start)
                    for offset in orderings.indices where !orderings[offset].candidates.isEmpty {
                        guard
                            let route = graph.route(
                                in: tree, toAnyOf: orderings[offset].calling, candidates: orderings[offset].candidates)
                        else { continue }
                        if let best = orderings[offset].best, route.count >= best.route.count { continue }
                        orderings[offset].best = (start, route)
                    }
                }
            }
            let firstTaking = space.isComposed ? firstStepsTaking() : []
            for ordering in orderings {
                let callback = ordering.callback
                let posted = ordering.posted
                if space.isComposed,
                    let route = composedRoute(
                        takingAnyOf: callingByCallback[callback.id] ?? [], firstTaking: firstTaking)
                {
                    let origin = Origin.notificationOrder(
                        callback: callback.id, notification: posted.notification, order: posted.order)
                    let path = coverage.paths[route.path]
                    let steps = (0..<route.count).map { position in
                        ConformanceStep.send(
                            path.steps[position].event,
                            state: stepNames?[route.path][position] ?? name(path.steps[position].to))
                    }
                    append(
                        callback.id, origin, start: path.start, steps: steps,
                        checks: [.order(callback: callback.id, notification: posted.notification, posted.order)])
                    continue
                }
                guard let (start, route) = ordering.best else {
                    notes.append(.callbackNeverCalled(callback: callback.id))
                    continue
                }
                let steps = route.map { edge in
                    ConformanceStep.send(graph.edges[edge].event, state: name(graph.nodes[graph.edges[edge].to]))
                }
                let origin = Origin.notificationOrder(
                    callback: callback.id, notification: posted.notification, order: posted.order)
                append(
                    callback.id, origin, start: graph.nodes[start], steps: steps,
                    checks: [.order(callback: callback.id, notification: posted.notification, posted.order)])
            }
        }

        /// One case per entry and per exit block: the shortest route to an event that enters (or
        /// exits) the state, every step's observations as the engine orders them (exit actions,
        /// children first, then the transitions' actions, then entry actions, parents first), and the
        /// whole trace checked.
        mutating func addEntryExitOrderings() {
            let states = machine.states
            guard states.contains(where: { !$0.entry.isEmpty || !$0.exit.isEmpty }) else { return }
            func isActive(_ state: Int, in configuration: Configuration) -> Bool {
                configuration.states.contains { machine.position(of: $0).map { machine.isWithin($0, state) } ?? false }
            }
            for (position, state) in states.enumerated() {
                for (word, block, entering) in [("entry", state.entry, true), ("exit", state.exit, false)]
                where !block.isEmpty {
                    let candidates = graph.edges.indices.filter { edge in
                        let before = isActive(position, in: graph.nodes[graph.edges[edge].from])
                        let after = isActive(position, in: graph.nodes[graph.edges[edge].to])
                        return entering ? !before && after : before && !after
                    }
                    let targets = CoverageGraph.Targets(
                        candidates.flatMap { graph.edges[$0].distinctTransitions },
                        transitionCount: graph.transitionCount)
                    var best: (start: Int, route: [Int])?
                    if !candidates.isEmpty {
                        for start in graph.orderedStarts {
                            guard
                                let route = graph.route(
                                    in: graph.tree(from: start), toAnyOf: targets, candidates: candidates)
                            else { continue }
                            if let current = best, route.count >= current.route.count { continue }
                            best = (start, route)
                        }
                    }
                    var events: [String] = []
                    var startNode: Configuration?
                    if let (start, route) = best {
                        events = route.map { graph.edges[$0].event }
                        startNode = graph.nodes[start]
                    } else if space.isComposed,
                        let route = composedRoute(where: { step in
                            entering
                                ? !isActive(position, in: step.from) && isActive(position, in: step.to)
                                : isActive(position, in: step.from) && !isActive(position, in: step.to)
                        })
                    {
                        events = coverage.paths[route.path].steps[..<route.count].map(\.event)
                        startNode = coverage.paths[route.path].start
                    }
                    guard let startNode, var runner = placedRunner(in: startNode) else {
                        notes.append(.actionsNeverRun(state: state.id, entry: entering))
                        continue
                    }
                    var steps: [ConformanceStep] = []
                    var trace: [Observation] = []
                    for event in events {
                        guard let observed = try? runner.send(event).compactMap(\.observation) else { break }
                        trace += observed
                        steps.append(
                            .send(event, expect: observed, state: ConformanceCase.configurationName(runner.states)))
                    }
                    guard steps.count == events.count else { continue }
                    append(
                        "\(word):\(state.id)", .actionOrder(state: state.id, entry: entering), start: startNode,
                        steps: steps,
                        checks: [.trace(trace)])
                }
            }
        }

        /// Per transition, the first step of each composed coverage path that takes it, in path
        /// order. `composedRoute(takingAnyOf:firstTaking:)` reads routes off it: scanning every
        /// path's steps for each callback instead touched each step's transitions 500 times over
        /// in a 4-region 2,000-state suite, 2.6 M of its 17 M first-level data cache misses
        /// (cachegrind).
        func firstStepsTaking() -> [[(path: Int, position: Int)]] {
            var firstTaking = [[(path: Int, position: Int)]](repeating: [], count: machine.transitions.count)
            for (index, path) in coverage.paths.enumerated() {
                for (position, step) in path.steps.enumerated() {
                    for transition in step.transitions where firstTaking[transition].last?.path != index {
                        firstTaking[transition].append((index, position))
                    }
                }
            }
            return firstTaking
        }

        /// What `composedRoute(where:)` finds for the steps that take one of `transitions`: the
        /// fewest steps, then the first path.
        func composedRoute(takingAnyOf transitions: [Int], firstTaking: [[(path: Int, position: Int)]]) -> (
            path: Int, count: Int
        )? {
            var best: (path: Int, count: Int)?
            for transition in transitions {
                for (path, position) in firstTaking[transition] {
                    if let current = best, (position + 1, path) >= (current.count, current.path) { continue }
                    best = (path, position + 1)
                }
            }
            return best
        }

        /// With the space composed from independent regions (no graph to search): the shortest
        /// prefix of a coverage path whose last step satisfies `taking`, from that path's start, as
        /// the path's position in `coverage.paths` and the prefix's length. Copying each better
        /// prefix out as it was found cost a 4-region 2,000-state suite 0.06 G (callgrind).
        func composedRoute(where taking: (CoveragePlan.Step) -> Bool) -> (path: Int, count: Int)? {
            var best: (path: Int, count: Int)?
            for (index, path) in coverage.paths.enumerated() {
                guard let end = path.steps.firstIndex(where: taking), end + 1 < (best?.count ?? .max) else {
                    continue
                }
                best = (index, end + 1)
            }
            return best
        }

        /// How the suite names a configuration (`a+b` with parallel regions).
        func name(_ configuration: Configuration) -> String { ConformanceCase.configurationName(configuration.states) }

        /// Whether some action runs outside a transition's own actions (entry, exit, initial blocks),
        /// or regions run side by side: then observations are the engine's replay, not the sum of
        /// the transitions' actions.
        var runsActionsOutsideTransitions: Bool {
            machine.hasParallelRegions
                || machine.states.contains { !$0.entry.isEmpty || !$0.exit.isEmpty || !$0.initialActions.isEmpty }
        }

        /// The flags that differ from their defaults in `configuration` (mostly none: no dictionary
        /// is built then).
        func overrides(_ configuration: Configuration) -> [String: Bool] {
            guard configuration.flagValues.count == machine.flags.count else {
                return configuration.flags(in: machine).filter { defaults[$0.key] != $0.value }
            }
            var result: [String: Bool] = [:]
            for (flag, value) in zip(machine.flags, configuration.flagValues) where value != flag.defaultValue {
                result[flag.id] = value
            }
            return result
        }

        /// A runner placed in `configuration` by position: its flag values are complete already,
        /// so there is no dictionary to build and look up.
        func placedRunner(in configuration: Configuration) -> Runner? {
            // A case resets its system to the configuration's states alone (no recorded history),
            // so the runner that predicts it is placed the same way.
            if configuration.states.count > 1 || !configuration.history.isEmpty {
                // A configuration the engine reported holds its active states by position: placing
                // its atomic states enters exactly those (their ancestors, one leaf per region).
                // Placing by name cost the rejection cases of a 4-region 2,000-state suite 0.03 G
                // (callgrind).
                if let positions = configuration.positions, configuration.flagValues.count == machine.flags.count {
                    return Runner(
                        machine: machine, active: positions.active, flagValues: configuration.flagValues,
                        historyValues: [:])
                }
                return try? Runner(
                    machine: machine, states: configuration.states, flags: configuration.flags(in: machine))
            }
            guard configuration.flagValues.count == machine.flags.count,
                let index = machine.stateIndex(of: configuration.state)
            else {
                return try? Runner(
                    machine: machine, state: configuration.state, flags: configuration.flags(in: machine))
            }
            return Runner(machine: machine, stateIndex: index, flagValues: configuration.flagValues)
        }
    }
}
