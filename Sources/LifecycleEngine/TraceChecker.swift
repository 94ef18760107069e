/// Decides, one observation at a time, whether some sequence of events explains a log of
/// callbacks and notifications: acceptance of the log by the machine seen through what it emits.
///
/// The events are not in the log, so the checker tracks every configuration the app could be in,
/// together with the rest of the current event's output still to be seen. Memory is bounded by
/// the machine (configurations × output positions), not by the length of the log.
public struct TraceChecker: Sendable {
    /// One way the log so far can be explained.
    struct Hypothesis: Hashable {
        let configuration: Configuration
        /// What the event being explained still has to emit.
        let pending: [Observation]
        let pendingOffset: Int
        let event: String?
        /// The events of this explanation (the first `historyLimit` of them), and how many in all.
        var history: [String] = []
        var eventTotal = 0

        func starting(_ event: String, outcome: Outcome, limit: Int) -> Hypothesis {
            var next = Hypothesis(configuration: outcome.next, pending: outcome.observations, pendingOffset: outcome.observations.isEmpty ? 0 : 1, event: event)
            next.history = history
            if history.count < limit { next.history.append(event) }
            next.eventTotal = eventTotal + 1
            return next
        }

        var remaining: ArraySlice<Observation> { pending[pendingOffset...] }

        static func == (lhs: Hypothesis, rhs: Hypothesis) -> Bool {
            lhs.configuration == rhs.configuration && lhs.remaining == rhs.remaining
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(configuration)
            hasher.combine(Array(remaining))
        }
    }

    struct Outcome: Sendable {
        let observations: [Observation]
        let next: Configuration
    }

    /// Why the log stopped making sense.
    public struct Deviation: Sendable, Hashable {
        public let observation: Observation
        /// The leaf states the app could have been in just before this observation.
        public let possibleStates: [String]
        /// What the spec allows as the next observation there.
        public let allowedNext: [Observation]
    }

    public let machine: Machine
    private let flagIDs: [String]
    private var frontier: [Hypothesis]
    private var cache: [Configuration: [(String, Outcome)]] = [:]
    public private(set) var observationCount = 0
    /// Only the first events of an explanation are kept (for the summary); after that, only the
    /// count: memory and time per line stay flat on long logs.
    public var historyLimit = 24

    /// Starts in `state` under any flag assignment, or at the initial state when `nil`.
    public init(machine: Machine, from state: String? = nil) throws(RunError) {
        self.machine = machine
        flagIDs = machine.flags.map(\.id)
        var starts: [Configuration] = []
        if let state, machine.state(state) == nil { throw .unknownState(state) }
        for bits in 0..<(1 << min(flagIDs.count, 16)) {
            var flags: [String: Bool] = [:]
            for (offset, id) in flagIDs.enumerated() { flags[id] = offset < 16 && bits & (1 << offset) != 0 }
            guard var runner = try? Runner(machine: machine, state: state, flags: flags) else { continue }
            // From the initial state, the app starts by entering it; from a given state, it is in it.
            if state == nil, (try? runner.settle()) == nil { continue }
            let configuration = Configuration(state: runner.state, flagValues: flagIDs.map { runner.flags[$0] ?? false })
            if !starts.contains(configuration) { starts.append(configuration) }
        }
        frontier = starts.map { Hypothesis(configuration: $0, pending: [], pendingOffset: 0, event: nil) }
        frontier = closeOverSilentEvents(frontier)
    }

    /// The leaf states the app may be in now.
    public var possibleStates: [String] {
        Array(Set(frontier.map(\.configuration.state))).sorted()
    }

    /// Whether the log could end here: no event is half-way through its output.
    public var isAtEventBoundary: Bool { frontier.contains { $0.remaining.isEmpty } }

    /// Feeds the next observation; returns the deviation when no explanation is left (the
    /// checker's state is then unchanged, so the caller can report and stop).
    public mutating func feed(_ observation: Observation) -> Deviation? {
        var next: [Hypothesis] = []
        var seen: Set<Hypothesis> = []
        for hypothesis in frontier {
            if let head = hypothesis.remaining.first {
                guard head == observation else { continue }
                var advanced = Hypothesis(configuration: hypothesis.configuration, pending: hypothesis.pending,
                                          pendingOffset: hypothesis.pendingOffset + 1, event: hypothesis.event)
                advanced.history = hypothesis.history
                advanced.eventTotal = hypothesis.eventTotal
                if seen.insert(advanced).inserted { next.append(advanced) }
                continue
            }
            for (event, outcome) in outcomes(from: hypothesis.configuration) where outcome.observations.first == observation {
                let started = hypothesis.starting(event, outcome: outcome, limit: historyLimit)
                if seen.insert(started).inserted { next.append(started) }
            }
        }
        guard !next.isEmpty else {
            return Deviation(observation: observation, possibleStates: possibleStates, allowedNext: allowedNext())
        }
        observationCount += 1
        frontier = closeOverSilentEvents(next)
        return nil
    }

    /// One sequence of events that explains the log so far (preferring one that has finished its
    /// last event's output), as (the first `historyLimit` events, the total number of events).
    public var inferredEvents: (events: [String], total: Int) {
        let best = frontier.first { $0.remaining.isEmpty } ?? frontier.first
        return (best?.history ?? [], best?.eventTotal ?? 0)
    }

    /// How many different states the explanations end in, a hint that the log is ambiguous.
    public var explanationCount: Int { frontier.count }

    /// The observations the spec allows next, in a stable order.
    public mutating func allowedNext() -> [Observation] {
        var result: Set<Observation> = []
        for hypothesis in frontier {
            if let head = hypothesis.remaining.first {
                result.insert(head)
            } else {
                for (_, outcome) in outcomes(from: hypothesis.configuration) {
                    if let first = outcome.observations.first { result.insert(first) }
                }
            }
        }
        return result.sorted { $0.description < $1.description }
    }

    /// Events that emit nothing (a suspended app being purged) can happen between any two lines.
    private mutating func closeOverSilentEvents(_ hypotheses: [Hypothesis]) -> [Hypothesis] {
        var result = hypotheses
        var seen = Set(hypotheses)
        var cursor = 0
        while cursor < result.count {
            let hypothesis = result[cursor]
            cursor += 1
            guard hypothesis.remaining.isEmpty else { continue }
            for (event, outcome) in outcomes(from: hypothesis.configuration) where outcome.observations.isEmpty {
                let silent = hypothesis.starting(event, outcome: outcome, limit: historyLimit)
                if seen.insert(silent).inserted { result.append(silent) }
            }
        }
        return result
    }

    /// Each event's output and resulting configuration, computed once per configuration by the engine.
    private mutating func outcomes(from configuration: Configuration) -> [(String, Outcome)] {
        if let cached = cache[configuration] { return cached }
        var table: [(String, Outcome)] = []
        if let runner = try? Runner(machine: machine, state: configuration.state, flags: configuration.flags(in: machine)) {
            for event in machine.handledEvents(in: configuration.state) {
                var copy = runner
                guard let steps = try? copy.send(event) else { continue }
                let next = Configuration(state: copy.state, flagValues: flagIDs.map { copy.flags[$0] ?? false })
                table.append((event, Outcome(observations: steps.compactMap(\.observation), next: next)))
            }
        }
        cache[configuration] = table
        return table
    }
}
