import Foundation
import LifeSpecTestSupport
import Testing

/// docs/spec-format.md calls itself the complete format reference; these tests keep it so.
///
/// - Every property name anywhere in schema/lifespec.schema.json (the keys of every `properties`
///   object, at any depth) must appear in the doc as a key: in backticks (`` `history` ``,
///   `` `history: deep` `` or `` `{notify: id}` ``), or written `history:` in a ```yaml example.
/// - Every ```yaml block is a whole spec, and must pass `lifespec validate` with no error and no
///   warning, unless the line before its fence (blank lines aside) is the marker
///   `<!-- fragment -->`: a piece of a spec (a `states:` excerpt, a catalog file), not checked.
///   Whole specs are written into one folder, each as `<its id>.yaml`, so a system spec in the doc
///   can name an earlier example as a part (`parts: {front: door}`). A block that fails is reported
///   at its fence's line, and the validator's `file:line:col` at the doc's line.
@Suite("the format reference")
struct FormatReferenceTests {
    static let docPath = "docs/spec-format.md"

    static func read(_ path: String) throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func documentsEveryKeyOfTheSchema() throws {
        let schema = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("schema/lifespec.schema.json"))
        let keys = try FormatReference.schemaPropertyNames(schema)
        // The walk finds keys at every depth (a deprecation's, an entry action's), not only the top.
        #expect(Set(keys).isSuperset(of: ["lifespec", "history", "since", "passedTo", "notify", "order"]))
        let missing = try FormatReference.undocumentedKeys(schema: schema, markdown: Self.read(Self.docPath))
        #expect(missing.isEmpty, "\(Self.docPath) never names these schema keys: \(missing.joined(separator: ", "))")
    }

    @Test func everyWholeSpecExampleValidates() throws {
        let markdown = try Self.read(Self.docPath)
        let blocks = FormatReference.yamlBlocks(in: markdown)
        // The doc has whole specs to check, and fragments are the exception, not the rule.
        #expect(blocks.filter { !$0.isFragment }.count >= 6)
        let problems = try FormatReference.invalidSpecs(in: markdown, path: Self.docPath)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n\n"))")
    }

    /// The key check fails when the doc stops naming a key: here every mention of `passedTo` and
    /// `since` is taken out of the real doc.
    @Test func aKeyTheDocNoLongerNamesIsReported() throws {
        let schema = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("schema/lifespec.schema.json"))
        let markdown = try Self.read(Self.docPath)
        let without = markdown.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("passedTo") && !$0.contains("since") }
            .joined(separator: "\n")
        #expect(try FormatReference.undocumentedKeys(schema: schema, markdown: without) == ["passedTo", "since"])
    }

    /// Keys nested anywhere count, and only a key-like mention documents one: a word in prose does not.
    @Test func theKeyCheckWalksTheWholeSchema() throws {
        let schema = Data(
            #"""
            {"properties": {"top": {"anyOf": [{"properties": {"deep": {}}}]}},
             "$defs": {"thing": {"properties": {"inDefs": {}, "prose": {}}}}}
            """#.utf8)
        #expect(Set(try FormatReference.schemaPropertyNames(schema)) == ["top", "deep", "inDefs", "prose"])
        let markdown = """
            `top` and `deep: true` are keys; prose is only a word here.

            ```yaml
            thing: {inDefs: 1}
            ```
            """
        #expect(try FormatReference.undocumentedKeys(schema: schema, markdown: markdown) == ["prose"])
    }

    @Test func fragmentsAreMarkedAndBlocksKnowTheirLines() {
        let markdown = """
            # Title

            <!-- fragment -->

            ```yaml
            states: {a: {}}
            ```

            ```yaml
            lifespec: 1
            ```
            """
        let blocks = FormatReference.yamlBlocks(in: markdown)
        #expect(blocks.map(\.line) == [5, 9])
        #expect(blocks.map(\.isFragment) == [true, false])
        #expect(blocks[1].text == "lifespec: 1\n")
    }

    /// A whole spec that does not validate is reported at its place in the doc; a broken fragment is
    /// not checked.
    @Test func aBrokenExampleIsReportedAtItsLine() throws {
        let markdown = """
            Intro.

            ```yaml
            lifespec: 1
            id: broken
            states:
              a:
            initial: b
            ```

            <!-- fragment -->
            ```yaml
            initial: nowhere
            ```
            """
        let problems = try FormatReference.invalidSpecs(in: markdown, path: "doc.md")
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.hasPrefix("doc.md:3: "), "\(problem)")
        // `initial: b` is line 5 of the block, line 8 of the doc.
        #expect(problem.contains("doc.md:8:10: error: [LS101]"), "\(problem)")
    }
}

/// The checks, as functions of the doc's text, so tests can run them on a doc with a fault.
enum FormatReference {
    /// Put on the line before a ```yaml fence: the block is a piece of a spec, not checked.
    static let fragmentMarker = "<!-- fragment -->"

    struct YAMLBlock {
        /// The 1-based line of the opening fence.
        let line: Int
        let text: String
        let isFragment: Bool
    }

    static func yamlBlocks(in markdown: String) -> [YAMLBlock] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        var blocks: [YAMLBlock] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```yaml" else {
                index += 1
                continue
            }
            let fence = index
            let previous = lines[..<fence].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            var body: [Substring] = []
            index += 1
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            index += 1
            blocks.append(
                YAMLBlock(
                    line: fence + 1, text: body.map { $0 + "\n" }.joined(),
                    isFragment: previous?.trimmingCharacters(in: .whitespaces) == fragmentMarker))
        }
        return blocks
    }

    /// The keys of every `properties` object in the schema, at any depth.
    static func schemaPropertyNames(_ schema: Data) throws -> [String] {
        var names: [String] = []
        func walk(_ node: Any) {
            if let object = node as? [String: Any] {
                if let properties = object["properties"] as? [String: Any] {
                    for name in properties.keys.sorted() where !names.contains(name) { names.append(name) }
                }
                for key in object.keys.sorted() { walk(object[key]!) }
            } else if let array = node as? [Any] {
                for item in array { walk(item) }
            }
        }
        walk(try JSONSerialization.jsonObject(with: schema))
        return names
    }

    /// Schema keys the doc never names as a key, in the schema's order.
    static func undocumentedKeys(schema: Data, markdown: String) throws -> [String] {
        let examples = yamlBlocks(in: markdown).map(\.text).joined(separator: "\n")
        return try schemaPropertyNames(schema).filter { key in
            if ["`\(key)`", "`\(key):", "`{\(key):"].contains(where: markdown.contains) { return false }
            // `key:` at the start of a line or after `{`, `,`, `[` or `- ` in an example.
            let escaped = NSRegularExpression.escapedPattern(for: key)
            return examples.firstMatch(of: try Regex("(?m)(^|[\\s{,\\[-])\(escaped):")) == nil
        }
    }

    /// Runs `lifespec validate` on each whole-spec block, as a user who saved it would; one message
    /// per block that does not validate cleanly, naming its line in the doc at `path`.
    static func invalidSpecs(in markdown: String, path: String) throws -> [String] {
        let folder = try Scratch.folder("lifespec-format-reference")
        defer { try? FileManager.default.removeItem(at: folder) }
        var problems: [String] = []
        var files: [(block: YAMLBlock, name: String)] = []
        for block in yamlBlocks(in: markdown) where !block.isFragment {
            let id = block.text.split(separator: "\n").first { $0.hasPrefix("id:") }.map {
                $0.dropFirst(3).trimmingCharacters(in: .whitespaces)
            }
            let name = "\(id ?? "block-at-line-\(block.line)").yaml"
            if let other = files.first(where: { $0.name == name }) {
                problems.append(
                    "\(path):\(block.line): a whole spec with the id of the one at line \(other.block.line); give each example its own id, or mark it \(fragmentMarker)"
                )
                continue
            }
            try block.text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            files.append((block, name))
        }
        for (block, name) in files {
            let result = try CLI.run(["validate", name], in: folder)
            guard result.status != 0 || result.stdout != "1 spec checked: 0 errors, 0 warnings\n" else { continue }
            // `name:LINE:` is line LINE of the block: the fence's line plus LINE in the doc.
            var output = result.stdout + result.stderr
            let located = try Regex("\(NSRegularExpression.escapedPattern(for: name)):([0-9]+):")
            output = output.replacing(located) { match in
                let line = Int(match.output[1].substring ?? "") ?? 0
                return "\(path):\(block.line + line):"
            }
            problems.append(
                "\(path):\(block.line): this yaml example is not marked \(fragmentMarker), so it must be a whole spec that validates cleanly:\n\(output)"
            )
        }
        return problems
    }
}
