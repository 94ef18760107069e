// The hand-written part of the GeneratedConformanceTests target.
//
// The target compiles every generated conformance suite:
// - Generated/<SpecName>ConformanceTests.swift, one per spec in Spec/ (`lifespec generate` writes
//   them; SuiteFreshnessTests fails when one is missing, stale or extra, and LIFESPEC_RECORD=1
//   rewrites them);
// - Fixtures/, a link to Tests/Fixtures/SwiftSuite/Golden: the goldens of the renderer's fixtures, so
//   every golden is proven to compile and pass, not only to match.
// SwiftPM finds new files in both folders by itself. Only Swift files may live in this target:
// anything else is reported as an unhandled file.
//
// The system under test for every suite is the engine, loaded from the spec the suite was generated
// from (`specPath`, relative to the package root): this extension is the `makeSystem()` each
// generated `enum <Spec>Conformance: ConformanceSuite` needs. A suite can override it with its own.

import Foundation
import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine

extension ConformanceSuite {
    static func makeSystem() throws -> EngineLifecycleSystem {
        try EngineLifecycleSystem(machine: SpecMachines.machine(atPackagePath: specPath))
    }
}

enum SpecMachines {
    static let packageRoot = SpecFixtures.packageRoot

    static func url(_ packagePath: String) -> URL { SpecFixtures.url(packagePath) }

    static func load(atPackagePath path: String) throws -> LoadedSpec { try SpecFixtures.load(path) }

    static func machine(atPackagePath path: String) throws -> Machine {
        try cache.machine(for: path) { try load(atPackagePath: path).machine }
    }

    /// Loading and validating the flagship for each of its tests would dominate the run: load once.
    private static let cache = MachineCache()
}

/// Loaded machines by spec path. The lock makes it safe to share between concurrently running tests.
private final class MachineCache: @unchecked Sendable {
    private let lock = NSLock()
    private var machines: [String: Machine] = [:]

    func machine(for path: String, load: () throws -> Machine) throws -> Machine {
        lock.lock()
        defer { lock.unlock() }
        if let machine = machines[path] { return machine }
        let machine = try load()
        machines[path] = machine
        return machine
    }
}
