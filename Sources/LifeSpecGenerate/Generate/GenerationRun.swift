import Foundation
import LifeSpec
import LifeSpecRender

/// One generate pass, shared by `generate` and `watch`: loads the specs, then brings the output
/// folders in line with them, each as one transaction.
package struct GenerationRun {
    package struct Outcome {
        package var diagnostics: [Diagnostic]
        /// `nil` when nothing was generated (spec errors or a render failure).
        package var report: SyncReport?
        /// Drawings whose bytes no longer match the content digest they record (edited by hand).
        package var edited: [String] = []
    }

    /// A pass that stopped after its specs loaded: an output folder could not be locked, read or
    /// written. Nothing was changed; the text is the one line to print.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static let defaultSuites = "Tests/GeneratedConformanceTests/Generated"

    package let specs: [String]
    package let output: String
    /// `nil`: no suites are written or checked.
    package let suites: String?
    package let check: Bool
    /// A DocC catalog of every spec to write too (`generate --docc`), or `nil`.
    package var docc: String?
    /// The tool's version, part of what a run is made from: with it, a run with nothing to do is
    /// proven so from a record (`NoOpRecord`) without loading a spec; `nil` never trusts a record.
    package var toolVersion: String?
    /// The specs an earlier pass of the same `watch` loaded: only changed files are loaded again,
    /// and only the specs whose inputs changed since the last committed pass are generated again
    /// (see `affected`); `nil` loads and generates everything.
    package var cache: SpecCache?

    package init(
        specs: [String], output: String, suites: String?, check: Bool, docc: String? = nil, toolVersion: String? = nil
    ) {
        self.specs = specs
        self.output = output
        self.suites = suites
        self.check = check
        self.docc = docc
        self.toolVersion = toolVersion
    }

    /// `waiting` is called with a folder's path when another run holds it and this one waits.
    /// Throws `SpecFiles.ResolveError` when there are no specs to work on, `Failure` when an
    /// output folder cannot be written.
    package func perform(waiting: @escaping @Sendable (String) -> Void = { _ in }) throws -> Outcome {
        OutputStage.cleanUpOnSignals()
        let paths = try SpecFiles.resolve(specs)
        var folders: [(path: String, scope: Set<String>?)] = [(output, nil)]
        if let suites { folders.append((suites, nil)) }
        if let docc { folders.append((docc, nil)) }
        // Before anything is read or written there, the no-op record included.
        for (folder, _) in folders {
            if let error = OutputStage.linkOnPath(to: folder) { throw Failure(description: "\(error)") }
        }
        // Nothing to do is proven from the inputs' bytes and the outputs' stat (see NoOpRecord),
        // without loading a spec (Benchmarks/RESULTS.md, "generate with nothing to do").
        let inputs = toolVersion.flatMap {
            GenerateInputs.digest(version: $0, specs: specs, paths: paths, output: output, suites: suites, docc: docc)
        }
        // A watch's first pass does the whole work: it is what later passes compare with.
        if let inputs, cache == nil || cache?.committed != nil,
            let kept = NoOpRecord.verify(inputs: inputs, folders: folders.map(\.path), in: output, refresh: !check)
        {
            var report = SyncReport()
            report.kept = kept
            return Outcome(diagnostics: [], report: report)
        }
        var loaded: [LoadedSpec] = []
        var diagnostics: [Diagnostic] = []
        cache?.beginPass()
        let load: (String) -> SpecLoadResult = { [cache] path in cache?.load(path: path) ?? SpecLoader.load(path: path)
        }
        for path in paths {
            let result = load(path)
            diagnostics += result.diagnostics.filter { $0.severity == .error }
            if let spec = result.spec { loaded.append(spec) }
        }
        diagnostics = diagnostics.removingRepeats()
        if !diagnostics.hasErrors {
            diagnostics += SpecFiles.relationDiagnostics(for: loaded, paths: paths, load: load)
        }
        // Not a diagnostic of its own (no code): the errors above are the problems.
        guard !diagnostics.hasErrors else { return Outcome(diagnostics: diagnostics, report: nil) }
        let others = specs.isEmpty ? loaded : loaded + SpecFiles.neighbours(of: loaded, paths: paths, load: load)
        // A watch pass generates only what changed since its last committed pass; the other
        // specs' files stay as they are, out of the folders' scope.
        let changed = affected(loaded: loaded, others: others)
        let generated = changed ?? loaded
        let scope: Set<String>? =
            changed.map { Set($0.map(\.document.id)).union(specs.isEmpty ? ["README.md"] : []) }
            ?? (specs.isEmpty ? nil : Set(loaded.map(\.document.id)))
        // Drawings are compared by what they were drawn from, not by their bytes (see DrawingFreshness).
        let freshness = DrawingFreshness(directory: URL(fileURLWithPath: output, isDirectory: true))
        // Suites are files of one folder: a partial run must keep the other specs' suites.
        let suiteNames = generated.map(SwiftSuiteRenderer.fileName(for:))
        var stages: [OutputStage] = []
        // The catalog's SVGs are the ones made for Output/, under their resource names.
        let doccResources = Locked(Set<String>())  // names collected from the generator's threads
        // Output/, then the suites and the DocC catalog when asked for.
        folders[0].scope = scope
        if suites != nil { folders[1].scope = specs.isEmpty && changed == nil ? nil : Set(suiteNames) }
        do {
            // Each folder is locked for the whole run (a second run waits), and what a killed run
            // left is finished or thrown away before anything is compared.
            for (folder, folderScope) in folders {
                stages.append(
                    try OutputStage(
                        writer: OutputWriter(directory: URL(fileURLWithPath: folder, isDirectory: true)), check: check,
                        scope: folderScope, partners: folders.map(\.path).filter { $0 != folder },
                        waiting: { waiting(folder) }))
            }
            // What the last recorded run left and nobody changed since is not read again to be
            // compared or verified (taken with the folders locked).
            for (stage, folder) in zip(stages, folders) { stage.trust(NoOpRecord.unchanged(folder.path, in: output)) }
            freshness.trust(NoOpRecord.unchanged(output, in: output))
            let outputStage = stages[0]
            let suiteStage = suites == nil ? nil : stages[1]
            let doccStage = docc == nil ? nil : stages[stages.count - 1]
            // The suites are made on another thread meanwhile: a core is idle while Graphviz lays
            // out the largest diagram, and a 500-state suite made afterwards would add tens of
            // milliseconds to the end of the run.
            let suiteTexts = Locked<[String]>([])
            let suitesWritten = DispatchGroup()
            defer { suitesWritten.wait() }
            if suiteStage != nil {
                DispatchQueue.global().async(group: suitesWritten) {
                    let texts = generated.map { SwiftSuiteRenderer.render(spec: $0) }
                    suiteTexts.withLock { $0 = texts }
                }
            }
            // Files are written to the run's staging folders as they are made and moved into
            // place only once everything was made, as one transaction per folder.
            do throws(Generator.StreamError) {
                try Generator.generate(generated, others: others, index: specs.isEmpty, freshness: freshness) { file in
                    try outputStage.offer(file)
                    if let doccStage, let name = DocCRenderer.resourceName(forOutputPath: file.path) {
                        try doccStage.offer(GeneratedFile(path: "Resources/" + name, contents: file.contents))
                        doccResources.withLock { _ = $0.insert(name) }
                    }
                }
            } catch {
                switch error {
                case .failure(let failure):
                    for stage in stages { stage.discard() }
                    return Outcome(diagnostics: failure.diagnostics, report: nil)
                case .sink(let error):
                    throw error
                }
            }
            if let suiteStage {
                suitesWritten.wait()
                for (text, name) in zip(suiteTexts.withLock { $0 }, suiteNames) {
                    try suiteStage.offer(GeneratedFile(path: name, text: text))
                }
            }
            if let doccStage, let docc {
                let resources = doccResources.withLock { $0 }
                let catalogued = Set(loaded.map(\.document.id))
                for spec in loaded {
                    let article = DocCRenderer.article(for: spec, resources: resources, catalogued: catalogued)
                    try doccStage.offer(
                        GeneratedFile(path: DocCRenderer.articleName(specID: spec.document.id), text: article))
                }
                let name = URL(fileURLWithPath: docc).deletingPathExtension().lastPathComponent
                try doccStage.offer(
                    GeneratedFile(path: "\(name).md", text: DocCRenderer.root(title: name, specs: loaded)))
            }
            // A run that printed nothing but its report is one a later run may repeat by the record.
            // (Not a watch's partial pass: its record would name only the files it generated.)
            let recordable = !check && diagnostics.isEmpty && freshness.edited.isEmpty && changed == nil
            let reports = try OutputStage.commit(stages) { reports in
                guard recordable, let inputs else { return }
                NoOpRecord.record(
                    inputs: inputs,
                    folders: zip(folders, reports).map { NoOpRecord.Folder(path: $0.0.path, report: $0.1) }, in: output)
            }
            remember(others: others, folders: folders.map(\.path))
            var report = reports[0].prefixed(with: output)
            for (folder, folderReport) in zip(folders.dropFirst(), reports.dropFirst()) {
                report.merge(folderReport.prefixed(with: folder.path))
            }
            let prefix = output.hasSuffix("/") ? output : output + "/"
            return Outcome(diagnostics: diagnostics, report: report, edited: freshness.edited.map { prefix + $0 })
        } catch {
            for stage in stages { stage.discard() }
            // An OutputError already reads "path: error: message".
            throw Failure(description: error is OutputError ? "\(error)" : "error: \(error)")
        }
    }

    /// The specs a watch pass must generate again, when the last committed pass of its cache
    /// makes the rest provably unchanged: each spec whose file or part files changed (a system
    /// whose part changed among them). `nil`, for the whole work, when there is no such pass, a
    /// spec came or went, another run changed an output folder since, or a changed spec changed
    /// what other specs' pages show of it (its id, title, locales, parts or related specs).
    private func affected(loaded: [LoadedSpec], others: [LoadedSpec]) -> [LoadedSpec]? {
        guard let cache, let committed = cache.committed, docc == nil, !check else { return nil }
        guard Set(others.map(\.path)) == Set(committed.inputs.keys) else { return nil }
        for folder in [output] + (suites.map { [$0] } ?? []) {
            guard SpecCache.ManifestStamp(Self.manifestPath(folder)) == committed.manifests[folder] else { return nil }
        }
        var changed: Set<String> = []
        for spec in others {
            guard let inputs = cache.inputs(of: spec.path) else { return nil }
            guard inputs != committed.inputs[spec.path] else { continue }
            guard SpecCache.LinkFace(spec.document) == committed.faces[spec.path] else { return nil }
            changed.insert(spec.path)
        }
        return loaded.filter { changed.contains($0.path) }
    }

    /// After a commit: what the folders now hold was generated from these inputs.
    private func remember(others: [LoadedSpec], folders: [String]) {
        guard let cache, docc == nil, !check else { return }
        var inputs: [String: [Data?]] = [:]
        var faces: [String: SpecCache.LinkFace] = [:]
        for spec in others {
            guard let specInputs = cache.inputs(of: spec.path) else {
                cache.committed = nil
                return
            }
            inputs[spec.path] = specInputs
            faces[spec.path] = SpecCache.LinkFace(spec.document)
        }
        var manifests: [String: SpecCache.ManifestStamp] = [:]
        for folder in folders { manifests[folder] = SpecCache.ManifestStamp(Self.manifestPath(folder)) }
        cache.committed = SpecCache.Committed(inputs: inputs, faces: faces, manifests: manifests)
    }

    private static func manifestPath(_ folder: String) -> String {
        (folder.hasSuffix("/") ? folder : folder + "/") + OutputWriter.manifestName
    }

    /// The lines `generate` prints after a run: each file created, updated or removed, then the counts.
    package static func describe(_ report: SyncReport) -> String {
        var lines: [String] = []
        lines += report.created.map { "created  \($0)" }
        lines += report.written.map { "updated  \($0)" }
        lines += report.removed.map { "removed  \($0)" }
        lines += report.leftAlone.map {
            "kept     \($0) (no spec makes it any more, but it was changed since lifespec wrote it)"
        }
        lines.append(
            "\(report.created.count) created, \(report.written.count) updated, \(report.kept.count) unchanged, \(report.removed.count) removed"
        )
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SyncReport {
    /// The same report with every path shown under `folder`.
    func prefixed(with folder: String) -> SyncReport {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var copy = SyncReport()
        copy.written = written.map { prefix + $0 }
        copy.created = created.map { prefix + $0 }
        copy.kept = kept.map { prefix + $0 }
        copy.removed = removed.map { prefix + $0 }
        copy.leftAlone = leftAlone.map { prefix + $0 }
        return copy
    }

    mutating func merge(_ other: SyncReport) {
        written += other.written
        created += other.created
        kept += other.kept
        removed += other.removed
        leftAlone += other.leftAlone
    }
}
