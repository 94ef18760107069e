import ArgumentParser
import LifeSpec
import LifeSpecRender
import LifecycleEngine

extension SwiftSuiteRenderer.Framework: ExpressibleByArgument {}
extension CoverageCriterion: ExpressibleByArgument {}

struct TestsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tests",
        abstract:
            "Write a spec's Swift conformance suite: scenarios, transition coverage, negative and ordering tests.",
        discussion: """
            The suite tests any system under test through the engine's LifecycleSystem protocol; the \
            test target that compiles it supplies makeSystem(). See the header of the generated file.
            """
    )

    @OptionGroup var input: SpecFileArgument

    @Option(help: "Test framework: swift-testing or xctest.")
    var framework: SwiftSuiteRenderer.Framework = .swiftTesting

    @Option(
        help: ArgumentHelp(
            "What the coverage paths take: transitions (every transition), or pairs (also every feasible pair of transitions taken by two events in a row).",
            valueName: "transitions|pairs"))
    var coverage: CoverageCriterion = .transitions

    @Option(
        help: ArgumentHelp(
            "The stem of the generated type names: <STEM>Conformance and <STEM>ConformanceTests (default: from the spec id).",
            valueName: "STEM"))
    var typeName: String?

    @OptionGroup var destination: OutputFileOption

    func validate() throws {
        if let typeName, !SwiftSuiteRenderer.isValidTypeName(typeName) {
            throw ValidationError(
                "--type-name '\(typeName)' is not a Swift type name (ASCII letters, digits and '_', not starting with a digit), e.g. AVPlayerPlayback"
            )
        }
    }

    func run() throws {
        let loaded = try loadValidSpec(input.spec)
        var suite = SwiftSuiteInput(spec: loaded)
        suite.typeNameStem = typeName
        let plan = SwiftSuiteRenderer.plan(for: suite, coverage: coverage)
        try writeOutput(
            SwiftSuiteRenderer.renderUTF8(suite, plan: plan, framework: framework), to: destination.output)
        exitKeeping((loaded, suite, plan))
    }
}
