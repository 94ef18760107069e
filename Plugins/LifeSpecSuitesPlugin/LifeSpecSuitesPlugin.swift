// A build-tool plugin: every spec (`*.yaml`, `*.yml`) in a target's folder becomes a generated Swift
// conformance suite compiled into that target — `lifespec tests SPEC` at build time, rerun whenever the
// spec changes, so a spec edit reaches the test build without a manual `generate`.
//
// The target provides each suite's system under test (`makeSystem()`, see the README) and depends on
// the LifecycleEngine library. A spec with errors fails the build with lifespec's diagnostics.

import Foundation
import PackagePlugin

@main
struct LifeSpecSuitesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "lifespec")
        let specs = target.sourceFiles
            .map(\.url)
            .filter { ["yaml", "yml"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
        return specs.map { spec in
            // The output's name must be known before the spec is read (its id names the suite's types),
            // so it follows the file name; the target's spec files have distinct names.
            let name = spec.deletingPathExtension().lastPathComponent
            let suite = context.pluginWorkDirectoryURL.appendingPathComponent("\(name).ConformanceTests.swift")
            return .buildCommand(
                displayName: "Generating the conformance suite for \(spec.lastPathComponent)",
                executable: tool.url,
                arguments: ["tests", spec.path, "--output", suite.path],
                inputFiles: [spec],
                outputFiles: [suite]
            )
        }
    }
}
