import LifeSpec

extension Glossary {
    /// The words the glossary's Simplified Chinese must not use, beside the ones it uses instead,
    /// as Apple's Chinese documentation words them. A test holds every Chinese phrase of the
    /// glossary to this list (`ChineseTypography.misuses(in:pairings:)`).
    package static let forbiddenChinese: [ChineseTypography.Pairing] = [
        .init("场景演练", use: "示例流程", because: "场景 is a UIScene; a scenario is a 示例流程"),
        .init("该场景", use: "该示例流程", because: "场景 is a UIScene; a scenario is a 示例流程"),
        .init("场景：", use: "示例流程：", because: "场景 is a UIScene; a scenario is a 示例流程"),
        .init("演练", use: "示例流程", because: "a walkthrough is shown as its scenario, 示例流程"),
        .init("打断", use: "中断", because: "Apple's Chinese calls an interruption 中断"),
        .init("发送", use: "发布", because: "a notification is posted: 发布, one verb everywhere"),
        .init("守卫", use: "条件", because: "a transition's guard is its 条件, as the pages' column says"),
        .init("应用", use: "App", because: "one name for the app, as Apple's Chinese documentation writes it"),
        .init("种子", use: "the reader's words (Apple's documentation, the article)", because: "an internal word"),
        .init("#s", use: "约 # 秒", because: "a duration in Chinese words, as Apple gives such a limit"),
    ]
}
