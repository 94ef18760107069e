import Foundation
import LifeSpecTestSupport
import Testing

/// The second round of hardening (issue #37): files a spec names (API catalogs, parts) stay in the
/// project and are never echoed when refused; catalogs get a spec's pre-checks; output folders
/// that are links, or reached through one, are refused before anything is written.
@Suite("Hardening: input paths, catalogs and linked output folders")
struct HardeningInputPathsCLITests {
    static let secret = "TOPSECRET-7f3a: do-not-print"

    static func lamp(catalog: String) -> String {
        """
        lifespec: 1
        id: lamp
        catalogs: [\(catalog)]
        states: {off: {}, on: {}}
        initial: off
        events: {switchOn: {}, switchOff: {}}
        callbacks:
          switchedOn: {swift: "switchedOn()"}
        transitions:
          - {from: off, on: switchOn, to: on, do: switchedOn}
          - {from: on, on: switchOff, to: off}
        """
    }

    static let catalog = "name: Lamps\nmodule: Foundation\ncallbacks:\n  - swift: \"switchedOn()\"\n"

    private func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test("a catalog outside the project, or reached through a link out of it, is LS006 and never printed")
    func catalogsStayInTheProject() throws {
        let project = try Scratch.folder("lifespec-project")
        let outside = try Scratch.folder("lifespec-outside")
        let secretFile = try write("\(Self.secret)\nroot:x:0:0::/root:/bin/sh\n", "passwd", in: outside)
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Spec"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: project.appendingPathComponent("Spec/linked.yaml").path, withDestinationPath: secretFile)
        let relative = "../../\(outside.lastPathComponent)/passwd"
        for (name, catalog, line) in [
            ("absolute", secretFile, 3), ("dotdot", relative, 3), ("link", "linked.yaml", 3),
            ("environ", "/proc/self/environ", 3), ("stdin", "/dev/stdin", 3),
        ] {
            let spec = try write(Self.lamp(catalog: catalog), "Spec/\(name).yaml", in: project)
            for command in [
                ["validate", spec], ["validate", "--format", "json", spec], ["generate", "--check", spec],
            ] {
                let result = try CLI.run(command, in: project, environment: ["LIFESPEC_TEST_TOKEN": Self.secret])
                let printed = result.stdout + result.stderr
                #expect(result.status == 1, "\(name) \(command): \(printed)")
                #expect(printed.contains("LS006"), "\(name) \(command): \(printed)")
                if command == ["validate", spec] {
                    #expect(printed.contains("\(name).yaml:\(line):"), "\(name): \(printed)")
                }
                #expect(!printed.contains("TOPSECRET") && !printed.contains("root:x"), "\(name): \(printed)")
            }
        }
        // Inside the project, in another folder than the spec's, a catalog reads (a catalog that is
        // a link is refused as not a regular file, as before).
        _ = try write(Self.catalog, "Catalogs/lamps.yaml", in: project)
        for catalog in ["../Catalogs/lamps.yaml", project.appendingPathComponent("Catalogs/lamps.yaml").path] {
            let spec = try write(Self.lamp(catalog: catalog), "Spec/inside.yaml", in: project)
            let result = try CLI.run(["validate", spec], in: project)
            #expect(result.status == 0, "\(catalog): \(result.stdout)\(result.stderr)")
        }
    }

    @Test("a part that is a link out of the project is LS006, its file never read")
    func partsStayInTheProject() throws {
        let project = try Scratch.folder("lifespec-project")
        let outside = try Scratch.folder("lifespec-outside")
        let secretFile = try write("\(Self.secret)\n", "part.yaml", in: outside)
        try FileManager.default.createSymbolicLink(
            atPath: project.appendingPathComponent("evil.yaml").path, withDestinationPath: secretFile)
        let system = try write("lifespec: 1\nid: lamps\nparts: {A: evil}\n", "lamps.yaml", in: project)
        let result = try CLI.run(["validate", system], in: project)
        let printed = result.stdout + result.stderr
        #expect(result.status == 1)
        #expect(printed.contains("lamps.yaml:3:") && printed.contains("[LS006]"), "\(printed)")
        #expect(!printed.contains("TOPSECRET"), "\(printed)")
    }

    @Test("a catalog gets a spec's pre-checks: an alias bomb in a key and deep nesting are LS003 at once")
    func catalogsArePreChecked() throws {
        let folder = try Scratch.folder("lifespec-catalog")
        var bomb = "a0: &a0 [x, x, x, x, x, x, x, x]\n"
        for level in 1...7 {
            let previous = (0..<8).map { _ in "*a\(level - 1)" }.joined(separator: ", ")
            bomb += "a\(level): &a\(level) [\(previous)]\n"
        }
        bomb += "? *a7\n: 1\n"
        _ = try write(bomb, "bomb.yaml", in: folder)
        _ = try write(String(repeating: "[", count: 5_000), "deep.yaml", in: folder)
        for catalog in ["bomb.yaml", "deep.yaml"] {
            let spec = try write(Self.lamp(catalog: catalog), "lamp.yaml", in: folder)
            let result = try CLI.run(["validate", spec], in: folder)
            #expect(result.status == 1)
            #expect(result.stdout.contains("\(catalog):") && result.stdout.contains("[LS003]"), "\(result.stdout)")
        }
    }

    @Test("control codes and bidirectional overrides a catalog holds are escaped in diagnostics")
    func catalogTextIsEscaped() throws {
        let folder = try Scratch.folder("lifespec-catalog")
        _ = try write(
            #"name: Lamps\#n"\e]0;owned\a\e[2J": 1\#n"x\u202Ey\x9B31m": 2\#ncallbacks: []\#n"#, "lamps.yaml",
            in: folder)
        let spec = try write(Self.lamp(catalog: "lamps.yaml"), "lamp.yaml", in: folder)
        for command in [["validate", spec], ["validate", "--format", "json", spec]] {
            let result = try CLI.run(command, in: folder)
            let printed = result.stdout + result.stderr
            #expect(result.status == 1)
            #expect(printed.contains("LS010"), "\(printed)")
            #expect(
                !printed.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x202E].contains($0.value) },
                "\(printed.debugDescription)")
        }
    }

    @Test("a catalog's module that is not a Swift module name is a located LS013, and recorder writes nothing")
    func catalogModuleIsASwiftName() throws {
        let folder = try Scratch.folder("lifespec-catalog")
        for module in ["\"Player Kit\"", "\"\"", "9Lives", "\"Kit;import Evil\""] {
            _ = try write(
                "name: Lamps\nmodule: \(module)\ncallbacks:\n  - swift: \"switchedOn()\"\n", "lamps.yaml", in: folder)
            let spec = try write(Self.lamp(catalog: "lamps.yaml"), "lamp.yaml", in: folder)
            let result = try CLI.run(["validate", spec], in: folder)
            #expect(result.status == 1)
            #expect(result.stdout.contains("lamps.yaml:2:9: error: [LS013] 'module'"), "\(module): \(result.stdout)")
            let recorder = folder.appendingPathComponent("Recorder.swift").path
            let written = try CLI.run(["recorder", spec, "-o", recorder], in: folder)
            #expect(written.status == 1)
            #expect(!FileManager.default.fileExists(atPath: recorder))
        }
    }

    /// A project with one spec and, outside it, a folder holding a file of a person's.
    private func projectAndOutside() throws -> (project: URL, outside: URL) {
        let project = try Scratch.folder("lifespec-project")
        let outside = try Scratch.folder("lifespec-outside")
        let door = try String(
            contentsOf: CLI.fixtures.appendingPathComponent("Valid/door.yaml"), encoding: .utf8)
        _ = try write(door, "Spec/door.yaml", in: project)
        _ = try write("a person's file\n", "README.md", in: outside)
        return (project, outside)
    }

    private func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
    }

    @Test(
        "an output folder that is a link, or is reached through one, is LS005 and nothing is written",
        arguments: [
            ["generate"], ["generate", "--check"], ["generate", "-o", "Site/Output"],
            ["generate", "--suites", "Suites"], ["generate", "--no-suites", "--docc", "Docs/Lamps.docc"],
        ])
    func linkedOutputFoldersAreRefused(_ command: [String]) throws {
        let (project, outside) = try projectAndOutside()
        // The link is the folder written, or a folder on the way to it.
        let link =
            switch command.dropFirst().first ?? "" {
            case "-o": "Site"
            case "--suites": "Suites"
            case "--no-suites": "Docs"
            default: "Output"
            }
        try FileManager.default.createSymbolicLink(
            atPath: project.appendingPathComponent(link).path, withDestinationPath: outside.path)
        let before = try contents(project)
        let result = try CLI.run(command, in: project)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("error: [LS005]") && result.stderr.contains("symbolic link"), "\(result.stderr)")
        #expect(try contents(outside) == ["README.md"])
        #expect(
            try String(contentsOf: outside.appendingPathComponent("README.md"), encoding: .utf8) == "a person's file\n")
        #expect(try contents(project) == before, "nothing is made in the project either")
    }

    @Test(
        "the default suites folder that is a link, or a folder on its way that is one, is LS005 and nothing is written (#37 break 4)",
        arguments: ["Tests/GeneratedConformanceTests/Generated", "Tests/GeneratedConformanceTests", "Tests"])
    func linkedDefaultSuitesFolderIsRefused(_ link: String) throws {
        let (project, outside) = try projectAndOutside()
        let url = project.appendingPathComponent(link)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: outside.path)
        let before = try contents(project)
        for command in [["generate"], ["generate", "-q", "--check"]] {
            let result = try CLI.run(command, in: project)
            #expect(result.status == 1, "\(link) \(command): \(result.stdout)\(result.stderr)")
            #expect(
                result.stderr.contains("error: [LS005]") && result.stderr.contains("symbolic link"),
                "\(link) \(command): \(result.stderr)")
        }
        #expect(try contents(outside) == ["README.md"])
        #expect(try contents(project) == before, "\(link): nothing is made in the project either")
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("Output").path))
    }
}
