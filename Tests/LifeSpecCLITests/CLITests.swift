import Foundation
import LifeSpecTestSupport
import Testing

@Suite("lifespec command line")
struct CLITests {
    let flagship = "Spec/ios-app-lifecycle.yaml"

    @Test func validateAcceptsTheFlagship() throws {
        let result = try CLI.run(["validate", flagship])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("0 errors"))
    }

    /// `tests` ends its process without freeing the plan (`exitKeeping`): what it wrote, to a file
    /// or to standard output, is whole, and it exits with 0.
    @Test func testsWritesTheWholeSuiteBeforeItExits() throws {
        let folder = try Scratch.folder("lifespec-suite")
        let file = folder.appendingPathComponent("suite.swift")
        let written = try CLI.run(["tests", flagship, "-o", file.path])
        #expect(written.status == 0, "\(written.stderr)")
        let printed = try CLI.run(["tests", flagship])
        #expect(printed.status == 0, "\(printed.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == printed.stdout)
        #expect(text.hasSuffix("}\n") && text.contains("import LifecycleEngine"))
    }

    @Test func validateReportsEveryMistakeWithItsLocationInOneRun() throws {
        let path = CLI.fixtures.appendingPathComponent("CLI/many-mistakes.yaml").path
        let result = try CLI.run(["validate", path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").filter { $0.contains(": error: [LS") }
        #expect(lines.count >= 10)
        // Every line is path:line:col: error: [CODE] message.
        let pattern = try Regex(#"^.+:(\d+):(\d+): error: \[LS\d{3}\] .+$"#)
        for line in lines { #expect(line.wholeMatch(of: pattern) != nil, "\(line)") }
        let codes = Set(
            lines.compactMap { $0.firstMatch(of: try! Regex(#"\[(LS\d{3})\]"#))?.output[1].substring.map(String.init) })
        #expect(codes.count >= 10, "\(codes.sorted())")
        #expect(
            result.stdout.contains(
                "many-mistakes.yaml:13:10: error: [LS101] initial state 'of' is not declared; did you mean 'off'?"))
        #expect(result.stdout.contains("did you mean 'UIApplicationDidBecomeActiveNotification'?"))
    }

    @Test func validateJSONIsMachineReadable() throws {
        let path = CLI.fixtures.appendingPathComponent("CLI/many-mistakes.yaml").path
        let result = try CLI.run(["validate", "--format", "json", path])
        #expect(result.status == 1)
        let object = try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any]
        let diagnostics = try #require(object?["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == object?["errors"] as? Int)
        #expect(
            diagnostics.allSatisfy {
                ($0["code"] as? String)?.hasPrefix("LS") == true && $0["line"] is Int && $0["column"] is Int
            })
    }

    @Test func simulatePressHomeFromActiveShowsTheTrueSequence() throws {
        let result = try CLI.run(["simulate", flagship, "pressHome", "--from", "active", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        let steps = try #require(object["steps"] as? [[String: Any]])
        let names = steps.compactMap { $0["kind"] as? String == "transition" ? nil : $0["name"] as? String }
        #expect(
            names == [
                "applicationWillResignActive(_:)", "UIApplication.willResignActiveNotification",
                "applicationDidEnterBackground(_:)", "UIApplication.didEnterBackgroundNotification",
            ])
        let first = try #require(steps.first)
        #expect(first["kind"] as? String == "transition")
        #expect(first["event"] as? String == "pressHome")
        #expect(first["from"] as? String == "active")
        #expect(first["to"] as? String == "inactive")
        #expect(object["finalState"] as? String == "suspended")
        // The app delegate receives the calls; the notifications' names say who posts them.
        #expect(
            steps.filter { $0["kind"] as? String == "callback" }.allSatisfy {
                $0["receiver"] as? String == "AppDelegate"
            })
        let text = try CLI.run(["simulate", flagship, "pressHome", "--from", "active"])
        #expect(
            text.stdout.contains(
                "pressHome: active → inactive\n    callback      AppDelegate.applicationWillResignActive(_:)\n"))
    }

    @Test func simulateNamesTheStateAndWhatItAcceptsForAnUnhandledEvent() throws {
        let result = try CLI.run(["simulate", flagship, "endInterruption"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("'endInterruption' is not handled in state 'notRunning'"))
        #expect(result.stderr.contains("tapIcon"))
    }

    @Test(arguments: [
        ["simulate", "Spec/ios-app-lifecycle.yaml", "--set", "exitsOnSuspend=maybe", "pressHome"],
        ["simulate", "Spec/ios-app-lifecycle.yaml", "--from", "activ", "pressHome"],
        ["simulate", "Spec/ios-app-lifecycle.yaml", "pressHom"],
        ["validate", "--format", "xml"],
        ["no-such-command"],
        ["diagram", "Spec/ios-app-lifecycle.yaml", "--format", "gif"],
        ["tests", "Spec/ios-app-lifecycle.yaml", "--coverage", "bogus"],
    ])
    func usageErrorsExitWith64(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func testsCoverageTakesTransitionsOrPairs() throws {
        let bogus = try CLI.run(["tests", flagship, "--coverage", "bogus"])
        #expect(bogus.status == 64)
        #expect(bogus.stderr.contains("The value 'bogus' is invalid for '--coverage"), "\(bogus.stderr)")
        #expect(bogus.stderr.contains("'transitions' and 'pairs'"), "\(bogus.stderr)")
        let pairs = try CLI.run(["tests", flagship, "--coverage", "pairs"])
        #expect(pairs.status == 0, "\(pairs.stderr)")
        #expect(
            pairs.stdout.contains("// Coverage: transitions: 33 of 33 (100%); transition pairs: 265 of 265 (100%),"))
        let transitions = try CLI.run(["tests", flagship, "--coverage", "transitions"])
        #expect(transitions.stdout == (try CLI.run(["tests", flagship])).stdout)
        #expect(!transitions.stdout.contains("transition pairs"))
    }

    @Test func misspelledNamesGetASuggestion() throws {
        let result = try CLI.run(["simulate", flagship, "--from", "activ", "pressHome"])
        #expect(result.stderr.contains("did you mean 'active'?"))
    }

    @Test func missingSpecFileIsALocatedDiagnostic() throws {
        let result = try CLI.run(["validate", "Spec/does-not-exist.yaml"])
        // A file named on the command line that is not there is a usage error, as for every command.
        #expect(result.status == 64)
        #expect(result.stdout.contains("Spec/does-not-exist.yaml:1:1: error: [LS001]"))
    }

    @Test func checkTraceAcceptsAConformingLogAndInfersItsEvents() throws {
        let log = CLI.fixtures.appendingPathComponent("CLI/launch-then-home.log").path
        let result = try CLI.run(["check-trace", flagship, log])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("conforms: 9 observations"))
        #expect(result.stdout.contains("tapIcon → pressHome"))
    }

    @Test func checkTraceReportsTheFirstDeviationWithWhatIsAllowed() throws {
        let log = CLI.fixtures.appendingPathComponent("CLI/skips-did-finish-launching.log").path
        let result = try CLI.run(["check-trace", flagship, log])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "skips-did-finish-launching.log:2:1: error: [LS212] 'applicationDidBecomeActive(_:)' does not conform"))
        #expect(result.stderr.contains("the spec allows next: application(_:didFinishLaunchingWithOptions:)"))
    }

    @Test func recorderCompilesToNothingOffUIKit() throws {
        let folder = try Scratch.folder("lifespec-recorder")
        let file = folder.appendingPathComponent("Recorder.swift")
        let result = try CLI.run(["recorder", flagship, "-o", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let source = try String(contentsOf: file, encoding: .utf8)
        #expect(source.contains("#if canImport(UIKit)"))
        #expect(source.contains("UIApplication.didBecomeActiveNotification"))
        // On Linux the whole file is inside the #if: it must still parse and type-check.
        let swiftc = Process()
        swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swiftc.arguments = ["swiftc", "-typecheck", "-swift-version", "6", file.path]
        swiftc.standardError = FileHandle.nullDevice
        try swiftc.run()
        swiftc.waitUntilExit()
        #expect(swiftc.terminationStatus == 0)
    }
}

@Suite("check-trace on recorded logs")
struct CheckTraceTests {
    struct Deviation: Sendable, CustomStringConvertible {
        let log: String
        let location: String
        let states: String
        let allowed: String
        var description: String { log }
    }

    @Test(arguments: [
        Deviation(
            log: "missing-callback", location: "3:7", states: "active, background",
            allowed: "application(_:didFinishLaunchingWithOptions:)"),
        Deviation(
            log: "extra-callback", location: "7:1", states: "active",
            allowed: "applicationDidReceiveMemoryWarning(_:), applicationWillResignActive(_:)"),
        Deviation(
            log: "swapped", location: "5:1", states: "active, background",
            allowed: "applicationDidBecomeActive(_:), applicationDidEnterBackground(_:)"),
        Deviation(
            log: "impossible-in-state", location: "7:9", states: "active",
            allowed: "applicationDidReceiveMemoryWarning(_:), applicationWillResignActive(_:)"),
    ])
    func reportsTheDeviationLineStatesAndWhatIsAllowed(_ deviation: Deviation) throws {
        let log = CLI.fixtures.appendingPathComponent("CLI/\(deviation.log).log").path
        let result = try CLI.run(["check-trace", "Spec/ios-app-lifecycle.yaml", log])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(deviation.log).log:\(deviation.location): error:"), "\(result.stderr)")
        #expect(result.stderr.contains("the app is in or on its way to: \(deviation.states)\n"), "\(result.stderr)")
        #expect(result.stderr.contains("the spec allows next: \(deviation.allowed)\n"), "\(result.stderr)")
    }

    @Test func anUnknownNameIsReportedWithASuggestion() throws {
        let folder = try Scratch.folder("lifespec-trace")
        let log = folder.appendingPathComponent("typo.log")
        try "application(_:willFinishLaunchingWithOptions:)\nUIApplicationDidBeconmeActiveNotification\n".write(
            to: log, atomically: true, encoding: .utf8)
        let result = try CLI.run(["check-trace", "Spec/ios-app-lifecycle.yaml", log.path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "typo.log:2:1: error: [LS210] 'UIApplicationDidBeconmeActiveNotification' is not a callback or notification of this spec; did you mean 'UIApplicationDidBecomeActiveNotification'?"
            ))
    }

    @Test func aLongConformingLogStreams() throws {
        // 20,000 lines of Home and back: the checker keeps only a bounded frontier.
        let folder = try Scratch.folder("lifespec-trace")
        let log = folder.appendingPathComponent("long.log")
        var lines = [
            "application(_:willFinishLaunchingWithOptions:)", "application(_:didFinishLaunchingWithOptions:)",
            "UIApplication.didFinishLaunchingNotification", "applicationDidBecomeActive(_:)",
            "UIApplication.didBecomeActiveNotification",
        ]
        for _ in 0..<2_500 {
            lines += [
                "applicationWillResignActive(_:)", "UIApplication.willResignActiveNotification",
                "applicationDidEnterBackground(_:)", "UIApplication.didEnterBackgroundNotification",
                "UIApplication.willEnterForegroundNotification", "applicationWillEnterForeground(_:)",
                "applicationDidBecomeActive(_:)", "UIApplication.didBecomeActiveNotification",
            ]
        }
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let result = try CLI.run(["check-trace", "Spec/ios-app-lifecycle.yaml", log.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("conforms: \(lines.count) observations"))
        #expect(result.stdout.contains("(5001 events)"))
    }
}

@Suite("diagrams of synthetic machines")
struct SyntheticDiagramTests {
    /// Graphviz 2.42's classic ranking fails ("trouble in init_rank") on this clustered machine;
    /// the renderer must fall back to newrank and still draw it.
    @Test func aMachineGraphvizCannotRankClassicallyStillRenders() throws {
        let folder = try Scratch.folder("lifespec-synth")
        let spec = folder.appendingPathComponent("synthetic.yaml").path
        #expect(try CLI.run(["synth", "--states", "50", "--seed", "7", "-o", spec]).status == 0)
        let validate = try CLI.run(["validate", spec])
        #expect(validate.stdout.contains("0 errors"))
        let svg = folder.appendingPathComponent("d.svg").path
        let result = try CLI.run(["diagram", spec, "--format", "svg", "-o", svg])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("<svg") && text.contains("State 49"))
    }

    /// Graphviz writes its warnings straight to fd 2; a render must leave none there. Checked in a
    /// child process: inside the test process, fd 2 is shared with the test runner's own output.
    @Test("rendering a diagram prints nothing on stderr", arguments: ["svg", "png"])
    func renderingIsQuiet(_ format: String) throws {
        let folder = try Scratch.folder("lifespec-quiet")
        let file = folder.appendingPathComponent("d.\(format)").path
        let result = try CLI.run(["diagram", "Spec/ios-app-lifecycle.yaml", "--format", format, "-o", file])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: file))
    }

    /// DOT is not laid out, so no layout budget applies to it: it is written at the detail asked
    /// for, with a note, while SVG is refused with advice.
    @Test func dotOfAMachineTooLargeToLayOutIsStillWritten() throws {
        let folder = try Scratch.folder("lifespec-synth")
        let spec = folder.appendingPathComponent("synthetic.yaml").path
        #expect(try CLI.run(["synth", "--states", "2000", "--seed", "7", "-o", spec]).status == 0)
        let dot = try CLI.run(["diagram", spec, "--format", "dot"])
        #expect(dot.status == 0, "\(dot.stderr)")
        #expect(dot.stdout.hasPrefix("digraph") && dot.stdout.contains("State 1999"))
        #expect(
            dot.stdout.contains("applicationDid") || dot.stdout.contains("<B>"),
            "full detail keeps the transition labels")
        #expect(dot.stderr.contains("note: the diagram has") && dot.stderr.contains("--group"))
        let svg = try CLI.run(["diagram", spec, "--format", "svg", "-o", folder.appendingPathComponent("d.svg").path])
        #expect(svg.status == 1)
        #expect(svg.stderr.contains("too many for Graphviz") && svg.stderr.contains("group"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("d.svg").path))
    }
}
