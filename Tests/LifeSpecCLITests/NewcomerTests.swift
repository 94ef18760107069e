import Foundation
import LifeSpecTestSupport
import Testing

/// The rough edges a newcomer's first session hit (issue #15), each run as a user would run it.
@Suite("a newcomer's first session")
struct NewcomerTests {
    static let flagship = "Spec/ios-app-lifecycle.yaml"

    static func folder() throws -> URL {
        let folder = try Scratch.folder("lifespec-newcomer")
        return folder
    }

    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    // MARK: recorder and check-trace: one log format

    /// A spec whose names have spaces, checked against a project catalog whose module is Foundation,
    /// so the recorder's code compiles (and is type-checked under Swift 6) on Linux too.
    static let kvoSpec = """
        lifespec: 1
        id: item-status
        catalogs: [status-catalog.yaml]
        states:
          unknown:
          ready:
          failed:
        initial: unknown
        events:
          becomeReady:
          fail:
        callbacks:
          readyToPlay: {swift: "observe(\\\\.status) readyToPlay"}
          failed: {swift: "observe(\\\\.status) failed", posts: failedNotification}
        notifications:
          failedNotification: {swift: "ItemStatusFailed"}
        transitions:
          - {from: unknown, on: becomeReady, to: ready, do: readyToPlay}
          - {from: [unknown, ready], on: fail, to: failed, do: failed}
          - {from: failed, on: becomeReady, to: ready, do: readyToPlay}
        """
    static let kvoCatalog = """
        name: ItemStatus
        module: Foundation
        callbacks:
          - swift: "observe(\\\\.status) readyToPlay"
          - swift: "observe(\\\\.status) failed"
        notifications:
          - swift: "ItemStatusFailed"
        """

    @Test func aLogTheRecorderWritesIsOneCheckTraceReadsEvenWithSpacesInNames() throws {
        let folder = try Self.folder()
        let spec = try Self.write(Self.kvoSpec, "item-status.yaml", in: folder)
        _ = try Self.write(Self.kvoCatalog, "status-catalog.yaml", in: folder)
        let recorder = folder.appendingPathComponent("Recorder.swift")
        let result = try CLI.run(["recorder", spec, "-o", recorder.path])
        #expect(result.status == 0, "\(result.stderr)")
        let source = try String(contentsOf: recorder, encoding: .utf8)
        #expect(source.contains("#if canImport(Foundation)"))
        #expect(source.contains(#"record("observe(\\.status) readyToPlay")"#))
        #expect(!source.contains("@MainActor"))
        // The recorder's code itself, compiled with Swift 6's checks: it must be safe off the main thread.
        let swiftc = Process()
        swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swiftc.arguments = ["swiftc", "-typecheck", "-swift-version", "6", recorder.path]
        let errors = Pipe()
        swiftc.standardError = errors
        try swiftc.run()
        let diagnostics = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        swiftc.waitUntilExit()
        #expect(swiftc.terminationStatus == 0, "\(diagnostics)")
        // The lines the recorder writes: "<seconds> <name>".
        let log = try Self.write(
            "0.000100 observe(\\.status) readyToPlay\n0.250000 observe(\\.status) failed\n0.250001 ItemStatusFailed\n",
            "app.log", in: folder)
        let check = try CLI.run(["check-trace", spec, log])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("conforms: 3 observations"))
        #expect(check.stdout.contains("becomeReady → fail"))
    }

    @Test func theRecorderRefusesASpecThatNamesNoFramework() throws {
        let folder = try Self.folder()
        let spec = try Self.write(
            Self.kvoSpec.replacingOccurrences(of: "catalogs: [status-catalog.yaml]\n", with: ""), "bare.yaml",
            in: folder)
        let result = try CLI.run(["recorder", spec])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "bare.yaml: error: the recorder refers to the spec's callbacks and notifications in Swift"))
        #expect(result.stdout.isEmpty)
    }

    @Test func theRecorderImportsTheModulesOfTheSpecsCatalogs() throws {
        let result = try CLI.run(["recorder", "docs/examples/media-player.yaml"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("#if canImport(PlayerKit)\nimport Foundation\nimport PlayerKit\n"))
        let flagship = try CLI.run(["recorder", Self.flagship])
        #expect(flagship.stdout.contains("#if canImport(UIKit)\nimport Foundation\nimport UIKit\n"))
    }

    // MARK: check-trace: flags and what the log records

    static let launchThenHome = """
        application(_:willFinishLaunchingWithOptions:)
        application(_:didFinishLaunchingWithOptions:)
        applicationDidBecomeActive(_:)
        applicationWillResignActive(_:)
        applicationDidEnterBackground(_:)

        """

    @Test func setFixesAFlagSoALogWrongForTheAppsRealFlagsFails() throws {
        let log = try Self.write(Self.launchThenHome, "home.log", in: try Self.folder())
        #expect(try CLI.run(["check-trace", Self.flagship, log]).status == 0)
        let opted = try CLI.run(["check-trace", Self.flagship, log, "--set", "exitsOnSuspend=true"])
        #expect(opted.status == 1)
        #expect(
            opted.stderr.contains("home.log:5:1: error: [LS212] 'applicationDidEnterBackground(_:)' does not conform"),
            "\(opted.stderr)")
        let typo = try CLI.run(["check-trace", Self.flagship, log, "--set", "exitsOnSuspnd=true"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("unknown flag 'exitsOnSuspnd'; did you mean 'exitsOnSuspend'?"))
    }

    @Test func aLogOfDelegateCallbacksAloneIsJudgedOnCallbacks() throws {
        let folder = try Self.folder()
        let log = try Self.write(
            "application(_:willFinishLaunchingWithOptions:)\napplication(_:didFinishLaunchingWithOptions:)\napplicationDidBecomeActive(_:)\n",
            "callbacks.log", in: folder)
        let result = try CLI.run(["check-trace", Self.flagship, log])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("judged on: AppDelegate's callbacks (the receivers of the callbacks in the log"))
        #expect(result.stdout.contains("one explanation (1 events): tapIcon"))
        // A line the spec forbids is still found, at its place.
        let skipped = try Self.write(
            "application(_:willFinishLaunchingWithOptions:)\napplicationDidBecomeActive(_:)\n", "skipped.log",
            in: folder)
        let bad = try CLI.run(["check-trace", Self.flagship, skipped])
        #expect(bad.status == 1)
        #expect(
            bad.stderr.contains("skipped.log:2:1: error: [LS212] 'applicationDidBecomeActive(_:)' does not conform"))
        #expect(bad.stderr.contains("the spec allows next: application(_:didFinishLaunchingWithOptions:)\n"))
        // Declared as recording everything, the same log misses a notification at line 3.
        let all = try CLI.run(["check-trace", Self.flagship, log, "--observe", "all"])
        #expect(all.status == 1)
        #expect(all.stderr.contains("callbacks.log:3:1:"))
        #expect(all.stderr.contains("the spec allows next: UIApplication.didFinishLaunchingNotification"))
    }

    @Test func observeTakesKindsAndNamesAndSuggestsForATypo() throws {
        let folder = try Self.folder()
        let log = try Self.write(
            "applicationDidBecomeActive(_:)\nUIApplication.didBecomeActiveNotification\n", "some.log", in: folder)
        let chosen = try CLI.run([
            "check-trace", Self.flagship, log, "--from", "inactive", "--observe",
            "applicationDidBecomeActive(_:),UIApplication.didBecomeActiveNotification",
        ])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.contains("judged on: the names given with --observe"))
        let outside = try CLI.run(["check-trace", Self.flagship, log, "--from", "inactive", "--observe", "callbacks"])
        #expect(outside.status == 1)
        #expect(
            outside.stderr.contains(
                "some.log:2:1: error: [LS211] 'UIApplication.didBecomeActiveNotification' is in the log but not in the observed set"
            ))
        let typo = try CLI.run(["check-trace", Self.flagship, log, "--observe", "calbacks"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("did you mean 'callbacks'?"))
        let from = try CLI.run(["check-trace", Self.flagship, log, "--from", "inactiv"])
        #expect(from.status == 64)
        #expect(from.stderr.contains("did you mean 'inactive'?"))
    }

    // MARK: diagram: the format follows the file name

    @Test func theOutputFormatFollowsTheExtensionAndAMismatchIsAnError() throws {
        let folder = try Self.folder()
        let png = folder.appendingPathComponent("y.png")
        let written = try CLI.run(["diagram", Self.flagship, "-o", png.path])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try Data(contentsOf: png).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let mismatch = try CLI.run([
            "diagram", Self.flagship, "--format", "png", "-o", folder.appendingPathComponent("x.svg").path,
        ])
        #expect(mismatch.status == 64)
        #expect(mismatch.stderr.contains("--format png does not match the extension of"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.svg").path))
        let unknown = try CLI.run(["diagram", Self.flagship, "-o", folder.appendingPathComponent("x.txt").path])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("cannot tell the format of"))
        let mermaid = try CLI.run(["diagram", Self.flagship, "-o", folder.appendingPathComponent("d.mmd").path])
        #expect(mermaid.status == 0)
        #expect(
            try String(contentsOf: folder.appendingPathComponent("d.mmd"), encoding: .utf8).contains("stateDiagram"))
    }

    // MARK: validate: every problem in one run

    @Test func aDuplicateKeyHidesNothingElse() throws {
        let spec = try Self.write(
            """
            lifespec: 1
            id: lamp
            title: Lamp
            title: Lamp again
            states:
              off:
              on:
            initial: of
            events:
              toggle:
            transitions:
              - {from: off, on: toggle, to: on}
              - {from: on, on: toggle, to: off, guard: "a & b"}
              - {from: on, on: toggle, to: off}
            """, "lamp.yaml", in: try Self.folder())
        let result = try CLI.run(["validate", spec])
        #expect(result.status == 1)
        #expect(result.stdout.contains("lamp.yaml:4:1: error: [LS004] duplicate key 'title' in one mapping"))
        #expect(
            result.stdout.contains(
                "lamp.yaml:8:10: error: [LS101] initial state 'of' is not declared; did you mean 'off'?"))
        #expect(
            result.stdout.contains(
                "[LS133] unexpected '&' in guard expression (a guard combines flags with '&&', '||', '!' and parentheses"
            ))
        #expect(result.stdout.contains("1 spec checked: 3 errors"))
    }

    /// An API-name typo, a broken reference, nondeterminism and a scenario that ends elsewhere:
    /// four independent problems, one run. The scenario that needs the broken transition is not
    /// reported on its own (that would be a knock-on of the broken reference).
    @Test func referenceAndNameErrorsDoNotHideTheMachinesOwnProblems() throws {
        let spec = try Self.write(
            """
            lifespec: 1
            id: lamp
            platform: uikit
            states:
              off:
              on:
              broken:
            initial: off
            events:
              toggle:
              smash:
              fix:
            callbacks:
              active: {swift: "applicationDidBecomeActiv(_:)"}
            transitions:
              - {from: off, on: toggle, to: on, do: active}
              - {from: on, on: toggle, to: off}
              - {from: on, on: toggle, to: broken}
              - {from: on, on: smash, to: brokn}
              - {from: broken, on: fix, to: off}
            scenarios:
              - id: twice
                events: [toggle, toggle]
                end: on
              - id: smashIt
                from: on
                events: [smash]
                end: broken
            """, "lamp.yaml", in: try Self.folder())
        let result = try CLI.run(["validate", spec])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "lamp.yaml:14:19: error: [LS170] UIKit has no method named 'applicationDidBecomeActiv(_:)'"))
        #expect(result.stdout.contains("lamp.yaml:18:5: error: [LS130]"))
        #expect(
            result.stdout.contains(
                "lamp.yaml:19:31: error: [LS101] state 'brokn' is not declared; did you mean 'broken'?"))
        #expect(result.stdout.contains("[LS160] scenario 'twice' does not replay"))
        #expect(!result.stdout.contains("smashIt"))
        #expect(result.stdout.contains("1 spec checked: 4 errors, 0 warnings"), "\(result.stdout)")
    }

    @Test func aDedentedStateIsOneErrorWithAnIndentationHint() throws {
        let spec = try Self.write(
            """
            lifespec: 1
            id: lamp
            initial: off
            states:
              off:
              on:
                title: On
            dimmed:
              title: Dimmed
              initial: low
              states:
                low:
                high:
            events:
              toggle:
              dim:
              brighten:
            transitions:
              - {from: off, on: toggle, to: on}
              - {from: on, on: toggle, to: off}
              - {from: on, on: dim, to: dimmed}
              - {from: dimmed, on: toggle, to: off}
              - {from: low, on: brighten, to: high}
              - {from: high, on: dim, to: low}
              - {from: on, on: brighten, to: undeclared}
            """, "lamp.yaml", in: try Self.folder())
        let result = try CLI.run(["validate", spec])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "lamp.yaml:8:1: error: [LS010] unknown key 'dimmed' in the spec; it looks like a state: indent it under 'states:'"
            ))
        #expect(
            result.stdout.contains(
                "6 references to it fail because of this (lines 21, 22, 23, 23, 24, 24), not listed separately"),
            "\(result.stdout)")
        // An unrelated undeclared state is still its own error.
        #expect(
            result.stdout.contains("[LS101] target state 'undeclared' is not declared")
                || result.stdout.contains("'undeclared' is not declared"))
        #expect(result.stdout.contains("1 spec checked: 2 errors"), "\(result.stdout)")
    }

    @Test func aStateIndentedOneLevelTooFarGetsTheHintWithoutAnyReference() throws {
        let spec = try Self.write(
            """
            lifespec: 1
            id: lamp
            initial: off
            states:
              off:
              on:
                title: On
                dimmed:
                  title: Dimmed
            events:
              toggle:
            transitions:
              - {from: off, on: toggle, to: on}
              - {from: on, on: toggle, to: off}
            """, "lamp.yaml", in: try Self.folder())
        let result = try CLI.run(["validate", spec])
        #expect(
            result.stdout.contains(
                "lamp.yaml:8:5: error: [LS010] unknown key 'dimmed' in state 'on'; it looks like a state: indent it under the 'states:' of state 'on' to make it a child, or one level less to make it a sibling"
            ), "\(result.stdout)")
    }

    @Test func aMissingInitialSuggestsAState() throws {
        let spec = try Self.write(
            "lifespec: 1\nid: lamp\nstates:\n  off:\n  on:\nevents:\n  toggle:\ntransitions:\n  - {from: off, on: toggle, to: on}\n  - {from: on, on: toggle, to: off}\n",
            "lamp.yaml", in: try Self.folder())
        let result = try CLI.run(["validate", spec])
        #expect(result.stdout.contains("[LS012] missing 'initial' (the machine's initial state); e.g. 'initial: off'"))
    }

    // MARK: watch

    @Test func watchWithNothingToWatchIsAUsageError() throws {
        let empty = try Self.folder()
        let result = try CLI.run(["watch", "--max-passes", "1"], in: empty)
        #expect(result.status == 64)
        #expect(result.stderr.contains("nothing to watch: no spec given and no 'Spec/' folder here"))
        #expect(!result.stdout.contains("watching"))
        let missing = try CLI.run(["watch", "nope.yaml", "--max-passes", "1"], in: empty)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("nope.yaml: error: [LS001] spec file does not exist"))
    }

    @Test func watchTakesSpecPathsAndSuitesAndNeverBlamesGraphviz() throws {
        let project = try Self.folder()
        let spec = try Self.write(
            String(
                contentsOfFile: CLI.packageRoot.appendingPathComponent("docs/examples/media-player.yaml").path,
                encoding: .utf8),
            "specs/media-player.yaml", in: project)
        _ = try Self.write(
            String(
                contentsOfFile: CLI.packageRoot.appendingPathComponent("docs/examples/playerkit-catalog.yaml").path,
                encoding: .utf8),
            "specs/playerkit-catalog.yaml", in: project)
        let result = try CLI.run(
            ["watch", spec, "--suites", "MySuites", "-o", "Out", "--max-passes", "1", "--interval", "0.05"], in: project
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("watching \(spec)"))
        #expect(
            FileManager.default.fileExists(
                atPath: project.appendingPathComponent("MySuites/MediaPlayerConformanceTests.swift").path))
        #expect(
            FileManager.default.fileExists(atPath: project.appendingPathComponent("Out/media-player/README.md").path))
        // An invalid spec: its diagnostics, and no LS200 (that code is Graphviz's).
        try "lifespec: 1\nid: broken\nstates: {a: }\ninitial: b\n".write(
            toFile: spec, atomically: true, encoding: .utf8)
        let broken = try CLI.run(
            ["watch", spec, "--suites", "MySuites", "-o", "Out", "--max-passes", "1"], in: project)
        #expect(broken.stdout.contains("[LS101]"))
        #expect(broken.stdout.contains("nothing was generated"))
        #expect(!broken.stdout.contains("LS200"))
    }

    // MARK: files: the tool's own messages, one exit status

    @Test(arguments: [
        ["validate", "missing.yaml"], ["simulate", "missing.yaml", "x"], ["diagram", "missing.yaml"],
        ["docs", "missing.yaml"],
        ["tests", "missing.yaml"], ["recorder", "missing.yaml"], ["generate", "missing.yaml"],
        ["check-trace", "missing.yaml", "Tests/Fixtures/CLI/launch-then-home.log"],
        ["check-trace", "Spec/ios-app-lifecycle.yaml", "missing.yaml"],
        ["diff", "missing.yaml", "Spec/ios-app-lifecycle.yaml"],
        ["diff", "Spec/ios-app-lifecycle.yaml", "missing.yaml"],
    ])
    func aMissingArgumentFileExits64WithTheToolsOwnMessage(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(
            (result.stdout + result.stderr).contains("missing.yaml:1:1: error: [LS001] spec file does not exist")
                || result.stderr.contains("missing.yaml: error: [LS001] trace file does not exist"), "\(result.stderr)")
        #expect(!result.stderr.contains("after fixing them"))
    }

    @Test func anUnwritableOutputIsTheToolsOwnMessage() throws {
        let result = try CLI.run(["diagram", Self.flagship, "-o", "/nonexistent/dir/x.svg"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "/nonexistent/dir/x.svg: error: [LS005] cannot write the file: the folder '/nonexistent/dir' does not exist\n"
        )
    }

    // MARK: did you mean

    @Test(arguments: [
        (["valdate"], "'valdate' is not a lifespec command; did you mean 'validate'?"),
        (["diagram", flagship, "--format", "dot", "--scenario", "coldLaunh"], "did you mean 'coldLaunch'?"),
        (["diagram", flagship, "--format", "dot", "--group", "foregroud"], "did you mean 'foreground'?"),
        (["simulate", flagship, "--from", "activ", "pressHome"], "did you mean 'active'?"),
        (["simulate", flagship, "--set", "exitsOnSuspnd=true", "tapIcon"], "did you mean 'exitsOnSuspend'?"),
        (["docs", flagship, "--locale", "zh-Hant"], "did you mean 'zh-Hans'?"),
    ])
    func everyIDTakingArgumentSuggests(_ arguments: [String], _ hint: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(hint), "\(arguments): \(result.stderr)")
    }

    // MARK: tests --type-name

    @Test func theSuitesTypeNameCanBeChosen() throws {
        let result = try CLI.run(["tests", "docs/examples/media-player.yaml", "--type-name", "AVPlayerPlayback"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("enum AVPlayerPlaybackConformance: ConformanceSuite"))
        #expect(result.stdout.contains("struct AVPlayerPlaybackConformanceTests"))
        #expect(!result.stdout.contains("MediaPlayerConformance"))
        let bad = try CLI.run(["tests", "docs/examples/media-player.yaml", "--type-name", "9Lives"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("is not a Swift type name"))
    }

    // MARK: catalogs

    @Test func aSpecCanNameSeveralCatalogsAndLS170SaysHowToAddAName() throws {
        let folder = try Self.folder()
        let spec = try Self.write(
            """
            lifespec: 1
            id: mixed
            platform: uikit
            catalogs: [player.yaml]
            states: {a: , b: }
            initial: a
            events: {go: , back: }
            callbacks:
              active: {swift: "applicationDidBecomeActive(_:)"}
              started: {swift: "playerDidStart(_:)"}
              typo: {swift: "playerDidStrat(_:)"}
            transitions:
              - {from: a, on: go, to: b, do: [active, started]}
              - {from: b, on: back, to: a, do: typo}
            """, "mixed.yaml", in: folder)
        _ = try Self.write(
            "name: PlayerKit\nmodule: PlayerKit\ncallbacks:\n  - {swift: \"playerDidStart(_:)\", objc: \"playerDidStart:\"}\n",
            "player.yaml", in: folder)
        let result = try CLI.run(["validate", spec])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "mixed.yaml:11:17: error: [LS170] none of the spec's API catalogs (UIKit, PlayerKit) has a method named 'playerDidStrat(_:)'; did you mean 'playerDidStart(_:)'?"
            ), "\(result.stdout)")
        #expect(result.stdout.contains("add it to a catalog file of your own and list the file under 'catalogs:'"))
        #expect(result.stdout.contains("1 spec checked: 1 error"))
        let unknown = try Self.write(
            try String(contentsOfFile: spec, encoding: .utf8).replacingOccurrences(
                of: "[player.yaml]", with: "[uikti, gone.yaml]"), "unknown.yaml", in: folder)
        let unknownResult = try CLI.run(["validate", unknown])
        #expect(unknownResult.stdout.contains("[LS108] unknown API catalog 'uikti'"))
        #expect(unknownResult.stdout.contains("did you mean 'uikit'?"))
        #expect(unknownResult.stdout.contains("[LS108] unknown API catalog 'gone.yaml' (there is no file"))
        // A broken catalog file is reported in that file, at its place; a device is refused, not read.
        _ = try Self.write(
            "name: Broken\ncallbacks:\n  - {swift: \"a()\", objcc: \"a\"}\n", "broken-catalog.yaml", in: folder)
        let broken = try Self.write(
            try String(contentsOfFile: spec, encoding: .utf8).replacingOccurrences(
                of: "[player.yaml]", with: "[broken-catalog.yaml, /dev/stdin]"), "broken.yaml", in: folder)
        let brokenResult = try CLI.run(["validate", broken])
        #expect(
            brokenResult.stdout.contains(
                "broken-catalog.yaml:3:20: error: [LS010] unknown key 'objcc' in an entry of 'callbacks'; did you mean 'objc'?"
            ), "\(brokenResult.stdout)")
        #expect(
            brokenResult.stdout.contains("broken.yaml:4:33: error: [LS006] API catalog '/dev/stdin' is not read:"),
            "\(brokenResult.stdout)")
        // Names the broken catalogs might hold are not reported against the others.
        #expect(!brokenResult.stdout.contains("LS170"))
        #expect(brokenResult.stdout.contains("1 spec checked: 2 errors"))
    }

    // MARK: init, and the format reference's promise

    @Test func initWritesAStarterSpecThatValidatesSimulatesAndTests() throws {
        let project = try Self.folder()
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Spec"), withIntermediateDirectories: true)
        let result = try CLI.run(["init", "video-player"], in: project)
        #expect(result.status == 0, "\(result.stderr)")
        let spec = try String(contentsOf: project.appendingPathComponent("Spec/video-player.yaml"), encoding: .utf8)
        #expect(spec.hasPrefix("# yaml-language-server: $schema=../schema/lifespec.schema.json\n"))
        let schema = try String(
            contentsOf: project.appendingPathComponent("schema/lifespec.schema.json"), encoding: .utf8)
        #expect(
            try schema
                == String(
                    contentsOf: CLI.packageRoot.appendingPathComponent("schema/lifespec.schema.json"), encoding: .utf8))
        #expect(try CLI.run(["schema"]).stdout == schema)
        let validate = try CLI.run(["validate", "Spec/video-player.yaml"], in: project)
        #expect(validate.stdout == "1 spec checked: 0 errors, 0 warnings\n", "\(validate.stdout)")
        let simulate = try CLI.run(["simulate", "Spec/video-player.yaml", "start", "pause", "resume"], in: project)
        #expect(simulate.stdout.hasSuffix("final state: running\n"))
        #expect(
            try CLI.run(["tests", "Spec/video-player.yaml"], in: project).stdout.contains("enum VideoPlayerConformance")
        )
        let again = try CLI.run(["init", "video-player"], in: project)
        #expect(again.status == 1)
        #expect(again.stderr.contains("the file exists already"))
        #expect(try CLI.run(["init", "Video Player"], in: project).status == 64)
        let url = try CLI.run(
            ["init", "other", "-o", "other.yaml", "--schema", "https://example.com/lifespec.schema.json"], in: project)
        #expect(url.status == 0)
        #expect(
            try String(contentsOf: project.appendingPathComponent("other.yaml"), encoding: .utf8)
                .hasPrefix("# yaml-language-server: $schema=https://example.com/lifespec.schema.json\n"))
    }

    /// #35's rough edges: an id written with capitals keeps them in the title (the id itself is
    /// lowercase), and `docs` links only the drawings it writes.
    @Test func initKeepsCapitalsAndDocsLinksOnlyWhatItWrites() throws {
        let project = try Self.folder()
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Spec"), withIntermediateDirectories: true)
        let result = try CLI.run(["init", "WKWebView-navigation"], in: project)
        #expect(result.status == 0, "\(result.stderr)")
        let spec = try String(
            contentsOf: project.appendingPathComponent("Spec/wkwebview-navigation.yaml"), encoding: .utf8)
        #expect(spec.contains("\nid: wkwebview-navigation\n"))
        #expect(spec.contains("\ntitle: WKWebView Navigation\n"), "\(spec)")

        // On standard output there is nothing beside the page: it links no drawing.
        let shown = try CLI.run(["docs", "Spec/wkwebview-navigation.yaml"], in: project)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(!shown.stdout.contains(".svg"), "\(shown.stdout)")
        // With -o, every drawing the page links is written beside it.
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("page"), withIntermediateDirectories: true)
        let written = try CLI.run(["docs", "Spec/wkwebview-navigation.yaml", "-o", "page/README.md"], in: project)
        #expect(written.status == 0, "\(written.stderr)")
        let page = try String(contentsOf: project.appendingPathComponent("page/README.md"), encoding: .utf8)
        let links = page.matches(of: /\]\(([^)#]+\.svg)\)/).map { String($0.output.1) }
        #expect(links.contains("diagram.svg"))
        for link in links {
            #expect(
                FileManager.default.fileExists(atPath: project.appendingPathComponent("page/\(link)").path),
                "the page links \(link), which docs did not write")
        }
    }
}

@Suite("simulate says which guard refused an event")
struct SimulateGuardTests {
    @Test func anEventWhoseTransitionIsGuardedOffNamesTheGuardAndTheFlags() throws {
        let folder = try Scratch.folder("lifespec-guard")
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("door.yaml").path
        try """
        lifespec: 1
        id: door
        states:
          closed:
          locked:
        initial: closed
        events:
          lock: {kind: user}
          unlock: {kind: user}
        flags:
          hasKey: {default: true}
        transitions:
          - {from: closed, on: lock, guard: hasKey, to: locked}
          - {from: locked, on: unlock, guard: hasKey, to: closed}

        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let result = try CLI.run(["simulate", spec, "lock", "--set", "hasKey=false"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("event 'lock' is not handled in state 'closed'"), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "    its transition from 'closed' is guarded by 'hasKey', false now (hasKey = false)\n"),
            "\(result.stderr)")
    }
}
