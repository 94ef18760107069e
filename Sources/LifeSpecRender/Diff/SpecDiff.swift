import LifeSpec
import LifecycleEngine

/// What changed between two versions of a spec, in behaviour and in words (`lifespec diff`).
///
/// Every semantic answer is the engine's: elements are compared as the machine holds them (a
/// transition's effects as `Machine.effects(of:)` orders them), each scenario is replayed by
/// `Runner` on both sides and the call sequences aligned, and the generated test cases are the
/// ones the Swift suite writes (`SwiftSuiteRenderer.plan(for:)`). Titles, descriptions, sources
/// and the rest of the prose are text-only changes: they never make the versions differ in
/// behaviour. Everything is in a fixed order, so the same two versions give the same diff.
package struct SpecDiff: Sendable, Hashable, Codable {
    /// One version as named on the command line (a file, or `REV:path`), with its spec id.
    package struct Side: Sendable, Hashable, Codable {
        package let name: String
        package let id: String
    }

    package enum ElementKind: String, Sendable, Hashable, Codable, CaseIterable {
        case spec, state, event, flag, fact, callback, notification, transition, scenario, source, related, modelling
    }

    package enum Change: String, Sendable, Hashable, Codable {
        case added, removed, changed
    }

    /// An element added, removed, or changed in the ways `details` says (`do: a, b → b, a`).
    package struct ElementChange: Sendable, Hashable, Codable {
        package let kind: ElementKind
        package let id: String
        package let change: Change
        package let details: [String]
    }

    /// One line of an aligned trace: on both sides, only before, or only after.
    package struct TraceLine: Sendable, Hashable, Codable {
        package enum Side: String, Sendable, Hashable, Codable { case both, before, after }
        package let side: Side
        package let text: String
    }

    /// A scenario whose replay differs: its call sequence before and after, aligned. An added
    /// scenario's lines are all `after`, a removed one's all `before`.
    package struct ScenarioChange: Sendable, Hashable, Codable {
        package let id: String
        package let title: String?
        package let change: Change
        /// How it starts, when that changed (`from: a → b`, `flags: … → …`).
        package let details: [String]
        package let trace: [TraceLine]
    }

    /// A generated test case added, removed or changed (its start, flags, steps or checks).
    package struct CaseChange: Sendable, Hashable, Codable {
        package let id: String
        package let summary: String
        package let change: Change
    }

    package let old: Side
    package let new: Side
    /// Changes in behaviour: the machine's elements, and the API names traces log.
    package let changes: [ElementChange]
    /// Changes in words only (titles, descriptions, sources, facts, summary, modelling notes).
    package let textChanges: [ElementChange]
    package let scenarios: [ScenarioChange]
    package let cases: [CaseChange]
    /// How many test cases the generated suite has, before and after.
    package let caseCounts: [Int]

    /// Whether the versions behave differently: an element, a scenario's trace or a generated
    /// test case changed. Text-only changes do not count.
    package var behaviourDiffers: Bool { !changes.isEmpty || !scenarios.isEmpty || !cases.isEmpty }

    package init(old: LoadedSpec, named oldName: String, new: LoadedSpec, named newName: String) {
        self.old = Side(name: oldName, id: old.document.id)
        self.new = Side(name: newName, id: new.document.id)
        var comparison = Comparison(old: old, new: new)
        comparison.compareAll()
        changes = comparison.changes
        textChanges = comparison.textChanges
        scenarios = ScenarioReplay.changes(old: old, new: new)
        let plans = [old, new].map { SwiftSuiteRenderer.plan(for: SwiftSuiteInput(spec: $0)) }
        cases = Self.caseChanges(old: plans[0], new: plans[1])
        caseCounts = plans.map(\.cases.count)
    }

    /// Cases matched by id; a case changes when what it runs or checks does (its title is words).
    static func caseChanges(old: ConformancePlan, new: ConformancePlan) -> [CaseChange] {
        let before = Dictionary(old.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func same(_ a: ConformancePlan.Case, _ b: ConformancePlan.Case) -> Bool {
            a.kind == b.kind && a.start == b.start && a.flags == b.flags && a.steps == b.steps && a.checks == b.checks
        }
        var result: [CaseChange] = []
        for item in old.cases {
            guard let other = after[item.id] else {
                result.append(CaseChange(id: item.id, summary: ConformanceText.summary(item), change: .removed))
                continue
            }
            if !same(item, other) {
                result.append(CaseChange(id: item.id, summary: ConformanceText.summary(other), change: .changed))
            }
        }
        for item in new.cases where before[item.id] == nil {
            result.append(CaseChange(id: item.id, summary: ConformanceText.summary(item), change: .added))
        }
        return result
    }
}

/// The element-by-element comparison: ids matched across the versions; each kind in the new
/// version's order, then what it removed in the old version's order.
private struct Comparison {
    let old: LoadedSpec
    let new: LoadedSpec
    var changes: [SpecDiff.ElementChange] = []
    var textChanges: [SpecDiff.ElementChange] = []

    init(old: LoadedSpec, new: LoadedSpec) {
        self.old = old
        self.new = new
    }

    mutating func compareAll() {
        compareSpec()
        compareStates()
        compareEvents()
        compareFlags()
        compareFacts()
        compareCallbacks()
        compareNotifications()
        compareTransitions()
        compareScenarioWords()
        compareSources()
        compareRelated()
        compareModelling()
    }

    /// Records the changes of an element matched by id on both sides, and those added or removed.
    /// A kind without `behaviour` is text only: adding or removing one changes no behaviour either.
    mutating func compare<Item>(
        _ kind: SpecDiff.ElementKind, old oldItems: [Item], new newItems: [Item], id: (Item) -> String,
        behaviour: ((Item, Item) -> [String])? = nil, text: (Item, Item) -> [String],
        describe: (_ item: Item, _ isNew: Bool) -> [String] = { _, _ in [] }
    ) {
        let textOnly = behaviour == nil
        let before = Dictionary(oldItems.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        let after = Set(newItems.map(id))
        for item in newItems {
            let key = id(item)
            guard let previous = before[key] else {
                record(kind, key, .added, describe(item, true), textOnly: textOnly)
                continue
            }
            let semantic = behaviour?(previous, item) ?? []
            if !semantic.isEmpty { changes.append(.init(kind: kind, id: key, change: .changed, details: semantic)) }
            let words = text(previous, item)
            if !words.isEmpty { textChanges.append(.init(kind: kind, id: key, change: .changed, details: words)) }
        }
        for item in oldItems where !after.contains(id(item)) {
            record(kind, id(item), .removed, describe(item, false), textOnly: textOnly)
        }
    }

    mutating func record(
        _ kind: SpecDiff.ElementKind, _ id: String, _ change: SpecDiff.Change, _ details: [String], textOnly: Bool
    ) {
        let item = SpecDiff.ElementChange(kind: kind, id: id, change: change, details: details)
        if textOnly { textChanges.append(item) } else { changes.append(item) }
    }

    // MARK: The spec

    mutating func compareSpec() {
        let (a, b) = (old.document, new.document)
        let (m, n) = (old.machine, new.machine)
        var semantic: [String] = []
        if a.id != b.id { semantic.append(Words.change("id", a.id, b.id)) }
        if m.initialTargets != n.initialTargets {
            semantic.append(Words.change("initial", Words.list(m.initialTargets), Words.list(n.initialTargets)))
        }
        if m.unhandledEvents != n.unhandledEvents {
            semantic.append(Words.change("unhandled", m.unhandledEvents.rawValue, n.unhandledEvents.rawValue))
        }
        if a.parts.map(\.name) != b.parts.map(\.name) || a.parts.map(\.specID) != b.parts.map(\.specID) {
            let describe = { (parts: [SpecDocument.PartInfo]) in
                Words.list(parts.map { "\($0.name) (\($0.specID))" })
            }
            semantic.append(Words.change("parts", describe(a.parts), describe(b.parts)))
        }
        if !semantic.isEmpty {
            changes.append(.init(kind: .spec, id: b.id, change: .changed, details: semantic))
        }
        var words: [String] = []
        words += Words.text("title", a.title, b.title, quoted: true)
        words += Words.text("summary", a.summary, b.summary)
        words += Words.field("platform", a.platform, b.platform)
        if a.locales != b.locales {
            words.append(Words.change("locales", Words.list(a.locales), Words.list(b.locales)))
        }
        if !words.isEmpty { textChanges.append(.init(kind: .spec, id: b.id, change: .changed, details: words)) }
    }

    // MARK: Elements

    mutating func compareStates() {
        // The closures read the versions, not `self`, which `compare` changes.
        let (old, new) = (self.old, self.new)
        let (m, n) = (old.machine, new.machine)
        compare(
            .state, old: m.states, new: n.states, id: \.id,
            behaviour: { a, b in
                var details = Words.field("parent", a.parent, b.parent)
                if Words.kind(of: a) != Words.kind(of: b) {
                    details.append(Words.change("kind", Words.kind(of: a), Words.kind(of: b)))
                }
                if a.initialTargets != b.initialTargets {
                    details.append(Words.change("initial", Words.list(a.initialTargets), Words.list(b.initialTargets)))
                }
                if Set(a.children) == Set(b.children), a.children != b.children {
                    details.append(Words.change("order of children", Words.list(a.children), Words.list(b.children)))
                }
                for (name, before, after) in [
                    ("entry", a.entry, b.entry), ("exit", a.exit, b.exit),
                    ("initial actions", a.initialActions, b.initialActions),
                ] {
                    let (x, y) = (Words.effects(m.effects(of: before)), Words.effects(n.effects(of: after)))
                    if x != y { details.append(Words.change(name, x, y)) }
                }
                return details
            },
            text: { a, b in
                let (x, y) = (old.document.state(a.id), new.document.state(b.id))
                var details: [String] = []
                details += Words.text("title", x?.title, y?.title, quoted: true)
                details += Words.text("description", x?.description, y?.description)
                let facts = { (info: SpecDocument.StateInfo?) in
                    (info?.facts ?? []).map { "\($0.key): \(Words.fact($0.value))" }.sorted()
                }
                if facts(x) != facts(y) {
                    details.append(Words.change("facts", Words.list(facts(x)), Words.list(facts(y))))
                }
                return details + Words.source(x?.source, y?.source)
            },
            describe: { state, _ in
                (state.parent.map { ["in \($0)"] } ?? []) + (state.isLeaf ? [] : [Words.kind(of: state)])
            })
    }

    mutating func compareEvents() {
        // The engine's `done.state.*` events come with the states that raise them.
        compareValued(
            .event, { spec in spec.machine.events.filter { spec.document.event($0.id) != nil } },
            field: "kind", value: \.kind.rawValue, prose: { $0.document.event($1) })
    }

    mutating func compareFlags() {
        compareValued(
            .flag, \.machine.flags, field: "default", value: { "\($0.defaultValue)" },
            prose: { $0.document.flag($1) })
    }

    /// Events and flags: machine elements whose behaviour is one value (an event's kind, a flag's
    /// default), described in the document under the same id.
    private mutating func compareValued<Element: Identifiable<String>, Info: DescribedElement>(
        _ kind: SpecDiff.ElementKind, _ elements: (LoadedSpec) -> [Element], field: String,
        value: @escaping (Element) -> String, prose: @escaping (LoadedSpec, String) -> Info?
    ) {
        // The closures read the versions, not `self`, which `compare` changes.
        let (old, new) = (self.old, self.new)
        compare(
            kind, old: elements(old), new: elements(new), id: \.id,
            behaviour: { a, b in
                value(a) == value(b) ? [] : [Words.change(field, value(a), value(b))]
            },
            text: { a, b in Words.described(prose(old, a.id), prose(new, b.id)) },
            describe: { element, _ in ["\(field): \(value(element))"] })
    }

    mutating func compareFacts() {
        // The closures read the versions, not `self`, which `compare` changes.
        let (old, new) = (self.old, self.new)
        compare(
            .fact, old: old.document.facts, new: new.document.facts, id: \.id,
            text: { a, b in
                Words.text("title", a.title, b.title, quoted: true)
                    + Words.text("description", a.description, b.description)
            })
    }

    mutating func compareCallbacks() {
        // The closures read the versions, not `self`, which `compare` changes.
        let (old, new) = (self.old, self.new)
        compare(
            .callback, old: old.machine.callbacks, new: new.machine.callbacks, id: \.id,
            behaviour: { a, b in
                let (x, y) = (old.document.callback(a.id), new.document.callback(b.id))
                return Words.field("swift", a.swiftName, b.swiftName) + Words.field("objc", a.objcName, b.objcName)
                    + (a.posts == b.posts ? [] : [Words.change("posts", Words.posts(a.posts), Words.posts(b.posts))])
                    + Words.field("kind", x?.kind.rawValue, y?.kind.rawValue)
                    + Words.field("passedTo", x?.passedTo, y?.passedTo)
            },
            text: { a, b in
                let (x, y) = (old.document.callback(a.id), new.document.callback(b.id))
                var details = Words.text("description", x?.description, y?.description)
                details += Words.text("usage", x?.usage, y?.usage)
                details += Words.field("returns", x?.returns, y?.returns)
                details += Words.field("timeLimit", x?.timeLimit, y?.timeLimit)
                let deprecation = { (info: SpecDocument.CallbackInfo?) in
                    info?.deprecated.map {
                        [$0.since ?? "", $0.replacement ?? ""]
                            + Words.normalized($0.note).map { "\($0.key)=\($0.value)" }
                    }
                }
                if deprecation(x) != deprecation(y) { details.append("deprecated") }
                return details + Words.source(x?.source, y?.source)
            },
            describe: { callback, _ in
                ["swift: \(callback.swiftName)"] + (callback.posts.map { ["posts: \(Words.posts($0))"] } ?? [])
            })
    }

    mutating func compareNotifications() {
        // The closures read the versions, not `self`, which `compare` changes.
        let (old, new) = (self.old, self.new)
        compare(
            .notification, old: old.machine.notifications, new: new.machine.notifications, id: \.id,
            behaviour: { a, b in
                Words.field("swift", a.swiftName, b.swiftName) + Words.field("objc", a.objcName, b.objcName)
            },
            text: { a, b in
                let (x, y) = (old.document.notification(a.id), new.document.notification(b.id))
                return Words.text("description", x?.description, y?.description) + Words.source(x?.source, y?.source)
            })
    }

    /// Transitions have no ids: one is known by where it starts, what triggers it and its guard
    /// (`from a on e [g]`, `#2` for a second one with all three the same).
    mutating func compareTransitions() {
        // The closures read the versions, not `self`, which `compare` changes.
        let (old, new) = (self.old, self.new)
        func keyed(_ spec: LoadedSpec) -> [(key: String, transition: Transition)] {
            var seen: [String: Int] = [:]
            return spec.machine.transitions.map { transition in
                var key = "from \(Words.list(transition.sources))"
                key += transition.events.isEmpty ? " (eventless)" : " on \(Words.list(transition.events))"
                if let condition = transition.guardExpression { key += " [\(condition)]" }
                let count = seen[key, default: 0] + 1
                seen[key] = count
                return (count == 1 ? key : "\(key) #\(count)", transition)
            }
        }
        compare(
            .transition, old: keyed(old), new: keyed(new), id: { $0.key },
            behaviour: { a, b in
                var details: [String] = []
                let (x, y) = (a.transition, b.transition)
                if x.targets != y.targets {
                    details.append(
                        Words.change("to", Words.list(x.targets, none: "none"), Words.list(y.targets, none: "none")))
                }
                if x.type != y.type { details.append(Words.change("type", x.type.rawValue, y.type.rawValue)) }
                let (before, after) = (
                    Words.effects(old.machine.effects(of: x)), Words.effects(new.machine.effects(of: y))
                )
                if before != after { details.append(Words.change("does", before, after)) }
                return details
            },
            text: { a, b in
                let (x, y) = (
                    old.document.transitions[a.transition.index], new.document.transitions[b.transition.index]
                )
                return Words.text("description", x.description, y.description) + Words.source(x.source, y.source)
            },
            describe: { item, isNew in
                let effects = (isNew ? new : old).machine.effects(of: item.transition)
                return ["to: \(Words.list(item.transition.targets, none: "none (targetless)"))"]
                    + (effects.isEmpty ? [] : ["does: \(Words.effects(effects))"])
            })
    }

    /// A scenario's behaviour is its replay (`ScenarioReplay`); here only its words.
    mutating func compareScenarioWords() {
        let (a, b) = (old.document.scenarios, new.document.scenarios)
        let before = Dictionary(a.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for scenario in b {
            guard let previous = before[scenario.id] else { continue }
            let details = Words.described(previous, scenario)
            if !details.isEmpty {
                textChanges.append(.init(kind: .scenario, id: scenario.id, change: .changed, details: details))
            }
        }
    }

    mutating func compareSources() {
        // The closures read the versions, not `self`, which `compare` changes.
        let (old, new) = (self.old, self.new)
        compare(
            .source, old: old.document.sources, new: new.document.sources, id: \.id,
            text: { a, b in Words.text("title", a.title, b.title, quoted: true) + Words.field("url", a.url, b.url) })
    }

    mutating func compareRelated() {
        // The closures read the versions, not `self`, which `compare` changes.
        let (old, new) = (self.old, self.new)
        compare(
            .related, old: old.document.related, new: new.document.related, id: \.id,
            text: { a, b in Words.text("description", a.description, b.description) })
    }

    mutating func compareModelling() {
        let describe = { (notes: [SpecDocument.ModellingNote]) in
            notes.map { Words.normalized($0.text).map { "\($0.key)=\($0.value)" } + $0.about + [$0.source ?? ""] }
        }
        let (a, b) = (describe(old.document.modelling), describe(new.document.modelling))
        guard a != b else { return }
        let detail =
            a.count == b.count
            ? "\(Words.count(b.count, "note")) reworded" : "\(Words.count(a.count, "note")) → \(b.count)"
        textChanges.append(.init(kind: .modelling, id: "modelling", change: .changed, details: [detail]))
    }
}

/// How the diff words values: lists, effects, changes.
enum Words {
    static func list(_ items: [String], none: String = "none") -> String {
        items.isEmpty ? none : items.joined(separator: ", ")
    }

    static func change(_ name: String, _ before: String, _ after: String) -> String { "\(name): \(before) → \(after)" }

    static func count(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// What executable content does, in the engine's order: `a, notify: n, set f = true, raise e`.
    /// Flag assignments are by flag: the engine sets them all at once, so the order a `set:` map
    /// is written in changes nothing.
    static func effects(_ effects: [Effect]) -> String {
        let assignments = effects.compactMap { effect -> FlagAssignment? in
            if case .assignment(let assignment) = effect { assignment } else { nil }
        }.sorted { $0.flag < $1.flag }
        var next = assignments.makeIterator()
        let ordered = effects.map { effect -> Effect in
            if case .assignment = effect, let assignment = next.next() { .assignment(assignment) } else { effect }
        }
        return list(
            ordered.map { effect in
                switch effect {
                case .callback(let id): id
                case .notification(let id, _): "notify: \(id)"
                case .assignment(let assignment): "set \(assignment.flag) = \(assignment.value)"
                case .raise(let event): "raise \(event)"
                }
            })
    }

    static func posts(_ posted: PostedNotification?) -> String {
        posted.map { "\($0.notification) (\($0.order.rawValue))" } ?? "none"
    }

    static func kind(of state: StateNode) -> String {
        if let depth = state.history { return "history (\(depth.rawValue))" }
        if state.isFinal { return "final" }
        if state.isParallel { return "parallel" }
        return state.children.isEmpty ? "atomic" : "compound"
    }

    /// Locale → text, whatever order the translations are written in.
    static func normalized(_ text: LocalizedText?) -> [(key: String, value: String)] {
        (text?.translations ?? []).map { ($0.locale ?? "", $0.text) }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }

    /// `name` when the text differs, with the locales it differs in (`description (zh-Hans)`); a
    /// short title quoted before and after, per locale (`title (zh-Hans): “门” → none`).
    static func text(_ name: String, _ before: LocalizedText?, _ after: LocalizedText?, quoted: Bool = false)
        -> [String]
    {
        let (a, b) = (normalized(before), normalized(after))
        guard !a.elementsEqual(b, by: { $0 == $1 }) else { return [] }
        let old = Dictionary(a.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let locales = Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.sorted()
        let label = { (locale: String) in locale.isEmpty ? name : "\(name) (\(locale))" }
        guard quoted else {
            let named = locales.filter { !$0.isEmpty }
            return [named.isEmpty || locales.contains("") ? name : "\(name) (\(named.joined(separator: ", ")))"]
        }
        let quote = { (text: String?) in text.map { "“\($0)”" } ?? "none" }
        return locales.map { change(label($0), quote(old[$0]), quote(new[$0])) }
    }

    /// A fact's value, its translations in any order.
    static func fact(_ value: FactValue) -> String {
        guard case .text(let text) = value else { return value.description }
        return normalized(text).map { $0.key.isEmpty ? $0.value : "\($0.key): \($0.value)" }.joined(separator: " / ")
    }

    static func source(_ before: String?, _ after: String?) -> [String] { field("source", before, after) }

    /// `name: before → after` when the field changed (`none` where it has no value), else nothing.
    static func field(_ name: String, _ before: String?, _ after: String?) -> [String] {
        before == after ? [] : [change(name, before ?? "none", after ?? "none")]
    }

    /// The changes of an element's title, description and cited source.
    static func described<Element: DescribedElement>(_ before: Element?, _ after: Element?) -> [String] {
        text("title", before?.title, after?.title, quoted: true)
            + text("description", before?.description, after?.description)
            + source(before?.source, after?.source)
    }
}

/// A spec element with a title, a description and a source, which a diff compares as text.
protocol DescribedElement: DocumentedElement {
    var title: LocalizedText? { get }
}

extension SpecDocument.EventInfo: DescribedElement {}
extension SpecDocument.FlagInfo: DescribedElement {}
extension SpecDocument.ScenarioInfo: DescribedElement {}
