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
import LifecycleEngine

extension ConformanceSuite {
    static func makeSystem() throws -> EngineLifecycleSystem {
        try EngineLifecycleSystem(machine: SpecMachines.machine(atPackagePath: specPath))
    }
}

enum SpecMachines {
    /// The package root, found from this file (no bundles).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ packagePath: String) -> URL {
        packagePath.hasPrefix("/") ? URL(fileURLWithPath: packagePath) : packageRoot.appendingPathComponent(packagePath)
    }

    static func load(atPackagePath path: String) throws -> LoadedSpec {
        let text = try String(contentsOf: url(path), encoding: .utf8)
        // The absolute path: a system spec finds its parts beside it, whatever the working folder.
        let result = SpecLoader.load(text: text, path: url(path).path)
        guard let spec = result.spec else {
            throw HostError("\(path) does not load:\n" + result.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return spec
    }

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

struct HostError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
