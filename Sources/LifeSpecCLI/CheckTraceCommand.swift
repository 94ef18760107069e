import ArgumentParser
import LifeSpec
import LifecycleEngine

struct CheckTraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-trace",
        abstract: "Check a real app's log of callbacks and notifications against a spec.",
        discussion: """
        The log has one callback or notification name per line (Swift names or Objective-C \
        selectors and notification names), an optional leading timestamp, '#' comments and blank \
        lines. The tool decides whether some sequence of events explains the log; on the first \
        deviation it prints the line, the states the app could be in and what the spec allows next.
        """
    )

    @Argument(help: "The spec file.")
    var spec: String

    @Argument(help: "The trace file.")
    var trace: String

    @Option(help: "The state the app is in when the log starts (default: not yet launched).")
    var from: String?

    func run() throws {
        let loaded = try loadValidSpec(spec)
        let machine = loaded.machine
        // With parallel regions `--from` may name a configuration: a leaf per region joined by `+`.
        for state in from.map({ ConformanceCase.configurationStates($0, in: machine) }) ?? [] where machine.state(state) == nil {
            throw ValidationError("unknown state '\(state)'\(Suggestion.didYouMean(state, among: machine.states.map(\.id)))")
        }
        guard var lines = LineReader(path: trace) else {
            throw ValidationError("cannot read trace file '\(trace)'")
        }
        let vocabulary = TraceVocabulary(machine: machine)
        var checker = try TraceChecker(machine: machine, from: from)
        func name(of observation: Observation) -> String {
            switch observation {
            case .callback(let id): machine.callback(id)?.swiftName ?? id
            case .notification(let id): machine.notification(id)?.swiftName ?? id
            }
        }
        // Each name is numbered once: a line then costs one lookup, and the checker compares integers.
        var symbols: [Substring: TraceChecker.Symbol] = [:]
        for known in vocabulary.knownNames {
            if let observation = vocabulary.observation(named: known), let symbol = checker.symbol(for: observation) {
                symbols[Substring(known)] = symbol
            }
        }
        // Only for the error messages: formatting it for every line took a tenth of a long run.
        func location(_ line: String, _ token: Substring, _ lineNumber: Int) -> String {
            "\(trace):\(lineNumber):\(line.distance(from: line.startIndex, to: token.startIndex) + 1)"
        }
        while let line = lines.next() {
            guard let token = TraceVocabulary.name(onLine: Substring(line)) else { continue }
            let deviation: TraceChecker.Deviation?
            if let symbol = symbols[token] {
                deviation = checker.feed(symbol)
            } else if let observation = vocabulary.observation(named: String(token)) {
                deviation = checker.feed(observation)
            } else {
                StandardStreams.err("\(location(line, token, lines.lineNumber)): error: '\(token)' is not a callback or notification of this spec\(Suggestion.didYouMean(String(token), among: vocabulary.knownNames))\n")
                throw ExitCode(1)
            }
            if let deviation {
                var message = "\(location(line, token, lines.lineNumber)): error: '\(token)' does not conform: the spec does not allow \(name(of: deviation.observation)) here\n"
                message += "    the app is in or on its way to: \(deviation.possibleStates.joined(separator: ", "))\n"
                let allowed = deviation.allowedNext.map(name(of:))
                message += "    the spec allows next: \(allowed.isEmpty ? "nothing (no event produces a callback or notification here)" : allowed.joined(separator: ", "))\n"
                StandardStreams.err(message)
                throw ExitCode(1)
            }
        }
        var summary = "\(trace): conforms: \(checker.observationCount) observations"
        if !checker.isAtEventBoundary {
            summary += " (the log ends in the middle of an event's callbacks)"
        }
        summary += "\n  could now be in: \(checker.possibleStates.joined(separator: ", "))\n"
        let inferred = checker.inferredEvents
        summary += "  one explanation (\(inferred.total) events): \(inferred.events.joined(separator: " → "))"
        summary += inferred.total > inferred.events.count ? " …\n" : "\n"
        StandardStreams.out(summary)
    }
}
