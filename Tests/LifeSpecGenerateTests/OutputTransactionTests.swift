import Foundation
import LifeSpec
import LifeSpecRender
import LifeSpecTestSupport
import Testing

@testable import LifeSpecGenerate

/// `Output/` as a transaction: links in the output tree are refused, the manifest cannot make a
/// run delete what it did not write, a commit cut short at any step is finished or undone by the
/// next stage, and a step that fails undoes the others.
@Suite("Output transaction (locks, links, manifest, journal)")
struct OutputTransactionTests {
    private func scratch() throws -> URL {
        let directory = try Scratch.folder("lifespec-tx")
        return directory
    }

    /// Every entry under `directory` (hidden ones, folders and links included) with its bytes.
    private func snapshot(_ directory: URL) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory.path))
        for case let path as String in enumerator {
            let full = directory.appendingPathComponent(path).path
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: full) {
                files[path] = Array("link → \(target)".utf8)
                continue
            }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
            files[path] = isFolder.boolValue ? [] : [UInt8](try Data(contentsOf: URL(fileURLWithPath: full)))
        }
        return files
    }

    /// Writes `version` of a small output: some files change, one is new, one goes.
    private func generation(_ version: Int) -> [GeneratedFile] {
        var files = [
            GeneratedFile(path: "README.md", text: "index v\(version)\n"),
            GeneratedFile(path: "spec/diagram.svg", text: "<svg>\(version)</svg>\n"),
            GeneratedFile(path: "spec/README.md", text: "same in every version\n"),
        ]
        files.append(
            GeneratedFile(
                path: version == 1 ? "spec/scenarios/one.svg" : "other/scenarios/two.svg", text: "v\(version)\n"))
        return files
    }

    private func commit(_ files: [GeneratedFile], to directory: URL) throws -> SyncReport {
        let stage = try OutputStage(writer: OutputWriter(directory: directory), check: false)
        do {
            for file in files { try stage.offer(file) }
            return try stage.commit()
        } catch {
            stage.discard()
            throw error
        }
    }

    @Test("a folder in the output tree that is a link is refused, and nothing is written through it")
    func linkedFolderIsRefused() throws {
        let directory = try scratch()
        let outside = try scratch()
        _ = try commit(generation(1), to: directory)
        let before = try snapshot(directory)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("spec"))
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("spec"), withDestinationURL: outside)
        try Data("a person's file\n".utf8).write(to: outside.appendingPathComponent("diagram.svg"))
        #expect {
            _ = try commit(generation(2), to: directory)
        } throws: { error in
            (error as? OutputError).map { $0.path.hasSuffix("/spec") && $0.message.contains("symbolic link") } ?? false
        }
        #expect(try snapshot(outside) == ["diagram.svg": Array("a person's file\n".utf8)])
        #expect(try snapshot(directory)["README.md"] == before["README.md"], "a refused run changes nothing")
        #expect(!(try snapshot(directory)).keys.contains { $0.hasPrefix(".lifespec-staging") })
    }

    @Test("a file in the output tree that is a link is refused, for a file kept, replaced or new")
    func linkedFileIsRefused() throws {
        for name in ["README.md", "spec/diagram.svg", "spec/README.md"] {
            let directory = try scratch()
            let outside = try scratch()
            _ = try commit(generation(1), to: directory)
            let target = outside.appendingPathComponent("target.txt")
            try Data("outside\n".utf8).write(to: target)
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            try FileManager.default.createSymbolicLink(
                at: directory.appendingPathComponent(name), withDestinationURL: target)
            #expect(throws: OutputError.self, "\(name)") { _ = try commit(generation(2), to: directory) }
            #expect(try String(contentsOf: target, encoding: .utf8) == "outside\n")
        }
    }

    @Test("the manifest cannot make a run delete a file it did not write, or anything through a link")
    func manifestCannotDeleteOtherFiles() throws {
        let directory = try scratch()
        let outside = try scratch()
        _ = try commit(generation(1), to: directory)
        try Data("notes\n".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        try Data("secret\n".utf8).write(to: outside.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("away"), withDestinationURL: outside)
        // A person edits the manifest: their own file (with and without a made-up digest), a path
        // through the link, a path outside, and a generated file they then edited.
        let manifestURL = directory.appendingPathComponent(OutputWriter.manifestName)
        var text = try String(contentsOf: manifestURL, encoding: .utf8)
        text += "notes.txt\n0123456789abcdef  notes.txt\naway/secret.txt\n../\(outside.lastPathComponent)/secret.txt\n"
        try text.write(to: manifestURL, atomically: true, encoding: .utf8)
        try Data("edited by hand\n".utf8).write(to: directory.appendingPathComponent("spec/scenarios/one.svg"))
        let report = try commit(generation(2), to: directory)
        #expect(report.removed.isEmpty)
        #expect(report.leftAlone.contains("spec/scenarios/one.svg") && report.leftAlone.contains("notes.txt"))
        let after = try snapshot(directory)
        #expect(after["notes.txt"] == Array("notes\n".utf8))
        #expect(after["spec/scenarios/one.svg"] == Array("edited by hand\n".utf8))
        #expect(try snapshot(outside) == ["secret.txt": Array("secret\n".utf8)])
        // Files it no longer owns leave the manifest.
        let manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        #expect(!manifest.contains("notes.txt") && !manifest.contains("secret") && !manifest.contains("one.svg"))
    }

    @Test("a commit cut short after any step is finished by the next stage: the output is whole-new")
    func killedCommitIsFinishedByTheNextRun() throws {
        let reference = try scratch()
        _ = try commit(generation(1), to: reference)
        _ = try commit(generation(2), to: reference)
        let new = try snapshot(reference)
        var stepCount = 0
        var cut = 0
        repeat {
            let directory = try scratch()
            _ = try commit(generation(1), to: directory)
            let stage = try OutputStage(writer: OutputWriter(directory: directory), check: false)
            for file in generation(2) { try stage.offer(file) }
            let (steps, _) = try stage.prepare()
            stepCount = steps.count
            try Journal.carryOut(Array(steps.prefix(cut)), in: stage.tree, staging: try #require(stage.staging))
            stage.abandon()
            // The next stage (a `--check` too) finishes the commit before it compares anything.
            let next = try OutputStage(writer: OutputWriter(directory: directory), check: true)
            for file in generation(2) { try next.offer(file) }
            let report = try next.commit()
            #expect(!report.changed, "after a cut at step \(cut) of \(stepCount)")
            #expect(try snapshot(directory) == new, "after a cut at step \(cut) of \(stepCount)")
            cut += 1
        } while cut <= stepCount
        #expect(stepCount >= 5, "makes folders, replaces, creates, removes and writes the manifest")
    }

    /// Where a two-folder commit is cut short, as a kill would leave it.
    private enum Cut: CustomStringConvertible {
        /// Before any journal, or with the secondary's journal written and not the primary's.
        case beforeJournals(secondaryWritten: Bool)
        /// Both journals written, then this many steps carried out (the primary's first).
        case afterSteps(Int)
        /// Every step carried out and the secondary's staging folder removed.
        case afterSecondaryRemoved
        /// A step failed: the primary is marked aborted and this many of its steps are undone.
        case aborted(undone: Int)

        var description: String {
            switch self {
            case .beforeJournals(let written): "before the journals (secondary's written: \(written))"
            case .afterSteps(let count): "after \(count) steps"
            case .afterSecondaryRemoved: "after the secondary's staging folder was removed"
            case .aborted(let undone): "aborted, \(undone) steps undone"
            }
        }
    }

    @Test(
        "a commit of two folders cut short anywhere, between the journals too, ends whole-old or whole-new in both folders alike, whichever folder the next run recovers first"
    )
    func twoFolderCommitIsOneTransaction() throws {
        func committed(_ version: Int) throws -> (URL, URL) {
            let (primary, secondary) = (try scratch(), try scratch())
            for number in 1...version {
                let stages = try [primary, secondary].map {
                    try OutputStage(writer: OutputWriter(directory: $0), check: false)
                }
                for stage in stages { for file in generation(number) { try stage.offer(file) } }
                _ = try OutputStage.commit(stages)
            }
            return (primary, secondary)
        }
        let (newPrimary, newSecondary) = try committed(2)
        let new = [try snapshot(newPrimary), try snapshot(newSecondary)]
        let (oldPrimary, oldSecondary) = try committed(1)
        let old = [try snapshot(oldPrimary), try snapshot(oldSecondary)]
        var cuts: [Cut] = [.beforeJournals(secondaryWritten: false), .beforeJournals(secondaryWritten: true)]
        cuts += (0...16).map(Cut.afterSteps) + [.afterSecondaryRemoved] + (0...4).map { Cut.aborted(undone: $0) }
        var stepCounts: [Int] = []
        for cut in cuts {
            for secondaryRecoversFirst in [false, true] {
                let directories = try committed(1)
                let stages = try [directories.0, directories.1].map {
                    try OutputStage(writer: OutputWriter(directory: $0), check: false)
                }
                for stage in stages { for file in generation(2) { try stage.offer(file) } }
                let (primarySteps, _) = try stages[0].plan()
                let (secondarySteps, _) = try stages[1].plan()
                stepCounts = [primarySteps.count, secondarySteps.count]
                let (primary, secondary) = (try #require(stages[0].staging), try #require(stages[1].staging))
                switch cut {
                case .beforeJournals(let written):
                    if written {
                        try Journal.write(JournalRecord(steps: secondarySteps, primary: primary), staging: secondary)
                    }
                case .afterSteps(let count):
                    try OutputStage.writeJournals([(stages[0], primarySteps), (stages[1], secondarySteps)])
                    try Journal.carryOut(Array(primarySteps.prefix(count)), in: stages[0].tree, staging: primary)
                    try Journal.carryOut(
                        Array(secondarySteps.prefix(max(0, count - primarySteps.count))), in: stages[1].tree,
                        staging: secondary)
                case .afterSecondaryRemoved:
                    try OutputStage.writeJournals([(stages[0], primarySteps), (stages[1], secondarySteps)])
                    try Journal.carryOut(primarySteps, in: stages[0].tree, staging: primary)
                    try Journal.carryOut(secondarySteps, in: stages[1].tree, staging: secondary)
                    FileTree.removeFlatFolder(secondary)
                case .aborted(let undone):
                    try OutputStage.writeJournals([(stages[0], primarySteps), (stages[1], secondarySteps)])
                    try Journal.carryOut(primarySteps, in: stages[0].tree, staging: primary)
                    try Journal.carryOut(
                        Array(secondarySteps.prefix(secondarySteps.count / 2)), in: stages[1].tree, staging: secondary)
                    Journal.markAborted(staging: primary)
                    Journal.undo(Array(primarySteps.suffix(undone)), in: stages[0].tree, staging: primary)
                }
                for stage in stages { stage.abandon() }
                // The next run: each folder is locked and recovered in turn.
                let order = secondaryRecoversFirst ? [directories.1, directories.0] : [directories.0, directories.1]
                for directory in order {
                    let partner = directory == directories.0 ? directories.1 : directories.0
                    try OutputStage(writer: OutputWriter(directory: directory), check: true, partners: [partner.path])
                        .discard()
                }
                let after = [try snapshot(directories.0), try snapshot(directories.1)]
                let context = "\(cut), \(secondaryRecoversFirst ? "secondary" : "primary") recovered first"
                switch cut {
                case .beforeJournals, .aborted: #expect(after == old, "\(context): both folders whole-old")
                case .afterSteps, .afterSecondaryRemoved: #expect(after == new, "\(context): both folders whole-new")
                }
            }
        }
        #expect(stepCounts.allSatisfy { $0 >= 5 } && stepCounts.reduce(0, +) <= 16, "the cuts cover \(stepCounts)")
    }

    @Test(
        "a killed commit is settled only in the run's own folders: a journal naming a staging folder elsewhere touches nothing there"
    )
    func recoveryStaysInTheRunsFolders() throws {
        let (output, elsewhere) = (try scratch(), try scratch())
        _ = try commit(generation(1), to: output)
        try Data("mine\n".utf8).write(to: elsewhere.appendingPathComponent("notes.txt"))
        let before = try snapshot(elsewhere)
        // A staging folder planted elsewhere whose journal would move notes.txt out (and so delete
        // it), and one in Output/ whose journal names it as a secondary.
        let planted = elsewhere.appendingPathComponent(".lifespec-staging-1-planted").path
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: false)
        try Journal.write(JournalRecord(steps: [.remove(0, "notes.txt")], primary: "unused"), staging: planted)
        let primary = output.appendingPathComponent(".lifespec-staging-2-planted").path
        try FileManager.default.createDirectory(atPath: primary, withIntermediateDirectories: false)
        try Journal.write(JournalRecord(steps: [], secondaries: [planted]), staging: primary)
        try OutputStage(writer: OutputWriter(directory: output), check: true).discard()
        #expect(!FileManager.default.fileExists(atPath: primary), "the primary's staging folder is settled")
        var expected = before
        for (path, bytes) in try snapshot(elsewhere) where path.hasPrefix(".lifespec-staging-") {
            expected[path] = bytes
        }
        #expect(try snapshot(elsewhere) == expected, "notes.txt is still there")
        #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("notes.txt").path))
    }

    @Test("a folder path in a journal survives tabs, line breaks, % and non-ASCII letters")
    func journalPathsRoundTrip() throws {
        let staging = try scratch().path
        let odd = "/tmp/a\tb\nc%41 ü/.lifespec-staging-1-x"
        try Journal.write(JournalRecord(steps: [.makeFolder("spec")], primary: odd), staging: staging)
        #expect(Journal.read(staging: staging) == JournalRecord(steps: [.makeFolder("spec")], primary: odd))
        #expect(Journal.unescaped(Journal.escaped(odd)) == odd && !Journal.escaped(odd).contains("\n"))
    }

    @Test("a run killed before its journal is thrown away by the next stage: the output is whole-old")
    func runKilledBeforeTheJournalIsThrownAway() throws {
        let directory = try scratch()
        _ = try commit(generation(1), to: directory)
        let old = try snapshot(directory)
        let stage = try OutputStage(writer: OutputWriter(directory: directory), check: false)
        for file in generation(2) { try stage.offer(file) }
        stage.abandon()
        #expect(try snapshot(directory) != old, "the staging folder is there")
        let next = try OutputStage(writer: OutputWriter(directory: directory), check: true)
        next.discard()
        #expect(try snapshot(directory) == old)
    }

    @Test(
        "a step that fails mid-commit undoes the others (a run that fails changes nothing), and so does an undo cut short"
    )
    func failedStepUndoesEverything() throws {
        for cutUndo in [false, true] {
            let directory = try scratch()
            _ = try commit(generation(1), to: directory)
            let old = try snapshot(directory)
            let stage = try OutputStage(writer: OutputWriter(directory: directory), check: false)
            for file in generation(2) { try stage.offer(file) }
            let (steps, _) = try stage.prepare()
            // After the journal is written, a folder appears where the last file of the output goes.
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("spec/diagram.svg.tmp"), withIntermediateDirectories: true)
            try FileManager.default.removeItem(at: directory.appendingPathComponent("spec/diagram.svg"))
            try FileManager.default.moveItem(
                at: directory.appendingPathComponent("spec/diagram.svg.tmp"),
                to: directory.appendingPathComponent("spec/diagram.svg"))
            let staging = try #require(stage.staging)
            #expect(throws: OutputError.self) { try Journal.carryOut(steps, in: stage.tree, staging: staging) }
            if cutUndo {
                // Killed during the undo: the next stage undoes the rest.
                Journal.undo(Array(steps.suffix(2)), in: stage.tree, staging: staging)
                stage.abandon()
                _ = try OutputStage(writer: OutputWriter(directory: directory), check: true).commit()
            } else {
                Journal.undo(steps, in: stage.tree, staging: staging)
                stage.discard()
            }
            var expected = old
            expected["spec/diagram.svg"] = []
            #expect(try snapshot(directory) == expected, cutUndo ? "undo finished by the next run" : "undone")
        }
    }

    @Test("a commit whose step fails reports the reason, names the file and leaves everything as it was")
    func failedCommitIsAClearError() throws {
        let directory = try scratch()
        _ = try commit(generation(1), to: directory)
        let stage = try OutputStage(writer: OutputWriter(directory: directory), check: false)
        for file in generation(2) { try stage.offer(file) }
        // Between the offers and the commit, a folder takes the place of a file being replaced.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("README.md"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("README.md"), withIntermediateDirectories: false)
        let old = try snapshot(directory).filter { !$0.key.hasPrefix(".lifespec-staging") }
        #expect {
            _ = try stage.commit()
        } throws: { error in
            (error as? OutputError).map { $0.path.hasSuffix("/README.md") && $0.message.contains("folder") } ?? false
        }
        #expect(try snapshot(directory) == old)
    }

    @Test("two stages on one directory take turns: the second waits for the first and sees its result")
    func secondStageWaits() throws {
        let directory = try scratch()
        _ = try commit(generation(1), to: directory)
        let first = try OutputStage(writer: OutputWriter(directory: directory), check: false)
        for file in generation(2) { try first.offer(file) }
        let waiting = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let secondReport = Locked<SyncReport?>(nil)
        Thread.detachNewThread {
            let second = try? OutputStage(
                writer: OutputWriter(directory: directory), check: true, waiting: { waiting.signal() })
            for file in self.generation(2) { try? second?.offer(file) }
            secondReport.withLock { $0 = try? second?.commit() }
            done.signal()
        }
        // The second stage says it waits when it finds the lock taken, before it blocks on it.
        try #require(
            waiting.wait(timeout: .now() + 60) == .success, "the second stage never found the directory locked")
        #expect(secondReport.withLock { $0 } == nil, "the second stage is still waiting")
        _ = try first.commit()
        try #require(
            done.wait(timeout: .now() + 60) == .success, "the second stage did not finish after the first committed")
        #expect(
            secondReport.withLock { $0 }.map { !$0.changed } == true, "the second run sees the first one's output whole"
        )
    }
}
