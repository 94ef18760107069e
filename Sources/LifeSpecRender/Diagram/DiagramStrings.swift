import LifeSpec
import LifecycleEngine

/// The diagrams' own words — the Graphviz legend, the effect lines both renderers write under an
/// event (`set`, `raise`), the Mermaid notes and comments — in every `Language` the tool writes.
/// A diagram asks `Language(locale:)` like the pages do, so a page and its diagrams always agree.
/// Every phrase is a `switch` over the language: a new language does not compile until each phrase
/// has its translation. Arguments are plain text (each renderer escapes for its own target).
struct DiagramStrings: Sendable {
    let language: Language

    init(locale: String?) { language = Language(locale: locale) }

    init(language: Language) { self.language = language }

    private func pick(_ en: @autoclosure () -> String, _ zh: @autoclosure () -> String) -> String {
        switch language {
        case .english: en()
        case .simplifiedChinese: zh()
        }
    }

    // MARK: Effect lines

    /// A transition's flag assignment, e.g. `set backgroundWork = false`.
    func set(_ flag: String, to value: Bool) -> String { pick("set \(flag) = \(value)", "设置 \(flag) = \(value)") }
    /// The same by the flag's title: what holds from then on (`now not having background work`).
    func set(titled title: String, to value: Bool) -> String {
        pick("now " + flagPhrase(title, value), "此后" + flagPhrase(title, value))
    }

    /// A flag's title when it holds (`value`) or not, negated in words.
    func flagPhrase(_ title: String, _ value: Bool) -> String { value ? title : pick("not " + title, "不" + title) }

    /// A guard in words: flags by their titles, `in()` by the state's title (after its part's name
    /// in a system), `!`, `&&`, `||` as the language says them. `nil` when `flag` or `state` has no
    /// words for one it reads: the guard is then shown as written.
    func guardWords(
        _ expression: GuardExpression, flag: (String) -> String?, state: (String) -> (part: String?, title: String)?
    ) -> String? {
        func inState(_ id: String, _ holds: Bool) -> String? {
            guard let (part, title) = state(id) else { return nil }
            let subject = part.map { $0 + " " } ?? ""
            return subject + (holds ? pick("in ", "处于") : pick("not in ", "不处于")) + title
        }
        // Precedence: 0 or, 1 and, 2 not and leaves (as GuardExpression prints).
        func render(_ expression: GuardExpression, _ precedence: Int) -> String? {
            switch expression {
            case .flag(let id): return flag(id)
            case .constant(let value): return value ? pick("always", "总是") : pick("never", "从不")
            case .inState(let id): return inState(id, true)
            case .not(.flag(let id)): return flag(id).map { flagPhrase($0, false) }
            case .not(.inState(let id)): return inState(id, false)
            case .not(let inner):
                return render(inner, 0).map { pick("not (" + $0 + ")", "并非（" + $0 + "）") }
            case .and(let lhs, let rhs):
                guard let left = render(lhs, 1), let right = render(rhs, 2) else { return nil }
                return parenthesized(joined(left, pick(" and ", "且"), right), precedence > 1)
            case .or(let lhs, let rhs):
                guard let left = render(lhs, 0), let right = render(rhs, 1) else { return nil }
                return parenthesized(joined(left, pick(" or ", "或"), right), precedence > 0)
            }
        }
        return render(expression, 0)
    }

    /// `left`, `word`, `right`, with a space where Chinese meets a Latin letter or digit (`且 B 处于…`).
    private func joined(_ left: String, _ word: String, _ right: String) -> String {
        func latin(_ character: Character?) -> Bool {
            character.map { $0.isASCII && ($0.isLetter || $0.isNumber) } ?? false
        }
        let before = latin(left.last) && !word.hasPrefix(" ") ? " " : ""
        let after = latin(right.first) && !word.hasSuffix(" ") ? " " : ""
        return left + before + word + after + right
    }

    private func parenthesized(_ text: String, _ needed: Bool) -> String {
        needed ? pick("(" + text + ")", "（" + text + "）") : text
    }
    /// An event the transition raises, by its title.
    func raise(_ event: String) -> String { pick("raise \(event)", "引发 \(event)") }
    /// Between the events, and between the effects, of one label.
    var listSeparator: String { pick(", ", "，") }

    // MARK: Sequence diagrams

    /// The lifeline of the party that sends a scenario's events.
    var sequenceSender: String { pick("The person and the system", "用户与系统") }
    /// A notification posted, by its name (a no-break space: the verb stays with the name).
    func posts(_ notification: String) -> String { pick("post\u{A0}" + notification, "发布\u{A0}" + notification) }
    func sequenceComment(_ id: String) -> String {
        pick("sequence of scenario \(id), as the engine runs it", "示例流程 \(id) 的时序，按引擎的运行结果")
    }

    // MARK: Mermaid

    /// The notes naming an arrow's real ends when Mermaid draws it from or to their group.
    func endNotes(from: String?, to: String?) -> String? {
        var notes: [String] = []
        if let from { notes.append(pick("from \(from)", "从\(from)")) }
        if let to { notes.append(pick("to \(to)", "到\(to)")) }
        guard !notes.isEmpty else { return nil }
        return pick("(" + notes.joined(separator: ", ") + ")", "（" + notes.joined(separator: "，") + "）")
    }

    func generatedComment(file: String) -> String {
        pick("generated by lifespec from \(file) — do not edit", "由 lifespec 根据 \(file) 生成，请勿编辑")
    }

    func scenarioComment(_ id: String) -> String {
        pick(
            "scenario \(id): numbered steps, visited states in class lifespecPath",
            "示例流程 \(id)：步骤已编号，经过的状态使用 class lifespecPath")
    }

    func scenarioNotRunComment(_ id: String) -> String {
        pick(
            "scenario \(id) does not run on this machine; drawn without it",
            "示例流程 \(id) 无法在此状态机上运行；绘制时不含该示例流程")
    }

    /// A transition listed on a compound state, which Mermaid cannot show: kept as a comment.
    func compoundHandles(_ state: String, _ label: String) -> String {
        pick("\(state) handles \(label)", "\(state) 处理 \(label)")
    }

    var notDrawnOnComposite: String {
        pick(" (not drawn: Mermaid cannot attach it to a composite state)", "（未绘制：Mermaid 无法把它挂在复合状态上）")
    }

    var notDrawnToOwnBorder: String {
        pick(
            " (not drawn: Mermaid cannot draw from inside a composite state to its own border)",
            "（未绘制：Mermaid 无法从复合状态内部画到其自身边框）")
    }

    // MARK: Legend

    var initial: String { pick("initial state", "初始状态") }
    var final: String { pick("final state", "终止状态") }
    var transition: String { pick("transition", "转换") }
    var eventTransition: String { pick("transition on an event, taken when the guard holds", "由事件触发的转换，守卫条件成立时发生") }
    var eventless: String { pick("eventless transition, taken as soon as its guard holds", "无事件转换，守卫条件一成立即发生") }
    var groupArrow: String {
        pick("arrow leaving a group’s border: applies in every state inside it", "从分组边框出发的箭头：适用于组内每个状态")
    }
    var callbacks: String { pick("delegate callbacks, in call order", "代理回调，按调用顺序") }
    var closureSample: String { "{ handler }" }
    var closures: String { pick("a closure the app passed to UIKit, called back", "应用传给 UIKit 的闭包，被回调") }
    var notification: String { pick("notification posted", "发布的通知") }
    var listed: String { pick("listed inside a state: handled there without leaving it", "列在状态内：在该状态中处理，不离开该状态") }
    var outside: String { pick("dashed: a state outside the group drawn here", "虚线框：本图所画分组之外的状态") }
    var regions: String { pick("dashed frames in one box: regions, all active at once", "同一框内的虚线分区：并行区域，同时处于活动状态") }
    var history: String {
        pick(
            "H / H*: history (shallow / deep), resumes where the group was left; its arrow is the default",
            "H / H*：历史状态（浅 / 深），回到离开分组时的状态；其箭头为默认转换")
    }
    var fork: String { pick("bar: one transition entering several regions", "横条：一个转换同时进入多个区域") }
    var notDrawnHistory: String { pick(" (not drawn: Mermaid has no history states)", "（未绘制：Mermaid 没有历史状态）") }
    var event: String { pick("event", "事件") }
    var guardWord: String { pick("guard", "守卫") }
    /// The sample of a callback line in the legend: code, the same in every language.
    var callbackSample: String { "callback(_:)" }
    var notificationSample: String { pick("→ notification", "→ 通知") }
    func steps(_ scenario: String) -> String { pick("steps of scenario “\(scenario)”", "示例流程“\(scenario)”的步骤") }
    func scenario(_ title: String) -> String { pick("Scenario: " + title, "示例流程：" + title) }
    func startsIn(_ state: String) -> String { pick(" (starts in " + state + ")", "（从“" + state + "”开始）") }
    var with: String { pick(", with ", "，其中 ") }
    /// The flags a scenario starts with, after its title: `, with having background work` / `，其中存在后台工作`.
    func with(_ flags: [String]) -> String {
        let list = flags.joined(separator: flagSeparator)
        let latin = list.first.map { $0.isASCII && ($0.isLetter || $0.isNumber) } ?? false
        return latin ? with + list : pick(", with ", "，其中") + list
    }
    var flagSeparator: String { pick(", ", "，") }
}
