import Foundation
import LifeSpec
import Testing

/// Inputs the libFuzzer target (`Fuzz/run`) flagged, kept so they stay fixed. The target's own
/// checks run on each: the loader answers with located diagnostics and never crashes, and a spec
/// comes back exactly when there are no errors.
@Suite("Fuzzer findings")
struct FuzzRegressionTests {
    @Test("every fuzzer finding loads to located diagnostics", arguments: Fixtures.names(in: "Fuzz"))
    func findingLoads(_ name: String) throws {
        let data = try #require(FileManager.default.contents(atPath: Fixtures.path("Fuzz", name)))
        let result = SpecLoader.load(data: data, path: name)
        #expect(result.hasErrors == (result.spec == nil))
        for diagnostic in result.diagnostics {
            #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1, "\(diagnostic)")
        }
    }

    @Test("the alias bomb the fuzzer mutated is refused at the size-based node budget, not the absolute cap")
    func mutatedAliasBombStopsEarly() throws {
        // It timed out (over 10 s under AddressSanitizer) while the reader walked 500,000 nodes.
        let result = Fixtures.load("Fuzz", "timeout-alias-bomb-mutant.yaml")
        #expect(result.diagnostics.map(\.code) == [.inputLimit])
        #expect(result.diagnostics.first?.message.contains("to more than 20000 YAML nodes") == true)
    }
}
