// The system under test for every suite the LifeSpecSuites plugin generates in this target: the
// engine, running the machine of the spec the suite came from. An app's tests would return their
// own LifecycleSystem here instead.
import Foundation
import LifeSpec
import LifecycleEngine

struct SpecDoesNotLoad: Error, CustomStringConvertible {
    let description: String
}

extension ConformanceSuite {
    static func makeSystem() throws -> EngineLifecycleSystem {
        // The plugin generates each suite from a spec in this folder; specPath is its file name.
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(specPath)
        let result = SpecLoader.load(text: try String(contentsOf: file, encoding: .utf8), path: specPath)
        guard let spec = result.spec else {
            throw SpecDoesNotLoad(description: result.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return try EngineLifecycleSystem(machine: spec.machine)
    }
}
