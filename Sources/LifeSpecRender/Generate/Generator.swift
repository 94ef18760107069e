import LifeSpec

/// Everything `lifespec generate` produces, computed in memory before anything is written, so a
/// failure anywhere leaves `Output/` as it was.
public enum Generator {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let diagnostics: [Diagnostic]
        public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    }

    /// The suites, one file per spec, relative to the suites directory (the test target that
    /// compiles them), kept apart from `Output/` so each exists once.
    public static func suites(for specs: [LoadedSpec]) -> [GeneratedFile] {
        specs.map { GeneratedFile(path: SwiftSuiteRenderer.fileName(for: $0), text: SwiftSuiteRenderer.render(spec: $0)) }
    }

    /// The files for every spec, plus the index. Paths are relative to the output directory.
    public static func files(for specs: [LoadedSpec]) throws(Failure) -> [GeneratedFile] {
        var files: [GeneratedFile] = []
        var diagnostics: [Diagnostic] = []
        var ids: [String: String] = [:]
        for spec in specs {
            if let other = ids.updateValue(spec.path, forKey: spec.document.id) {
                diagnostics.append(.error(.duplicateID, "spec id '\(spec.document.id)' is also used by \(other); each spec needs its own Output/<id>/",
                                          at: SourceLocation(path: spec.path, line: 1, column: 1)))
                continue
            }
            do {
                files += try self.files(for: spec, others: specs)
            } catch {
                diagnostics += error.diagnostics
            }
        }
        guard diagnostics.isEmpty else { throw Failure(diagnostics: diagnostics) }
        files.append(GeneratedFile(path: "README.md", text: MarkdownIndexRenderer.render(specs.sorted { $0.document.id < $1.document.id })))
        return files
    }

    /// One spec's files under `<id>/`.
    public static func files(for spec: LoadedSpec, others: [LoadedSpec] = []) throws(Failure) -> [GeneratedFile] {
        let folder = spec.document.id
        let location = SourceLocation(path: spec.path, line: 1, column: 1)
        func failure(_ message: String) -> Failure {
            Failure(diagnostics: [.error(.renderFailed, message, at: location)])
        }
        var files: [GeneratedFile] = []

        // Diagrams.
        let options = DiagramOptions()
        let mermaid = MermaidRenderer.render(spec, options: options)
        files.append(GeneratedFile(path: "\(folder)/diagram.mmd", text: mermaid))
        var markdown = MarkdownOptions(specPath: spec.path, mermaid: mermaid)
        do {
            if DiagramBuilder.plan(for: spec, options: options).isRefused {
                // Too large for Graphviz to draw whole: one diagram per top-level group instead, and
                // the page leaves the whole-machine image out (the Mermaid text is still there).
                markdown.diagramPath = nil
                markdown.scenarioDiagramPattern = nil
                for group in spec.machine.topLevelStates where group.isCompound {
                    var groupOptions = options
                    groupOptions.group = group.id
                    let groupDiagram = try DiagramBuilder.build(for: spec, options: groupOptions)
                    files.append(GeneratedFile(path: "\(folder)/groups/\(group.id).dot", text: groupDiagram.dot))
                    let svg = try GraphvizRenderer.shared.render(dot: groupDiagram.dot, format: .svg)
                    files.append(GeneratedFile(path: "\(folder)/groups/\(group.id).svg", contents: svg))
                }
            } else {
                let dot = try DiagramBuilder.build(for: spec, options: options).dot
                files.append(GeneratedFile(path: "\(folder)/diagram.dot", text: dot))
                files.append(GeneratedFile(path: "\(folder)/diagram.svg", contents: try GraphvizRenderer.shared.render(dot: dot, format: .svg)))
                files.append(GeneratedFile(path: "\(folder)/diagram.png", contents: try GraphvizRenderer.shared.render(dot: dot, format: .png)))
                for scenario in spec.document.scenarios {
                    var scenarioOptions = options
                    scenarioOptions.scenario = scenario.id
                    let scenarioDiagram = try DiagramBuilder.build(for: spec, options: scenarioOptions)
                    let svg = try GraphvizRenderer.shared.render(dot: scenarioDiagram.dot, format: .svg)
                    files.append(GeneratedFile(path: "\(folder)/scenarios/\(scenario.id).svg", contents: svg))
                }
            }
        } catch let error as DiagramError {
            throw failure("cannot draw the diagram: \(error)")
        } catch {
            throw failure("cannot render the diagram: \(error)")
        }

        // Reference pages, one per locale.
        for page in MarkdownRenderer.pages(for: spec, options: markdown, others: others) {
            files.append(GeneratedFile(path: "\(folder)/\(page.fileName)", text: page.text))
        }
        return files
    }
}
