import ArgumentParser
import LifeSpec

struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Write a seeded synthetic spec (nested groups, ~4 transitions per state) for benchmarks."
    )

    @Option(help: "Number of leaf states.")
    var states: Int = 50

    @Option(help: "Random seed; the same seed gives the same spec.")
    var seed: UInt64 = 1

    @Option(help: "Number of scenarios (random walks, expectations from the engine).")
    var scenarios: Int = 8

    @Option(help: "Split the states into this many regions of one parallel state, each with a deep history.")
    var regions: Int = 1

    @OptionGroup var destination: OutputFileOption

    func validate() throws {
        guard (2...100_000).contains(states) else { throw ValidationError("--states must be between 2 and 100000") }
        guard (0...1_000).contains(scenarios) else { throw ValidationError("--scenarios must be between 0 and 1000") }
        guard (1...64).contains(regions) else { throw ValidationError("--regions must be between 1 and 64") }
    }

    func run() throws {
        let text = SyntheticSpec(states: states, seed: seed, scenarios: scenarios, regions: regions).yaml()
        try writeOutput(Array(text.utf8), to: destination.output)
    }
}
