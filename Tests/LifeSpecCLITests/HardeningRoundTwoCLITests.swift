import Foundation
import LifeSpecTestSupport
import Testing

/// Issue #37 through the real executable, each break from a variant of the input the issue
/// describes: the exit status, the located diagnostic with its code, and that nothing leaked.
@Suite("Hardening: SCXML conditions, linked specs and bidirectional text through the CLI")
struct HardeningRoundTwoCLITests {
    static func chart(cond: String) -> String {
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
        <state id="a"><transition event="go" cond="\(cond.replacingOccurrences(of: "&", with: "&amp;"))" target="b"/></state>
        <state id="b"><transition event="back" target="a"/></state>
        </scxml>

        """
    }

    static let deepConditions: [String: String] = [
        "45,000 !": String(repeating: "!", count: 45_000) + "In('b')",
        "90,000 ( unclosed": String(repeating: "(", count: 90_000) + "true",
        "33 !( pairs": String(repeating: "!(", count: 33) + "In('a')" + String(repeating: ")", count: 33),
        "30,000 ||": (0..<30_000).map { _ in "In('b')" }.joined(separator: " || "),
    ]

    @Test(
        "a cond past the guard limit is a located LS003 in validate, simulate and import, never a crash",
        arguments: ["45,000 !", "90,000 ( unclosed", "33 !( pairs", "30,000 ||"])
    func deepConditionsAreCleanErrors(_ name: String) throws {
        let folder = try Scratch.folder("lifespec-cond")
        let cond = try #require(Self.deepConditions[name])
        try Self.chart(cond: cond).write(
            to: folder.appendingPathComponent("chart.scxml"), atomically: true, encoding: .utf8)
        for command in [
            ["validate", "chart.scxml"], ["simulate", "chart.scxml", "go"],
            ["import", "chart.scxml", "-o", "out.yaml"],
        ] {
            let result = try CLI.run(command, in: folder)
            let printed = result.stdout + result.stderr
            #expect(result.status == 1, "\(name) \(command): status \(result.status)")
            #expect(
                printed.contains("chart.scxml:2:15: error: [LS003] cond=\""),
                "\(name) \(command): \(printed.prefix(500))")
            // The condition is quoted by its start, not echoed whole.
            #expect(printed.split(separator: "\n").allSatisfy { $0.count < 400 }, "\(name) \(command)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.yaml").path))
        }
    }

    @Test("a spec generate finds in Spec/ that is a link out of the project is LS006, its file never printed")
    func discoveredSpecLinksStayInTheProject() throws {
        let project = try Scratch.folder("lifespec-project")
        let outside = try Scratch.folder("lifespec-outside")
        let spec = project.appendingPathComponent("Spec")
        try FileManager.default.createDirectory(at: spec, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLI.fixtures.appendingPathComponent("Valid/door.yaml"), to: spec.appendingPathComponent("door.yaml"))
        let secret = outside.appendingPathComponent("credentials.yml")
        try "PRIVATE_TOKEN_91: hunter2\ndeploy_key: ssh-ed25519 AAAA\n".write(
            to: secret, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: spec.appendingPathComponent("shared.yml").path, withDestinationPath: secret.path)
        for command in [
            ["validate"], ["validate", "--format", "json"], ["generate", "--check"], ["validate", "Spec/shared.yml"],
        ] {
            let result = try CLI.run(command, in: project)
            let printed = result.stdout + result.stderr
            #expect(result.status == 1, "\(command): \(printed)")
            if command.count != 3 {
                #expect(
                    printed.contains("Spec/shared.yml:1:1: error: [LS006] spec file is not read"),
                    "\(command): \(printed)")
            }
            #expect(
                !printed.contains("PRIVATE_TOKEN") && !printed.contains("hunter2") && !printed.contains("ssh-ed25519"),
                "\(command): \(printed)")
        }
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("Output").path))
        // A spec named outside the project is the caller's own choice, and is read.
        let door = outside.appendingPathComponent("door.yaml")
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("Valid/door.yaml"), to: door)
        #expect(try CLI.run(["validate", door.path], in: project).status == 0)
    }

    @Test("bidirectional overrides in a chart's name, ids and events are LS015 and reach no output raw")
    func bidirectionalTextFromSCXMLIsRemoved() throws {
        let folder = try Scratch.folder("lifespec-bidi")
        let chart = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="i\u{202D}dle" name="Fa\u{202E}n">
            <state id="i\u{202D}dle"><transition event="sp\u{2066}in" target="spin\u{202E}ning"/></state>
            <state id="spin\u{202E}ning"><transition event="st\u{2069}op" target="i\u{202D}dle"/></state>
            </scxml>

            """
        try chart.write(to: folder.appendingPathComponent("fan.scxml"), atomically: true, encoding: .utf8)
        let strict = try CLI.run(["validate", "--strict", "fan.scxml"], in: folder)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("fan.scxml:1:1: warning: [LS015] <scxml name>"), "\(strict.stdout)")
        #expect(strict.stdout.contains("fan.scxml:2:1: warning: [LS015] <state id>"), "\(strict.stdout)")
        let bidi: (Unicode.Scalar) -> Bool = {
            (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }
        for command in [
            ["validate", "fan.scxml"], ["docs", "fan.scxml"], ["docs", "--format", "docc", "fan.scxml"],
            ["diagram", "--format", "mermaid", "fan.scxml"], ["export", "fan.scxml"], ["import", "fan.scxml"],
            ["tests", "fan.scxml"],
        ] {
            let result = try CLI.run(command, in: folder)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(!(result.stdout + result.stderr).unicodeScalars.contains(where: bidi), "\(command)")
        }
        let page = try CLI.run(["docs", "fan.scxml"], in: folder).stdout
        #expect(page.contains("spinning") && page.contains("idle"), "\(page.prefix(400))")
    }

    /// `count` parallel two-state regions: each region's `up` emits nothing but the first region's,
    /// which calls `first()`, and its `down` nothing either, so a log of `first()` cannot tell the
    /// other regions apart.
    static func silentRegions(_ count: Int) -> String {
        var lines = [
            "lifespec: 1", "id: regions", "initial: all", "states:", "  all:", "    parallel: true", "    states:",
        ]
        for region in 0..<count {
            lines += [
                "      r\(region):", "        initial: off\(region)",
                "        states: {off\(region): {}, on\(region): {}}",
            ]
        }
        lines += ["events:"] + (0..<count).map { "  up\($0): {kind: user}\n  down\($0): {kind: user}" }
        lines += ["callbacks:", "  first: {swift: \"first()\"}", "transitions:"]
        for region in 0..<count {
            lines.append(
                "  - {from: off\(region), on: up\(region), to: on\(region)\(region == 0 ? ", do: [first]" : "")}")
            lines.append("  - {from: on\(region), on: down\(region), to: off\(region)}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `count` parallel rings of `length` states whose `next<i>` events emit nothing but the one
    /// that closes ring i, which calls `lap<i>()`: the log records every ring, so none is set aside,
    /// and a log of one lap leaves length^count configurations possible.
    static func rings(_ count: Int, length: Int) -> String {
        var lines = [
            "lifespec: 1", "id: rings", "initial: all", "states:", "  all:", "    parallel: true", "    states:",
        ]
        for ring in 0..<count {
            let states = (0..<length).map { "q\(ring)s\($0): {}" }.joined(separator: ", ")
            lines += ["      r\(ring):", "        initial: q\(ring)s0", "        states: {\(states)}"]
        }
        lines += ["events:"] + (0..<count).map { "  next\($0): {kind: user}" }
        lines += ["callbacks:"] + (0..<count).map { "  lap\($0): {swift: \"lap\($0)()\"}" }
        lines.append("transitions:")
        for ring in 0..<count {
            for state in 0..<length {
                let closes = state == length - 1
                lines.append(
                    "  - {from: q\(ring)s\(state), on: next\(ring), to: q\(ring)s\(closes ? 0 : state + 1)\(closes ? ", do: [lap\(ring)]" : "")}"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(
        "check-trace over independent regions: judged when the log cannot tell them apart, a located LS003 past the budget when it can (#37 break 3)"
    )
    func checkTraceOverManyRegionsIsBounded() throws {
        let folder = try Scratch.folder("lifespec-regions")
        try "# one call\nfirst()\n".write(
            to: folder.appendingPathComponent("one.log"), atomically: true, encoding: .utf8)
        try Self.silentRegions(20).write(
            to: folder.appendingPathComponent("silent.yaml"), atomically: true, encoding: .utf8)
        // 60^3 = 216,000 configurations, each with three events: over the budget at a seventh of the
        // cost per configuration of 20 two-state regions (Benchmarks/run times those).
        try Self.rings(3, length: 60).write(
            to: folder.appendingPathComponent("rings.yaml"), atomically: true, encoding: .utf8)
        try "lap1()\n".write(to: folder.appendingPathComponent("lap.log"), atomically: true, encoding: .utf8)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        // 19 regions emit nothing the log records: two configurations, not 2^20.
        let silent = try CLI.run(["check-trace", "silent.yaml", "one.log"], in: folder)
        #expect(silent.status == 0, "\(silent.stderr)")
        #expect(silent.stdout.contains("one.log: conforms: 1 observations"), "\(silent.stdout)")
        #expect(silent.stdout.contains("  could now be in: off0, on0\n"), "\(silent.stdout)")
        #expect(
            silent.stdout.contains(
                "  not told apart (they emit nothing the log records, and nothing else depends on them): r1, r2, "),
            "\(silent.stdout)")
        let rings = try CLI.run(["check-trace", "rings.yaml", "lap.log"], in: folder)
        #expect(rings.status == 1, "\(rings.stdout) \(rings.stderr)")
        #expect(
            rings.stderr.hasPrefix(
                "lap.log:1:1: error: [LS003] the log cannot be judged within 200000 configurations of the spec (check-trace's budget)"
            ),
            "\(rings.stderr)")
        #expect(rings.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    }

    /// A ring of `count` states (`next`), each with a `jump` to `jump(i)`: back to the first state
    /// makes long arrows whose spans grow with the square of the ring.
    static func ring(_ count: Int, jump: (Int) -> Int) -> String {
        var lines = ["lifespec: 1", "id: ring", "initial: s0", "states:"] + (0..<count).map { "  s\($0): {}" }
        lines += ["events: {next: {kind: user}, jump: {kind: user}}", "transitions:"]
        for state in 0..<count {
            lines.append("  - {from: s\(state), on: next, to: s\((state + 1) % count)}")
            lines.append("  - {from: s\(state), on: jump, to: s\(jump(state) % count)}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("a ring whose states all jump back is refused before layout with a located LS003; shortcuts are drawn")
    func ringsWithShortcutsAreDrawnOrRefused() throws {
        let folder = try Scratch.folder("lifespec-ring")
        try Self.ring(330) { _ in 0 }.write(
            to: folder.appendingPathComponent("back.yaml"), atomically: true, encoding: .utf8)
        try Self.ring(300) { $0 + 9 }.write(
            to: folder.appendingPathComponent("ahead.yaml"), atomically: true, encoding: .utf8)
        try Self.ring(70) { _ in 0 }.write(
            to: folder.appendingPathComponent("small.yaml"), atomically: true, encoding: .utf8)
        for format in ["svg", "png", "pdf"] {
            let result = try CLI.run(["diagram", "back.yaml", "-o", "back.\(format)"], in: folder)
            #expect(result.status == 1, "\(format): \(result.stderr)")
            #expect(
                result.stderr.hasPrefix("back.yaml:1:1: error: [LS003] the diagram has 331 nodes")
                    && result.stderr.contains("ranks beyond their own") && result.stderr.contains("group"),
                "\(format): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("back.\(format)").path))
        }
        // DOT is not laid out: written, with the note.
        let dot = try CLI.run(["diagram", "back.yaml", "--format", "dot"], in: folder)
        #expect(dot.status == 0 && dot.stdout.hasPrefix("digraph"), "\(dot.stderr)")
        for spec in ["ahead", "small"] {
            let drawn = try CLI.run(["diagram", "\(spec).yaml", "-o", "\(spec).svg"], in: folder)
            #expect(drawn.status == 0, "\(spec): \(drawn.stderr)")
            let svg = try String(contentsOf: folder.appendingPathComponent("\(spec).svg"), encoding: .utf8)
            #expect(svg.contains("</svg>"), "\(spec)")
        }
        // generate leaves the whole drawing out and writes the rest.
        let project = try Scratch.folder("lifespec-ring-project")
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Spec"), withIntermediateDirectories: true)
        try Self.ring(330) { _ in 0 }.write(
            to: project.appendingPathComponent("Spec/ring.yaml"), atomically: true, encoding: .utf8)
        let generated = try CLI.run(["generate", "-q"], in: project)
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("Output/ring/README.md").path))
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("Output/ring/diagram.svg").path))
    }

    @Test(
        "a chart in UTF-16 (either order, no mark), UTF-7 or EBCDIC is LS001 in every command, its DTD never expanded")
    func chartsInOtherEncodingsAreRefused() throws {
        let folder = try Scratch.folder("lifespec-encodings")
        func chart(_ encoding: String) -> String {
            """
            <?xml version="1.0" encoding="\(encoding)"?>
            <!DOCTYPE scxml [<!ENTITY leak "entity-text-leaked">]>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a"><state id="a">
            <onentry><log expr="'&leak;'"/></onentry><transition event="go" target="a"/></state></scxml>

            """
        }
        let utf16 = Array(chart("UTF-16").utf16)
        // IBM037 for the characters of the chart's first line: "<?xml version="1.0" encoding="IBM037"?>".
        let ebcdic: [UInt8] = [
            0x4C, 0x6F, 0xA7, 0x94, 0x93, 0x40, 0xA5, 0x85, 0x99, 0xA2, 0x89, 0x96, 0x95, 0x7E, 0x7F, 0xF1, 0x4B, 0xF0,
            0x7F, 0x40, 0x85, 0x95, 0x83, 0x96, 0x84, 0x89, 0x95, 0x87, 0x7E, 0x7F, 0xC9, 0xC2, 0xD4, 0xF0, 0xF3, 0xF7,
            0x7F, 0x6F, 0x6E, 0x25,
        ]
        let rest = chart("IBM037").split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        // The code and the words of the refusal: the EBCDIC declaration is not UTF-8, and the DTD
        // after it is found in the raw bytes whatever the declaration says.
        let files: [(String, [UInt8], String)] = [
            ("le", utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "[LS001] SCXML file holds a NUL byte"),
            ("be", utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "[LS001] SCXML file holds a NUL byte"),
            (
                "seven", Array(chart("UTF-7").replacingOccurrences(of: "<!", with: "+ADw-!").utf8),
                "[LS001] the XML declaration names 'UTF-7'"
            ),
            (
                "ebcdic", ebcdic + Array(rest.dropFirst().joined(separator: "\n").utf8),
                "[LS001] SCXML file is not valid UTF-8"
            ),
            ("ebcdicdtd", ebcdic + Array(rest.joined(separator: "\n").utf8), "[LS180] <!DOCTYPE> is not supported"),
        ]
        for (name, bytes, reason) in files {
            try Data(bytes).write(to: folder.appendingPathComponent("\(name).scxml"))
            for command in [
                ["validate", "\(name).scxml"], ["simulate", "\(name).scxml", "go"],
                ["import", "\(name).scxml", "-o", "out.yaml"], ["export", "\(name).scxml"],
            ] {
                let result = try CLI.run(command, in: folder)
                let printed = result.stdout + result.stderr
                #expect(result.status == 1, "\(command): \(printed)")
                #expect(printed.contains("\(name).scxml:1:"), "\(command): \(printed)")
                #expect(printed.contains("error: \(reason)"), "\(command): \(printed)")
                #expect(!printed.contains("entity-text-leaked"), "\(command)")
                #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.yaml").path))
            }
        }
    }

    @Test("an attribute or namespace flood is a located LS003 in validate and import, nothing written (#37 break 10)")
    func attributeFloodsThroughTheCLI() throws {
        let folder = try Scratch.folder("lifespec-flood")
        let head =
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" initial=\"a\">\n<state id=\"b\"/>\n"
        // Namespace declarations and plain attributes mixed on one element; then namespaces alone
        // (the root's own xmlns is the first of them).
        let mixed = (0..<120_000).map { $0.isMultiple(of: 3) ? " xmlns:p\($0)='urn:\($0)'" : " k\($0)='\($0)'" }
            .joined()
        let spread = (0..<600).map { "<state id=\"s\($0)\" xmlns:q\($0)=\"urn:q\($0)\"/>" }.joined(separator: "\n")
        try (head + "<state id=\"a\"\(mixed)/>\n</scxml>\n").write(
            to: folder.appendingPathComponent("mixed.scxml"), atomically: true, encoding: .utf8)
        try (head + "<state id=\"a\"/>\n" + spread + "\n</scxml>\n").write(
            to: folder.appendingPathComponent("spread.scxml"), atomically: true, encoding: .utf8)
        for (name, location, what) in [
            ("mixed", "mixed.scxml:3:1", "more than 64 attributes"),
            ("spread", "spread.scxml:259:1", "namespace declarations"),
        ] {
            for command in [["validate", "\(name).scxml"], ["import", "\(name).scxml", "-o", "out.yaml"]] {
                let result = try CLI.run(command, in: folder)
                #expect(result.status == 1, "\(command)")
                #expect(
                    (result.stdout + result.stderr).contains("\(location): error: [LS003] SCXML: ")
                        && (result.stdout + result.stderr).contains(what),
                    "\(command): \(result.stdout) \(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.yaml").path))
            }
        }
    }

    /// A project with the app spec and the memory-warning system, which has the app spec (and the
    /// view controller spec) as parts; `appTitle` renames the app's Suspended state.
    static func systemProject(appTitle: String?) throws -> URL {
        let project = Scratch.url("lifespec-snapshot")
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Spec"), withIntermediateDirectories: true)
        for name in ["ios-app-lifecycle.yaml", "uikit-memory-warning.yaml", "uiviewcontroller-lifecycle.yaml"] {
            var text = try String(
                contentsOf: CLI.packageRoot.appendingPathComponent("Spec/\(name)"), encoding: .utf8)
            if let appTitle, name == "ios-app-lifecycle.yaml" {
                text = text.replacingOccurrences(
                    of: "en: iOS app life cycle (UIKit, app delegate)", with: "en: \(appTitle)")
            }
            try text.write(to: project.appendingPathComponent("Spec/\(name)"), atomically: true, encoding: .utf8)
        }
        return project
    }

    @Test(
        "a run reads each input once: the app spec replaced while generate holds after reading it leaves Output/ whole for the first version (#37 break 14)"
    )
    func aRunIsASnapshotOfItsInputs() throws {
        let renamed = "Suspended (frozen)"
        var references: [TransactionTests.State] = []
        for title in [nil, renamed] {
            let project = try Self.systemProject(appTitle: title)
            #expect(try CLI.run(["generate", "-q"], in: project).status == 0)
            references.append(TransactionTests.state(of: project))
        }
        // The system's pages and drawings show its part's states: the two versions differ there too.
        #expect(
            TransactionTests.differences(references[0], references[1]).contains {
                $0.hasPrefix("Output/uikit-memory-warning/")
            })
        let project = try Self.systemProject(appTitle: nil)
        let release = try Scratch.folder("lifespec-release").appendingPathComponent("go")
        let run = try WatchedProcess(
            CLI.testHost, ["generate", "-q"], in: project,
            environment: ["LIFESPEC_TEST_HOLD_READ": "ios-app-lifecycle.yaml", "LIFESPEC_TEST_RELEASE": release.path],
            watching: .standardError)
        // Held right after the first read of the app spec: the rest of the run would read it again
        // (as a spec, as the system's part) if it did not keep those bytes.
        #expect(run.wait(for: "lifespec-test-step: read ios-app-lifecycle.yaml"))
        let replaced = try Self.systemProject(appTitle: renamed)
        try FileManager.default.removeItem(at: project.appendingPathComponent("Spec/ios-app-lifecycle.yaml"))
        try FileManager.default.copyItem(
            at: replaced.appendingPathComponent("Spec/ios-app-lifecycle.yaml"),
            to: project.appendingPathComponent("Spec/ios-app-lifecycle.yaml"))
        FileManager.default.createFile(atPath: release.path, contents: Data())
        run.waitUntilExit()
        #expect(run.process.terminationStatus == 0, "\(run.log)")
        let after = TransactionTests.state(of: project)
        #expect(
            after == references[0],
            "Output/ is not the first version's: \(TransactionTests.differences(after, references[0]))")
        // What is on disk now is the second version: the run's record does not call it fresh.
        #expect(try CLI.run(["generate", "--check", "-q"], in: project).status != 0)
        #expect(try CLI.run(["generate", "-q"], in: project).status == 0)
        #expect(TransactionTests.state(of: project) == references[1])
    }
}
