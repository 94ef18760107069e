import LifeSpec
import LifecycleEngine

/// What a conformance suite is generated from: the engine model plus the few words the file shows.
/// `SwiftSuiteRenderer.render(spec:)` builds one from a loaded spec; build one directly to generate a
/// suite for a machine made in code.
package struct SwiftSuiteInput: Sendable {
    package let specID: String
    /// Shown in the header and returned by `specPath`; keep it relative (no absolute paths in output).
    package let specPath: String
    package let title: String?
    package let machine: Machine
    package let scenarios: [ConformanceScenario]
    /// The exploration of `machine` when the loader made one already (`LoadedSpec.stateSpace`).
    private(set) var stateSpace: StateSpace?
    /// The stem of the generated type names (`<stem>Conformance`, `<stem>ConformanceTests`) when
    /// the one made from the spec id will not do (`AvplayerPlayback` for `avplayer-playback`).
    /// A Swift identifier: `SwiftSuiteRenderer.isValidTypeName`.
    package var typeNameStem: String?

    package init(
        specID: String, specPath: String, title: String? = nil, machine: Machine, scenarios: [ConformanceScenario] = []
    ) {
        self.specID = specID
        self.specPath = specPath
        self.title = title
        self.machine = machine
        self.scenarios = scenarios
    }

    package init(spec: LoadedSpec) {
        let document = spec.document
        let path = spec.path.hasPrefix("/") ? String(spec.path.split(separator: "/").last ?? "") : spec.path
        self.init(
            specID: document.id,
            specPath: path,
            title: document.text(document.title),
            machine: spec.machine,
            scenarios: document.scenarios.map { scenario in
                ConformanceScenario(
                    id: scenario.id, title: document.text(scenario.title), from: scenario.from,
                    flags: scenario.flags, events: scenario.events)
            }
        )
        // Only an exploration of this very machine stands in for exploring it.
        if let space = spec.stateSpace, space.machine == spec.machine { stateSpace = space }
    }
}

/// Writes the Swift conformance suite of one spec: the cases the engine plans (`ConformancePlan`) as
/// data in `enum <Spec>Conformance: ConformanceSuite`, and one thin test per case that runs it on the
/// system under test the test target supplies through `makeSystem()`.
package enum SwiftSuiteRenderer {
    package enum Framework: String, Sendable, Hashable, CaseIterable {
        case swiftTesting = "swift-testing"
        case xctest
    }

    package static func render(spec: LoadedSpec, framework: Framework = .swiftTesting) -> String {
        render(SwiftSuiteInput(spec: spec), framework: framework)
    }

    package static func render(
        _ input: SwiftSuiteInput, framework: Framework = .swiftTesting, coverage: CoverageCriterion = .transitions
    ) -> String {
        render(input, plan: plan(for: input, coverage: coverage), framework: framework)
    }

    /// The cases `render(_:framework:)` writes, planned from the loader's exploration when there is one.
    package static func plan(for input: SwiftSuiteInput, coverage: CoverageCriterion = .transitions) -> ConformancePlan
    {
        let space = input.stateSpace ?? StateSpace(machine: input.machine)
        return ConformancePlan(space: space, scenarios: input.scenarios, criterion: coverage)
    }

    package static func render(_ input: SwiftSuiteInput, plan: ConformancePlan, framework: Framework) -> String {
        String(decoding: renderUTF8(input, plan: plan, framework: framework), as: UTF8.self)
    }

    /// The same text as its UTF-8 bytes, as the writer made them (every piece is a String's bytes,
    /// an ASCII byte or an escape, so they are valid UTF-8 and the String's own): for a caller that
    /// writes them to a file, the String in between cost the 4-region 2,000-state suite 0.07 G of
    /// its 3.41 G instructions (callgrind), decoding 7.5 MB only to encode them again.
    package static func renderUTF8(_ input: SwiftSuiteInput, plan: ConformancePlan, framework: Framework) -> [UInt8] {
        var writer = SuiteWriter(input: input, plan: plan, framework: framework)
        writer.write()
        return writer.output.bytes
    }

    /// `IosAppLifecycle` for `ios-app-lifecycle`: the stem of every generated name.
    package static func baseName(forSpecID id: String) -> String { SwiftSource.typeName(id) }
    /// The generated enum holding the cases, e.g. `IosAppLifecycleConformance`.
    package static func suiteTypeName(forSpecID id: String) -> String { baseName(forSpecID: id) + "Conformance" }
    /// The generated file's name, e.g. `IosAppLifecycleConformanceTests.swift`.
    package static func fileName(forSpecID id: String) -> String { baseName(forSpecID: id) + "ConformanceTests.swift" }
    package static func fileName(for spec: LoadedSpec) -> String { fileName(forSpecID: spec.document.id) }

    /// Whether `name` can be the stem of the generated type names: an ASCII Swift identifier that
    /// is not a keyword.
    package static func isValidTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || first == "_" else {
            return false
        }
        let keywords: Set<String> = ["Any", "Self", "Type", "Protocol", "_"]
        return !keywords.contains(name)
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
            }
    }
}

private struct SuiteWriter {
    let input: SwiftSuiteInput
    let plan: ConformancePlan
    let framework: SwiftSuiteRenderer.Framework
    /// Each case's one line for people, by position in `plan.cases`.
    let summaries: [String]
    /// The file so far: every line ends with a newline. Written in place, piece by piece: a suite
    /// has a few lines per step of every case, and building each line as a String of its own
    /// cost more than planning the cases.
    var output = TextOutput(capacity: 1 << 16)

    var machine: Machine { input.machine }
    var stem: String { input.typeNameStem ?? SwiftSuiteRenderer.baseName(forSpecID: input.specID) }
    var suiteType: String { stem + "Conformance" }
    var testType: String { stem + "ConformanceTests" }

    init(input: SwiftSuiteInput, plan: ConformancePlan, framework: SwiftSuiteRenderer.Framework) {
        self.input = input
        self.plan = plan
        self.framework = framework
        summaries = plan.cases.map(ConformanceText.summary)
        // Roughly the file's size (a case's frame and test, a line per step and its expectations),
        // so the buffer is not copied as it grows to megabytes: counted by steps alone, a 4-region
        // 2,000-state suite (a dozen observations a step) outgrew it once, which copied 7 MB and
        // doubled it to 14 MB, the peak of the whole run (massif).
        output = TextOutput(
            capacity: plan.cases.reduce(4096) { total, testCase in
                testCase.steps.reduce(total + 600) { size, step in
                    guard case .handled(let observations, let state) = step.expectation else { return size + 80 }
                    return size + 80 + 32 * (observations?.count ?? 0) + (state?.utf8.count ?? 0)
                }
            })
    }

    mutating func write() {
        header()
        line("import LifecycleEngine")
        line(framework == .swiftTesting ? "import Testing" : "import XCTest")
        line()
        cases()
        line()
        tests()
    }

    /// Writes one line of text that is Swift already, at the output's indentation.
    mutating func line(_ text: String = "") { output.line(text) }

    // MARK: Header

    mutating func comment(_ text: String = "") {
        line(text.isEmpty ? "//" : "// " + SwiftSource.commentText(text))
    }

    mutating func header() {
        let coverage = plan.coverage
        comment("generated by lifespec — do not edit")
        comment()
        let title = input.title.map { " (\($0))" } ?? ""
        comment("Conformance suite for the spec '\(input.specID)'\(title),")
        comment("generated from \(input.specPath) for \(framework == .swiftTesting ? "Swift Testing" : "XCTest").")
        comment()
        comment("System under test: every case runs on what `\(suiteType).makeSystem()` returns, a fresh")
        comment("value for each test. Provide it in this test target, for example")
        comment()
        comment("    extension \(suiteType) {")
        comment("        static func makeSystem() throws -> MyAppHarness { MyAppHarness() }")
        comment("    }")
        comment()
        comment("where MyAppHarness conforms to LifecycleSystem (module LifecycleEngine): reset(to:flags:)")
        comment("puts it in a state without taking eventless transitions, send(_:) returns .handled with the")
        comment("callbacks and notifications observed, or .rejected for an event the state does not handle,")
        comment("and currentState names the active leaf state. The engine itself is")
        comment("EngineLifecycleSystem(machine:). The cases are data checked by ConformanceCase.run(on:).")
        comment()
        let counts = ConformanceCase.Kind.allCases.map { kind in (kind, plan.cases.filter { $0.kind == kind }.count) }
        let described = counts.map { kind, count in "\(count) \(Self.noun(kind, count))" }.joined(separator: ", ")
        comment("Cases: \(described); \(plan.cases.count) in all.")
        let percent = coverage.transitionCount == 0 ? 100 : coverage.coveredCount * 100 / coverage.transitionCount
        comment(
            "Transition coverage: \(coverage.coveredCount) of \(coverage.transitionCount) transitions (\(percent)%), "
                + "eventless and internal ones included,"
                // `from: [a, b]` and `to: [x, y]` count once per source and target: say so where it shows.
                + (coverage.transitionCount == machine.transitions.count ? "" : " one per source state and target,"))
        comment(
            "in \(coverage.paths.count) path\(coverage.paths.count == 1 ? "" : "s") of \(coverage.stepCount) event\(coverage.stepCount == 1 ? "" : "s") in all; "
                + "lower bound \(coverage.lowerBound) event\(coverage.lowerBound == 1 ? "" : "s")")
        comment("(one per covered transition that only a sent event can trigger).")
        if let pairs = plan.pairs {
            let pairPercent = pairs.feasible == 0 ? 100 : pairs.covered * 100 / pairs.feasible
            comment(
                "Coverage: transitions: \(coverage.coveredCount) of \(coverage.transitionCount) (\(percent)%); "
                    + "transition pairs: \(pairs.covered) of \(pairs.feasible) (\(pairPercent)%),")
            comment(
                "a pair being two transitions taken by two events in a row (eventless ones with their event), "
                    + "infeasible pairs not counted;")
            comment(
                "the coverage paths, then \(pairs.pathCount) pair path\(pairs.pathCount == 1 ? "" : "s") of "
                    + "\(pairs.stepCount) event\(pairs.stepCount == 1 ? "" : "s") for the pairs they miss.")
        }
        if !coverage.uncoverable.isEmpty {
            comment("Not covered (no sequence of events takes them):")
            for item in coverage.uncoverable {
                let from = item.source.map { ", from '\($0)'," } ?? ""
                comment("  - \(describe(machine.transitions[item.transition]))\(from): \(item.reason)")
            }
        }
        if !plan.notes.isEmpty {
            comment("Not tested:")
            for note in plan.notes { comment("  - \(ConformanceText.note(note))") }
        }
        line()
    }

    static func noun(_ kind: ConformanceCase.Kind, _ count: Int) -> String {
        let one =
            switch kind {
            case .scenario: "scenario"
            case .coverage: "coverage path"
            case .rejection: "rejection test"
            case .ordering: "ordering test"
            }
        return count == 1 ? one : one + "s"
    }

    func describe(_ transition: Transition) -> String {
        let sources = transition.sources.map { "'\($0)'" }.joined(separator: ", ")
        let trigger = transition.trigger.eventID.map { "on '\($0)'" } ?? "always"
        let target = transition.target.map { " → '\($0)'" } ?? " (internal)"
        let guardText = transition.guardExpression.map { " if \($0)" } ?? ""
        return "transition \(transition.index) from \(sources) \(trigger)\(guardText)\(target)"
    }

    // MARK: Cases

    mutating func cases() {
        line("enum \(suiteType): ConformanceSuite {")
        output.indentation = 4
        output.startLine()
        output.write("static let specID = ")
        literal(input.specID)
        output.newline()
        output.startLine()
        output.write("static let specPath = ")
        literal(input.specPath)
        output.newline()
        line()
        if plan.cases.isEmpty {
            line("static let cases: [ConformanceCase] = []")
        } else {
            // One statement a case, in a function: as one array literal, the largest suite's cases took
            // the type checker 35 s and 2.7 GB, twice (the module's interface job checks a stored
            // property's initializer too, not a function body); as statements, 0.5 s (#36).
            line("static let cases: [ConformanceCase] = makeCases()")
            line()
            line("private static func makeCases() -> [ConformanceCase] {")
            output.indentation = 8
            line("var cases: [ConformanceCase] = []")
            for (item, summary) in zip(plan.cases, summaries) { conformanceCase(item, summary: summary) }
            line("return cases")
            output.indentation = 4
            line("}")
        }
        output.indentation = 0
        line("}")
    }

    /// One case, appended to `cases` in `makeCases()`.
    mutating func conformanceCase(_ item: ConformancePlan.Case, summary: String) {
        line("cases.append(")
        output.indentation += 4
        line("ConformanceCase(")
        output.indentation += 4
        output.startLine()
        output.write("id: ")
        literal(item.id)
        output.write(",\n")
        output.startLine()
        output.write("kind: .")
        output.write(item.kind.rawValue)
        output.write(",\n")
        output.startLine()
        output.write("summary: ")
        literal(summary)
        output.write(",\n")
        output.startLine()
        output.write("start: ")
        literal(item.start)
        output.write(",\n")
        output.startLine()
        output.write("flags: ")
        writeFlags(item.flags)
        output.write(",\n")
        list("steps", item.steps, separator: ",") { $0.writeStep($1) }
        list("checks", item.checks, separator: "") { $0.writeCheck($1) }
        output.indentation -= 4
        line(")")
        output.indentation -= 4
        line(")")
    }

    /// `name: [` and an item a line, then `]`; `name: []` for none; `separator` after the `]`.
    mutating func list<Item>(
        _ name: String, _ items: [Item], separator: String, _ write: (inout SuiteWriter, Item) -> Void
    ) {
        guard !items.isEmpty else { return line(name + ": []" + separator) }
        line(name + ": [")
        output.indentation += 4
        for item in items {
            output.startLine()
            write(&self, item)
            output.write(",\n")
        }
        output.indentation -= 4
        line("]" + separator)
    }

    mutating func literal(_ text: String) { SwiftSource.writeStringLiteral(text, to: &output) }

    mutating func writeFlags(_ flags: [String: Bool]) {
        guard !flags.isEmpty else {
            output.write("[:]")
            return
        }
        output.write(byte: UInt8(ascii: "["))
        for (offset, flag) in flags.sorted(by: { $0.key < $1.key }).enumerated() {
            if offset > 0 { output.write(", ") }
            literal(flag.key)
            output.write(flag.value ? ": true" : ": false")
        }
        output.write(byte: UInt8(ascii: "]"))
    }

    mutating func writeObservations(_ observations: [Observation]) {
        output.write(byte: UInt8(ascii: "["))
        for (offset, observation) in observations.enumerated() {
            if offset > 0 { output.write(", ") }
            let (kind, id) =
                switch observation {
                case .callback(let id): (".callback(", id)
                case .notification(let id): (".notification(", id)
                }
            output.write(kind)
            literal(id)
            output.write(byte: UInt8(ascii: ")"))
        }
        output.write(byte: UInt8(ascii: "]"))
    }

    mutating func writeStep(_ step: ConformanceStep) {
        switch step.expectation {
        case .rejected:
            output.write(".reject(")
            literal(step.event)
        case .handled(let expected, let state):
            output.write(".send(")
            literal(step.event)
            if let expected {
                output.write(", expect: ")
                writeObservations(expected)
            }
            if let state {
                output.write(", state: ")
                literal(state)
            }
        }
        output.write(byte: UInt8(ascii: ")"))
    }

    mutating func writeCheck(_ check: ConformanceCheck) {
        switch check {
        case .trace(let expected):
            output.write(".trace(")
            writeObservations(expected)
        case .state(let state):
            output.write(".state(")
            literal(state)
        case .order(let callback, let notification, let order):
            output.write(".order(callback: ")
            literal(callback)
            output.write(", notification: ")
            literal(notification)
            output.write(", .")
            output.write(order.rawValue)
        }
        output.write(byte: UInt8(ascii: ")"))
    }

    // MARK: Tests

    func testNames() -> [String] {
        var used: Set<String> = []
        return plan.cases.map { item in
            let stem: String
            let suffix = item.name
            switch item.kind {
            case .scenario: stem = "scenario_" + SwiftSource.identifierFragment(suffix)
            case .coverage: stem = "coverage_path_" + SwiftSource.identifierFragment(suffix)
            case .rejection: stem = "rejections_in_" + SwiftSource.identifierFragment(suffix)
            case .ordering: stem = "ordering_of_" + SwiftSource.identifierFragment(suffix)
            }
            var name = stem
            var counter = 2
            while !used.insert(name).inserted {
                name = "\(stem)_\(counter)"
                counter += 1
            }
            return name
        }
    }

    /// The first line of every test body, in either framework: run one case of the suite.
    private mutating func writeRun(_ caseID: String) {
        output.write("        let failures = try ")
        output.write(suiteType)
        output.write(".run(")
        literal(caseID)
        output.write(")\n")
    }

    mutating func tests() {
        let names = testNames()
        switch framework {
        case .swiftTesting:
            output.write("@Suite(")
            literal("Conformance: " + (input.title ?? input.specID))
            output.write(")\n")
            line("struct \(testType) {")
            for (offset, item) in plan.cases.enumerated() {
                if offset > 0 { line() }
                output.write("    @Test(")
                literal(summaries[offset])
                output.write(")\n")
                output.write("    func ")
                output.write(names[offset])
                output.write("() throws {\n")
                writeRun(item.id)
                line("        #expect(failures.isEmpty, \"\\(ConformanceFailure.report(failures))\")")
                line("    }")
            }
            line("}")
        case .xctest:
            line("final class \(testType): XCTestCase {")
            for (offset, item) in plan.cases.enumerated() {
                if offset > 0 { line() }
                output.write("    // ")
                output.write(SwiftSource.commentText(summaries[offset]))
                output.write("\n")
                output.write("    func test_")
                output.write(names[offset])
                output.write("() throws {\n")
                writeRun(item.id)
                line("        XCTAssertTrue(failures.isEmpty, ConformanceFailure.report(failures))")
                line("    }")
            }
            line("}")
        }
    }
}
