import Foundation
import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

@Suite("One glossary: the words LifeSpec writes, per language")
struct GlossaryTests {
    /// Every Chinese string literal of the glossary's sources, interpolations stood in for by a
    /// code span (an argument is the caller's text, not the glossary's).
    static func chineseLiterals() throws -> [String] {
        let folder = SpecFixtures.packageRoot.appendingPathComponent("Sources/LifeSpecRender/Glossary")
        // The list of forbidden words names them: it is not a phrase.
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".swift") && $0 != "Glossary+Forbidden.swift" }
        #expect(files.count >= 3)
        var literals: [String] = []
        for file in files.sorted() {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in source.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                // Literals on one line, `"…"` with `\(…)` inside (no quotes in an interpolation here).
                var literal: String?
                var index = line.startIndex
                while index < line.endIndex {
                    let character = line[index]
                    if character == "\\", literal != nil, line.index(after: index) < line.endIndex {
                        let next = line.index(after: index)
                        if line[next] == "(" {
                            var depth = 0
                            var cursor = next
                            while cursor < line.endIndex {
                                if line[cursor] == "(" { depth += 1 }
                                if line[cursor] == ")" {
                                    depth -= 1
                                    if depth == 0 { break }
                                }
                                cursor = line.index(after: cursor)
                            }
                            literal! += "`x`"
                            index = cursor < line.endIndex ? line.index(after: cursor) : cursor
                            continue
                        }
                        literal!.append(line[next])
                        index = line.index(after: next)
                        continue
                    }
                    if character == "\"" {
                        if let done = literal {
                            if done.unicodeScalars.contains(where: ChineseTypography.isCJKScalar) {
                                literals.append(done)
                            }
                            literal = nil
                        } else {
                            literal = ""
                        }
                    } else if literal != nil {
                        literal!.append(character)
                    }
                    index = line.index(after: index)
                }
            }
        }
        return literals
    }

    @Test("no Chinese phrase of the glossary uses a forbidden word (场景 for a scenario, 打断, 发送, 守卫, 应用, 5s …)")
    func noForbiddenChinese() throws {
        let literals = try Self.chineseLiterals()
        #expect(literals.count > 100)
        for literal in literals {
            let misuses = ChineseTypography.misuses(in: literal, pairings: Glossary.forbiddenChinese)
            #expect(
                misuses.isEmpty,
                "\(literal): \(misuses.map { "\($0.found) → \($0.pairing.right) (\($0.pairing.reason))" })")
        }
    }

    @Test("the forbidden words are caught where they would be written")
    func forbiddenWordsAreCaught() {
        func found(_ text: String) -> [String] {
            ChineseTypography.misuses(in: text, pairings: Glossary.forbiddenChinese).map(\.found)
        }
        #expect(found("场景演练：启动") == ["场景演练", "演练"])
        #expect(found("示例流程：启动") == [])
        #expect(found("来电打断了应用") == ["打断", "应用"])
        #expect(found("在调用之后发送") == ["发送"])
        #expect(found("时限：5s。") == ["5s"])
        #expect(found("时限：约 5 秒。") == [])
        #expect(found("代码 `发送 5s` 不算") == [])
        #expect(found("版本 iOS15s") == [])  // a duration is a number of its own
        #expect(found("连接场景时调用") == [])  // a UIScene is a 场景
    }

    @Test("one word for one thing: the guard, the list separator, the post verb, the app")
    func oneWordForOneThing() {
        let zh = Glossary(.simplifiedChinese)
        #expect(zh.guardWord == zh.guardColumn)
        #expect(zh.listSeparator == "、")
        #expect(zh.postArrow("通知").hasPrefix("发布"))
        #expect(zh.posts("通知").hasPrefix("发布"))
        #expect(zh.notifyPrefix == "发布")
        #expect(zh.timeLimit("5s") == "时限：约 5 秒")
        #expect(Glossary(.english).timeLimit("5s") == "Time limit: about 5 seconds")
        #expect(Glossary(.english).timeLimit("a while") == "Time limit: a while")
        #expect(zh.closures.hasPrefix("App "))
        #expect(zh.closurePassedTo("`a(_:)`").hasPrefix("App "))
    }

    static let specs: [String] = {
        let folder = SpecFixtures.packageRoot.appendingPathComponent("Spec")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "Spec/" + $0 }
    }()

    /// The forbidden words a spec's own Chinese prose must avoid too. Not 发送 (a spec's prose may
    /// send a message: 发送此消息) or 该场景 / 场景： (in a spec's prose a 场景 is a UIScene).
    static let proseForbidden = Glossary.forbiddenChinese.filter { !["发送", "该场景", "场景："].contains($0.wrong) }

    @Test("the Chinese pages use Apple's words: 场景 only for scenes, 中断, no internal words", arguments: specs)
    func chinesePagesUseTheGlossarysWords(_ path: String) throws {
        let spec = try SpecFixtures.load(path)
        let page = MarkdownRenderer.page(for: spec, locale: "zh-Hans").text
        let misuses = ChineseTypography.misuses(in: page, pairings: Self.proseForbidden)
        #expect(misuses.isEmpty, "\(path): \(misuses.map { "\($0.found) → \($0.pairing.right)" })")
        #expect(!page.contains("种子") && !page.lowercased().contains("seed"), "\(path)")
        let english = MarkdownRenderer.page(for: spec, locale: "en").text
        #expect(!english.lowercased().contains("the seeds"), "\(path)")
    }
}
