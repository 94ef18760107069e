import Foundation
import LifeSpecTestSupport
import Testing
import Yams

/// `lifespec diff OLD NEW`, as a user runs it (#35 item 5).
@Suite("diff")
struct DiffTests {
    static let flagship = "Spec/ios-app-lifecycle.yaml"

    static func flagshipText() throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent(flagship), encoding: .utf8)
    }

    /// `text` written as `name` in a fresh scratch folder.
    static func write(_ text: String, as name: String) throws -> URL {
        let file = try Scratch.folder("lifespec-diff").appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The spec with the keys of every mapping in reverse order, except where the order is the
    /// spec's document order (states, events, flags, callbacks, notifications, facts, sources,
    /// parts) and `lifespec:`, which stays first; written again by Yams (no comments, other
    /// quoting and line breaks).
    static func reordered(_ text: String) throws -> String {
        let ordered: Set<String> = [
            "states", "events", "flags", "callbacks", "notifications", "facts", "sources", "parts", "related",
        ]
        func reorder(_ node: Node, keepsOrder: Bool) -> Node {
            switch node {
            case .mapping(let mapping):
                var pairs = mapping.map { pair in
                    (pair.key, reorder(pair.value, keepsOrder: pair.key.string.map(ordered.contains) ?? false))
                }
                if !keepsOrder {
                    pairs.reverse()
                    if let first = pairs.firstIndex(where: { $0.0.string == "lifespec" }) {
                        pairs.insert(pairs.remove(at: first), at: 0)
                    }
                }
                return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style))
            case .sequence(let sequence):
                return .sequence(
                    Node.Sequence(sequence.map { reorder($0, keepsOrder: false) }, sequence.tag, sequence.style))
            default:
                return node
            }
        }
        let root = try #require(try Yams.compose(yaml: text))
        return try Yams.serialize(node: reorder(root, keepsOrder: false), width: -1, allowUnicode: true)
    }

    @Test("a key-reordered copy of the flagship behaves the same: exit 0")
    func reorderedFlagship() throws {
        let original = try Self.flagshipText()
        let reordered = try Self.reordered(original)
        // Keys reversed at the top, in a state, in a transition and in a translated title.
        #expect(reordered.hasPrefix("lifespec: 1\nmodelling:\n"), "\(reordered.prefix(200))")
        #expect(reordered.contains("\n  notRunning:\n    source: appLifeCycleGuide\n"))
        #expect(reordered.contains("\n- source: launchSequence\n"))
        #expect(reordered.contains("title:\n  zh-Hans: iOS App"))
        let copy = try Self.write(reordered, as: "ios-app-lifecycle.yaml")
        let result = try CLI.run(["diff", Self.flagship, copy.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("No change in behaviour"), "\(result.stdout)")
        #expect(!result.stdout.contains("Text-only changes"), "\(result.stdout)")
    }

    @Test(
        "every spec of Spec/, key-reordered, behaves the same",
        arguments: try FileManager.default.contentsOfDirectory(
            atPath: CLI.packageRoot.appendingPathComponent("Spec").path
        )
        .filter { $0.hasSuffix(".yaml") }.sorted())
    func reorderedSpecs(_ name: String) throws {
        let project = try CLI.scratchProject()
        let file = project.appendingPathComponent("Spec/\(name)")
        try Self.reordered(try String(contentsOf: file, encoding: .utf8)).write(
            to: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["diff", "Spec/\(name)", file.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("Text-only changes"), "\(result.stdout)")
    }

    /// The flagship with the launch transition's two callbacks swapped, and the scenarios that
    /// launch from the Home Screen expecting the new order.
    static func swappedLaunch() throws -> String {
        let original = try flagshipText()
        let transition = "do: [willFinishLaunching, didFinishLaunching]\n"
        let expected = """
                  - willFinishLaunching
                  - didFinishLaunching
                  - notify: didFinishLaunchingNotification
                  - didBecomeActive

            """
        let swapped = """
                  - didFinishLaunching
                  - notify: didFinishLaunchingNotification
                  - willFinishLaunching
                  - didBecomeActive

            """
        #expect(original.components(separatedBy: transition).count == 2)
        #expect(original.components(separatedBy: expected).count == 4)
        return original.replacingOccurrences(of: transition, with: "do: [didFinishLaunching, willFinishLaunching]\n")
            .replacingOccurrences(of: expected, with: swapped)
    }

    @Test("a swapped callback order: exit 1, the changed scenarios named with their traces before and after")
    func swappedCallbacks() throws {
        let copy = try Self.write(try Self.swappedLaunch(), as: "ios-app-lifecycle.yaml")
        let result = try CLI.run(["diff", Self.flagship, copy.path])
        #expect(result.status == 1, "\(result.stderr)")
        let text = result.stdout
        #expect(text.contains("Behaviour differs: 3 scenarios change"), "\(text)")
        for scenario in ["coldLaunch", "purgeWhileSuspended", "exitsOnSuspend"] {
            #expect(text.contains("  ~ \(scenario): "), "\(scenario)")
        }
        #expect(!text.contains("~ pressHome:") && !text.contains("~ backgroundLaunch:"))
        // The cold launch's trace, aligned.
        #expect(
            text.contains(
                """
                        event: tapIcon
                      - willFinishLaunching
                        didFinishLaunching
                        notify: didFinishLaunchingNotification
                      + willFinishLaunching
                        didBecomeActive
                """), "\(text)")
        #expect(text.contains("~ transition from notRunning on tapIcon [!legacyLaunchOnly]"))
        #expect(text.contains("~ scenario:coldLaunch: Scenario: Cold launch from the Home Screen"))

        let markdown = try CLI.run(["diff", Self.flagship, copy.path, "--format", "markdown"])
        #expect(markdown.status == 1)
        #expect(
            markdown.stdout.hasPrefix("### `ios-app-lifecycle`: behaviour differs\n\nBehaviour differs: 3 scenarios"))
        #expect(markdown.stdout.contains("**`coldLaunch`** Cold launch from the Home Screen\n\n```diff\n"))
        #expect(markdown.stdout.contains("\n- willFinishLaunching\n"))

        let json = try CLI.run(["diff", Self.flagship, copy.path, "--json"])
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["behaviourDiffers"] as? Bool == true)
        let scenarios = (object?["scenarios"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(scenarios == ["coldLaunch", "purgeWhileSuspended", "exitsOnSuspend"])
        // The same bytes every run.
        #expect(try CLI.run(["diff", Self.flagship, copy.path, "--json"]).stdout == json.stdout)
    }

    @Test("a description changed is a text-only change: exit 0, listed on its own")
    func descriptionOnly() throws {
        let original = try Self.flagshipText()
        let sentence = "No process exists; nothing of the app is in memory."
        #expect(original.contains(sentence))
        let copy = try Self.write(
            original.replacingOccurrences(of: sentence, with: "No process exists."), as: "ios-app-lifecycle.yaml")
        let result = try CLI.run(["diff", Self.flagship, copy.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("No change in behaviour"))
        #expect(
            result.stdout.contains(
                "Text-only changes (no change in behaviour):\n  ~ state notRunning\n      description (en)\n"))
        let markdown = try CLI.run(["diff", Self.flagship, copy.path, "--format", "markdown"])
        #expect(markdown.status == 0)
        #expect(markdown.stdout.contains("#### Text-only changes (no change in behaviour)"))
        #expect(markdown.stdout.contains("| state `notRunning` | changed | description (en) |"))
    }

    static let door = "Tests/Fixtures/Valid/door.yaml"

    @Test("states and events added and removed are listed; a scenario's new events show in its trace")
    func addedAndRemoved() throws {
        var text = try String(contentsOf: CLI.packageRoot.appendingPathComponent(Self.door), encoding: .utf8)
        // Without the lock; with a door that can stand ajar.
        for (old, new) in [
            ("      locked:\n        facts: {open: false, turns: 2}\n", ""),
            ("  lock: {kind: user}\n  unlock: {kind: user}\n", "  nudge: {kind: user}\n"),
            ("  - {from: latched, on: lock, to: locked}\n  - {from: locked, on: unlock, to: latched}\n", ""),
            (
                "  - {from: open, on: push, to: closed}\n",
                "  - {from: open, on: push, to: closed}\n  - {from: open, on: nudge, to: ajar}\n  - {from: ajar, on: push, to: closed}\n"
            ),
            (
                "    source: spec\ninitial: closed",
                "    source: spec\n  ajar:\n    facts: {open: true, turns: 0}\ninitial: closed"
            ),
            ("    events: [push, lock, unlock]", "    events: [push]"),
        ] {
            #expect(text.contains(old), "\(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        let copy = try Self.write(text, as: "door.yaml")
        let result = try CLI.run(["diff", Self.door, copy.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let out = result.stdout
        for line in [
            "  + state ajar (added)", "  - state locked (removed)", "  + event nudge (added)",
            "  - event lock (removed)",
            "  - event unlock (removed)", "  + transition from open on nudge (added)",
            "  - transition from latched on lock (removed)", "  ~ alarmedPush", "      - event: lock",
        ] {
            #expect(out.contains(line), "\(line)\n\(out)")
        }
    }

    @Test("usage errors exit 64: a missing file, a bad revision, a missing argument")
    func usageErrors() throws {
        let missing = try CLI.run(["diff", Self.door, "Tests/Fixtures/Valid/no-such.yaml"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("no-such.yaml"))
        let revision = try CLI.run(["diff", "no-such-revision:\(Self.door)", Self.door])
        #expect(revision.status == 64, "\(revision.stderr)")
        #expect(revision.stderr.contains("cannot read 'no-such-revision:\(Self.door)' from git"), "\(revision.stderr)")
        #expect(try CLI.run(["diff", Self.door]).status == 64)
        #expect(try CLI.run(["diff", Self.door, Self.door, "--json", "--format", "markdown"]).status == 64)
    }

    @Test("a version with errors is reported where they are: exit 1")
    func badSpec() throws {
        let bad = "Tests/Fixtures/Invalid/dead-end.yaml"
        let result = try CLI.run(["diff", Self.door, bad])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(bad):") && result.stderr.contains(": error: [LS"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// `folder` made a git repository with everything in it committed.
    static func commitAll(in folder: URL) throws {
        let git = URL(fileURLWithPath: "/usr/bin/env")
        for arguments in [
            ["git", "init", "-q"], ["git", "add", "."],
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "specs"],
        ] {
            let step = try CLI.runProcess(git, arguments, in: folder)
            try #require(step.status == 0, "\(arguments): \(step.stderr)")
        }
    }

    @Test("REV:path reads a version from git")
    func gitRevision() throws {
        let folder = try Scratch.folder("lifespec-diff-git")
        let door = try String(contentsOf: CLI.packageRoot.appendingPathComponent(Self.door), encoding: .utf8)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Spec"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("Spec/door.yaml")
        try door.write(to: file, atomically: true, encoding: .utf8)
        try Self.commitAll(in: folder)
        let same = try CLI.run(["diff", "HEAD:Spec/door.yaml", "Spec/door.yaml"], in: folder)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.hasPrefix("lifespec diff HEAD:Spec/door.yaml Spec/door.yaml\nNo change in behaviour"))

        try door.replacingOccurrences(of: "do: [doorDidOpen]", with: "do: []")
            .replacingOccurrences(of: "expect: [doorDidOpen, {notify: openNote}]", with: "expect: []")
            .write(to: file, atomically: true, encoding: .utf8)
        let changed = try CLI.run(["diff", "HEAD:Spec/door.yaml", "Spec/door.yaml"], in: folder)
        #expect(changed.status == 1, "\(changed.stderr)")
        #expect(changed.stdout.contains("  ~ pushOpen: Push it open\n"), "\(changed.stdout)")
        #expect(changed.stdout.contains("      - doorDidOpen\n      - notify: openNote\n"), "\(changed.stdout)")

        let path = try CLI.run(["diff", "HEAD:Spec/nothing.yaml", "Spec/door.yaml"], in: folder)
        #expect(path.status == 64)
        #expect(path.stderr.contains("cannot read 'HEAD:Spec/nothing.yaml' from git"), "\(path.stderr)")
    }

    @Test("a system spec at a revision reads its parts from the revision's folder")
    func systemAtRevision() throws {
        let project = try CLI.scratchProject()
        try Self.commitAll(in: project)
        let system = "Spec/uikit-scene-based-app.yaml"
        let same = try CLI.run(["diff", "HEAD:\(system)", system], in: project)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("No change in behaviour"), "\(same.stdout)")
        // From the spec's folder, a path relative to it.
        let inFolder = try CLI.run(
            ["diff", "HEAD:./uikit-scene-based-app.yaml", "uikit-scene-based-app.yaml"],
            in: project.appendingPathComponent("Spec"))
        #expect(inFolder.status == 0, "\(inFolder.stdout)\(inFolder.stderr)")

        let file = project.appendingPathComponent(system)
        let text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "  - id: launch\n"))
        let end = try #require(text.range(of: "  - id: homeAndReturn\n"))
        try text.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "")
            .write(to: file, atomically: true, encoding: .utf8)
        let removed = try CLI.run(["diff", "HEAD:\(system)", system], in: project)
        #expect(removed.status == 1, "\(removed.stderr)")
        #expect(removed.stdout.contains("  - launch: "), "\(removed.stdout)")
        #expect(removed.stdout.contains(" (removed)"))

        // A part with errors at the revision is reported as REV:path.
        let part = project.appendingPathComponent("Spec/ios-scene-lifecycle.yaml")
        try "lifespec: 1\nid: ios-scene-lifecycle\nstates: {a: {}}\ninitial: b\n".write(
            to: part, atomically: true, encoding: .utf8)
        try Self.commitAll(in: project)
        let broken = try CLI.run(["diff", "HEAD:\(system)", system], in: project)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("HEAD:Spec/ios-scene-lifecycle.yaml:"), "\(broken.stderr)")
        #expect(!broken.stderr.contains("lifespec-diff-"), "\(broken.stderr)")
    }
}
