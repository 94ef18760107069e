import LifeSpec
import LifeSpecTestSupport

/// The media player of `Tests/Fixtures/Statechart/player.yaml`: a parallel state with two regions,
/// a shallow history with its default, final states, entry and exit actions, a targetless
/// transition and a transition with two targets (a fork).
enum StatechartFixture {
    static let path = "Tests/Fixtures/Statechart/player.yaml"

    static func spec() throws -> LoadedSpec { try SpecFixtures.load(path) }
}
