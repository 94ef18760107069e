import LifeSpec
import LifecycleEngine

/// What a reader reads on a page, in the page's words: states, events and flags by their titles
/// (an id only where a title is missing), conditions in words, walkthrough steps, the event
/// matrix's cells and a callback's "Called when". The Markdown page and the DocC article both say
/// things through it, so they say the same thing; each passes its own escaping.
///
/// A class for the reason `MarkdownPageBuilder` is one: its methods are passed around as closures
/// (`map(stateName)`), and as a struct each would copy it (document, machine, index, closures).
final class PageWords {
    let document: SpecDocument
    let machine: Machine
    let lookup: DocumentIndex
    let locale: String?
    let strings: Glossary
    /// Spec text as the target writes it in running text.
    let escape: (String) -> String
    /// A code span as the target writes it.
    let code: (String) -> String
    /// `calledWhen`'s line for a transition alone in its group, by transition index: a transition
    /// that makes several calls is described once (as the page's former cache did).
    private var lines: [Int: String] = [:]
    /// Names already made, by id: the tables name the same states and events over and over.
    private var stateNames: [String: String] = [:]
    private var eventNames: [String: String] = [:]

    /// `locale` is the page's (the spec's default when the caller names none).
    init(spec: LoadedSpec, locale: String?, escape: @escaping (String) -> String, code: @escaping (String) -> String) {
        document = spec.document
        machine = spec.machine
        // Built once per page: `SpecDocument`'s own lookups are linear scans, and the tables ask
        // for every state, callback and transition.
        lookup = DocumentIndex(spec.document)
        self.locale = locale
        strings = Glossary(locale: locale)
        self.escape = escape
        self.code = code
    }

    func text(_ value: LocalizedText?) -> String? { document.shownText(value, locale: locale) }

    // MARK: Names

    /// A state as a reader knows it: its title (in a system, after the part it belongs to), or
    /// its id when it has none.
    func stateName(_ id: String) -> String {
        if let known = stateNames[id] { return known }
        let name = titled(text(lookup.state(id)?.title), id: id)
        stateNames[id] = name
        return name
    }

    /// An event as a reader knows it: its title (after its part in a system), or its id.
    func eventName(_ id: String) -> String {
        if let known = eventNames[id] { return known }
        let name = titled(text(lookup.event(id)?.title), id: id)
        eventNames[id] = name
        return name
    }

    private func titled(_ title: String?, id: String) -> String {
        guard let title else { return code(id) }
        let name = escape(title)
        // A part's names lead with the part, as drawings' guards do (`B Appearing`).
        guard let part = document.part(of: id) else { return name }
        return escape(part.name) + " " + name
    }

    /// Whatever element a modelling note is about, named as the rest of the page names it: a
    /// state or event by its title, a flag by its title, a call by its Swift name.
    func elementName(_ id: String) -> String {
        if lookup.state(id) != nil { return stateName(id) }
        if lookup.event(id) != nil { return eventName(id) }
        if lookup.flag(id) != nil { return lookup.flagTitle(id, locale: locale).map(escape) ?? code(id) }
        if lookup.callback(id) != nil { return callbackName(id) }
        if lookup.notification(id) != nil { return notificationName(id) }
        return code(id)
    }

    /// The lead of a modelling note: the elements it is about, or `nil` for a note about the whole.
    private func modellingLead(_ note: SpecDocument.ModellingNote) -> String? {
        note.about.isEmpty ? nil : note.about.map(elementName).joined(separator: strings.listSeparator)
    }

    /// The choices the spec makes where Apple leaves room, apart from what Apple says: the intro,
    /// then a note an item, each with its source's mark (`sourceMark`, as the page numbers them).
    func modellingSection(sourceMark: (String?) -> String) -> MarkdownBlocks {
        guard !document.modelling.isEmpty else { return MarkdownBlocks() }
        let items = document.modelling.map { note -> String in
            let text = (text(note.text).map(escape) ?? "") + sourceMark(note.source)
            return "- " + strings.modellingItem(about: modellingLead(note), note: text)
        }
        return MarkdownBlocks(strings.modellingIntro, lines: items)
    }

    /// A flag's value in words by its title (`having background work`, `not having …`), or as
    /// `flag = value` when it has none.
    func flagWords(_ id: String, _ value: Bool) -> String {
        guard let title = lookup.flagTitle(id, locale: locale) else { return code(id) + " = " + code(String(value)) }
        return strings.flagPhrase(escape(title), value)
    }

    /// A guard in words by the titles of the flags and states it reads, or as written when one of
    /// them has no title.
    func condition(_ expression: GuardExpression) -> String {
        lookup.guardWords(expression, locale: locale, words: strings).map(escape) ?? code(expression.description)
    }

    func callbackName(_ id: String) -> String { code(lookup.shownName(ofCallback: id, in: machine)) }
    func notificationName(_ id: String) -> String { code(lookup.shownName(ofNotification: id, in: machine)) }

    func observation(_ observation: Observation) -> String {
        switch observation {
        case .callback(let id): strings.calls(callbackName(id))
        case .notification(let id): strings.posts(notificationName(id))
        }
    }

    // MARK: Walkthroughs

    /// One transition of a walkthrough step and what it made observable, by titles (`readable`)
    /// or by spec ids.
    func move(_ move: ScenarioWalkthrough.Move, event: String, readable: Bool) -> String {
        let state = readable ? stateName : code
        var text: String
        if move.step.isInternal {
            text = strings.staysIn(state(move.step.from))
        } else {
            text = state(move.step.from) + " → " + state(move.step.to)
        }
        if move.step.event == nil {
            text += strings.automatically
        } else if let raised = move.step.event, raised != event {
            text += strings.raised(readable ? eventName(raised) : code(raised))
        }
        let observed = move.observations.map(observation)
        return text + strings.colon
            + (observed.isEmpty ? "*\(strings.nothingObservable)*" : observed.joined(separator: strings.then))
    }

    // MARK: Walkthroughs' set-up

    /// In a system, the earlier walkthrough whose events begin this one's, from the same start
    /// (the navigation stack's "Push B" before every pop): its steps are stated once, there, and
    /// this walkthrough's timeline begins after them.
    func setUp(of scenario: SpecDocument.ScenarioInfo) -> (steps: Int, scenario: SpecDocument.ScenarioInfo)? {
        guard document.isSystem, let position = document.scenarios.firstIndex(of: scenario) else { return nil }
        let earlier = document.scenarios[..<position].filter { other in
            other.from == scenario.from && other.flags == scenario.flags && !other.events.isEmpty
                && other.events.count < scenario.events.count
                && Array(scenario.events.prefix(other.events.count)) == other.events
                && ScenarioWalkthrough(scenario: other, machine: machine).stop == nil
        }
        guard let longest = earlier.max(by: { $0.events.count < $1.events.count }) else { return nil }
        return (longest.events.count, longest)
    }

    // MARK: Called when

    /// The transitions that make a call, one line each by titles (`Not running → Inactive on
    /// Open the app if not using the legacy launch method`). Transitions that differ only in their
    /// guards read as one line: their guards joined, or none when together they always hold.
    func calledWhen(_ transitions: [Transition]) -> [String] {
        struct Key: Hashable {
            let sources: [String]
            let target: String?
            let event: String?
        }
        var order: [Key] = []
        var groups: [Key: [Transition]] = [:]
        for transition in transitions {
            let key = Key(
                sources: transition.sources, target: transition.target.map { machine.leaf(entering: $0) },
                event: transition.trigger.eventID)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(transition)
        }
        return order.map { key in
            let group = groups[key]!
            if group.count == 1, let known = lines[group[0].index] { return known }
            let condition = Self.joinedGuard(group.map(\.guardExpression))
            let line = strings.when(
                from: key.sources.map(stateName).joined(separator: strings.listSeparator),
                to: key.target.map(stateName), event: key.event.map(eventName),
                guard: condition.map(self.condition))
            if group.count == 1 { lines[group[0].index] = line }
            return line
        }
    }

    /// The condition under which one of `guards` holds (`nil` for no guard): `nil` when one has
    /// none or when together they hold for every value of the flags they read; the shortest
    /// conjunction that says the same when there is one; else the guards joined by "or".
    static func joinedGuard(_ guards: [GuardExpression?]) -> GuardExpression? {
        guard guards.count > 1 else { return guards.first ?? nil }
        let expressions = guards.compactMap { $0 }
        guard expressions.count == guards.count else { return nil }
        let either = expressions.dropFirst().reduce(expressions[0]) { .or($0, $1) }
        var flags: [String] = []
        for flag in expressions.flatMap(\.flags) where !flags.contains(flag) { flags.append(flag) }
        // `in()` depends on more than flags, and past a few flags the table is not worth it.
        guard !either.readsStates, flags.count <= 10 else { return either }
        let universe = Array(0..<(1 << flags.count))
        let holds = universe.filter { either.evaluate(EventStateMatrix.assignment($0, flags: flags)) }
        if holds.count == universe.count { return nil }
        guard !holds.isEmpty, let literals = EventStateMatrix.cube(holds, within: universe, flags: flags) else {
            return either
        }
        return expression(literals)
    }

    // MARK: Matrix

    /// A matrix column's heading: its states by titles (` + ` between regions).
    func column(_ states: [String]) -> String { states.map(stateName).joined(separator: " + ") }

    /// The events in each state: the intro, then a row an event and a column a state (or a
    /// configuration), `lineBreak` between a cell's branches.
    func matrixSection(stateSpace: StateSpace?, lineBreak: String) -> MarkdownBlocks {
        let matrix = EventStateMatrix(machine: machine, stateSpace: stateSpace)
        if matrix.columnsLeftOut > 0 {
            return MarkdownBlocks(
                strings.matrixLeftOut(configurations: matrix.columnsLeftOut, limit: EventStateMatrix.configurationLimit)
            )
        }
        guard !matrix.rows.isEmpty, !matrix.leaves.isEmpty else { return MarkdownBlocks() }
        var table = MarkdownTable([strings.eventColumn] + matrix.columns.map(column))
        for matrixRow in matrix.rows {
            table.addRow { row in
                row.cell(matrixRow.event.map(eventName) ?? strings.alwaysRow)
                for branches in matrixRow.cells {
                    // Most cells: not handled, whatever the flags, written straight into the table.
                    if branches.count == 1, branches[0].steps == nil, case .always = branches[0].condition {
                        row.cell(line: strings.none)
                    } else {
                        row.cell(cell(branches, lineBreak: lineBreak))
                    }
                }
            }
        }
        var intro = strings.matrixIntro
        if matrix.rows.contains(where: { $0.event == nil }) {
            intro += strings.sentenceSeparator + strings.alwaysRowNote
        }
        return MarkdownBlocks(intro, table)
    }

    /// A matrix cell: each branch (`lineBreak` between them), a conditional one with its
    /// condition in words.
    func cell(_ branches: [EventStateMatrix.Branch], lineBreak: String) -> String {
        branches.map { branch in
            switch branch.condition {
            case .always:
                outcome(of: branch)
            case .when(let literals):
                strings.branch(outcome(of: branch), condition: condition(Self.expression(literals)))
            case .whenAny(let terms):
                strings.branch(
                    outcome(of: branch),
                    condition: condition(
                        terms.dropFirst().reduce(Self.expression(terms[0])) { .or($0, Self.expression($1)) }))
            case .otherwise:
                strings.otherwise(outcome(of: branch))
            }
        }.joined(separator: lineBreak)
    }

    /// Where a branch's run goes: each step's target (arrows between them), or with parallel
    /// regions the configuration it ends in; (stays) for a step or run without a target, — when
    /// the event is not handled.
    func outcome(of branch: EventStateMatrix.Branch) -> String {
        guard let steps = branch.steps else { return strings.none }
        if let end = branch.end {
            return steps.allSatisfy(\.isInternal) ? strings.stays : end.map(stateName).joined(separator: " + ")
        }
        return steps.map { $0.isInternal ? strings.stays : stateName($0.to) }.joined(separator: strings.arrow)
    }

    /// A conjunction of flag literals as a guard (`fast && !slow`).
    static func expression(_ literals: [EventStateMatrix.Literal]) -> GuardExpression {
        let terms: [GuardExpression] = literals.map { $0.value ? .flag($0.flag) : .not(.flag($0.flag)) }
        guard let first = terms.first else { return .constant(true) }
        return terms.dropFirst().reduce(first) { .and($0, $1) }
    }
}

extension GuardExpression {
    /// Whether the guard reads a state (`in()`), not only flags.
    var readsStates: Bool {
        switch self {
        case .flag, .constant: false
        case .inState: true
        case .not(let inner): inner.readsStates
        case .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.readsStates || rhs.readsStates
        }
    }
}

/// A page builder that says things through its `PageWords`: the document, machine, lookup, locale
/// and glossary are the words', held once for the page.
protocol WordedPage: AnyObject {
    var words: PageWords { get }
}

extension WordedPage {
    var document: SpecDocument { words.document }
    var machine: Machine { words.machine }
    var lookup: DocumentIndex { words.lookup }
    var locale: String? { words.locale }
    var strings: Glossary { words.strings }

    func text(_ value: LocalizedText?) -> String? { words.text(value) }
}
