import ArgumentParser
import Foundation
import LifeSpec
import LifeSpecRender
import LifecycleEngine

struct CheckTraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-trace",
        abstract: "Check a real app's log of callbacks and notifications against a spec.",
        discussion: """
            The log has one name per line, as 'lifespec recorder' writes it: optional leading \
            timestamps, then a callback or notification name (Swift name, Objective-C selector or \
            notification name, or spec id) running to the end of the line; '#' starts a comment. \
            The log is judged on what it records: by default on the receivers whose callbacks occur \
            in it (the app delegate, a view controller, a part: the API catalog knows each method's \
            protocol) and on notifications if one occurs, so a log of app-delegate calls alone is \
            held to the app delegate's calls the spec makes; --observe declares the observed set \
            instead. The summary or error says what the log was judged on. The tool decides whether \
            some sequence of events explains the log; on the first deviation it prints the line, the \
            states the app could be in and what the spec allows next. Several logs are judged one by \
            one, each on what it records; --coverage then reports which states, transitions and \
            scenarios the conforming logs exercised and which they never did (Markdown, or JSON with \
            --json), each log's verdict going to standard error. The exit status is 1 when any log \
            fails. See docs/spec-format.md.
            """
    )

    @OptionGroup var input: SpecFileArgument

    @Argument(help: ArgumentHelp("The trace files (one or more).", valueName: "trace"))
    var traces: [String] = []

    @Option(help: "The state the app is in when the log starts (default: not yet launched).")
    var from: String?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "A flag's value when the log starts (other flags may have any value).", valueName: "FLAG=true|false"))
    var assignments: [String] = []

    @Option(
        help: ArgumentHelp(
            "What the log records: callbacks, notifications, all, or a callback or notification name; repeatable (default: the receivers whose callbacks occur in the log, and notifications if one does).",
            valueName: "WHAT"))
    var observe: [String] = []

    @Flag(help: "Report what the conforming logs exercised: states, transitions and scenarios, and what none did.")
    var coverage = false

    @Flag(help: "With --coverage: the report as JSON instead of Markdown.")
    var json = false

    func validate() throws {
        guard !traces.isEmpty else { throw ValidationError("check-trace needs at least one trace file after the spec") }
        if json, !coverage { throw ValidationError("--json is the format of the coverage report: give --coverage too") }
        for assignment in assignments { _ = try SimulateCommand.parse(assignment) }
    }

    func run() throws {
        let loaded = try loadValidSpec(input.spec)
        let machine = loaded.machine
        var check: TraceCheck
        do {
            try TraceCheck.checkStart(from, in: machine)
            let fixedFlags = try SimulateCommand.flags(assignments, in: machine)
            check = try TraceCheck(
                machine: machine, document: loaded.document, from: from, fixedFlags: fixedFlags, observe: observe)
        } catch let error as TraceCheck.ArgumentError {
            throw ValidationError(error.description)
        }
        // A trace that is missing is a usage error (64), before any is judged; one that is not a
        // regular file, a located LS001 among the verdicts.
        for trace in traces where !FileManager.default.fileExists(atPath: trace) {
            throw missingFile(trace, what: "trace file")
        }
        check.tracksCoverage = coverage
        var logs: [TraceCoverageReport.Log] = []
        for trace in traces {
            let (outcome, exercised) = try check.judgeCoverage(trace)
            switch outcome {
            case .conforms(let summary):
                // The report alone goes to standard output, so it can be redirected to a file.
                if coverage {
                    StandardStreams.err(String(summary.prefix { $0 != "\n" }) + "\n")
                } else {
                    StandardStreams.out(summary)
                }
                logs.append(
                    TraceCoverageReport.Log(path: trace, conforms: true, message: summary, exercised: exercised))
            case .fails(let message):
                StandardStreams.err(message)
                logs.append(TraceCoverageReport.Log(path: trace, conforms: false, message: message, exercised: nil))
            }
        }
        if coverage {
            let report = TraceCoverageReport(machine: machine, document: loaded.document, logs: logs)
            StandardStreams.out(json ? TraceCoverageRenderer.json(report) : TraceCoverageRenderer.markdown(report))
        }
        if logs.contains(where: { !$0.conforms }) { throw ExitCode(1) }
    }
}

/// A file named on the command line that is not there: `path: error: [LS001] …`, exit status 64
/// (a wrong argument, like any other), the same for a spec, a trace or any other input file.
func missingFile(_ path: String, what: String) -> ExitCode {
    StandardStreams.err(
        "\(path): error: [\(DiagnosticCode.unreadableFile.rawValue)] \(what) \(FileProblem.describe(path))\n")
    return ExitCode(64)
}
