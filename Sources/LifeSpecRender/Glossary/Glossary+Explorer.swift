import LifeSpec

/// The explorer page's words (the spec's words come from the spec).
extension Glossary {
    var explorerLanguageTag: String { pick("en", "zh-Hans") }

    func explorerTitle(_ specTitle: String) -> String { pick("\(specTitle) — explorer", "\(specTitle) — 交互演示") }

    /// Keyed phrases the script shows; `{n}`, `{line}`, `{name}` are filled in by the script.
    var explorerTable: [(String, String)] {
        [
            ("languageName", pick("English", "简体中文")),
            ("now", pick("Active states", "当前状态")),
            ("events", pick("Events", "事件")),
            ("eventsHint", pick("Enabled exactly when the engine handles the event now.", "仅当引擎此刻会处理该事件时可点。")),
            ("raisedEvents", pick("Raised by the system", "由系统引发")),
            (
                "raisedHint",
                pick(
                    "The system's own transitions raise these. Sent from here, one skips the step that raises it.",
                    "这些事件由系统自身的转换引发。在这里直接发出，会跳过引发它的那一步。")
            ),
            ("flags", pick("Flags", "标志")),
            ("log", pick("Callbacks and notifications", "回调与通知")),
            ("sent", pick("Events sent", "已发出的事件")),
            ("start", pick("start", "启动")),
            ("callback", pick("callback", "回调")),
            ("notification", pick("notification", "通知")),
            ("scenarios", pick("Walkthroughs", "示例流程")),
            ("load", pick("Load", "载入")),
            ("step", pick("Step", "单步")),
            ("all", pick("Run to the end", "一次运行完")),
            ("back", pick("Back", "后退")),
            ("reset", pick("Reset", "重置")),
            ("none", pick("none", "无")),
            ("drawing", pick("Diagram", "状态图")),
            ("fit", pick("Fit to window", "适合窗口")),
            ("actualSize", pick("Actual size", "实际大小")),
            ("noDrawing", pick("This machine is too large to draw whole.", "此状态机太大，无法整体绘制。")),
            ("check", pick("Check a log", "检查日志")),
            (
                "checkHint",
                pick(
                    "Paste a log of callbacks and notifications, one name per line (the format lifespec check-trace reads).",
                    "粘贴回调与通知的日志，每行一个名称（lifespec check-trace 读取的格式）。")
            ),
            ("checkButton", pick("Check", "检查")),
            ("conforms", pick("Conforms: {n} observations.", "符合：共 {n} 条记录。")),
            (
                "unknownName",
                pick(
                    "Line {line}: '{name}' is not a callback or notification of this spec.",
                    "第 {line} 行：“{name}”不是此规格的回调或通知。")
            ),
            (
                "deviation",
                pick(
                    "Line {line}: '{name}' does not conform: the spec does not allow it here.",
                    "第 {line} 行：“{name}”不符合：规格在此处不允许它。")
            ),
            ("couldBe", pick("The app is in or on its way to:", "App 处于或正在进入：")),
            ("allowed", pick("The spec allows next:", "规格允许的下一条：")),
            ("nothingAllowed", pick("nothing", "无")),
            (
                "incomplete",
                pick(
                    "This machine has more configurations than the page embeds ({n}): events from the configurations beyond are unavailable here, and the log check is off. Use lifespec simulate and lifespec check-trace.",
                    "此状态机的配置数超过本页嵌入的上限（{n}）：超出部分的事件在此不可用，日志检查也已关闭。请使用 lifespec simulate 与 lifespec check-trace。")
            ),
            ("unexplored", pick("Not embedded in this page.", "未嵌入本页。")),
            (
                "checkOff",
                pick(
                    "Every configuration a click reaches is here, but the log check is off: with every assignment of the flags, the configurations check-trace starts from reach more than the page embeds ({n}). Use lifespec check-trace.",
                    "点击可达的每个配置都在本页中，但日志检查已关闭：按标志的每种取值，check-trace 的起始配置可达的配置数超过本页嵌入的上限（{n}）。请使用 lifespec check-trace。")
            ),
        ]
    }
}
