import Foundation
import LifeSpecTestSupport
import Testing

@testable import LifeSpec

@Suite("Spec loader")
struct LoaderTests {
    private static let lamp = """
        lifespec: 1
        id: lamp
        states:
          off:
          lit:
        initial: off
        events:
          flip:
        transitions:
          - {from: off, on: flip, to: lit}
          - {from: lit, on: flip, to: off}

        """

    private func positions(_ result: SpecLoadResult) -> [String] {
        result.diagnostics.map { "\($0.code.rawValue) \($0.location.line):\($0.location.column)" }
    }

    @Test func everyCodeTheLoaderEmitsIsInTheCorpus() throws {
        var covered: Set<String> = []
        for name in Fixtures.names(in: "Invalid") {
            let header = FixtureHeader(bytes: try Data(contentsOf: Fixtures.url("Invalid", name)))
            covered.formUnion(header.diagnostics.map(\.code))
        }
        // Rendering failures come from renderers, not from loading; `related:` is checked across
        // specs by SpecRelations (RelationsTests); an unwritable output file is the CLI's, and a log
        // line check-trace refuses is the log's (CLI tests).
        let loaderCodes = Set(DiagnosticCode.allCases.map(\.rawValue))
            .subtracting([
                DiagnosticCode.renderFailed.rawValue, DiagnosticCode.unknownRelatedSpec.rawValue,
                DiagnosticCode.unwritableFile.rawValue, DiagnosticCode.unknownTraceName.rawValue,
                DiagnosticCode.unobservedTraceName.rawValue, DiagnosticCode.traceDeviation.rawValue,
            ])
        #expect(loaderCodes.subtracting(covered).sorted() == [])
    }

    @Test func plainLampIsClean() {
        let result = SpecLoader.load(text: Self.lamp, path: "lamp.yaml")
        #expect(result.diagnostics.isEmpty)
        #expect(result.spec?.machine.states.map(\.id) == ["off", "lit"])
        #expect(result.spec?.path == "lamp.yaml")
    }

    @Test func missingFileAndDirectoryAreUnreadable() throws {
        let missing = SpecLoader.load(path: Fixtures.path("Invalid", "no-such-spec.yaml"))
        #expect(positions(missing) == ["LS001 1:1"])
        #expect(missing.diagnostics.first?.message == "spec file does not exist")
        let directory = SpecLoader.load(path: Fixtures.root.appendingPathComponent("Invalid").path)
        #expect(positions(directory) == ["LS001 1:1"])
        #expect(directory.diagnostics.first?.message == "spec file is a directory")
    }

    @Test func inputLimitsAreEnforced() throws {
        var small = LoaderLimits()
        small.maxFileBytes = 64
        let tooBig = SpecLoader.load(path: Fixtures.path("Valid", "door.yaml"), limits: small)
        #expect(positions(tooBig) == ["LS003 1:1"])
        #expect(tooBig.diagnostics.first?.message.contains("larger than 64 bytes") == true)
        #expect(positions(SpecLoader.load(text: Self.lamp, path: "lamp.yaml", limits: small)) == ["LS003 1:1"])

        var shortScalars = LoaderLimits()
        shortScalars.maxScalarLength = 3
        // 'lamp' is the first string longer than three characters.
        #expect(
            positions(SpecLoader.load(text: Self.lamp, path: "lamp.yaml", limits: shortScalars)).contains("LS003 2:5"))

        // Aliases may share a list a few times over, but not expand a document past one node per byte.
        let shared = """
            lifespec: 1
            id: shared
            initial: a
            states:
              a: &state {description: {en: one state among many that read alike}}
            """ + (1...40).map { "\n  s\($0): *state" }.joined() + "\n"
        #expect(!SpecLoader.load(text: shared, path: "shared.yaml").diagnostics.contains { $0.code == .inputLimit })
        let bombPath = Fixtures.path("Invalid", "alias-bomb.yaml")
        let bombBytes = try #require(FileManager.default.contents(atPath: bombPath)).count
        #expect(
            SpecLoader.load(path: bombPath).diagnostics.map(\.message) == [
                "aliases expand this \(bombBytes)-byte document to more than 20000 YAML nodes (without aliases it could hold at most one per byte); refusing to read further"
            ])

        var fewNodes = LoaderLimits()
        fewNodes.maxNodes = 10
        let budget = SpecLoader.load(text: Self.lamp, path: "lamp.yaml", limits: fewNodes)
        #expect(budget.diagnostics.count == 1)
        #expect(budget.diagnostics.first?.code == .inputLimit)
        #expect(budget.spec == nil)

        var fewStates = LoaderLimits()
        fewStates.maxStates = 1
        let states = SpecLoader.load(text: Self.lamp, path: "lamp.yaml", limits: fewStates)
        #expect(positions(states) == ["LS003 1:1"])
        #expect(states.diagnostics.first?.message.contains("2 states (the limit is 1)") == true)
        var fewTransitions = LoaderLimits()
        fewTransitions.maxTransitions = 1
        #expect(
            SpecLoader.load(text: Self.lamp, path: "lamp.yaml", limits: fewTransitions).diagnostics.first?.message
                .contains("transitions (the limit is 1)") == true)

        var shallow = LoaderLimits()
        shallow.maxDepth = 1
        // `{from: off, ...}` is one level; `[lit]` inside it is the second.
        let nested = Self.lamp.replacingOccurrences(of: "to: lit}", with: "to: [lit]}")
        #expect(positions(SpecLoader.load(text: nested, path: "lamp.yaml", limits: shallow)) == ["LS003 10:31"])
        // Brackets inside quotes and comments are not nesting.
        let quoted = Self.lamp.replacingOccurrences(of: "id: lamp", with: "id: lamp # [[ not nesting\ntitle: \"[[{\"")
        #expect(SpecLoader.load(text: quoted, path: "lamp.yaml", limits: shallow).diagnostics.isEmpty)
    }

    @Test func invalidUTF8IsLocatedInScalarsNotBytes() {
        var bytes = Array("lifespec: 1\ntitle: 台灯 ".utf8)
        bytes.append(0xFF)
        let result = SpecLoader.load(data: Data(bytes), path: "bad.yaml")
        // "title: " is 7 scalars, 台灯 and the space 3 more: the bad byte is the 11th.
        #expect(positions(result) == ["LS001 2:11"])
    }

    @Test func byteOrderMarkIsSkippedInData() {
        let result = SpecLoader.load(data: Data([0xEF, 0xBB, 0xBF] + Array(Self.lamp.utf8)), path: "bom.yaml")
        #expect(result.diagnostics.isEmpty)
    }

    @Test func diagnosticsPrintAsPathLineColumn() throws {
        let result = Fixtures.load("Invalid", "unknown-state.yaml")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(
            diagnostic.description
                == "\(Fixtures.path("Invalid", "unknown-state.yaml")):13:31: error: [LS101] state 'of' is not declared; did you mean 'off'?"
        )
        #expect(diagnostic.severity == .error)
    }

    @Test func duplicateKeyPointsAtTheRepeatAndNotesTheFirst() throws {
        let diagnostic = try #require(Fixtures.load("Invalid", "duplicate-key.yaml").diagnostics.first)
        #expect(diagnostic.notes == ["first written at \(Fixtures.path("Invalid", "duplicate-key.yaml")):8:1"])
        // In a nested block mapping and a flow mapping (where only the first is known).
        let nested = Self.lamp.replacingOccurrences(of: "  lit:\n", with: "  lit:\n    title: Lit\n    title: Lamp\n")
        #expect(positions(SpecLoader.load(text: nested, path: "lamp.yaml")) == ["LS004 7:5"])
        let flow = Self.lamp.replacingOccurrences(
            of: "{from: off, on: flip, to: lit}", with: "{from: off, on: flip, on: flip, to: lit}")
        #expect(positions(SpecLoader.load(text: flow, path: "lamp.yaml")) == ["LS004 10:17"])
    }

    @Test func tabsAreExplained() throws {
        let result = Fixtures.load("Invalid", "yaml-tab-indentation.yaml")
        #expect(result.diagnostics.first?.message.hasSuffix("(YAML does not allow tabs for indentation)") == true)
    }

    /// A mis-indented line is named with the indentations it could have had (#35); a key without
    /// its colon is named too; a well-indented file's syntax error gets no guess.
    @Test func indentationMistakesNameTheLikelyLine() throws {
        func notes(_ lines: [String]) -> [String] {
            SpecLoader.load(text: lines.joined(separator: "\n") + "\n", path: "spec.yaml").diagnostics.first?.notes
                ?? []
        }
        // One space short of its siblings: libyaml reports the line it stopped at.
        #expect(
            notes(["lifespec: 1", "id: x", "states:", "  a:", "    title: A", "  b:", "    title: B", " initial: a"])
                == [
                    "line 8 is indented 1 space; the keys above it are at 0, 2, 4: a key lines up with the keys of its own mapping, and a mapping's keys go on the lines after its key, indented further"
                ])
        #expect(
            notes(["lifespec: 1", "id: x", "states:", "  a:", "   title: A", "    description: B"]).first?.hasPrefix(
                "line 6 is indented 4 spaces; the keys above it are at 0, 2, 3") == true)
        #expect(
            notes(["lifespec: 1", "id: x", "states:", "  a:", "    title A", "    description: B"]) == [
                "line 5 has no ':' after its key"
            ])
        #expect(notes(["lifespec: 1", "id: x", "states: [a", "initial: a"]).isEmpty)
    }

    @Test func duplicateIDsNoteTheFirstDeclaration() throws {
        let diagnostic = try #require(Fixtures.load("Invalid", "duplicate-nested-state-id.yaml").diagnostics.first)
        #expect(
            diagnostic.notes == ["first declared at \(Fixtures.path("Invalid", "duplicate-nested-state-id.yaml")):6:3"])
    }

    @Test func nondeterminismNotesTheOtherTransition() throws {
        let diagnostic = try #require(Fixtures.load("Invalid", "nondeterminism.yaml").diagnostics.first)
        #expect(
            diagnostic.notes == ["the other transition is at \(Fixtures.path("Invalid", "nondeterminism.yaml")):16:5"])
    }

    /// A transition on `[x, y]` and one on `y` from the same state share `y`, whichever place `y`
    /// takes in its list.
    @Test(arguments: ["[x, y]", "[y, x]", "[z, y]"])
    func nondeterminismComparesEveryEventOfAnOnList(_ list: String) throws {
        let text = """
            lifespec: 1
            id: nondet
            states:
              a:
              b:
              c:
            initial: a
            events:
              x: {}
              y: {}
              z: {}
            transitions:
              - {from: a, on: \(list), to: b}
              - {from: a, on: y, to: c}
              - {from: b, on: [x, z], to: a}
              - {from: c, on: x, to: a}
            """
        let found = SpecLoader.load(text: text, path: "nondet.yaml").diagnostics.filter { $0.code == .nondeterminism }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.message.contains("event 'y'") == true, "\(found)")
        #expect(found.first?.location.line == 14)
        // Two lists that share nothing are no conflict.
        let apart = text.replacingOccurrences(of: "{from: a, on: y, to: c}", with: "{from: a, on: [q], to: c}")
            .replacingOccurrences(of: "  z: {}", with: "  z: {}\n  q: {}")
        #expect(!SpecLoader.load(text: apart, path: "nondet.yaml").diagnostics.contains { $0.code == .nondeterminism })
    }

    @Test func scenarioMismatchShowsBothTracesSideBySide() throws {
        let diagnostic = try #require(Fixtures.load("Invalid", "scenario-mismatch.yaml").diagnostics.first)
        #expect(diagnostic.notes.count == 3)
        #expect(diagnostic.notes.first?.contains("expected") == true)
        #expect(diagnostic.notes.first?.contains("actual") == true)
        // The first differing row is marked; the expected column comes first.
        #expect(diagnostic.notes[1].hasPrefix("→ "))
        #expect(diagnostic.notes[1].contains("notify: lampDidTurnOnNote"))
        #expect(diagnostic.notes[1].hasSuffix("lampDidTurnOn"))
        #expect(diagnostic.notes[2].hasPrefix("  "))
    }

    @Test func scenarioFailureShowsTheTraceSoFar() throws {
        let diagnostic = try #require(Fixtures.load("Invalid", "scenario-unhandled-event.yaml").diagnostics.first)
        #expect(diagnostic.notes == ["trace so far: (nothing)"])
        #expect(diagnostic.message.hasSuffix("(it accepts: flip)"))
    }

    @Test func suggestionsUseEditDistanceWithTranspositions() {
        #expect(Suggestion.editDistance("off", "of") == 1)
        #expect(Suggestion.editDistance("Trun", "Turn") == 1)
        #expect(Suggestion.closest(to: "backgroud", among: ["background", "foreground"]) == "background")
        #expect(Suggestion.closest(to: "xyz", among: ["background"]) == nil)
        #expect(Suggestion.didYouMean("intial", among: ["initial", "states"]) == "; did you mean 'initial'?")
        #expect(Suggestion.didYouMean("zzz", among: ["initial"]) == "")
    }
}

@Suite("Did-you-mean with bounded work")
struct BoundedSuggestionTests {
    @Test(
        "the banded edit distance agrees with the full one wherever it answers, and answers whenever the distance is within the limit"
    )
    func bandedAgreesWithFull() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcAB_é中")
        for _ in 0..<2_000 {
            let a = String(
                (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let b = String(
                (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let full = Suggestion.editDistance(a, b)
            for limit in 0...4 {
                let banded = Suggestion.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: limit)
                #expect(banded == (full <= limit ? full : nil), "\(a) / \(b) limit \(limit)")
            }
        }
    }

    @Test("suggestions still find typos, swaps and case slips; far or huge words get none")
    func suggestions() {
        let states = ["notRunning", "inactive", "active", "background", "suspended"]
        #expect(Suggestion.closest(to: "notRuning", among: states) == "notRunning")
        #expect(Suggestion.closest(to: "actvie", among: states) == "active")
        #expect(Suggestion.closest(to: "BACKGROUND", among: states) == "background")
        #expect(Suggestion.closest(to: "zzz", among: states) == nil)
        #expect(Suggestion.closest(to: String(repeating: "active", count: 10_000), among: states) == nil)
        #expect(Suggestion.closest(to: "active", among: [String(repeating: "a", count: 100_000)] + states) == "active")
    }

    @Test("the index, built once for many words, answers as comparing each word with every candidate would")
    func indexAgreesWithEveryPair() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdAB_é")
        func word() -> String {
            String(
                (0..<Int.random(in: 1...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        for _ in 0..<50 {
            let candidates = (0..<200).map { _ in word() }
            let index = Suggestion.Index(candidates)
            for _ in 0..<40 {
                let typo = word()
                let lowered = Array(typo.lowercased().unicodeScalars)
                // Every pair, in full: the closest within its limit, the smallest name on a tie.
                var expected: (candidate: String, distance: Int)?
                for candidate in candidates {
                    let other = Array(candidate.lowercased().unicodeScalars)
                    let limit = min(Suggestion.maximumEdits, max(1, min(lowered.count, other.count) / 3))
                    let distance = Suggestion.editDistance(typo.lowercased(), candidate.lowercased())
                    guard distance <= limit else { continue }
                    if expected == nil || distance < expected!.distance
                        || (distance == expected!.distance && candidate < expected!.candidate)
                    {
                        expected = (candidate, distance)
                    }
                }
                #expect(index.closest(to: typo) == expected?.candidate, "\(typo) among \(candidates)")
            }
        }
    }

    @Test("a word is compared with at most maximumComparisons candidates, its own length first")
    func comparisonsAreCapped() {
        // More names of one length than the cap, the close one last: no suggestion, rather than a
        // scan of every name for each unknown one (8,000 unknown targets took 150 s).
        let sameLength = (0..<(Suggestion.maximumComparisons + 10)).map { "xy" + String(50_000 + $0) }
        #expect(Suggestion.Index(sameLength + ["p000001"]).closest(to: "p000000") == nil)
        // A name of the word's own length is compared first, wherever it was given.
        let longer = (0..<(Suggestion.maximumComparisons + 10)).map { "xy" + String(500_000 + $0) }
        #expect(Suggestion.Index(longer + ["p000001"]).closest(to: "p000000") == "p000001")
    }

    @Test("N unknown targets are one LS101 each from one shared index: a budget for all, not N × M (#37)")
    func manyUnknownTargetsShareOneBudget() throws {
        let count = 3_000
        var yaml = "lifespec: 1\nid: many\nstates:\n"
        for state in 0..<count { yaml += "  node\(state): {}\n" }
        yaml += "initial: node0\nevents: {go: {}}\ntransitions:\n"
        for state in 0..<count { yaml += "  - {from: node\(state), on: go, to: nodf\(state)}\n" }
        let result = SpecLoader.load(text: yaml, path: "many.yaml")
        let unknown = result.diagnostics.filter { $0.code == .unknownState }
        #expect(unknown.count == count)
        #expect(result.diagnostics.allSatisfy { $0.code == .unknownState || $0.severity == .warning })
        let first = try #require(unknown.first)
        #expect(first.location.line == count + 7)
        #expect(first.description.hasPrefix("many.yaml:\(count + 7):"))
        #expect(first.message == "state 'nodf0' is not declared; did you mean 'node0'?", "\(first.message)")
        // A word differing in case only is a look-up, found however many comparisons went before.
        let index = Suggestion.Index((0..<count).map { "node\($0)" })
        for state in 0..<count { _ = index.closest(to: "nodf\(state)") }
        #expect(index.closest(to: "NODE2999") == "node2999")
    }

    @Test("misspelt callbacks against a 50,000-name catalog are each LS170, from one index (#37)")
    func misspeltCallbacksAgainstALargeCatalog() throws {
        let folder = try Scratch.folder("lifespec-big-catalog")
        let names = (0..<50_000).map { "  - swift: \"handleSignal\($0)(_:)\"" }
        try ("name: Signals\ncallbacks:\n" + names.joined(separator: "\n") + "\n").write(
            to: folder.appendingPathComponent("signals.yaml"), atomically: true, encoding: .utf8)
        let count = 1_500
        var yaml = "lifespec: 1\nid: radio\ncatalogs: [signals.yaml]\nstates: {a: {}, b: {}}\ninitial: a\n"
        yaml += "events: {go: {}, back: {}}\ncallbacks:\n"
        for callback in 0..<count { yaml += "  c\(callback): {swift: \"handleSignel\(callback)(_:)\"}\n" }
        yaml +=
            "transitions:\n  - {from: a, on: go, to: b, do: [\((0..<count).map { "c\($0)" }.joined(separator: ", "))]}\n"
        yaml += "  - {from: b, on: back, to: a}\n"
        let path = folder.appendingPathComponent("radio.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let result = SpecLoader.load(path: path)
        let unknown = result.diagnostics.filter { $0.code == .unknownAPIName }
        #expect(unknown.count == count, "\(result.diagnostics.prefix(3))")
        #expect(
            unknown.first?.message.contains("did you mean 'handleSignal0(_:)'") == true,
            "\(unknown.first?.message ?? "")")
    }
}

@Suite("An unknown platform points to catalogs")
struct UnknownPlatformTests {
    @Test func aFrameworkWithoutABuiltInCatalogIsToldAboutCatalogs() throws {
        let text = """
            lifespec: 1
            id: web
            platform: webkit
            states:
              idle:
            initial: idle

            """
        let loaded = SpecLoader.load(text: text, path: "web.yaml")
        let platform = try #require(loaded.diagnostics.first { $0.code == .unknownPlatform })
        #expect(platform.location.line == 3)
        #expect(platform.message.hasPrefix("unknown platform 'webkit' (known: uikit)"))
        #expect(platform.notes.contains { $0.contains("list the file under 'catalogs:'") }, "\(platform.notes)")
    }
}

@Suite("A misspelt top-level key")
struct MisspeltTopLevelKeyTests {
    @Test func isOneLocatedErrorWithDidYouMeanAndNoCascade() throws {
        let flagship = try String(contentsOf: SpecFixtures.url("Spec/ios-app-lifecycle.yaml"), encoding: .utf8)
        let text = flagship.replacingOccurrences(of: "\nstates:\n", with: "\nstate:\n")
        #expect(text != flagship)
        let line = text.components(separatedBy: "\n").firstIndex(of: "state:").map { $0 + 1 }
        let loaded = SpecLoader.load(text: text, path: "typo.yaml")
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(errors.map(\.description).joined(separator: "\n"))")
        #expect(errors.first?.code == .unknownKey)
        #expect(errors.first?.message == "unknown key 'state' in the spec; did you mean 'states'?")
        #expect(errors.first?.location.line == line)
    }
}
