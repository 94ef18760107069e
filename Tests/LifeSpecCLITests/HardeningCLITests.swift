import Foundation
import LifeSpecTestSupport
import Testing

/// Inputs and outputs that are not what they seem (issue #18): special files as specs or as the
/// target of `-o`, names `generate` could not write, hostile bytes in a trace.
@Suite("Special files, output names and hostile traces")
struct HardeningCLITests {
    private func scratch() throws -> URL {
        let folder = try Scratch.folder("lifespec-hard")
        return folder
    }

    private var door: String {
        get throws { try String(contentsOf: CLI.fixtures.appendingPathComponent("Valid/door.yaml"), encoding: .utf8) }
    }

    @Test("a FIFO, a device or a folder as the spec is LS001 at once, for every command that reads one")
    func specThatIsNotAFile() throws {
        let folder = try scratch()
        let fifo = folder.appendingPathComponent("spec.yaml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "FIFO"), ("/dev/zero", "device"), (folder.path, "directory")] {
            for command in [
                ["validate", path], ["docs", path], ["diagram", path, "--format", "dot"], ["tests", path],
            ] {
                let result = try CLI.run(command)
                #expect(result.status == 1, "\(command)")
                let printed = result.stdout + result.stderr
                #expect(
                    printed.contains("\(path):1:1: error: [LS001]") && printed.contains(kind), "\(command): \(printed)")
            }
        }
    }

    @Test("-o replaces a regular file, and refuses a link, a device, a FIFO or a folder, leaving it as it was")
    func outputOnlyReplacesRegularFiles() throws {
        let folder = try scratch()
        let spec = folder.appendingPathComponent("door.yaml")
        try door.write(to: spec, atomically: true, encoding: .utf8)
        let regular = folder.appendingPathComponent("page.md")
        try "old".write(to: regular, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["docs", spec.path, "-o", regular.path]).status == 0)
        #expect(try String(contentsOf: regular, encoding: .utf8).hasPrefix("<!--"))

        let target = folder.appendingPathComponent("target.md")
        try "mine".write(to: target, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("link.md")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let fifo = folder.appendingPathComponent("fifo.md").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, reason) in [(link.path, "symbolic link"), (fifo, "not a regular file"), (folder.path, "folder")] {
            let result = try CLI.run(["docs", spec.path, "-o", path])
            #expect(result.status == 1, "\(path)")
            #expect(
                result.stderr.contains("\(path): error: [LS005] cannot write the file:")
                    && result.stderr.contains(reason), "\(path): \(result.stderr)")
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "mine")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("lifespec-tmp") }
                .isEmpty)
    }

    @Test(
        "validate refuses, with a location, names generate could not write: two specs claiming one suite file, a scenario id too long for a file name"
    )
    func outputNamesAreCheckedAtValidate() throws {
        let folder = try scratch()
        let spec = try door
        try spec.replacingOccurrences(of: "id: door", with: "id: a-b").write(
            to: folder.appendingPathComponent("one.yaml"), atomically: true, encoding: .utf8)
        try spec.replacingOccurrences(of: "id: door", with: "id: a--b").write(
            to: folder.appendingPathComponent("two.yaml"), atomically: true, encoding: .utf8)
        let long = String(repeating: "x", count: 252)
        try spec.replacingOccurrences(of: "id: door", with: "id: c1").replacingOccurrences(of: "pushOpen", with: long)
            .write(to: folder.appendingPathComponent("three.yaml"), atomically: true, encoding: .utf8)
        let run = try CLI.run(["validate", "one.yaml", "two.yaml", "three.yaml"], in: folder)
        #expect(run.status == 1)
        let result = (stderr: run.stdout + run.stderr, Void())
        let idLine =
            spec.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("id:") }! + 1
        #expect(
            result.stderr.contains(
                "two.yaml:\(idLine):5: error: [LS020] spec id 'a--b' gives the same conformance suite file, ABConformanceTests.swift, as 'a-b'"
            ), "\(result.stderr)")
        #expect(
            result.stderr.contains("three.yaml:") && result.stderr.contains("[LS003] scenario 'xxxx"),
            "\(result.stderr)")
        // generate says the same and writes nothing.
        let generate = try CLI.run(["generate", "one.yaml", "two.yaml", "three.yaml"], in: folder)
        #expect(generate.status == 1 && generate.stderr.contains("[LS020]"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Output").path))
    }

    @Test(
        "check-trace prints log bytes escaped, reads a CR-only log line by line, and refuses an endless or folder trace"
    )
    func hostileTraces() throws {
        let folder = try scratch()
        let escape = folder.appendingPathComponent("escape.log")
        try Data("\u{1B}]0;pwned\u{7}\u{1B}[2J\u{202E}evil\u{0}\n".utf8).write(to: escape)
        let result = try CLI.run(["check-trace", "Spec/ios-app-lifecycle.yaml", escape.path])
        #expect(result.status == 1)
        #expect(
            !result.stderr.unicodeScalars.contains {
                $0 == "\u{1B}" || $0 == "\u{0}" || $0 == "\u{202E}" || $0 == "\u{7}"
            }, "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains("\\u{1B}]0;pwned\\u{7}"))

        // Two lines separated by CR only: the second one is checked (and does not conform).
        let crOnly = folder.appendingPathComponent("cr.log")
        try Data("application(_:willFinishLaunchingWithOptions:)\rapplicationWillTerminate(_:)\r".utf8).write(
            to: crOnly)
        let cr = try CLI.run(["check-trace", "Spec/ios-app-lifecycle.yaml", crOnly.path])
        #expect(cr.status == 1 && cr.stderr.contains("cr.log:2:1:"), "\(cr.stderr)")

        for path in ["/dev/zero", folder.path] {
            let special = try CLI.run(["check-trace", "Spec/ios-app-lifecycle.yaml", path])
            #expect(
                special.status == 1 && special.stderr.contains("[LS001]") && !special.stdout.contains("conforms"),
                "\(path)")
        }
    }
}
