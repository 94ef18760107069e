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
public enum MermaidRenderer {
    public static func render(_ spec: LoadedSpec, options: DiagramOptions) -> String {
        MermaidWriter(spec: spec, options: options).text()
    }

    /// Replaces every character Mermaid reads as syntax in a label or quoted description with its
    /// `#code;` entity; line breaks and tabs become spaces, control characters are dropped.
    public static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "#", ";", ":", "\"", "<", ">", "{", "}", "%", "&", "`":
                output += "#\(scalar.value);"
            case "\n", "\r", "\t":
                output += " "
            default:
                if DOTEncoder.isDroppedControl(scalar) || scalar == "\u{2028}" || scalar == "\u{2029}" { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

private struct MermaidWriter {
    let spec: LoadedSpec
    let options: DiagramOptions
    let topology: DiagramTopology
    let ids: [String: String]
    let path: ScenarioPath?
    let guardTexts: [Int: String]
    /// Built once per render: titles are asked for every state and event, children for every
    /// block, and each transition's effect text for every arrow it might merge with.
    let lookup: DocumentIndex
    let childrenByParent: [String?: [StateNode]]
    /// What each block (`nil`: the top level) draws or notes, in entry order.
    let blockItems: [String?: [BlockItem]]
    /// `effect(of:)` per transition index.
    private var effects: [String] = []
    private var machine: Machine { spec.machine }
    private var document: SpecDocument { spec.document }

    init(spec: LoadedSpec, options: DiagramOptions) {
        self.spec = spec
        self.options = options
        topology = DiagramTopology(machine: spec.machine)
        ids = Self.identifiers(spec.machine.states.map(\.id))
        path = options.scenario.flatMap { try? ScenarioPath(spec: spec, scenario: $0, locale: options.locale) }
        var texts: [Int: String] = [:]
        for info in spec.document.transitions { if let text = info.guardText { texts[info.index] = text } }
        guardTexts = texts
        lookup = DocumentIndex(spec.document)
        childrenByParent = DiagramTopology.childrenByParent(spec.machine)
        blockItems = Self.blockItems(topology: topology, machine: spec.machine)
        effects = spec.machine.transitions.map(effectText)
    }

    /// An arrow drawn in a block: between the block's children that separate its real ends,
    /// with notes naming the real ends where they differ.
    struct Drawn {
        let from: String
        let to: String
        let fromNote: String?
        let toNote: String?
        let entry: DiagramTopology.Entry
    }

    enum BlockItem {
        case drawn(Drawn)
        /// A state into its enclosing composite: kept as a comment in that composite's block.
        case intoEnclosing(DiagramTopology.Entry, target: String)
    }

    /// Assigns each transition to the one block that draws (or notes) it, in a single pass: each
    /// block scanning every transition made the writer quadratic in the machine's size.
    private static func blockItems(topology: DiagramTopology, machine: Machine) -> [String?: [BlockItem]] {
        var result: [String?: [BlockItem]] = [:]
        for entry in topology.entries {
            guard let target = entry.transition.target else { continue }
            if case .headerRow = entry.placement { continue }
            let source = entry.source
            if source == target {
                let parent = machine.state(source)?.parent
                result[parent, default: []].append(.drawn(Drawn(from: source, to: target, fromNote: nil, toNote: nil, entry: entry)))
                continue
            }
            let sourceChain = Array(machine.ancestry(of: source).reversed())
            let targetChain = Array(machine.ancestry(of: target).reversed())
            var common = 0
            while common < min(sourceChain.count, targetChain.count), sourceChain[common] == targetChain[common] { common += 1 }
            let scope = common == 0 ? nil : sourceChain[common - 1]
            // One end encloses the other: Mermaid cannot draw an edge across its own border.
            if common == sourceChain.count || common == targetChain.count {
                guard sourceChain.count > targetChain.count, scope == target else { continue }
                result[scope, default: []].append(.intoEnclosing(entry, target: target))
                continue
            }
            let from = sourceChain[common]
            let to = targetChain[common]
            result[scope, default: []].append(.drawn(Drawn(from: from, to: to, fromNote: from == source ? nil : source, toNote: to == target ? nil : target, entry: entry)))
        }
        return result
    }

    static func identifiers(_ states: [String]) -> [String: String] { MermaidIdentifiers.make(states) }
}

/// Mermaid ids for state ids: letters, digits and `_` only, never a keyword, unique
/// (case-insensitively, as Mermaid's own lookups are not always case-sensitive).
enum MermaidIdentifiers {
    static func make(_ states: [String]) -> [String: String] {
        let keywords: Set<String> = ["state", "note", "direction", "end", "as", "class", "classdef", "style", "click", "left", "right", "of", "stateDiagram", "stateDiagram-v2"]
        var used: Set<String> = []
        var result: [String: String] = [:]
        for id in states {
            var base = String(id.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_") ? Character(scalar) : "_"
            })
            if base.isEmpty || base.first!.isNumber || keywords.contains(base.lowercased()) { base = "s_" + base }
            var candidate = base
            var counter = 2
            while used.contains(candidate.lowercased()) {
                candidate = "\(base)_\(counter)"
                counter += 1
            }
            used.insert(candidate.lowercased())
            result[id] = candidate
        }
        return result
    }
}

extension MermaidWriter {

    func text() -> String {
        var lines = ["%% generated by lifespec from \(Self.fileName(document.path)) — do not edit", "stateDiagram-v2"]
        lines.append("    direction \(options.direction.rawValue)")
        if let path {
            lines.append("    %% scenario \(Self.comment(path.id)): numbered steps, visited states in class lifespecPath")
        } else if let scenario = options.scenario {
            lines.append("    %% scenario \(Self.comment(scenario)) does not run on this machine; drawn without it")
        }
        lines += block(for: nil, depth: 1)
        if let path, !path.visited.isEmpty {
            lines.append("    classDef lifespecPath stroke:#0071E3,stroke-width:3px")
            let visited = machine.states.filter { path.visited.contains($0.id) }.compactMap { ids[$0.id] }
            lines.append("    class \(visited.joined(separator: ",")) lifespecPath")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func block(for parent: String?, depth: Int) -> [String] {
        let indent = String(repeating: "    ", count: depth)
        var lines: [String] = []
        let children = childrenByParent[parent] ?? []
        for child in children {
            let id = ids[child.id]!
            let title = self.title(child.id)
            if child.isCompound {
                lines.append(indent + id + " : " + MermaidRenderer.escape(title))
                lines.append(indent + "state " + id + " {")
                lines += block(for: child.id, depth: depth + 1)
                lines.append(indent + "}")
            } else {
                lines.append(indent + (title == id ? id : "state \"" + MermaidRenderer.escape(title) + "\" as " + id))
                for entry in listed(on: child.id) {
                    lines.append(indent + id + " : " + label([entry]))
                }
            }
        }
        if let parent, let node = machine.state(parent) {
            for entry in listed(on: parent) {
                lines.append(indent + "%% " + ids[parent]! + " handles " + label([entry])
                    + (entry.transition.target.map { " → " + MermaidRenderer.escape(title($0)) } ?? "") + " (not drawn: Mermaid cannot attach it to a composite state)")
            }
            if let initial = node.initial { lines.append(indent + "[*] --> " + ids[initial]!) }
        } else {
            lines.append(indent + "[*] --> " + ids[machine.initial]!)
        }
        for child in children where child.isFinal {
            lines.append(indent + ids[child.id]! + " --> [*]")
        }
        // Arrows drawn in this block, then merged: transitions between the same two boxes with
        // the same effect become one arrow labelled with all their events.
        struct MergeKey: Hashable {
            let from: String
            let to: String
            let fromNote: String?
            let toNote: String?
            let isEventless: Bool
            let effect: String
        }
        var groups: [[Drawn]] = []
        var groupIndex: [MergeKey: Int] = [:]
        for item in blockItems[parent] ?? [] {
            switch item {
            case .intoEnclosing(let entry, let target):
                lines.append(indent + "%% " + ids[entry.source]! + " --> " + ids[target]! + " : " + label([entry])
                    + " (not drawn: Mermaid cannot draw from inside a composite state to its own border)")
            case .drawn(let drawn):
                let key = MergeKey(from: drawn.from, to: drawn.to, fromNote: drawn.fromNote, toNote: drawn.toNote,
                                   isEventless: drawn.entry.transition.isEventless, effect: effects[drawn.entry.transition.index])
                if let index = groupIndex[key] {
                    groups[index].append(drawn)
                } else {
                    groupIndex[key] = groups.count
                    groups.append([drawn])
                }
            }
        }
        for group in groups {
            let first = group[0]
            var text = options.detail == .states && path == nil ? "" : label(group.map(\.entry))
            var notes: [String] = []
            if let note = first.fromNote { notes.append("from " + title(note)) }
            if let note = first.toNote { notes.append("to " + title(note)) }
            if !notes.isEmpty { text += (text.isEmpty ? "" : " ") + MermaidRenderer.escape("(" + notes.joined(separator: ", ") + ")") }
            lines.append(indent + ids[first.from]! + " --> " + ids[first.to]! + (text.isEmpty ? "" : " : " + text))
        }
        return lines
    }

    /// Transitions listed inside a state: internal ones, and a compound's transitions into itself.
    private func listed(on state: String) -> [DiagramTopology.Entry] {
        guard options.detail > .states else { return [] }
        return topology.listed(on: state)
    }

    /// What a transition does, as label text: `/ callback(), → notification, set f = true`.
    private func effect(of transition: Transition) -> String {
        effects[transition.index]
    }

    private func effectText(_ transition: Transition) -> String {
        guard options.detail == .full else { return "" }
        var actions: [String] = []
        for action in transition.actions {
            for step in machine.expand(action) {
                switch step {
                case .callback(let id): actions.append(machine.callback(id)?.swiftName ?? id)
                case .notification(let id): if options.showNotifications { actions.append("→ " + (machine.notification(id)?.swiftName ?? id)) }
                case .transition: break
                }
            }
        }
        actions += transition.assignments.map { "set \($0.flag) = \($0.value)" }
        actions += transition.raises.map { "raise " + eventTitle($0) }
        return actions.isEmpty ? "" : "/ " + actions.joined(separator: ", ")
    }

    /// `1 · event, event [guard] / effect`, escaped: the events of transitions with one effect
    /// (a guard they share written once), each led by its scenario step numbers.
    private func label(_ entries: [DiagramTopology.Entry]) -> String {
        guard let first = entries.first else { return "" }
        let guards = entries.map { guardTexts[$0.transition.index] ?? $0.transition.guardExpression?.description }
        let sharesGuard = entries.count > 1 && Set(guards).count == 1
        var events: [String] = []
        for (entry, guardText) in zip(entries, guards) {
            var parts: [String] = []
            if let numbers = path?.numbers[ScenarioPath.EdgeKey(transition: entry.transition.index, source: entry.source)], !numbers.isEmpty {
                parts.append(numbers.map(String.init).joined(separator: ", ") + " ·")
            }
            if options.detail > .states {
                if let event = entry.transition.trigger.eventID { parts.append(eventTitle(event)) }
                if let guardText, !sharesGuard { parts.append("[" + guardText + "]") }
            }
            if !parts.isEmpty { events.append(parts.joined(separator: " ")) }
        }
        var text = events.joined(separator: ", ")
        if options.detail > .states, sharesGuard, let guardText = guards[0] { text += (text.isEmpty ? "" : " ") + "[" + guardText + "]" }
        let effect = effect(of: first.transition)
        if !effect.isEmpty { text += (text.isEmpty ? "" : " ") + effect }
        return MermaidRenderer.escape(text)
    }

    private func title(_ state: String) -> String {
        document.text(lookup.state(state)?.title, locale: options.locale) ?? state
    }

    private func eventTitle(_ event: String) -> String {
        document.text(lookup.event(event)?.title, locale: options.locale) ?? event
    }

    static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    private static func comment(_ text: String) -> String {
        MermaidRenderer.escape(text)
    }
}
