import LifeSpec
import Testing

@Suite("Chinese typography (LS151)")
struct ChineseTypographyTests {
    /// The marks reported, in order.
    private func marks(_ text: String) -> String {
        String(ChineseTypography.findings(in: text).map(\.mark))
    }

    @Test func asciiMarksNextToChineseAreReported() {
        #expect(marks("生成:请修改规格文件") == ":")
        #expect(marks("应用启动,然后变为活跃;随后挂起?是!") == ",;?!")
        #expect(marks("状态图 : 标题") == ":")  // spaces between do not hide it
    }

    @Test("a Chinese parenthetical is Chinese: both parentheses and the separators inside")
    func parentheticals() {
        #expect(marks("iOS 应用生命周期(UIKit,App 代理)") == "(,)")
        #expect(marks("可能会调用它(Apple),本规格按调用建模") == "(),")
    }

    @Test("code spans, API names and URLs are exempt")
    func exemptions() {
        #expect(marks("调用 application(_:didFinishLaunchingWithOptions:) 之后") == "")
        #expect(marks("之后调用 applicationWillTerminate(_:)。") == "")
        #expect(marks("见 `a, b: c` 与 https://developer.apple.com/documentation/uikit。") == "")
        #expect(marks("旧式启动：只有 applicationDidFinishLaunching(_:)") == "")
    }

    @Test func englishAndFullWidthTextsAreClean() {
        #expect(marks("Launch (foreground): then, active; done? yes!") == "")
        #expect(marks("iOS 应用生命周期（UIKit，App 代理）：生成；完成？是！") == "")
    }

    @Test func findingsNameTheFullWidthMark() {
        let findings = ChineseTypography.findings(in: "台灯(卧室)")
        #expect(findings.map(\.offset) == [2, 5])
        #expect(findings.map(\.fullWidth) == ["（", "）"])
    }

    @Test("forbidden pairings: found outside code, a digit pattern bounded, in text order")
    func forbiddenPairings() {
        let pairings = [
            ChineseTypography.Pairing("打断", use: "中断", because: "Apple's word"),
            ChineseTypography.Pairing("#s", use: "约 # 秒", because: "a duration in words"),
        ]
        func found(_ text: String) -> [String] {
            ChineseTypography.misuses(in: text, pairings: pairings).map(\.found)
        }
        #expect(found("约 5s 后打断") == ["5s", "打断"])
        #expect(found("`打断` 与 `10s`") == [])
        #expect(found("A5s 或 5sec") == [])
        #expect(found("超过 30s。") == ["30s"])
        #expect(ChineseTypography.misuses(in: "后打断", pairings: pairings).map(\.offset) == [1])
    }
}
