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
}
