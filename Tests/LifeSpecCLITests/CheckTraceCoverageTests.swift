import Foundation
import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine
import Testing

/// `check-trace SPEC LOG… --coverage` (#35 item 3): what recorded sessions exercised, never more
/// than the logs show.
@Suite("check-trace --coverage: what recorded sessions exercised")
struct CheckTraceCoverageTests {
    static let flagship = "Spec/ios-app-lifecycle.yaml"

    /// A scenario's own log (spec ids, one per line) and what running it through the engine did.
    struct ScenarioLog {
        let id: String
        let from: String?
        let flags: [String: Bool]
        let lines: [String]
        let states: Set<String>
        /// `index@source`, as the report's JSON names a transition.
        let transitions: Set<String>
    }

    /// Every scenario that runs to its end (one that shows a refusal has no log), computed from
    /// the engine's run record, not from the checker.
    static func scenarioLogs(_ spec: LoadedSpec) throws -> [ScenarioLog] {
        let machine = spec.machine
        func source(of step: TransitionStep) -> String {
            let sources = machine.transitions[step.transitionIndex].sources
            var state: String? = step.from
            while let current = state {
                if sources.contains(current) { return current }
                state = machine.state(current)?.parent
            }
            return sources[0]
        }
        var result: [ScenarioLog] = []
        for scenario in spec.document.scenarios {
            guard var (runner, steps) = try? Runner.begin(machine: machine, from: scenario.from, flags: scenario.flags)
            else { continue }
            var states = Set(runner.activeStates)
            var failed = false
            for event in scenario.events {
                guard let sent = try? runner.sendRecordingStates(event) else {
                    failed = true
                    break
                }
                steps += sent.steps
                states.formUnion(sent.entered)
            }
            guard !failed else { continue }
            var transitions: Set<String> = []
            var lines: [String] = []
            for step in steps {
                switch step {
                case .transition(let taken): transitions.insert("\(taken.transitionIndex)@\(source(of: taken))")
                case .callback(let id), .notification(let id): lines.append(id)
                }
            }
            result.append(
                ScenarioLog(
                    id: scenario.id, from: scenario.from, flags: scenario.flags, lines: lines,
                    states: states.filter { machine.state($0)?.isHistory == false }, transitions: transitions))
        }
        return result
    }

    static func write(_ lines: [String], _ name: String) throws -> String {
        let url = try Scratch.folder("lifespec-check-trace-coverage").appendingPathComponent(name)
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// What one `--coverage --json` run reported, by standing.
    struct Reported {
        let json: [String: Any]
        var exercisedStates: Set<String> = []
        var possibleStates: Set<String> = []
        var exercisedTransitions: Set<String> = []
        var possibleTransitions: Set<String> = []
        var exercisedScenarios: Set<String> = []
        var possibleScenarios: Set<String> = []

        init(_ stdout: String) throws {
            json = try #require(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
            for state in json["states"] as? [[String: Any]] ?? [] {
                let id = state["id"] as? String ?? ""
                if state["coverage"] as? String == "exercised" { exercisedStates.insert(id) }
                if state["coverage"] as? String == "possibly" { possibleStates.insert(id) }
            }
            for transition in json["transitions"] as? [[String: Any]] ?? [] {
                let key = "\(transition["index"] as? Int ?? -1)@\(transition["from"] as? String ?? "")"
                if transition["coverage"] as? String == "exercised" { exercisedTransitions.insert(key) }
                if transition["coverage"] as? String == "possibly" { possibleTransitions.insert(key) }
            }
            for scenario in json["scenarios"] as? [[String: Any]] ?? [] {
                let id = scenario["id"] as? String ?? ""
                if scenario["coverage"] as? String == "exercised" { exercisedScenarios.insert(id) }
                if scenario["coverage"] as? String == "possibly" { possibleScenarios.insert(id) }
            }
        }
    }

    /// Runs check-trace on the logs of scenarios sharing a start (`--from`, `--set`).
    static func coverage(_ logs: [ScenarioLog], spec: String = flagship, extra: [String] = []) throws -> (
        CLIResult, Reported
    ) {
        var arguments = ["check-trace", spec]
        for log in logs { arguments.append(try write(log.lines, "\(log.id).log")) }
        arguments += extra + ["--coverage", "--json"]
        if let from = logs.first?.from { arguments += ["--from", from] }
        for (flag, value) in (logs.first?.flags ?? [:]).sorted(by: { $0.key < $1.key }) {
            arguments += ["--set", "\(flag)=\(value)"]
        }
        let result = try CLI.run(arguments)
        return (result, try Reported(result.stdout))
    }

    @Test("the scenarios' own logs together cover what the scenarios cover, never more")
    func scenarioLogsCoverWhatTheScenariosCover() throws {
        let spec = try SpecFixtures.load(Self.flagship)
        let logs = try Self.scenarioLogs(spec)
        #expect(logs.count > 10)
        // One run per start: check-trace takes one --from and one set of --set flags.
        var groups: [String: [ScenarioLog]] = [:]
        for log in logs {
            groups["\(log.from ?? "-") \(log.flags.sorted { $0.key < $1.key })", default: []].append(log)
        }
        var exercised = (states: Set<String>(), transitions: Set<String>())
        var possible = exercised
        for group in groups.values {
            let (result, reported) = try Self.coverage(group)
            #expect(result.status == 0, "\(result.stderr)")
            exercised.states.formUnion(reported.exercisedStates)
            exercised.transitions.formUnion(reported.exercisedTransitions)
            possible.states.formUnion(reported.possibleStates)
            possible.transitions.formUnion(reported.possibleTransitions)
            // Each scenario's log runs through that scenario.
            for log in group {
                #expect(
                    reported.exercisedScenarios.union(reported.possibleScenarios).contains(log.id),
                    "\(log.id) in \(reported.exercisedScenarios) / \(reported.possibleScenarios)")
            }
        }
        let expected = (
            states: logs.reduce(into: Set<String>()) { $0.formUnion($1.states) },
            transitions: logs.reduce(into: Set<String>()) { $0.formUnion($1.transitions) }
        )
        // Every explanation of a log includes the scenario's own events: what all of them took the
        // scenarios took, and what the scenarios took some explanation took.
        #expect(exercised.transitions.isSubset(of: expected.transitions))
        #expect(expected.transitions.isSubset(of: exercised.transitions.union(possible.transitions)))
        #expect(exercised.states.isSubset(of: expected.states))
        #expect(expected.states.isSubset(of: exercised.states.union(possible.states)))
        // Not every transition is told apart by its calls (pressing Home, locking the screen, an
        // interruption and the app switcher all make an active app resign active): what the
        // scenarios took and no log exercised for certain is exactly what some log possibly did.
        #expect(!exercised.transitions.isEmpty)
        #expect(expected.transitions.subtracting(exercised.transitions).isSubset(of: possible.transitions))
        #expect(expected.states.subtracting(exercised.states).isSubset(of: possible.states))
    }

    @Test("one log covers a strict subset of what all the launch logs cover")
    func oneLogCoversAStrictSubset() throws {
        let logs = try Self.scenarioLogs(try SpecFixtures.load(Self.flagship)).filter {
            $0.from == nil && $0.flags.isEmpty
        }
        let cold = try #require(logs.first { $0.id == "coldLaunch" })
        let (oneResult, one) = try Self.coverage([cold])
        let (allResult, all) = try Self.coverage(logs)
        #expect(oneResult.status == 0 && allResult.status == 0, "\(oneResult.stderr)\(allResult.stderr)")
        #expect(one.exercisedTransitions.isStrictSubset(of: all.exercisedTransitions))
        #expect(one.exercisedStates.isSubset(of: all.exercisedStates))
        #expect(one.exercisedScenarios.union(one.possibleScenarios).contains("coldLaunch"))
        let totals = try #require(one.json["totals"] as? [String: [String: Int]])
        #expect(totals["transitions"]?["exercised"] == one.exercisedTransitions.count)
    }

    @Test("a failing log is reported with its diagnostic, counts for nothing, and the status is 1")
    func aFailingLogIsExcluded() throws {
        let logs = try Self.scenarioLogs(try SpecFixtures.load(Self.flagship)).filter {
            $0.from == nil && $0.flags.isEmpty
        }
        let cold = try #require(logs.first { $0.id == "coldLaunch" })
        // Became active before it finished launching.
        let bad = ScenarioLog(
            id: "reversed", from: nil, flags: [:], lines: cold.lines.reversed(), states: [], transitions: [])
        let (result, reported) = try Self.coverage([cold, bad])
        #expect(result.status == 1)
        #expect(result.stderr.contains("reversed.log:1:1: error: "), "\(result.stderr)")
        #expect(result.stderr.contains("coldLaunch.log: conforms: "), "\(result.stderr)")
        let reportedLogs = try #require(reported.json["logs"] as? [[String: Any]])
        #expect(reportedLogs.map { $0["conforms"] as? Bool } == [true, false])
        #expect((reportedLogs[1]["message"] as? String)?.contains("reversed.log:1:1: error: ") == true)
        let (_, alone) = try Self.coverage([cold])
        #expect(reported.exercisedTransitions == alone.exercisedTransitions)
        #expect(reported.exercisedStates == alone.exercisedStates)
        // The Markdown report says so.
        let markdown = try CLI.run([
            "check-trace", Self.flagship, try Self.write(cold.lines, "a.log"),
            try Self.write(bad.lines, "b.log"), "--coverage",
        ])
        #expect(markdown.status == 1)
        #expect(
            markdown.stdout.contains("2 logs checked: 1 conform, 1 fails and is not counted."), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("fails, not counted: "))
    }

    /// Two events make the same call from the same state: a log of that call cannot say which.
    static let twins = """
        lifespec: 1
        id: twins
        title: {en: "Twins **bold** <img src=x onerror=alert(1)> | pipe"}
        states:
          a:
            title: {en: Start}
          b:
            title: {en: "[link](javascript:alert(1)) `code` # heading"}
          c:
            title: {en: C}
        initial: a
        events:
          x: {kind: user}
          y: {kind: user}
          reset: {kind: user}
        callbacks:
          ping: {}
          pong: {}
        transitions:
          - {from: a, on: x, to: b, do: [ping]}
          - {from: a, on: y, to: c, do: [ping]}
          - {from: [b, c], on: reset, to: a, do: [pong]}
        scenarios:
          - id: viaX
            title: {en: "<script>alert(1)</script> _x_"}
            events: [x]
            expect: [ping]
            end: b
        """

    static func twinsSpec() throws -> String {
        let url = try Scratch.folder("lifespec-check-trace-coverage").appendingPathComponent("twins.yaml")
        try Self.twins.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test("an ambiguous log claims no transition only one explanation took")
    func anAmbiguousLogClaimsOnlyWhatEveryExplanationTook() throws {
        let spec = try Self.twinsSpec()
        let log = try Self.write(["ping"], "ping.log")
        let result = try CLI.run(["check-trace", spec, log, "--coverage", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let reported = try Reported(result.stdout)
        #expect(reported.exercisedTransitions.isEmpty)
        #expect(reported.possibleTransitions == ["0@a", "1@a"])
        #expect(reported.exercisedStates == ["a"])
        #expect(reported.possibleStates == ["b", "c"])
        #expect(reported.exercisedScenarios.isEmpty)
        #expect(reported.possibleScenarios == ["viaX"])
        let totals = try #require(reported.json["totals"] as? [String: [String: Int]])
        // `from: [b, c]` is two transitions, as the suite counts them.
        #expect(totals["transitions"] == ["exercised": 0, "possibly": 2, "total": 4])
        #expect(totals["states"] == ["exercised": 1, "possibly": 2, "total": 3])
        #expect(totals["scenarios"] == ["exercised": 0, "possibly": 1, "total": 1])
    }

    @Test("the JSON report's keys")
    func jsonKeys() throws {
        let spec = try Self.twinsSpec()
        let result = try CLI.run(["check-trace", spec, try Self.write(["ping"], "keys.log"), "--coverage", "--json"])
        let json = try Reported(result.stdout).json
        #expect(Set(json.keys) == ["spec", "logs", "untold", "totals", "states", "transitions", "scenarios"])
        #expect((json["untold"] as? [String]) == [])
        #expect(json["spec"] as? String == "twins")
        let log = try #require((json["logs"] as? [[String: Any]])?.first)
        #expect(Set(log.keys) == ["path", "conforms", "message"])
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(Set(totals.keys) == ["states", "transitions", "scenarios"])
        let state = try #require((json["states"] as? [[String: Any]])?.first)
        #expect(Set(state.keys) == ["id", "title", "exercised", "possibly", "coverage"])
        let transition = try #require((json["transitions"] as? [[String: Any]])?.first)
        #expect(
            Set(transition.keys) == [
                "index", "from", "event", "guard", "to", "weight", "exercised", "possibly", "coverage",
            ])
        let scenario = try #require((json["scenarios"] as? [[String: Any]])?.first)
        #expect(Set(scenario.keys) == ["id", "title", "exercised", "possibly", "coverage"])
        #expect(scenario["title"] as? String == "<script>alert(1)</script> _x_")
    }

    @Test("spec text in the Markdown report is text, never markup")
    func markdownEscapesSpecText() throws {
        let spec = try Self.twinsSpec()
        let result = try CLI.run(["check-trace", spec, try Self.write(["ping"], "md.log"), "--coverage"])
        #expect(result.status == 0, "\(result.stderr)")
        let markdown = result.stdout
        for raw in ["<img", "<script>", "**bold**", "](javascript:", "`code`", "_x_", "| pipe"] {
            #expect(!markdown.contains(raw), "\(raw)")
        }
        #expect(markdown.contains("&lt;script&gt;"))
        #expect(markdown.contains("&lt;img"))
        #expect(markdown.contains("### Possibly exercised (2)"))
    }

    @Test("each log is judged on its own receivers, with or without --coverage")
    func eachLogIsJudgedOnItsOwnReceivers() throws {
        let restoration = CheckTraceReceiversTests.restoration
        // The app delegate's calls alone: held to the delegate's calls, not to the view
        // controller's, which the other log records.
        let delegate = try Self.write(CheckTraceReceiversTests.delegateLaunch, "delegate-only.log")
        let controller = try Self.write(
            ["viewDidLoad()", "decodeRestorableState(with:)", "applicationFinishedRestoringState()"],
            "controller-only.log")
        let plain = try CLI.run(["check-trace", restoration, delegate, controller])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("judged on: AppDelegate's callbacks (the receivers"), "\(plain.stdout)")
        #expect(plain.stdout.contains("judged on: UIViewController's callbacks (the receivers"), "\(plain.stdout)")
        let covered = try CLI.run(["check-trace", restoration, delegate, controller, "--coverage", "--json"])
        #expect(covered.status == 0, "\(covered.stderr)")
        let reported = try Reported(covered.stdout)
        let logs = try #require(reported.json["logs"] as? [[String: Any]])
        #expect(logs.map { $0["conforms"] as? Bool } == [true, true])
        #expect(!reported.exercisedTransitions.isEmpty)
    }

    /// A region that emits nothing the log records is kept at a stand-in state: what it does there
    /// is not what the app did.
    @Test("nothing is claimed inside a region the log cannot tell apart")
    func untoldRegionsClaimNothing() throws {
        let url = try Scratch.folder("lifespec-check-trace-coverage").appendingPathComponent("regions.yaml")
        try """
        lifespec: 1
        id: regions
        states:
          app:
            parallel: true
            states:
              player:
                initial: stopped
                states:
                  stopped:
                  playing:
              volume:
                initial: loud
                states:
                  loud:
                  muted:
        initial: app
        events:
          play: {kind: user}
          stop: {kind: user}
          mute: {kind: user}
          unmute: {kind: user}
        callbacks:
          didStart: {}
          didStop: {}
        transitions:
          - {from: stopped, on: play, to: playing, do: [didStart]}
          - {from: playing, on: stop, to: stopped, do: [didStop]}
          - {from: loud, on: mute, to: muted}
          - {from: muted, on: unmute, to: loud}
        """.write(to: url, atomically: true, encoding: .utf8)
        let log = try Self.write(["didStart"], "regions.log")
        let result = try CLI.run(["check-trace", url.path, log, "--coverage", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let reported = try Reported(result.stdout)
        #expect(reported.json["untold"] as? [String] == ["volume"])
        #expect(reported.exercisedTransitions == ["0@stopped"])
        // Without the stand-in set aside, muting before or after the line would be possible.
        #expect(reported.possibleTransitions.isEmpty)
        #expect(reported.exercisedStates == ["app", "player", "stopped", "playing"])
        let markdown = try CLI.run(["check-trace", url.path, log, "--coverage"])
        #expect(
            markdown.stdout.contains("so nothing in them is claimed from that log: `volume`."), "\(markdown.stdout)")
    }

    @Test("usage errors exit 64")
    func usageErrors() throws {
        let noLog = try CLI.run(["check-trace", Self.flagship])
        #expect(noLog.status == 64)
        #expect(noLog.stderr.contains("at least one trace file"), "\(noLog.stderr)")
        let log = try Self.write(["tapIcon"], "usage.log")
        let jsonAlone = try CLI.run(["check-trace", Self.flagship, log, "--json"])
        #expect(jsonAlone.status == 64)
        #expect(jsonAlone.stderr.contains("--json is the format of the coverage report"), "\(jsonAlone.stderr)")
        let missing = try CLI.run(["check-trace", Self.flagship, log, "/nonexistent/x.log", "--coverage"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("/nonexistent/x.log: error: [LS001]"), "\(missing.stderr)")
        #expect(missing.stdout.isEmpty)
    }

    @Test("several logs without --coverage: each verdict, status 1 when one fails")
    func severalLogsWithoutCoverage() throws {
        let good = try Self.write(
            ["willFinishLaunching", "didFinishLaunching", "didBecomeActive"], "good.log")
        let bad = try Self.write(["didBecomeActive"], "bad.log")
        let result = try CLI.run(["check-trace", Self.flagship, good, bad])
        #expect(result.status == 1)
        #expect(result.stdout.contains("good.log: conforms: 3 observations"), "\(result.stdout)")
        #expect(result.stderr.contains("bad.log:1:1: error: "), "\(result.stderr)")
        let both = try CLI.run(["check-trace", Self.flagship, good, good])
        #expect(both.status == 0, "\(both.stderr)")
    }
}
