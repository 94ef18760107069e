import Foundation
import LifeSpecTestSupport
import Testing

/// `lifespec diagram SPEC --sequence SCENARIO`, as a user runs it.
@Suite("diagram --sequence")
struct SequenceCommandTests {
    @Test("every format is written, each what its name says", arguments: ["svg", "png", "pdf", "dot", "mmd"])
    func formats(_ format: String) throws {
        let folder = try Scratch.folder("lifespec-sequence")
        let file = folder.appendingPathComponent("push.\(format)")
        let result = try CLI.run([
            "diagram", "Spec/uikit-navigation-stack.yaml", "--sequence", "pushUnloaded", "--locale", "zh-Hans", "-o",
            file.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: file)
        let head = String(decoding: bytes.prefix(64), as: UTF8.self)
        switch format {
        case "svg":
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("<svg") && text.contains("把视图尚未加载的 B 推入到 A 之上"))
            #expect(text.contains("viewWillDisappear(_:)") && !text.contains("A.viewWillDisappear"))
        case "png": #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        case "pdf": #expect(head.hasPrefix("%PDF-"))
        case "dot": #expect(head.hasPrefix("digraph") && String(decoding: bytes, as: UTF8.self).contains("pos="))
        default: #expect(String(decoding: bytes, as: UTF8.self).contains("sequenceDiagram\n"))
        }
    }

    @Test("an unknown scenario is a located error naming the scenarios; nothing is written")
    func unknownScenario() throws {
        let folder = try Scratch.folder("lifespec-sequence")
        let file = folder.appendingPathComponent("x.svg")
        let result = try CLI.run([
            "diagram", "Spec/ios-app-lifecycle.yaml", "--sequence", "lockAndUnlok", "-o", file.path,
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("Spec/ios-app-lifecycle.yaml: error:") && result.stderr.contains("lockAndUnlock"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("--sequence does not combine with the state diagram's options")
    func refusesStateDiagramOptions() throws {
        let result = try CLI.run([
            "diagram", "Spec/ios-app-lifecycle.yaml", "--sequence", "lockAndUnlock", "--scenario", "lockAndUnlock",
        ])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--sequence") && result.stderr.contains("--scenario"))
    }
}
