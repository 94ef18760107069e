// `swift package lifespec generate|check [SPEC…] [generate's options…]`: runs `lifespec generate`
// (or `generate --check`) in the package the command is invoked in, so its Spec/ folder — or the
// specs named — and its Output/ folder are the ones used.
//
// Conformance suites: a package gets them from the LifeSpecSuites build-tool plugin at build time, so
// this command writes none unless `--suites DIR` is given (then it writes and checks them there).

import Foundation
import PackagePlugin

@main
struct LifeSpecCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "lifespec")
        let invocation = try Self.generateArguments(for: arguments)
        let process = Process()
        process.executableURL = tool.url
        process.arguments = invocation
        // generate's relative paths (Spec/, Output/, --suites) are the package's.
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            // lifespec has printed its diagnostics or the stale files already.
            let verb = invocation.contains("--check") ? "check" : "generate"
            Diagnostics.error("lifespec \(verb) failed (exit status \(process.terminationStatus))")
            throw PluginFailure()
        }
    }

    static let usage = """
        usage: swift package lifespec generate|check [SPEC…] [--suites DIR] [-o DIR] [--quiet]
          generate  validate the package's specs (default: Spec/) and bring Output/ in line with them
          check     write nothing; fail listing every stale, missing or extra file
        generate needs write access: swift package --allow-writing-to-package-directory lifespec generate
        """

    /// The `lifespec` command line for the plugin's arguments. Throws with the usage for anything else.
    static func generateArguments(for arguments: [String]) throws -> [String] {
        // SwiftPM passes `--target`/`--product` for command plugins that are asked about targets;
        // this one works on the whole package, so they are not accepted.
        guard let verb = arguments.first, ["generate", "check"].contains(verb) else {
            Diagnostics.error(arguments.first.map { "unknown verb '\($0)'\n" + usage } ?? usage)
            throw PluginFailure()
        }
        var rest = Array(arguments.dropFirst())
        if rest.contains("--check") {
            Diagnostics.error("use 'swift package lifespec check' instead of --check")
            throw PluginFailure()
        }
        if !rest.contains(where: { $0 == "--suites" || $0.hasPrefix("--suites=") }) { rest.append("--no-suites") }
        return ["generate"] + (verb == "check" ? ["--check"] : []) + rest
    }
}

/// The reason was reported through `Diagnostics` already.
struct PluginFailure: Error, CustomStringConvertible {
    var description: String { "lifespec plugin failed" }
}
