import LifeSpec
import LifecycleEngine

/// Mermaid `stateDiagram-v2` text for a spec, limited to what Mermaid draws correctly:
/// states, `state X { … }` composite blocks, `[*] -->` for initial states, `--> [*]` after final
/// states, transition labels `event [guard]` (plus callbacks at `full` detail), and internal
/// transitions as extra description lines of their state.
///
/// Mermaid cannot draw a transition between states inside different composite blocks, so such a
/// transition is drawn between the outermost blocks that separate them and its label says which
/// state it really leaves or enters. Transitions Mermaid cannot draw at all (a composite into
/// itself or its own children, a state into its enclosing composite, a composite's internal
/// transitions) are kept as `%%` comments. All text is escaped with Mermaid's `#code;` entities.
package enum MermaidRenderer {
    package static func render(_ spec: LoadedSpec, options: DiagramOptions) -> String {
        MermaidWriter(spec: spec, options: options).text()
    }

    /// Replaces every character Mermaid reads as syntax in a label or quoted description with its
    /// `#code;` entity; line breaks and tabs become spaces, control characters are dropped.
    package static func escape(_ text: String) -> String {
        // Most titles have nothing to escape: no copy then. Labels mostly do (`callback(_:)`), and
        // are escaped on their bytes: everything escaped is ASCII, a C1 control (C2 80–C2 9F) or
        // U+2028/U+2029 (E2 80 A8/A9), and every other byte is copied.
        guard needsEscaping(text) else { return text }
        return TextOutput.string { output in
            let bytes = text.utf8
            var index = bytes.startIndex
            while index != bytes.endIndex {
                let byte = bytes[index]
                let next = bytes.index(after: index)
                if byte < 0x80 {
                    switch byte {
                    case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                        output.write(byte: UInt8(ascii: " "))
                    case _ where syntax.contains(byte) && byte >= 0x20 && byte != 0x7F:
                        output.write(byte: UInt8(ascii: "#"))
                        output.write(Int(byte))
                        output.write(byte: UInt8(ascii: ";"))
                    case _ where byte < 0x20 || byte == 0x7F:
                        break  // dropped control
                    default:
                        output.write(byte: byte)
                    }
                    index = next
                } else if byte == 0xC2 || byte == 0xE2, let length = droppedLength(of: bytes[index...]) {
                    index = bytes.index(index, offsetBy: length)  // a C1 control, a line or paragraph separator
                } else {
                    output.write(byte: byte)
                    index = next
                }
            }
        }
    }

    /// The byte length of the dropped scalar `bytes` starts with: a C1 control (C2 80–C2 9F),
    /// U+2028 or U+2029 (E2 80 A8/A9); `nil` for any other.
    private static func droppedLength(of bytes: Substring.UTF8View) -> Int? {
        var iterator = bytes.makeIterator()
        switch iterator.next() {
        case 0xC2:
            guard let second = iterator.next(), second < 0xA0 else { return nil }
            return 2
        case 0xE2:
            guard iterator.next() == 0x80, let last = iterator.next(), last == 0xA8 || last == 0xA9 else { return nil }
            return 3
        default: return nil
        }
    }

    /// Whether `escape` changes `text`, from its UTF-8 bytes: the syntax characters and controls
    /// are ASCII, C1 controls are C2 80–C2 9F, U+2028/U+2029 are E2 80 A8/A9.
    private static func needsEscaping(_ text: String) -> Bool {
        let bytes = text.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte < 0x80
                ? syntax.contains(byte) : (byte == 0xC2 || byte == 0xE2) && droppedLength(of: bytes[index...]) != nil
            {
                return true
            }
            bytes.formIndex(after: &index)
        }
        return false
    }

    private static let syntax = ByteSet(controlsAnd: "#;:\"<>{}%&`")
}

private struct MermaidWriter {
    let spec: LoadedSpec
    let options: DiagramOptions
    let topology: DiagramTopology
    let path: ScenarioPath?
    let guardTexts: [Int: String]
    /// Built once per render: titles are asked for every state and event, children for every
    /// block, and each transition's effect text for every arrow it might merge with. States are
    /// kept by position (`Machine.states` order), so the blocks look nothing up by id.
    let lookup: DocumentIndex
    /// The notes', comments' and effect lines' own words, in the diagram's language.
    let words: Glossary
    /// Per state position: its Mermaid id, its title.
    let ids: [String]
    let titles: [String]
    /// Per block (a compound's position, or `topLevel`): its children's positions, and what it
    /// draws or notes in entry order.
    let children: [[Int]]
    let blockItems: [[BlockItem]]
    /// `effect(of:)` per transition index.
    private var effects: [String] = []
    /// Each event's title, looked up once.
    private var eventTitles: [String: String] = [:]
    private var machine: Machine { spec.machine }
    private var document: SpecDocument { spec.document }
    /// The block slot of the top level.
    private var topLevel: Int { ids.count }

    init(spec: LoadedSpec, options: DiagramOptions) {
        self.spec = spec
        self.options = options
        let machine = spec.machine
        topology = DiagramTopology(machine: machine)
        let states = machine.states
        ids = MermaidIdentifiers.list(states.map(\.id))
        path = options.scenario.flatMap { try? ScenarioPath(spec: spec, scenario: $0, locale: options.locale) }
        var texts: [Int: String] = [:]
        for info in spec.document.transitions { if let text = info.guardText { texts[info.index] = text } }
        guardTexts = texts
        lookup = DocumentIndex(spec.document)
        words = Glossary(locale: options.locale ?? spec.document.defaultLocale)
        titles = states.map { [lookup] state in
            spec.document.text(lookup.state(state.id)?.title, locale: options.locale) ?? state.id
        }
        // The engine's structure: `Machine` refuses parents, sources and targets that are not states.
        let parents = states.indices.map { machine.parentPosition(of: $0) ?? -1 }
        var children = Array(repeating: [Int](), count: states.count + 1)
        for (position, parent) in parents.enumerated() { children[parent < 0 ? states.count : parent].append(position) }
        self.children = children
        blockItems = Self.blockItems(topology: topology, parents: parents, machine: machine)
        var eventTitles: [String: String] = [:]
        for event in machine.events {
            eventTitles[event.id] =
                spec.document.text(lookup.event(event.id)?.title, locale: options.locale) ?? event.id
        }
        self.eventTitles = eventTitles
        effects = machine.transitions.map(effectText)
    }

    /// An arrow drawn in a block: between the block's children that separate its real ends,
    /// with notes naming the real ends where they differ (state positions). Entries are
    /// positions in `topology.entries`: copying an entry copies its transition.
    struct Drawn {
        let from: Int
        let to: Int
        let fromNote: Int?
        let toNote: Int?
        let entry: Int
    }

    enum BlockItem {
        case drawn(Drawn)
        /// A state into its enclosing composite: kept as a comment in that composite's block.
        case intoEnclosing(entry: Int, source: Int, target: Int)
        /// A transition into or out of a history pseudo-state (Mermaid has none): a comment in the
        /// block of the history state's parent.
        case throughHistory(entry: Int, source: Int, target: Int)
    }

    /// Assigns each transition to the one block that draws (or notes) it, in a single pass: each
    /// block scanning every transition made the writer quadratic in the machine's size.
    private static func blockItems(topology: DiagramTopology, parents: [Int], machine: Machine) -> [[BlockItem]] {
        let topLevel = parents.count
        var depth = Array(repeating: -1, count: parents.count)
        func depthOf(_ state: Int) -> Int {
            if depth[state] < 0 { depth[state] = parents[state] < 0 ? 0 : depthOf(parents[state]) + 1 }
            return depth[state]
        }
        func ancestor(of state: Int, atDepth level: Int) -> Int {
            var current = state
            for _ in level..<depthOf(state) { current = parents[current] }
            return current
        }
        func isInsideParallelState(_ state: Int) -> Bool {
            var current = parents[state]
            while current >= 0 {
                if case .parallel = machine.kind(at: current) { return true }
                current = parents[current]
            }
            return false
        }
        var result = Array(repeating: [BlockItem](), count: parents.count + 1)
        for (entryIndex, entry) in topology.entries.enumerated() {
            guard let targetID = entry.transition.target else { continue }
            if case .headerRow = entry.placement { continue }
            let source = machine.position(of: entry.source)!
            let target = machine.position(of: targetID)!
            if let history = [source, target].first(where: { position in
                if case .history = machine.kind(at: position) { true } else { false }
            }) {
                result[parents[history]].append(.throughHistory(entry: entryIndex, source: source, target: target))
                continue
            }
            if source == target {
                let parent = parents[source]
                result[parent < 0 ? topLevel : parent].append(
                    .drawn(Drawn(from: source, to: target, fromNote: nil, toNote: nil, entry: entryIndex)))
                continue
            }
            // The innermost common ancestor (`scope`, nil at the top level), and the number of
            // states the two ancestries (outermost first) share.
            var a = ancestor(of: source, atDepth: min(depthOf(source), depthOf(target)))
            var b = ancestor(of: target, atDepth: min(depthOf(source), depthOf(target)))
            while a != b, a >= 0 {
                a = parents[a]
                b = parents[b]
            }
            let scope = a >= 0 ? a : nil
            let common = scope.map { depthOf($0) + 1 } ?? 0
            // One end encloses the other: Mermaid cannot draw an edge across its own border.
            if scope == source || scope == target {
                guard depthOf(source) > depthOf(target), scope == target else { continue }
                result[target].append(.intoEnclosing(entry: entryIndex, source: source, target: target))
                continue
            }
            let from = ancestor(of: source, atDepth: common)
            var to = ancestor(of: target, atDepth: common)
            // mermaid.js (10.x, dagre) fails to lay out an arrow into a composite state inside a
            // concurrent region ("cannot set property 'rank' of undefined"): there the arrow goes
            // to the state it really enters, across the composite's border.
            if to != target, isInsideParallelState(to) { to = target }
            result[scope ?? topLevel].append(
                .drawn(
                    Drawn(
                        from: from, to: to, fromNote: from == source ? nil : source,
                        toNote: to == target ? nil : target, entry: entryIndex
                    )))
        }
        return result
    }
}

/// Mermaid ids for state ids: letters, digits and `_` only, never a keyword, unique
/// (case-insensitively, as Mermaid's own lookups are not always case-sensitive).
enum MermaidIdentifiers {
    static func make(_ states: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for (id, candidate) in zip(states, list(states)) { result[id] = candidate }
        return result
    }

    /// The id of each state, in the order given.
    static func list(_ states: [String]) -> [String] {
        // Compared lowercased: Mermaid's lexer matches these in any case. `default` and the
        // accessibility and link words broke the parse as state ids (mermaid.js 10/11).
        let keywords: Set<String> = [
            "state", "note", "direction", "end", "as", "class", "classdef", "style", "click", "left", "right", "of",
            "statediagram", "statediagram-v2", "default", "acctitle", "accdescr", "href", "scale", "call",
            "callback", "link", "linkstyle", "hide", "empty", "root", "fork", "join", "choice", "concurrent",
        ]
        var used: Set<String> = []
        used.reserveCapacity(states.count)
        return states.map { id in
            // One byte per scalar: ASCII letters (what `isAlphabetic` means in ASCII), digits
            // and `_` kept, anything else `_`.
            var bytes: [UInt8] = []
            bytes.reserveCapacity(id.utf8.count)
            for scalar in id.unicodeScalars {
                let value = scalar.value
                let keep =
                    (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || (0x30...0x39).contains(value)
                    || value == 0x5F
                bytes.append(keep ? UInt8(value) : UInt8(ascii: "_"))
            }
            var base = String(decoding: bytes, as: UTF8.self)
            if base.isEmpty || base.first!.isNumber || keywords.contains(base.lowercased()) { base = "s_" + base }
            // Mermaid names the start and end markers of a block `<parent>_start` / `<parent>_end`
            // (`root_start` at the top): a state so named would merge with a marker.
            let lowered = base.lowercased()
            if lowered.hasSuffix("_start") || lowered.hasSuffix("_end") { base += "_" }
            var candidate = base
            var counter = 2
            while used.contains(candidate.lowercased()) {
                candidate = "\(base)_\(counter)"
                counter += 1
            }
            used.insert(candidate.lowercased())
            return candidate
        }
    }
}

extension MermaidWriter {

    func text() -> String {
        var output = TextOutput(capacity: 1 << 16)
        // Every line ends with a newline, the last one included.
        func line(_ text: String) {
            output.write(text)
            output.write(byte: UInt8(ascii: "\n"))
        }
        line("%% " + words.generatedComment(file: Self.comment(Self.fileName(document.path))))
        line("stateDiagram-v2")
        line("    direction \(options.direction.rawValue)")
        if let path {
            line("    %% " + words.scenarioComment(Self.comment(path.id)))
        } else if let scenario = options.scenario {
            line("    %% " + words.scenarioNotRunComment(Self.comment(scenario)))
        }
        block(topLevel, depth: 1, to: &output)
        if let path, !path.visited.isEmpty {
            line("    classDef lifespecPath stroke:#0071E3,stroke-width:3px")
            let visited = machine.states.indices.filter { path.visited.contains(machine.states[$0].id) }.map { ids[$0] }
            line("    class \(visited.joined(separator: ",")) lifespecPath")
        }
        return output.text
    }

    /// The lines of one block: `parent` is a compound's position or `topLevel`.
    private func block(_ parent: Int, depth: Int, to output: inout TextOutput) {
        // Each line: the indent, its pieces, a newline (pieces as separate arguments rather than
        // a variadic list, which would allocate an array per line).
        func line(
            _ a: String, _ b: String = "", _ c: String = "", _ d: String = "", _ e: String = "", _ f: String = "",
            _ g: String = ""
        ) {
            output.write(repeating: UInt8(ascii: " "), count: 4 * depth)
            output.write(a)
            output.write(b)
            output.write(c)
            output.write(d)
            output.write(e)
            output.write(f)
            output.write(g)
            output.write(byte: UInt8(ascii: "\n"))
        }
        let states = machine.states
        let isParallel = parent != topLevel && states[parent].isParallel
        var regionCount = 0
        for child in children[parent] {
            let id = ids[child]
            let title = titles[child]
            if let depthOfHistory = states[child].history {
                line(
                    "%% ", id, " (" + MermaidRenderer.escape(title) + "): ",
                    depthOfHistory == .deep ? "deep" : "shallow",
                    " history of ", ids[parent], " (not drawn: Mermaid has no history states)")
                continue
            }
            // Regions of a parallel state are separated by Mermaid's concurrency line.
            if isParallel {
                if regionCount > 0 { line("--") }
                regionCount += 1
            }
            if states[child].isCompound || states[child].isParallel {
                line(id, " : ", MermaidRenderer.escape(title))
                for (word, actions) in [("entry", states[child].entry), ("exit", states[child].exit)] {
                    let text = blockText(actions)
                    if !text.isEmpty {
                        line(
                            "%% ", id, " ", MermaidRenderer.escape(word + " " + text),
                            words.notDrawnCompositeActions)
                    }
                }
                line("state ", id, " {")
                block(child, depth: depth + 1, to: &output)
                line("}")
            } else {
                if title == id { line(id) } else { line("state \"", MermaidRenderer.escape(title), "\" as ", id) }
                for entry in listed(on: states[child].id) {
                    line(id, " : ", label([entry]))
                }
                for (word, actions) in [("entry", states[child].entry), ("exit", states[child].exit)] {
                    let text = blockText(actions)
                    if !text.isEmpty { line(id, " : ", MermaidRenderer.escape(word + " " + text)) }
                }
            }
        }
        if parent == topLevel {
            line("[*] --> ", ids[machine.position(of: machine.initial)!])
        } else {
            for entry in listed(on: states[parent].id) {
                line(
                    "%% ", words.compoundHandles(ids[parent], label([entry])),
                    entry.transition.target.map { " → " + MermaidRenderer.escape(title($0)) } ?? "",
                    words.notDrawnOnComposite)
            }
            if let initial = states[parent].initial, !states[parent].isParallel {
                line("[*] --> ", ids[machine.position(of: initial)!])
            }
        }
        for child in children[parent] where states[child].isFinal {
            line(ids[child], " --> [*]")
        }
        // Arrows drawn in this block, then merged: transitions between the same two boxes with
        // the same effect become one arrow labelled with all their events.
        // Keyed by the ends; the effect texts (often not ASCII, so slow to hash) are compared only
        // between arrows with the same ends.
        struct EndsKey: Hashable {
            let from: Int
            let to: Int
            let fromNote: Int?
            let toNote: Int?
            let isEventless: Bool
        }
        let entries = topology.entries
        // An arrow: its first transition's ends and notes, and its transitions (entry positions).
        var groups: [(first: Drawn, entries: [Int])] = []
        var groupsByEnds: [EndsKey: [Int]] = [:]
        for item in blockItems[parent] {
            switch item {
            case .intoEnclosing(let entry, let source, let target):
                line(
                    "%% ", ids[source], " --> ", ids[target], " : ", label([entries[entry]]),
                    words.notDrawnToOwnBorder)
            case .throughHistory(let entry, let source, _):
                let transition = entries[entry].transition
                let text = label([entries[entry]])
                line(
                    "%% ", ids[source], " --> ",
                    transition.targets.map { ids[machine.position(of: $0)!] }.joined(separator: ", "),
                    text.isEmpty ? "" : " : " + text, words.notDrawnHistory)
            case .drawn(let drawn):
                let transition = entries[drawn.entry].transition.index
                let key = EndsKey(
                    from: drawn.from, to: drawn.to, fromNote: drawn.fromNote, toNote: drawn.toNote,
                    isEventless: entries[drawn.entry].transition.isEventless)
                if let index = groupsByEnds[key]?.first(where: {
                    effects[entries[groups[$0].first.entry].transition.index] == effects[transition]
                }) {
                    groups[index].entries.append(drawn.entry)
                } else {
                    groupsByEnds[key, default: []].append(groups.count)
                    groups.append((drawn, [drawn.entry]))
                }
            }
        }
        for group in groups {
            let first = group.first
            var text = options.detail == .states && path == nil ? "" : label(group.entries.map { entries[$0] })
            if let notes = words.endNotes(from: first.fromNote.map { titles[$0] }, to: first.toNote.map { titles[$0] })
            {
                text += (text.isEmpty ? "" : " ") + MermaidRenderer.escape(notes)
            }
            if text.isEmpty {
                line(ids[first.from], " --> ", ids[first.to])
            } else {
                line(ids[first.from], " --> ", ids[first.to], " : ", text)
            }
            for entry in group.entries {
                let targets = entries[entry].transition.targets
                guard targets.count > 1 else { continue }
                line(
                    "%% ", ids[first.from], " --> ",
                    targets.map { ids[machine.position(of: $0)!] }.joined(separator: ", "),
                    " (several targets: Mermaid draws the first)")
            }
        }
    }

    /// Transitions listed inside a state: internal ones, and a compound's transitions into itself.
    private func listed(on state: String) -> [DiagramTopology.Entry] {
        guard options.detail >= .events else { return [] }
        return topology.listed(on: state)
    }

    /// What a transition does, as label text: `/ callback(), → notification, set f = true`.
    private func effect(of transition: Transition) -> String {
        effects[transition.index]
    }

    /// An entry or exit block as label text (`/ callback(), raise e`), at `full` detail.
    private func blockText(_ block: ActionBlock) -> String {
        guard options.detail == .full, !block.isEmpty else { return "" }
        return text(of: machine.effects(of: block))
    }

    private func effectText(_ transition: Transition) -> String {
        guard options.detail == .full else { return "" }
        return text(of: machine.effects(of: transition))
    }

    /// "/ " and the effects separated by ", ".
    private func text(of effects: [Effect]) -> String {
        var text = ""
        func add(_ action: String) {
            text += text.isEmpty ? "/ " : words.listSeparator
            text += action
        }
        for effect in effects {
            switch effect {
            case .callback(let id): add(lookup.shownName(ofCallback: id, in: machine))
            case .notification(let id, _):
                if options.showNotifications { add("→ " + lookup.shownName(ofNotification: id, in: machine)) }
            case .assignment(let assignment):
                add(lookup.assignmentWords(assignment.flag, to: assignment.value, locale: options.locale, words: words))
            case .raise(let event): add(words.raise(eventTitle(event)))
            }
        }
        return text
    }

    /// `1 · event, event [guard] / effect`, escaped: the events of transitions with one effect
    /// (a guard they share written once), each led by its scenario step numbers.
    private func label(_ entries: [DiagramTopology.Entry]) -> String {
        guard let first = entries.first else { return "" }
        func guardText(_ entry: DiagramTopology.Entry) -> String? {
            if let expression = entry.transition.guardExpression,
                let text = lookup.guardWords(expression, locale: options.locale, words: words)
            {
                return text
            }
            return guardTexts[entry.transition.index] ?? entry.transition.guardExpression?.description
        }
        let guards = entries.count > 1 ? entries.map(guardText) : []
        let sharesGuard = entries.count > 1 && Set(guards).count == 1
        // Each entry's parts joined by " ", the entries that have any by ", ".
        var text = ""
        var eventCount = 0
        for (offset, entry) in entries.enumerated() {
            var partCount = 0
            func part(_ piece: String) {
                if partCount > 0 { text += " " } else if eventCount > 0 { text += words.listSeparator }
                text += piece
                partCount += 1
            }
            if let numbers = path?.numbers[
                ScenarioPath.EdgeKey(transition: entry.transition.index, source: entry.source)], !numbers.isEmpty
            {
                part(numbers.map(String.init).joined(separator: ", ") + " ·")
            }
            if options.detail > .states {
                if let event = entry.transition.trigger.eventID { part(eventTitle(event)) }
                if options.detail >= .events, !sharesGuard,
                    let guardText = entries.count > 1 ? guards[offset] : guardText(entry)
                {
                    part("[" + guardText + "]")
                }
            }
            if partCount > 0 { eventCount += 1 }
        }
        if options.detail >= .events, sharesGuard, let guardText = guards[0] {
            text += (text.isEmpty ? "" : " ") + "[" + guardText + "]"
        }
        let effect = effect(of: first.transition)
        if !effect.isEmpty { text += (text.isEmpty ? "" : " ") + effect }
        return MermaidRenderer.escape(text)
    }

    private func title(_ state: String) -> String {
        machine.position(of: state).map { titles[$0] } ?? state
    }

    private func eventTitle(_ event: String) -> String {
        eventTitles[event] ?? document.text(lookup.event(event)?.title, locale: options.locale) ?? event
    }

    static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    private static func comment(_ text: String) -> String {
        MermaidRenderer.escape(text)
    }
}
