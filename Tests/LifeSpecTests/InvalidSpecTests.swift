import Foundation
import LifeSpec
import Testing

/// Every file in `Tests/Fixtures/Invalid/` holds its expected diagnostics in header comments:
///
///     # expect: LS101 14:9 did you mean 'lit'?
///     # expect: warning LS150 8:8
///
/// (severity defaults to error; the text after the position must appear in that message). The
/// loader must report exactly that set of (severity, code, line, column): an extra diagnostic fails
/// as surely as a missing one.
@Suite("Invalid specs")
struct InvalidSpecTests {
    static let fixtureNames = Fixtures.names(in: "Invalid")

    @Test func corpusIsLargeAndEveryFixtureExpectsSomething() throws {
        #expect(Self.fixtureNames.count >= 35)
        for name in Self.fixtureNames {
            let header = FixtureHeader(bytes: try Data(contentsOf: Fixtures.url("Invalid", name)))
            #expect(!header.diagnostics.isEmpty, "\(name) has no '# expect:' line")
            #expect(header.problems.isEmpty, "\(name): \(header.problems)")
        }
    }

    @Test(arguments: fixtureNames)
    func reportsExactlyTheExpectedDiagnostics(_ name: String) throws {
        let header = FixtureHeader(bytes: try Data(contentsOf: Fixtures.url("Invalid", name)))
        let result = Fixtures.load("Invalid", name)
        let actual = result.diagnostics.map(ExpectedDiagnostic.init)
        #expect(
            Set(actual) == Set(header.diagnostics),
            """
            \(name):
              missing: \(Set(header.diagnostics).subtracting(actual).sorted { $0.description < $1.description })
              unexpected: \(Set(actual).subtracting(header.diagnostics).sorted { $0.description < $1.description })
              all: \(result.diagnostics.map { "\($0.location.line):\($0.location.column) [\($0.code.rawValue)] \($0.message)" })
            """
        )
        #expect(actual.count == header.diagnostics.count, "\(name): each diagnostic once")
        for (expected, fragment) in header.fragments {
            let messages = result.diagnostics.filter { ExpectedDiagnostic($0) == expected }.map(\.message)
            #expect(
                messages.contains { $0.contains(fragment) },
                "\(name) \(expected): no message contains \"\(fragment)\"; got \(messages)")
        }
        // A spec with an error never lowers; one with only warnings does.
        #expect((result.spec == nil) == result.diagnostics.hasErrors, "\(name)")
        #expect(result.diagnostics == result.diagnostics.sorted(), "\(name): diagnostics come sorted by location")
    }
}
