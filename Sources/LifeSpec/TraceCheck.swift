import Foundation
import LifecycleEngine

/// `lifespec check-trace`: a real app's log of callbacks and notifications judged against a spec.
/// The log streams through line by line; the outcome is the text the command prints.
package struct TraceCheck {
    package enum Outcome: Equatable {
        /// The summary for standard output.
        case conforms(String)
        /// The first problem (a deviation, a name the spec does not know, a line that cannot be
        /// read), located at its line, for standard error.
        case fails(String)
    }

    /// A wrong argument: a `--from` state or an `--observe` item the spec does not have.
    package struct ArgumentError: Error, CustomStringConvertible {
        package let description: String
    }

    let machine: Machine
    /// The spec, for naming the part a deviating call belongs to in a system spec.
    let document: SpecDocument?
    let from: String?
    let fixedFlags: [String: Bool]
    let observe: [String]
    let vocabulary: TraceVocabulary
    let declared: Set<Observation>?
    /// Whether `judgeCoverage` keeps what a conforming log exercised (`check-trace --coverage`).
    package var tracksCoverage = false

    /// Checks the `--observe` items; `from` and `fixedFlags` are checked already (`checkStart`).
    package init(
        machine: Machine, document: SpecDocument? = nil, from: String?, fixedFlags: [String: Bool], observe: [String]
    ) throws(ArgumentError) {
        self.machine = machine
        self.document = document
        self.from = from
        self.fixedFlags = fixedFlags
        self.observe = observe
        vocabulary = TraceVocabulary(machine: machine)
        declared = observe.isEmpty ? nil : try Self.observedSet(observe, machine: machine, vocabulary: vocabulary)
    }

    /// With parallel regions `--from` may name a configuration: a leaf per region joined by `+`.
    package static func checkStart(_ from: String?, in machine: Machine) throws(ArgumentError) {
        for state in from.map({ ConformanceCase.configurationStates($0, in: machine) }) ?? []
        where machine.state(state) == nil {
            throw ArgumentError(
                description: "unknown state '\(state)'\(Suggestion.didYouMean(state, among: machine.states.map(\.id)))")
        }
    }

    /// Judges the log at `trace` (a regular file; a missing one is the caller's usage error).
    package func judge(_ trace: String) throws -> Outcome {
        try judgeCoverage(trace).outcome
    }

    /// The scenarios a coverage check looks for, in the document's order: each from where
    /// `Runner.begin` starts it (a scenario that cannot start is never matched).
    package var scenarioWatches: [TraceChecker.ScenarioWatch] {
        (document?.scenarios ?? []).map { scenario in
            TraceChecker.ScenarioWatch(
                start: try? Runner.begin(machine: machine, from: scenario.from, flags: scenario.flags).runner
                    .configuration,
                events: scenario.events)
        }
    }

    /// `judge`, and for a conforming log, what its explanations exercised when `tracksCoverage`
    /// (`exercised.scenarios` are positions in the document's scenarios).
    package func judgeCoverage(_ trace: String) throws -> (outcome: Outcome, exercised: TraceChecker.Exercised?) {
        let outcome = try judge(trace, coverage: tracksCoverage ? scenarioWatches : nil)
        return (outcome.outcome, outcome.checker?.exercised)
    }

    private func judge(_ trace: String, coverage: [TraceChecker.ScenarioWatch]?) throws -> (
        outcome: Outcome, checker: TraceChecker?
    ) {
        var lines: LineReader
        do {
            lines = try LineReader.open(trace)
        } catch {
            return fails("\(error)\n")
        }
        var judge = try ProjectedTrace(
            machine: machine, document: document, from: from, fixedFlags: fixedFlags, declared: declared,
            coverage: coverage)
        if judge.isOverBudget { return fails(overBudget(at: "\(trace):1:1")) }
        // Each name is numbered once: a line then costs one lookup. A name two callbacks share
        // stands for either (of those observed).
        var nameIndex: [Substring: Int] = [:]
        var meanings: [[Observation]] = []
        for known in vocabulary.knownNames {
            var named = vocabulary.observations(named: known)
            guard !named.isEmpty else { continue }
            if let declared, named.contains(where: declared.contains) { named = named.filter(declared.contains) }
            nameIndex[Substring(known)] = meanings.count
            meanings.append(named)
        }
        judge.prepare(meanings)
        while true {
            let line: String
            do {
                guard let next = try lines.nextLine() else { break }
                line = next
            } catch {
                return fails("\(error)\n")
            }
            guard let token = TraceVocabulary.name(onLine: Substring(line)) else { continue }
            // Built only for a message: most lines need no location.
            let location = {
                "\(trace):\(lines.lineNumber):\(line.distance(from: line.startIndex, to: token.startIndex) + 1)"
            }
            guard let index = nameIndex[token] else {
                return fails(
                    "\(location()): error: [\(DiagnosticCode.unknownTraceName.rawValue)] '\(TraceText.shown(token))' is not a callback or notification of this spec\(Suggestion.didYouMean(String(token), among: vocabulary.knownNames))\n"
                )
            }
            if let declared, !declared.contains(meanings[index][0]) {
                return fails(
                    "\(location()): error: [\(DiagnosticCode.unobservedTraceName.rawValue)] '\(TraceText.shown(token))' is in the log but not in the observed set (--observe \(observe.joined(separator: " --observe ")))\n"
                )
            }
            judge.feed(index, meanings[index], token: token, location: location)
            // A deviation found on part of the configurations is no answer: refused, not reported.
            if judge.isOverBudget { return fails(overBudget(at: location())) }
            if let report = judge.decidedDeviation { return fails(failure(report, judge: judge)) }
        }
        if let report = judge.finalDeviation { return fails(failure(report, judge: judge)) }
        let checker = judge.finalChecker
        var summary = "\(trace): conforms: \(checker.observationCount) observations"
        if !checker.isAtEventBoundary {
            summary += " (the log ends in the middle of an event's callbacks)"
        }
        summary += "\n  judged on: \(judge.observedDescription)\n"
        summary += "  could now be in: \(checker.possibleStates.joined(separator: ", "))\n"
        summary += untoldNote(checker)
        let inferred = checker.inferredEvents
        summary += "  one explanation (\(inferred.total) events): \(inferred.events.joined(separator: " → "))"
        summary += inferred.total > inferred.events.count ? " …\n" : "\n"
        return (.conforms(summary), checker)
    }

    private func fails(_ message: String) -> (outcome: Outcome, checker: TraceChecker?) { (.fails(message), nil) }

    private func overBudget(at location: String) -> String {
        "\(location): error: [\(DiagnosticCode.inputLimit.rawValue)] the log cannot be judged within \(TraceChecker.configurationBudget) configurations of the spec (check-trace's budget): "
            + "parallel regions or parts whose events the log does not record multiply the states the app could be in; "
            + "check a smaller spec (a part or a region alone), fix the start with --from and flags with --set, or record the callbacks those events make\n"
    }

    /// Regions whose states the check does not tell apart are left out of where the app may be:
    /// the note says which, so a shorter configuration is not read as the whole one.
    private func untoldNote(_ checker: TraceChecker) -> String {
        let regions = checker.untoldRegions
        guard !regions.isEmpty else { return "" }
        return
            "  not told apart (they emit nothing the log records, and nothing else depends on them): \(regions.joined(separator: ", "))\n"
    }

    private func failure(_ report: ProjectedTrace.Report, judge: ProjectedTrace) -> String {
        let machine = judge.finalChecker.machine
        // A Swift name two observations share is told apart by selector (else id), so that "does
        // not allow X" and "allows next: X" never name the same words for different calls.
        func name(of observation: Observation) -> String {
            let (swift, objc, id): (String, String?, String) =
                switch observation {
                case .callback(let id): (machine.callback(id)?.swiftName ?? id, machine.callback(id)?.objcName, id)
                case .notification(let id):
                    (machine.notification(id)?.swiftName ?? id, machine.notification(id)?.objcName, id)
                }
            guard vocabulary.observations(named: swift).count > 1 else { return swift }
            let distinct = objc.flatMap { vocabulary.observations(named: $0).count == 1 ? $0 : nil } ?? id
            return "\(swift) (\(distinct))"
        }
        let deviation = report.deviation
        let named = vocabulary.observations(named: report.token)
        let what =
            named.count > 1
            ? "either of \(named.map(name(of:)).joined(separator: " and "))" : name(of: deviation.observation)
        var message =
            "\(report.location): error: [\(DiagnosticCode.traceDeviation.rawValue)] '\(TraceText.shown(Substring(report.token)))' does not conform: the spec does not allow \(what) here\n"
        // In a system spec, whose object it is: the part's role and the spec that documents it.
        let observed =
            switch deviation.observation {
            case .callback(let id), .notification(let id): id
            }
        // A call to an object the whole app shares (the app delegate) is no one part's.
        if let document, document.sharedReceivers[observed] == nil, let part = document.part(of: observed) {
            let role = document.text(part.title ?? part.specTitle).map { "\($0), " } ?? ""
            message += "    the call is part \(part.name)'s (\(role)spec \(part.specID))\n"
        }
        message += "    the app is in or on its way to: \(deviation.possibleStates.joined(separator: ", "))\n"
        let allowed = deviation.allowedNext.map(name(of:))
        message +=
            "    the spec allows next: \(allowed.isEmpty ? "nothing (no event produces a recorded callback or notification here)" : allowed.joined(separator: ", "))\n"
        message += untoldNote(judge.finalChecker).replacingOccurrences(of: "  not told", with: "    not told")
        message += "    judged on: \(judge.observedDescription)\n"
        return message
    }

    /// The observations `--observe` names: kinds, `all`, or single names (with did-you-mean).
    static func observedSet(_ items: [String], machine: Machine, vocabulary: TraceVocabulary) throws(ArgumentError)
        -> Set<Observation>
    {
        var result: Set<Observation> = []
        // A comma separates items, unless the whole option is one name (names may hold commas).
        let split = items.flatMap { item in
            vocabulary.observation(named: item) != nil
                ? [item] : item.split(separator: ",").map { String($0).trimmingSpaces }
        }
        for item in split {
            switch item {
            case "all":
                result.formUnion(ProjectedTrace.Kind.callbacks.members(of: machine))
                result.formUnion(ProjectedTrace.Kind.notifications.members(of: machine))
            case "callbacks": result.formUnion(ProjectedTrace.Kind.callbacks.members(of: machine))
            case "notifications": result.formUnion(ProjectedTrace.Kind.notifications.members(of: machine))
            default:
                let named = vocabulary.observations(named: item)
                guard !named.isEmpty else {
                    let candidates = ["all", "callbacks", "notifications"] + vocabulary.knownNames
                    throw ArgumentError(
                        description:
                            "--observe takes callbacks, notifications, all, or a callback or notification name of the spec; '\(item)' is none of them\(Suggestion.didYouMean(item, among: candidates))"
                    )
                }
                result.formUnion(named)
            }
        }
        return result
    }
}

extension TraceCheck {
    /// The group of each observation (a position in the spec's groups: each receiver's callbacks,
    /// then the notifications) that a log is judged on by without `--observe`, for the explorer
    /// page's log check, which follows check-trace.
    package static func observationGroups(machine: Machine, document: SpecDocument?) -> [Observation: Int] {
        var result: [Observation: Int] = [:]
        for (offset, group) in ProjectedTrace.groups(of: machine, document: document).groups.enumerated() {
            for member in group.members { result[member] = offset }
        }
        return result
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

/// A log judged against the spec's traces projected onto what the log records. With the observed
/// set declared there is one checker. Without it, the set is the groups of names that occur in the
/// log — the callbacks of each object that receives them (`Group`), and the notifications — known
/// only at its end; so the log streams through one checker per possible set of groups, a line of a
/// group rules out the sets without it, and the smallest set that holds every group seen decides.
/// Once every group occurred only one is left and a deviation is reported at once.
struct ProjectedTrace {
    enum Kind: CaseIterable {
        case callbacks, notifications

        func members(of machine: Machine) -> Set<Observation> {
            switch self {
            case .callbacks: Set(machine.callbacks.map { .callback($0.id) })
            case .notifications: Set(machine.notifications.map { .notification($0.id) })
            }
        }
    }

    /// What a log records as a whole or not at all, when `--observe` does not say: the callbacks
    /// one object receives (`receiver`: the app delegate, a view controller, a part; `nil` for
    /// callbacks neither a catalog nor a part attributes to an object), or the notifications.
    enum Group: Hashable {
        case callbacks(receiver: String?)
        case notifications
    }

    /// Past this many groups a spec's callbacks are one group, whatever their receivers: each set
    /// of groups is a checker of its own (7 for 3 groups, against 3 for the kinds alone), and a
    /// system of three parts with notifications judged 15 ways took minutes on a one-line log.
    static let groupLimit = 3

    /// The spec's groups in order (callbacks by the receiver of the first of them, notifications
    /// last) with their members; whether receivers were merged past `groupLimit`.
    static func groups(of machine: Machine, document: SpecDocument?) -> (
        groups: [(group: Group, members: Set<Observation>)], merged: Bool
    ) {
        var groups: [(group: Group, members: Set<Observation>)] = []
        for callback in machine.callbacks {
            let group = Group.callbacks(receiver: document?.traceReceiver(ofCallback: callback.id))
            if let index = groups.firstIndex(where: { $0.group == group }) {
                groups[index].members.insert(.callback(callback.id))
            } else {
                groups.append((group, [.callback(callback.id)]))
            }
        }
        var merged = false
        if groups.count + (machine.notifications.isEmpty ? 0 : 1) > groupLimit {
            groups = [(.callbacks(receiver: nil), Kind.callbacks.members(of: machine))]
            merged = true
        }
        if !machine.notifications.isEmpty {
            groups.append((.notifications, Kind.notifications.members(of: machine)))
        }
        return (groups, merged)
    }

    struct Report {
        let deviation: TraceChecker.Deviation
        let token: String
        let location: String
    }

    struct Candidate {
        let groups: Set<Group>
        var checker: TraceChecker
        /// `symbols[name index]`: the checker's numbers for what each name of the vocabulary names
        /// (those it observes; empty when none).
        var symbols: [[TraceChecker.Symbol]] = []
        var report: Report?
    }

    private var candidates: [Candidate]
    private var groupsSeen: Set<Group> = []
    private let declared: Set<Observation>?
    private let groupOf: [Observation: Group]
    /// The spec's groups in order, for naming them.
    private let order: [Group]
    private let merged: Bool

    init(
        machine: Machine, document: SpecDocument? = nil, from: String?, fixedFlags: [String: Bool],
        declared: Set<Observation>?, coverage: [TraceChecker.ScenarioWatch]? = nil
    ) throws {
        self.declared = declared
        let (groups, merged) = Self.groups(of: machine, document: document)
        self.merged = merged
        order = groups.map(\.group)
        var groupOf: [Observation: Group] = [:]
        for (group, members) in groups { for member in members { groupOf[member] = group } }
        self.groupOf = groupOf
        if let declared {
            candidates = [
                Candidate(
                    groups: [],
                    checker: try TraceChecker(
                        machine: machine, from: from, fixedFlags: fixedFlags, observing: declared, coverage: coverage)
                )
            ]
            return
        }
        // Every non-empty set of groups, the whole first (a group the spec never emits is none).
        let count = groups.count
        let sets = (1..<(1 << count)).reversed().map { bits in
            Set((0..<count).filter { bits & (1 << $0) != 0 }.map { groups[$0].group })
        }
        let members = Dictionary(uniqueKeysWithValues: groups.map { ($0.group, $0.members) })
        candidates = try sets.map { set in
            let observed = set.reduce(into: Set<Observation>()) { $0.formUnion(members[$1] ?? []) }
            return Candidate(
                groups: set,
                checker: try TraceChecker(
                    machine: machine, from: from, fixedFlags: fixedFlags, observing: observed, coverage: coverage))
        }
    }

    /// `meanings[name index]`: what each name of the vocabulary names, at least one.
    mutating func prepare(_ meanings: [[Observation]]) {
        for index in candidates.indices {
            candidates[index].symbols = meanings.map { $0.compactMap(candidates[index].checker.symbol(for:)) }
        }
    }

    mutating func feed(_ index: Int, _ meanings: [Observation], token: Substring, location: () -> String) {
        if declared == nil {
            let groups = Set(meanings.compactMap { groupOf[$0] })
            // A name of one group puts it in the log; a name several share (LS141) says only that
            // the log records one of them: sets with none of them cannot have logged the line.
            if groups.count == 1, let group = groups.first, groupsSeen.insert(group).inserted {
                candidates.removeAll { !$0.groups.contains(group) }
            } else if groups.count > 1 {
                candidates.removeAll { $0.groups.isDisjoint(with: groups) }
            }
        }
        for position in candidates.indices where candidates[position].report == nil {
            let deviation: TraceChecker.Deviation?
            let symbols = candidates[position].symbols[index]
            if symbols.count == 1 {
                deviation = candidates[position].checker.feed(symbols[0])
            } else if symbols.isEmpty {
                deviation = candidates[position].checker.feed(meanings[0])
            } else {
                deviation = candidates[position].checker.feed(anyOf: symbols)
            }
            if let deviation {
                candidates[position].report = Report(deviation: deviation, token: String(token), location: location())
            }
        }
    }

    /// The candidate the log is judged by, as far as it is known: the smallest set of groups that
    /// holds every group seen, one that explains the log first among sets of that size (with
    /// nothing seen, the full set, so an empty log is judged as before).
    private var decisive: Candidate {
        guard declared == nil else { return candidates[0] }
        let covering = candidates.filter { groupsSeen.isSubset(of: $0.groups) }
        if groupsSeen.isEmpty, let whole = covering.max(by: { $0.groups.count < $1.groups.count }) { return whole }
        return covering.min {
            ($0.groups.count, $0.report == nil ? 0 : 1) < ($1.groups.count, $1.report == nil ? 0 : 1)
        }
            ?? candidates[0]
    }

    /// Some checker still judging ran past `TraceChecker.configurationBudget`: no answer can be trusted.
    var isOverBudget: Bool { candidates.contains { $0.checker.isOverBudget } }

    /// A deviation that no later line can excuse: the only candidate left has deviated.
    var decidedDeviation: Report? {
        candidates.count == 1 ? candidates[0].report : nil
    }

    var finalDeviation: Report? { decisive.report }
    var finalChecker: TraceChecker { decisive.checker }

    var observedDescription: String {
        if declared != nil { return "the names given with --observe" }
        let groups = order.filter(decisive.groups.contains)
        // Callbacks of no known receiver are "callbacks" when no callback has one.
        let attributed = order.contains { if case .callbacks(.some) = $0 { true } else { false } }
        let names: [String] = groups.map { group in
            switch group {
            case .notifications: "notifications"
            case .callbacks(let receiver?): "\(receiver)'s callbacks"
            case .callbacks(nil): attributed ? "callbacks of no known receiver" : "callbacks"
            }
        }
        var what = names.isEmpty ? "nothing" : names.dropLast().joined(separator: ", ")
        if names.count > 1 { what += " and " }
        what += names.last ?? ""
        let basis =
            attributed
            ? "the receivers of the callbacks in the log and the kinds of names in it"
            : "the kinds of names in the log"
        let mergedNote =
            merged ? "; its callbacks' receivers are not told apart: more than \(Self.groupLimit) groups" : ""
        return Set(order).isSubset(of: groupsSeen)
            ? "\(what) (\(basis)\(mergedNote))"
            : "\(what) (\(basis)\(mergedNote); --observe declares what it records)"
    }
}
