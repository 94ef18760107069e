import Foundation
import LifeSpecTestSupport
import Testing

@testable import LifeSpec

/// The JSON Schema and the parser describe one format: the schema's keys are the parser's, every
/// spec the loader accepts validates against it, and every spec with an unknown key (LS010) or a
/// wrong type (LS011) violates it — checked with a real validator (PyPI's `jsonschema`).
@Suite("JSON Schema of the spec format")
struct SchemaTests {
    static let packageRoot = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
    static let schemaURL = packageRoot.appendingPathComponent(SpecSchema.path)

    static func schema() throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any])
    }

    /// The tool compiles the file in through a link; a copy in place of the link would drift.
    @Test func theFileIsTheSchemaTheToolShips() throws {
        #expect(
            try String(contentsOf: Self.schemaURL, encoding: .utf8) == SpecSchema.json,
            "Sources/LifeSpec/Resources/lifespec.schema.json must stay a link to schema/lifespec.schema.json")
    }

    /// Without a validator, the keys alone: each mapping of the format lists exactly the parser's keys.
    @Test func everyMappingHasExactlyTheParsersKeys() throws {
        let schema = try Self.schema()
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let top = try #require(schema["properties"] as? [String: Any])
        func keys(_ object: Any?, _ path: [String]) throws -> [String] {
            var node = object
            for step in path { node = (node as? [String: Any])?[step] }
            let properties = try #require(node as? [String: Any], "no \(path.joined(separator: "."))")
            return properties.keys.sorted()
        }
        #expect(top.keys.sorted() == SpecParser.topLevelKeys.sorted())
        #expect(try keys(definitions, ["state", "properties"]) == SpecParser.stateKeys.sorted())
        #expect(try keys(top, ["events", "additionalProperties", "properties"]) == SpecParser.eventKeys.sorted())
        #expect(try keys(top, ["flags", "additionalProperties", "properties"]) == SpecParser.flagKeys.sorted())
        #expect(try keys(top, ["callbacks", "additionalProperties", "properties"]) == SpecParser.callbackKeys.sorted())
        #expect(
            try keys(top, ["notifications", "additionalProperties", "properties"])
                == SpecParser.notificationKeys.sorted())
        #expect(try keys(top, ["transitions", "items", "properties"]) == SpecParser.transitionKeys.sorted())
        #expect(try keys(top, ["scenarios", "items", "properties"]) == SpecParser.scenarioKeys.sorted())
        #expect(try keys(top, ["sources", "additionalProperties", "properties"]) == SpecParser.sourceKeys.sorted())
        #expect(try keys(top, ["related", "items", "properties"]) == ["description", "spec"])
    }

    /// Every key the schema knows has a description, so editors show one on hover.
    @Test func everyPropertyIsDescribed() throws {
        var undescribed: [String] = []
        func walk(_ node: Any, _ path: String) {
            if let object = node as? [String: Any] {
                if let properties = object["properties"] as? [String: Any] {
                    for (key, value) in properties {
                        if let property = value as? [String: Any], property["description"] == nil {
                            undescribed.append(path + "." + key)
                        }
                    }
                }
                for (key, value) in object { walk(value, path + "/" + key) }
            } else if let array = node as? [Any] {
                for item in array { walk(item, path) }
            }
        }
        walk(try Self.schema(), "#")
        #expect(undescribed.sorted() == [])
    }

    /// The specs the loader accepts, and the specs it rejects with LS010 or LS011.
    static func corpus() throws -> (valid: [URL], invalid: [URL]) {
        var valid = Fixtures.names(in: "Valid").map { Fixtures.url("Valid", $0) }
        let specFolder = packageRoot.appendingPathComponent("Spec")
        valid += try FileManager.default.contentsOfDirectory(atPath: specFolder.path).filter { $0.hasSuffix(".yaml") }
            .sorted()
            .map { specFolder.appendingPathComponent($0) }
        valid.append(packageRoot.appendingPathComponent("docs/examples/media-player.yaml"))
        var invalid: [URL] = []
        for name in Fixtures.names(in: "Invalid") {
            let header = FixtureHeader(bytes: try Data(contentsOf: Fixtures.url("Invalid", name)))
            if header.diagnostics.contains(where: { $0.code == "LS010" || $0.code == "LS011" }) {
                invalid.append(Fixtures.url("Invalid", name))
            }
        }
        return (valid, invalid)
    }

    @Test func theCorpusMeansWhatItSays() throws {
        let corpus = try Self.corpus()
        for url in corpus.valid {
            #expect(!SpecLoader.load(path: url.path).hasErrors, "\(url.lastPathComponent) should load cleanly")
        }
        #expect(corpus.invalid.count >= 9)
    }

    @Test(
        .enabled(
            if: SchemaValidator.isAvailable || SchemaValidator.isRequired,
            "needs Python with jsonschema (.ci/run installs it)"))
    func aRealValidatorAcceptsEveryValidSpecAndRejectsEveryStructuralMistake() throws {
        let python = try #require(
            SchemaValidator.python, "no Python with jsonschema: run .ci/run, or set LIFESPEC_SCHEMA_PYTHON")
        let corpus = try Self.corpus()
        let folder = try Scratch.folder("lifespec-schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        var expected: [String: Bool] = [:]
        for (url, isValid) in corpus.valid.map({ ($0, true) }) + corpus.invalid.map({ ($0, false) }) {
            let text = try String(contentsOf: url, encoding: .utf8)
            let json = try #require(SpecJSON.json(fromYAML: text), "\(url.lastPathComponent) does not convert")
            let name = (isValid ? "valid-" : "invalid-") + url.deletingPathExtension().lastPathComponent + ".json"
            try json.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            expected[name] = isValid
        }
        let verdicts = try SchemaValidator.run(python: python, schema: Self.schemaURL, folder: folder)
        #expect(Set(verdicts.keys) == Set(expected.keys))
        for (name, isValid) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(verdicts[name]?.valid == isValid, "\(name): \(verdicts[name]?.detail ?? "no verdict")")
        }
    }
}

/// Python with PyPI's `jsonschema`: `LIFESPEC_SCHEMA_PYTHON`, else the virtual environment
/// `.ci/run` makes (`.build/schema-venv`). `LIFESPEC_REQUIRE_SCHEMA_VALIDATOR=1` (set by `.ci/run`)
/// turns its absence into a failure instead of a skipped test.
enum SchemaValidator {
    static var isRequired: Bool { ProcessInfo.processInfo.environment["LIFESPEC_REQUIRE_SCHEMA_VALIDATOR"] == "1" }

    static let python: String? = {
        let candidates = [
            ProcessInfo.processInfo.environment["LIFESPEC_SCHEMA_PYTHON"],
            SchemaTests.packageRoot.appendingPathComponent(".build/schema-venv/bin/python").path,
        ].compactMap { $0 }
        return candidates.first { path in
            guard FileManager.default.isExecutableFile(atPath: path) else { return false }
            return (try? run(path, ["-c", "import jsonschema"]).status) == 0
        }
    }()

    static var isAvailable: Bool { python != nil }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// One verdict per JSON file of `folder`: valid, or the validator's first error.
    static func run(python: String, schema: URL, folder: URL) throws -> [String: (valid: Bool, detail: String)] {
        let script = """
            import json, os, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1], encoding="utf-8"))
            Draft202012Validator.check_schema(schema)
            validator = Draft202012Validator(schema)
            for name in sorted(os.listdir(sys.argv[2])):
                document = json.load(open(os.path.join(sys.argv[2], name), encoding="utf-8"))
                errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
                detail = (errors[0].message + " at " + "/".join(map(str, errors[0].absolute_path))) if errors else ""
                print(name + "\\t" + ("valid" if not errors else "invalid") + "\\t" + detail.replace("\\n", " ")[:300])
            """
        let result = try run(python, ["-c", script, schema.path, folder.path])
        guard result.status == 0 else { throw ValidatorFailure(output: result.output) }
        var verdicts: [String: (valid: Bool, detail: String)] = [:]
        for line in result.output.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else { continue }
            verdicts[fields[0]] = (fields[1] == "valid", fields[2])
        }
        return verdicts
    }

    struct ValidatorFailure: Error, CustomStringConvertible {
        let output: String
        var description: String { "the validator failed: \(output)" }
    }
}
