import Foundation
import LifeSpecTestSupport
import Testing

/// check-trace without `--observe` judges a log on the receivers whose callbacks occur in it (#35
/// item 2): a log of the app delegate's calls is held to the app delegate's calls, not to a view
/// controller's it could never have seen.
@Suite("check-trace: a log judged on the receivers whose calls are in it")
struct CheckTraceReceiversTests {
    static let restoration = "Spec/ios-state-restoration.yaml"

    /// The app delegate's calls of the scenario launchWithArchive, in order.
    static let delegateLaunch = [
        "application(_:willFinishLaunchingWithOptions:)",
        "application(_:shouldRestoreSecureApplicationState:)",
        "application(_:viewControllerWithRestorationIdentifierPath:coder:)",
        "application(_:didDecodeRestorableStateWith:)",
        "application(_:didFinishLaunchingWithOptions:)",
        "applicationDidBecomeActive(_:)",
    ]

    static func write(_ lines: [String], _ name: String) throws -> String {
        let url = try Scratch.folder("lifespec-check-trace-receivers").appendingPathComponent(name)
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func aLaunchWithRestorationLogOfAppDelegateCallsAloneConformsWithoutObserve() throws {
        let log = try Self.write(Self.delegateLaunch, "delegate.log")
        let result = try CLI.run(["check-trace", Self.restoration, log])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "judged on: AppDelegate's callbacks (the receivers of the callbacks in the log and the kinds of names in it; --observe declares what it records)\n"
            ), "\(result.stdout)")
        #expect(result.stdout.contains("one explanation (1 events): tapIcon"), "\(result.stdout)")
        // Declared as recording every callback, the same log misses the view controller's.
        let all = try CLI.run(["check-trace", Self.restoration, log, "--observe", "callbacks"])
        #expect(all.status == 1)
        #expect(
            all.stderr.contains(
                "delegate.log:4:1: error: [LS212] 'application(_:didDecodeRestorableStateWith:)' does not conform"))
        #expect(
            all.stderr.contains("the spec allows next: decodeRestorableState(with:), viewDidLoad()\n"), "\(all.stderr)")
    }

    @Test func aWrongOrderOfTheDelegatesCallsIsStillRejected() throws {
        var lines = Self.delegateLaunch
        lines.swapAt(4, 5)
        let log = try Self.write(lines, "swapped.log")
        let result = try CLI.run(["check-trace", Self.restoration, log])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "swapped.log:5:1: error: [LS212] 'applicationDidBecomeActive(_:)' does not conform: the spec does not allow applicationDidBecomeActive(_:) here\n"
            ), "\(result.stderr)")
        #expect(
            result.stderr.contains("the spec allows next: application(_:didFinishLaunchingWithOptions:)\n"),
            "\(result.stderr)")
        #expect(result.stderr.contains("    judged on: AppDelegate's callbacks (the receivers"))
    }

    @Test func aLogMixingReceiversIsHeldToEveryOneOfTheirCalls() throws {
        // The view controller's decodeRestorableState(with:) is missing between its viewDidLoad()
        // and the delegate's didDecode.
        var lines = Self.delegateLaunch
        lines.insert("viewDidLoad()", at: 3)
        let missing = try Self.write(lines, "mixed.log")
        let result = try CLI.run(["check-trace", Self.restoration, missing])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "mixed.log:5:1: error: [LS212] 'application(_:didDecodeRestorableStateWith:)' does not conform"),
            "\(result.stderr)")
        #expect(result.stderr.contains("the spec allows next: decodeRestorableState(with:)\n"))
        #expect(
            result.stderr.contains(
                "    judged on: AppDelegate's callbacks and UIViewController's callbacks (the receivers of the callbacks in the log and the kinds of names in it; --observe declares what it records)\n"
            ), "\(result.stderr)")
        // With it, and applicationFinishedRestoringState() after the delegate's didDecode, it conforms.
        lines.insert("decodeRestorableState(with:)", at: 4)
        lines.insert("applicationFinishedRestoringState()", at: 6)
        let whole = try CLI.run(["check-trace", Self.restoration, try Self.write(lines, "whole.log")])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("judged on: AppDelegate's callbacks and UIViewController's callbacks ("))
    }

    @Test func aLogOfOneViewControllersCallsIsHeldToThatControllers() throws {
        let lines = ["viewDidLoad()", "decodeRestorableState(with:)", "applicationFinishedRestoringState()"]
        let result = try CLI.run(["check-trace", Self.restoration, try Self.write(lines, "controller.log")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("judged on: UIViewController's callbacks (the receivers"), "\(result.stdout)")
        let wrong = try CLI.run([
            "check-trace", Self.restoration, try Self.write(Array(lines.reversed()), "controller-reversed.log"),
        ])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("controller-reversed.log:1:1: error:"), "\(wrong.stderr)")
    }

    /// In a system a part is a receiver: a log of A's calls is held to A's, not to B's.
    @Test func aLogOfOnePartsCallsIsHeldToThatParts() throws {
        let system = "Spec/uikit-navigation-stack.yaml"
        let from = "A.appeared+B.notCreated+rootOnly"
        let lines = ["A.viewWillDisappear(_:)", "A.viewDidDisappear(_:)"]
        let result = try CLI.run(["check-trace", system, try Self.write(lines, "part.log"), "--from", from])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("judged on: A's callbacks (the receivers"), "\(result.stdout)")
        let log = try Self.write(Array(lines.reversed()), "part-reversed.log")
        let wrong = try CLI.run(["check-trace", system, log, "--from", from])
        #expect(wrong.status == 1)
        #expect(
            wrong.stderr.contains("part-reversed.log:1:1: error: [LS212] 'A.viewDidDisappear(_:)' does not conform"),
            "\(wrong.stderr)")
        #expect(wrong.stderr.contains("    judged on: A's callbacks (the receivers"))
    }

    /// Notifications are one group, as before: a log with none is not held to them, a log with
    /// one is held to all of them.
    @Test func notificationsAreJudgedWhenTheLogHasOne() throws {
        var lines = Self.delegateLaunch
        lines.append("UIApplication.didBecomeActiveNotification")
        let result = try CLI.run(["check-trace", Self.restoration, try Self.write(lines, "notified.log")])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "notified.log:6:1: error: [LS212] 'applicationDidBecomeActive(_:)' does not conform"),
            "\(result.stderr)")
        #expect(result.stderr.contains("the spec allows next: UIApplication.didFinishLaunchingNotification\n"))
        #expect(result.stderr.contains("    judged on: AppDelegate's callbacks and notifications (the receivers"))
        lines.insert("UIApplication.didFinishLaunchingNotification", at: 5)
        let whole = try CLI.run(["check-trace", Self.restoration, try Self.write(lines, "notified-whole.log")])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("judged on: AppDelegate's callbacks and notifications (the receivers"))
    }

    /// `simulate` names every call by the object that receives it, in a single-object spec too:
    /// the catalog's owner for a method, the spec's `receiver` for a closure; a call neither names
    /// keeps its Swift name. `--json` keeps the logs' name and says the object beside it.
    @Test func simulateNamesEachCallsReceiverInASingleObjectSpec() throws {
        let launch = ["simulate", Self.restoration, "tapIcon", "--set", "archiveExists=true"]
        let text = try CLI.run(launch)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains(
                """
                decodeState: stays in launching
                    callback      UIViewController.viewDidLoad()
                    callback      UIViewController.decodeRestorableState(with:)
                    callback      AppDelegate.application(_:didDecodeRestorableStateWith:)

                """), "\(text.stdout)")
        #expect(text.stdout.contains("    notification  UIApplication.didFinishLaunchingNotification\n"))
        let json = try CLI.run(launch + ["--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        let steps = try #require(object["steps"] as? [[String: Any]])
        let decode = try #require(steps.first { $0["name"] as? String == "decodeRestorableState(with:)" })
        #expect(decode["receiver"] as? String == "UIViewController")
        // UIApplication posts its notifications.
        let notification = try #require(steps.first { $0["kind"] as? String == "notification" })
        #expect(notification["receiver"] as? String == "UIApplication")

        let spec = try Scratch.folder("lifespec-simulate-receivers").appendingPathComponent("lamp.yaml")
        try """
        lifespec: 1
        id: lamp
        initial: off
        events: {toggle: {}}
        callbacks:
          didLight: {swift: "lampDidLight(_:)", receiver: LampDelegate}
          unnamed: {}
        states: {off: {}, on: {}}
        transitions:
          - {from: off, on: toggle, to: on, do: [didLight, unnamed]}
          - {from: on, on: toggle, to: off}
        """.write(to: spec, atomically: true, encoding: .utf8)
        let lamp = try CLI.run(["simulate", spec.path, "toggle"])
        #expect(lamp.status == 0, "\(lamp.stderr)")
        #expect(
            lamp.stdout == """
                start: off
                toggle: off → on
                    callback      LampDelegate.lampDidLight(_:)
                    callback      unnamed
                final state: on

                """, "\(lamp.stdout)")
    }
}
