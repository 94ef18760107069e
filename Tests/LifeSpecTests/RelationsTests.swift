import LifeSpec
import Testing

@Suite("related: references across specs")
struct RelationsTests {
    static func spec(id: String, related: [String]) -> String {
        var text = """
            lifespec: 1
            id: \(id)
            states:
              a: {}
              b: {}
            initial: a
            events:
              go: {}
            transitions:
              - {from: a, on: go, to: b}
              - {from: b, on: go, to: a}

            """
        if !related.isEmpty {
            text += "related:\n" + related.map { "  - spec: \($0)\n    description: see there\n" }.joined()
        }
        return text
    }

    func load(_ id: String, related: [String]) throws -> LoadedSpec {
        let result = SpecLoader.load(text: Self.spec(id: id, related: related), path: "\(id).yaml")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return try #require(result.spec)
    }

    @Test func relatedSpecsAreReadWithTheirLocations() throws {
        let app = try load("app", related: ["scene"])
        #expect(app.document.related.map(\.id) == ["scene"])
        #expect(app.document.related.first?.location.description == "app.yaml:13:11")
        #expect(app.document.text(app.document.related.first?.description) == "see there")
    }

    @Test func knownReferencesAreClean() throws {
        let specs = [try load("app", related: ["scene"]), try load("scene", related: ["app"])]
        #expect(SpecRelations.check(specs).isEmpty)
    }

    @Test func unknownAndSelfReferencesAreLocatedErrors() throws {
        let specs = [try load("app", related: ["scen", "app"]), try load("scene", related: [])]
        let diagnostics = SpecRelations.check(specs)
        #expect(diagnostics.map(\.code) == [.unknownRelatedSpec, .unknownRelatedSpec])
        #expect(diagnostics.map(\.severity) == [.warning, .error])
        #expect(diagnostics.map(\.location.description) == ["app.yaml:13:11", "app.yaml:15:11"])
        #expect(diagnostics[0].message.contains("did you mean 'scene'?"))
        #expect(diagnostics[1].message.contains("cannot relate to itself"))
    }

    @Test func aRelatedEntryNeedsASpec() {
        let text = Self.spec(id: "app", related: []) + "related:\n  - description: nothing\n"
        let result = SpecLoader.load(text: text, path: "app.yaml")
        #expect(result.diagnostics.map(\.code) == [.missingKey])
        #expect(result.diagnostics.first?.location.line == 13)
    }
}
