import Foundation
import LifeSpecTestSupport
import Testing

/// The commands on a system spec (`Tests/Fixtures/System/navigation-pair.yaml`: two
/// `uiviewcontroller-lifecycle` parts, A and B, and a navigation coordinator): every trace names
/// the part each call belongs to.
@Suite("System specs on the command line")
struct SystemCLITests {
    static let system = "Tests/Fixtures/System/navigation-pair.yaml"

    @Test func checkTraceAcceptsATwoControllerPushLog() throws {
        let log = CLI.fixtures.appendingPathComponent("CLI/two-controllers-push.log").path
        let result = try CLI.run(["check-trace", Self.system, log])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("conforms: 18 observations"))
        #expect(result.stdout.contains("one explanation (2 events): showRoot → pushB"))
    }

    @Test func checkTraceRejectsTheSameLogWithOneCallSwappedNamingThePart() throws {
        let log = CLI.fixtures.appendingPathComponent("CLI/two-controllers-push-swapped.log").path
        let result = try CLI.run(["check-trace", Self.system, log])
        #expect(result.status == 1)
        // B's callbacks may run ahead (the log could be B pushed on its own), until A's
        // viewWillDisappear(_:) comes where only B's viewIsAppearing(_:) may.
        #expect(
            result.stderr.contains(
                "two-controllers-push-swapped.log:14:14: error: [LS212] 'A.viewWillDisappear(_:)' does not conform: the spec does not allow A.viewWillDisappear(_:) here"
            ), "\(result.stderr)")
        #expect(result.stderr.contains("the call is part A's (Root view controller, spec uiviewcontroller-lifecycle)"))
        #expect(result.stderr.contains("the spec allows next: B.viewIsAppearing(_:)"))
    }

    @Test func simulateNamesThePartInTextAndJSON() throws {
        let text = try CLI.run(["simulate", Self.system, "showRoot", "pushB"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains(
                "A.pushOnTop: A.appeared → A.disappearing\n    callback      A.viewWillDisappear(_:)\nB.push: B.viewNotLoaded → B.appearing"
            ))
        #expect(text.stdout.contains("final state: A.disappeared, B.appeared, pushed"))
        let json = try CLI.run(["simulate", Self.system, "showRoot", "pushB", "--json"])
        #expect(json.status == 0)
        #expect(
            json.stdout.contains(
                #"{"kind":"callback","id":"A.viewWillDisappear","name":"A.viewWillDisappear(_:)","part":"A","receiver":"A"}"#
            ),
            "\(json.stdout)")
        #expect(json.stdout.contains(#"{"kind":"transition","event":"pushB","from":"rootShown","to":"pushed"}"#))
        #expect(
            json.stdout.contains(
                #"{"kind":"transition","event":"B.push","from":"B.viewNotLoaded","to":"B.appearing","part":"B"}"#))
    }

    /// A two-state part spec; `switchingOnTo` is the target of its first transition (a typo makes it invalid).
    static func lamp(switchingOnTo target: String) -> String {
        """
        lifespec: 1
        id: lamp
        initial: off
        events: {toggle: {}}
        states: {off: {}, on: {}}
        transitions:
          - {from: off, on: toggle, to: \(target)}
          - {from: on, on: toggle, to: off}
        """
    }

    @Test func validateReportsAPartsProblemInItsFileAndTheInclude() throws {
        let folder = try Scratch.folder("lifespec-system")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.lamp(switchingOnTo: "onn").write(
            to: folder.appendingPathComponent("lamp.yaml"), atomically: true, encoding: .utf8)
        try """
        lifespec: 1
        id: lamps
        parts: {A: lamp, B: lamp}
        """.write(to: folder.appendingPathComponent("lamps.yaml"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["validate", folder.appendingPathComponent("lamps.yaml").path])
        #expect(result.status == 1)
        let output = result.stdout + result.stderr
        #expect(
            output.contains("lamp.yaml:7:33: error: [LS101] state 'onn' is not declared; did you mean 'on'?"),
            "\(output)")
        #expect(output.contains("lamps.yaml:3:12: error: [LS191] part 'A': spec 'lamp'"))
        #expect(output.contains("lamps.yaml:3:21: error: [LS191] part 'B': spec 'lamp'"))
    }

    /// `docs` of a part looks beside it for the systems that use it, reading only files that name
    /// `parts` and its id; an id spelled with a YAML escape has no such letters in a row.
    @Test(arguments: ["lamp", #""l\x61mp""#, "\"la\\\n  mp\""])
    func aPartsPageNamesTheSystemThatUsesItHoweverItsIDIsWritten(written: String) throws {
        let folder = try Scratch.folder("lifespec-used-by")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.lamp(switchingOnTo: "on").write(
            to: folder.appendingPathComponent("lamp.yaml"), atomically: true, encoding: .utf8)
        try """
        lifespec: 1
        id: bulb
        initial: dark
        events: {flick: {}}
        states: {dark: {}, lit: {}}
        transitions:
          - {from: dark, on: flick, to: lit}
          - {from: lit, on: flick, to: dark}
        """.write(to: folder.appendingPathComponent("bulb.yaml"), atomically: true, encoding: .utf8)
        try """
        lifespec: 1
        id: desk
        title: Desk
        parts: {A: \(written), B: bulb}
        """.write(to: folder.appendingPathComponent("desk.yaml"), atomically: true, encoding: .utf8)
        let page = folder.appendingPathComponent("lamp.md").path
        let result = try CLI.run(["docs", folder.appendingPathComponent("lamp.yaml").path, "-o", page])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: page, encoding: .utf8)
        #expect(text.contains("## Used by"), "\(text)")
        #expect(text.contains("Desk"))
    }
}

/// A part's problems are printed once per run, located in the part's file, however many specs of
/// the run reach them: the part's own file and every system including it, and every include.
@Suite("A part's problems, once")
struct PartProblemsOnceTests {
    private func lamps() throws -> URL {
        let folder = try Scratch.folder("lifespec-parts-once")
        try SystemCLITests.lamp(switchingOnTo: "onn").write(
            to: folder.appendingPathComponent("lamp.yaml"), atomically: true, encoding: .utf8)
        for system in ["lamps", "twins"] {
            try """
            lifespec: 1
            id: \(system)
            parts: {A: lamp, B: lamp}
            """.write(to: folder.appendingPathComponent("\(system).yaml"), atomically: true, encoding: .utf8)
        }
        return folder
    }

    private func occurrences(of text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    @Test(arguments: [["validate"], ["validate", "--format", "json"], ["generate", "--no-suites", "-o"]])
    func eachOfAPartsProblemsIsPrintedOnce(command: [String]) throws {
        let folder = try lamps()
        defer { try? FileManager.default.removeItem(at: folder) }
        let specs = ["lamp", "lamps", "twins"].map { folder.appendingPathComponent("\($0).yaml").path }
        let arguments =
            command.last == "-o" ? command + [folder.appendingPathComponent("Output").path] + specs : command + specs
        let result = try CLI.run(arguments)
        #expect(result.status == 1)
        let output = result.stdout + result.stderr
        let problem =
            command.contains("json")
            ? #""message":"state 'onn' is not declared; did you mean 'on'?""#
            : "lamp.yaml:7:33: error: [LS101] state 'onn' is not declared"
        #expect(occurrences(of: problem, in: output) == 1, "\(output)")
        // Each include still says why the system cannot be used, naming the part's file.
        #expect(
            occurrences(of: "[LS191]", in: output) + occurrences(of: #""code":"LS191""#, in: output) == 4, "\(output)")
        if command == ["validate"] { #expect(output.contains("3 specs checked: 5 errors, 0 warnings")) }
        if command.contains("json") { #expect(output.contains(#""errors":5"#)) }
    }
}

/// The recorder of a system spec, compiled and run: each object records its methods with
/// `#function` and the part it plays, and check-trace accepts the log it writes. The part's API
/// catalog names Foundation as its module, so the recorder compiles on Linux.
@Suite("The recorder of a system spec")
struct SystemRecorderTests {
    static let lamp = """
        lifespec: 1
        id: lamp
        catalogs: [lamp-catalog.yaml]
        states: {off: {}, on: {}}
        initial: off
        events: {switchOn: {}, switchOff: {}}
        callbacks:
          switchedOn: {swift: "switchedOn()"}
          switchedOff: {swift: "switchedOff(animated:)"}
        transitions:
          - {from: off, on: switchOn, to: on, do: switchedOn}
          - {from: on, on: switchOff, to: off, do: switchedOff}
        """
    static let catalog = """
        name: Lamps
        module: Foundation
        callbacks:
          - swift: "switchedOn()"
          - swift: "switchedOff(animated:)"
        """
    /// An app with two lamps, each told the part it plays, recording with `#function`.
    static let app = """
        import Foundation

        final class Lamp {
            let part: String
            init(part: String) { self.part = part }
            func switchedOn() { LampsRecorder.shared.record(#function, part: part) }
            func switchedOff(animated: Bool) { LampsRecorder.shared.record(#function, part: part) }
        }

        LampsRecorder.shared.start()
        let a = Lamp(part: "A"), b = Lamp(part: "B")
        a.switchedOn()
        b.switchedOn()
        a.switchedOff(animated: true)
        print(LampsRecorder.shared.logURL.path)
        """

    @Test func aLogRecordedWithFunctionAndThePartConforms() throws {
        let folder = try Scratch.folder("lifespec-system-recorder")
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ text: String, _ name: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        _ = try write(Self.lamp, "lamp.yaml")
        _ = try write(Self.catalog, "lamp-catalog.yaml")
        let system = try write("lifespec: 1\nid: lamps\nparts: {A: lamp, B: lamp}\n", "lamps.yaml")
        let recorder = folder.appendingPathComponent("Recorder.swift").path
        let generated = try CLI.run(["recorder", system, "-o", recorder])
        #expect(generated.status == 0, "\(generated.stderr)")
        let source = try String(contentsOfFile: recorder, encoding: .utf8)
        #expect(
            source.contains(
                #"///   - `A.switchedOff(animated:)`: `record("A.switchedOff(animated:)")`, or in that method `record(#function, part: "A")`"#
            ), "\(source)")
        #expect(!source.contains("`record(#function)`\n///    gives the same name"))

        let main = try write(Self.app, "main.swift")
        let program = folder.appendingPathComponent("app").path
        let build = try CLI.runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swiftc", "-swift-version", "6", "-module-name", "App", recorder, main, "-o", program], in: folder)
        #expect(build.status == 0, "\(build.stderr)")
        // The recorder logs into the caches folder: the run's own, not the user's.
        let run = try CLI.runProcess(
            URL(fileURLWithPath: program), [], in: folder,
            environment: ["XDG_CACHE_HOME": folder.path, "HOME": folder.path])
        #expect(run.status == 0, "\(run.stderr)")
        let log = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(log.hasPrefix(folder.path), "the log went to \(log)")
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(
            logged.split(separator: "\n").map { $0.split(separator: " ").dropFirst().joined(separator: " ") }
                == ["A.switchedOn()", "B.switchedOn()", "A.switchedOff(animated:)"])
        let check = try CLI.run(["check-trace", system, log])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("conforms: 3 observations"), "\(check.stdout)")
    }
}

/// In a system of scenes, the app delegate and UIApplication are one object each for the whole
/// app: their calls are never a scene's, whichever scene's region models them.
@Suite("Receivers in a system of scenes")
struct SceneReceiverTests {
    static let app = "Spec/uikit-scene-based-app.yaml"

    @Test("simulate --json names the receiver of every call: the app's objects, or the scene")
    func simulateNamesReceivers() throws {
        let result = try CLI.run(["simulate", Self.app, "S1.tapIcon", "S1.pressHome", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let steps = try #require(object?["steps"] as? [[String: Any]])
        var receivers: Set<String> = []
        for step in steps where step["kind"] as? String != "transition" {
            let name = try #require(step["name"] as? String)
            let receiver = try #require(step["receiver"] as? String, "\(step)")
            receivers.insert(receiver)
            // The name itself (what logs, check-trace and the suites use) names no scene for an
            // app-wide object's call.
            if receiver == "AppDelegate" || receiver == "UIApplication" {
                #expect(!name.hasPrefix("S1.") && !name.hasPrefix("S2."), "\(step)")
            }
            if name.contains("application(") { #expect(name.hasPrefix("AppDelegate.application("), "\(step)") }
            if name.hasPrefix("UIApplication.") { #expect(receiver == "UIApplication", "\(step)") }
            if name.hasPrefix("S1.") { #expect(receiver == "S1", "\(step)") }
        }
        #expect(receivers.isSuperset(of: ["AppDelegate", "UIApplication", "S1"]), "\(receivers)")
        let text = try CLI.run(["simulate", Self.app, "S1.tapIcon"])
        #expect(text.stdout.contains("callback      AppDelegate.application(_:willFinishLaunchingWithOptions:)"))
        #expect(
            !text.stdout.contains("S1.application(") && !text.stdout.contains("S1.UIApplication."), "\(text.stdout)")
    }

    @Test("check-trace takes the app delegate's calls by the app delegate's name, from either scene's launch")
    func checkTraceNamesTheAppDelegate() throws {
        let scratch = try Scratch.folder("lifespec-receivers")
        let log = scratch.appendingPathComponent("launch.log")
        try """
        AppDelegate.application(_:willFinishLaunchingWithOptions:)
        AppDelegate.application(_:didFinishLaunchingWithOptions:)
        UIApplication.didFinishLaunchingNotification
        AppDelegate.application(_:configurationForConnecting:options:)
        S2.scene(_:willConnectTo:options:)

        """.write(to: log, atomically: true, encoding: .utf8)
        let result = try CLI.run(["check-trace", Self.app, log.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // The old, scene-prefixed name of an app delegate method is no name of the spec.
        try """
        S1.application(_:willFinishLaunchingWithOptions:)

        """.write(to: log, atomically: true, encoding: .utf8)
        let old = try CLI.run(["check-trace", Self.app, log.path])
        #expect(old.status != 0, "\(old.stdout)")
    }
}
