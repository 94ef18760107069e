import Foundation
import LifeSpec
import LifeSpecTestSupport
import LifecycleEngine

/// The shared SCXML conformance charts (`shared/scxml-conformance`, beside the repository in CI):
/// SCION's charts with their event scripts and W3C's IRP tests converted to the null datamodel.
enum ConformanceCharts {
    static let packageRoot = SpecFixtures.packageRoot

    /// `<repo>/../shared/scxml-conformance` (CI's layout), or two levels up (a git worktree under
    /// `wt/`); `LIFESPEC_SCXML_CONFORMANCE` overrides both.
    static let folder: URL? = {
        if let override = ProcessInfo.processInfo.environment["LIFESPEC_SCXML_CONFORMANCE"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        for up in ["..", "../.."] {
            let candidate = packageRoot.appendingPathComponent(up).appendingPathComponent("shared/scxml-conformance")
                .standardized
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("scion").path) {
                return candidate
            }
        }
        return nil
    }()

    static let skipMessage = "SCXML conformance: shared/scxml-conformance not found beside the repository; skipped"

    /// Paths relative to the folder, sorted: `scion/<group>/<name>.scxml`.
    static let scion: [String] = charts(under: "scion")
    static let w3c: [String] = charts(under: "w3c")

    private static func charts(under sub: String) -> [String] {
        guard let folder else { return [] }
        let root = folder.appendingPathComponent(sub)
        var result: [String] = []
        let all = FileManager.default.enumerator(atPath: root.path)
        while let item = all?.nextObject() as? String {
            if item.hasSuffix(".scxml") { result.append(sub + "/" + item) }
        }
        return result.sorted()
    }

    static func url(_ chart: String) -> URL { folder!.appendingPathComponent(chart) }

    /// One SCION script: the atomic configuration after start, then after each event.
    struct Script: Decodable {
        struct Step: Decodable {
            struct Event: Decodable { let name: String }
            let event: Event
            let nextConfiguration: [String]
        }
        let initialConfiguration: [String]
        let events: [Step]
    }

    static func script(_ chart: String) throws -> Script {
        let json = url(chart).deletingPathExtension().appendingPathExtension("json")
        return try JSONDecoder().decode(Script.self, from: Data(contentsOf: json))
    }

    enum Failure: Error, CustomStringConvertible {
        case load([Diagnostic])
        case machine(String)
        case run(String)
        var description: String {
            switch self {
            case .load(let diagnostics): diagnostics.map(\.description).joined(separator: "\n")
            case .machine(let text), .run(let text): text
            }
        }
    }

    static func machine(_ chart: String, extraEvents: [String] = []) throws -> Machine {
        let read = SCXMLReader.read(path: url(chart).path)
        guard let document = read.document else { throw Failure.load(read.diagnostics) }
        do {
            return try document.machine(extraEvents: extraEvents)
        } catch {
            throw Failure.machine("\(error)")
        }
    }

    /// Runs a SCION chart's script through the engine; nil when every configuration agrees, else
    /// where it first differs.
    static func runSCION(_ chart: String) throws -> String? {
        let script = try script(chart)
        let machine = try machine(chart, extraEvents: script.events.map(\.event.name))
        var (runner, _) = try Runner.start(machine: machine)
        if Set(runner.states) != Set(script.initialConfiguration) {
            return "after start: expected \(script.initialConfiguration.sorted()), engine \(runner.states.sorted())"
        }
        for (position, step) in script.events.enumerated() {
            try runner.send(step.event.name)
            if Set(runner.states) != Set(step.nextConfiguration) {
                return
                    "after event \(position + 1) '\(step.event.name)': expected \(step.nextConfiguration.sorted()), engine \(runner.states.sorted())"
            }
        }
        return nil
    }
}
