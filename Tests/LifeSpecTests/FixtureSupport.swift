import Foundation
import LifeSpec
import LifeSpecTestSupport

/// The fixture folders of `Tests/Fixtures`, by group and name.
enum Fixtures {
    static let root = SpecFixtures.url("Tests/Fixtures")

    static func url(_ group: String, _ name: String) -> URL {
        root.appendingPathComponent(group).appendingPathComponent(name)
    }

    static func path(_ group: String, _ name: String) -> String { url(group, name).path }

    /// Spec files in a fixture folder, sorted so the parameterized tests are stable.
    static func names(in group: String) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(group).path)) ?? []
        return names.filter {
            $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".json") || $0.hasSuffix(".scxml")
        }.sorted()
    }

    static func load(_ group: String, _ name: String) -> SpecLoadResult {
        SpecLoader.load(path: path(group, name))
    }
}

/// One diagnostic a fixture expects: `# expect: [error|warning] LS101 14:9 [message fragment]`.
struct ExpectedDiagnostic: Hashable, CustomStringConvertible {
    let severity: Diagnostic.Severity
    let code: String
    let line: Int
    let column: Int

    init(severity: Diagnostic.Severity, code: String, line: Int, column: Int) {
        self.severity = severity
        self.code = code
        self.line = line
        self.column = column
    }

    init(_ diagnostic: Diagnostic) {
        self.init(
            severity: diagnostic.severity, code: diagnostic.code.rawValue,
            line: diagnostic.location.line, column: diagnostic.location.column)
    }

    var description: String { "\(severity.rawValue) \(code) \(line):\(column)" }
}

/// The expectations written in a fixture's header comments.
struct FixtureHeader {
    var diagnostics: [ExpectedDiagnostic] = []
    /// Message fragments: the diagnostic at that position must contain each.
    var fragments: [(ExpectedDiagnostic, String)] = []
    var problems: [String] = []

    init(bytes: Data) {
        let text = String(decoding: bytes, as: UTF8.self)
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("# expect:") else { continue }
            var words = line.dropFirst("# expect:".count).split(
                separator: " ", maxSplits: 1, omittingEmptySubsequences: true
            ).map(String.init)
            var severity = Diagnostic.Severity.error
            if let first = words.first, let parsed = Diagnostic.Severity(rawValue: first) {
                severity = parsed
                words = words.count > 1 ? words[1].split(separator: " ", maxSplits: 1).map(String.init) : []
            }
            let rest = words.count > 1 ? words[1].split(separator: " ", maxSplits: 1).map(String.init) : []
            let position = rest.first?.split(separator: ":").compactMap { Int($0) } ?? []
            guard let code = words.first, code.hasPrefix("LS"), position.count == 2 else {
                problems.append("cannot read header line '\(line)'")
                continue
            }
            let expected = ExpectedDiagnostic(severity: severity, code: code, line: position[0], column: position[1])
            diagnostics.append(expected)
            if rest.count > 1 { fragments.append((expected, rest[1])) }
        }
    }
}
