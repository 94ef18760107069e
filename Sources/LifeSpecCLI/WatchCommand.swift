import ArgumentParser
import Foundation
import LifeSpec

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Regenerate Output/ whenever a spec in Spec/ changes (polling); Ctrl-C stops.",
        discussion: "An invalid save prints its diagnostics and the watch goes on; Output/ is left as it was."
    )

    @Option(name: .shortAndLong, help: "The output directory.")
    var output = "Output"

    @Option(help: "Seconds between polls.")
    var interval: Double = 0.5

    @Option(help: .hidden)
    var maxPasses: Int?

    func validate() throws {
        guard interval >= 0.05 else { throw ValidationError("--interval must be at least 0.05 seconds") }
    }

    func run() throws {
        var lastSnapshot: [String: Date]?
        var passes = 0
        StandardStreams.out("watching Spec/ (Ctrl-C to stop)\n")
        while maxPasses.map({ passes < $0 }) ?? true {
            let snapshot = Self.snapshot()
            if snapshot != lastSnapshot {
                passes += 1
                if let lastSnapshot {
                    let changed = Set(snapshot.keys).union(lastSnapshot.keys).filter { snapshot[$0] != lastSnapshot[$0] }.sorted()
                    StandardStreams.out("changed: \(changed.joined(separator: ", "))\n")
                }
                lastSnapshot = snapshot
                do {
                    let outcome = try GenerationRun(specs: [], output: output, suites: GenerationRun.defaultSuites, check: false).perform()
                    if !outcome.diagnostics.isEmpty { StandardStreams.out(DiagnosticPrinter.text(outcome.diagnostics)) }
                    if let report = outcome.report { StandardStreams.out(GenerationRun.describe(report)) }
                } catch let error as ValidationError {
                    StandardStreams.out("error: \(error.message)\n")
                }
            }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    static func snapshot() -> [String: Date] {
        let manager = FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: "Spec")) ?? []
        var result: [String: Date] = [:]
        for name in names where SpecFiles.extensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()) {
            let path = "Spec/\(name)"
            let attributes = try? manager.attributesOfItem(atPath: path)
            result[path] = (attributes?[.modificationDate] as? Date) ?? .distantPast
        }
        return result
    }
}
