import ArgumentParser
import LifeSpec
import LifecycleEngine

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Send events through the shared engine and print the trace, one step a line.",
        discussion: "Example: lifespec simulate Spec/ios-app-lifecycle.yaml pressHome --from active"
    )

    @OptionGroup var input: SpecFileArgument

    @Argument(help: "Events to send, in order.")
    var events: [String] = []

    @Option(help: "Start in this state instead of the spec's initial state.")
    var from: String?

    @Option(
        name: .customLong("set"), help: ArgumentHelp("Set a flag before the first event.", valueName: "FLAG=true|false")
    )
    var assignments: [String] = []

    @ArgumentParser.Flag(help: "Print the trace as JSON.")
    var json = false

    func validate() throws {
        for assignment in assignments { _ = try Self.parse(assignment) }
    }

    static func parse(_ assignment: String) throws -> (String, Bool) {
        let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let value = Bool(parts[1].lowercased()) else {
            throw ValidationError("--set takes FLAG=true or FLAG=false, not '\(assignment)'")
        }
        return (parts[0], value)
    }

    /// `--set FLAG=value` options checked against the spec's flags (with did-you-mean).
    static func flags(_ assignments: [String], in machine: Machine) throws -> [String: Bool] {
        var flags: [String: Bool] = [:]
        for assignment in assignments {
            let (flag, value) = try parse(assignment)
            guard machine.flag(flag) != nil else {
                let known = machine.flags.map(\.id)
                let list = known.isEmpty ? "the spec has no flags" : "flags: \(known.joined(separator: ", "))"
                throw ValidationError("unknown flag '\(flag)'\(Suggestion.didYouMean(flag, among: known)); \(list)")
            }
            flags[flag] = value
        }
        return flags
    }

    func run() throws {
        let loaded = try loadValidSpec(input.spec)
        var machine = loaded.machine
        // An SCXML chart takes any event, as an SCXML processor does; a YAML spec refuses a name it
        // does not declare, which catches typos.
        if SpecLoader.isSCXML(input.spec) { machine = try machine.declaring(events: events) }
        let flags = try Self.flags(assignments, in: machine)
        if let from, machine.state(from) == nil {
            throw ValidationError(
                "unknown state '\(from)'\(Suggestion.didYouMean(from, among: machine.states.map(\.id))); states: \(machine.states.map(\.id).joined(separator: ", "))"
            )
        }
        for event in events where machine.event(event) == nil {
            throw ValidationError(
                "unknown event '\(event)'\(Suggestion.didYouMean(event, among: machine.events.map(\.id))); events: \(machine.events.map(\.id).joined(separator: ", "))"
            )
        }
        // Without --from the machine starts as SCXML does: entry actions and the first macrostep run.
        var (runner, steps) = try Runner.begin(machine: machine, from: from, flags: flags)
        let start = from ?? runner.states.joined(separator: ", ")
        var configurations = [runner.activeStates]
        var discarded: [(position: Int, event: String)] = []
        for event in events {
            do {
                let taken = try runner.send(event)
                // Only a machine that ignores unhandled events gets here with nothing taken.
                if taken.isEmpty { discarded.append((steps.count, event)) }
                steps += taken
                configurations.append(runner.activeStates)
            } catch {
                if !json {
                    StandardStreams.out(
                        SimulationText.render(
                            steps, machine: machine, document: loaded.document, start: start, final: nil,
                            discarded: discarded))
                }
                StandardStreams.err("error: \(error)\n")
                // "Not handled" where a transition exists is its guard's doing: say which, and why.
                let flags = runner.flags
                for transition in runner.guardedTransitions(for: event) {
                    guard let guardExpression = transition.guardExpression else { continue }
                    let values = guardExpression.flags.map { "\($0) = \(flags[$0] ?? false)" }
                    let sources = transition.sources.map { "'\($0)'" }.joined(separator: ", ")
                    StandardStreams.err(
                        "    its transition from \(sources) is guarded by '\(guardExpression)', false now"
                            + (values.isEmpty ? "" : " (\(values.joined(separator: ", ")))") + "\n")
                }
                throw ExitCode(1)
            }
        }
        if json {
            StandardStreams.out(
                SimulationText.json(
                    steps, machine: machine, document: loaded.document, final: runner.state,
                    configurations: configurations))
        } else {
            StandardStreams.out(
                SimulationText.render(
                    steps, machine: machine, document: loaded.document, start: start,
                    final: runner.states.joined(separator: ", "),
                    discarded: discarded))
        }
    }
}
