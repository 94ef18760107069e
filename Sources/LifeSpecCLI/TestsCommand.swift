import ArgumentParser
import LifeSpec
import LifeSpecRender

extension SwiftSuiteRenderer.Framework: ExpressibleByArgument {}

struct TestsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tests",
        abstract: "Write a spec's Swift conformance suite: scenarios, transition coverage, negative and ordering tests.",
        discussion: """
        The suite tests any system under test through the engine's LifecycleSystem protocol; the \
        test target that compiles it supplies makeSystem(). See the header of the generated file.
        """
    )

    @Argument(help: "The spec file.")
    var spec: String

    @Option(help: "Test framework: swift-testing or xctest.")
    var framework: SwiftSuiteRenderer.Framework = .swiftTesting

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func run() throws {
        let loaded = try loadValidSpec(spec)
        try writeOutput(Array(SwiftSuiteRenderer.render(spec: loaded, framework: framework).utf8), to: output)
    }
}
