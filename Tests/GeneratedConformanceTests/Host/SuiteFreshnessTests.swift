import Foundation
import LifeSpecGenerate
import LifeSpecRender
import LifeSpecTestSupport
import Testing

/// The suites this target compiles are the ones the specs generate today: none missing, none stale,
/// none left over from a removed spec.
struct SuiteFreshnessTests {
    static let generatedFolder = "Tests/GeneratedConformanceTests/Generated"

    @Test("Every spec in Spec/ has its current generated suite in Generated/, and nothing else is there")
    func everySpecHasItsCurrentSuite() throws {
        let manager = FileManager.default
        let specs = try manager.contentsOfDirectory(atPath: SpecMachines.url("Spec").path)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .sorted()
        #expect(!specs.isEmpty, "Spec/ has no specs")
        var expected: Set<String> = []
        for file in specs {
            let spec = try SpecMachines.load(atPackagePath: "Spec/\(file)")
            let name = SwiftSuiteRenderer.fileName(for: spec)
            #expect(expected.insert(name).inserted, "two specs generate \(name)")
            try assertGolden(
                SwiftSuiteRenderer.render(spec: spec), at: "\(Self.generatedFolder)/\(name)",
                whenMissing: "run 'swift run lifespec generate' (or the tests with LIFESPEC_RECORD=1) to create it")
        }
        let present = Set(
            try manager.contentsOfDirectory(atPath: SpecMachines.url(Self.generatedFolder).path)
                .filter { !$0.hasPrefix(".") })
        let extra = present.subtracting(expected).sorted()
        #expect(extra.isEmpty, "\(Self.generatedFolder) has files no spec generates: \(extra.joined(separator: ", "))")
    }
}
