import LifeSpec
import LifecycleEngine

/// Colours and fonts of the diagrams. Fixed names only: a font Graphviz cannot find falls back
/// silently, so these are the PostScript core names every Graphviz install maps (Helvetica →
/// Liberation Sans/Arial/Helvetica, Courier → Liberation Mono/Courier New/Courier).
enum DiagramStyle {
    static let font = "Helvetica"
    static let monoFont = "Courier"
    static let ink = "#1D1D1F"
    static let secondary = "#6E6E73"
    static let tertiary = "#8E8E93"
    static let line = "#3A3A3C"
    static let clusterLine = "#C7C7CC"
    static let clusterFills = ["#F5F5F7", "#EBEBF0", "#E1E1E8", "#D8D8E0"]
    static let accent = "#0071E3"
    /// An overview's label column, in characters (a wide character counts two).
    static let overviewColumns = 20
    /// An overview's type size over the other drawings' (labels 9 → 12 pt, states 11 → 15 pt).
    static let overviewScale = 4.0 / 3.0
    static let faded = "#D1D1D6"
    static let fadedText = "#AEAEB2"
    static let stateSize = 11.0
    static let clusterSize = 11.0
    static let edgeSize = 9.0
    static let codeSize = 8.5
    static let idSize = 8.0
    static let badgeSize = 8.0
    static let headingSize = 13.0
}

/// Builds the `DOTGraph` for one spec at one (already planned) detail level.
struct DiagramComposer {
    let spec: LoadedSpec
    let options: DiagramOptions
    let path: ScenarioPath?
    let topology: DiagramTopology
    private let guardTexts: [Int: String]
    /// Built once per diagram: titles are asked for every state and event, and children for
    /// every compound (scanning the document or the state list each time was quadratic).
    private let lookup: DocumentIndex
    private let childrenByParent: [String?: [StateNode]]
    /// Every state active when the machine has entered its initial states (regions included).
    private let initialActiveStates: Set<String>
    /// The legend's and the effect lines' own words, in the diagram's language.
    private let words: Glossary

    private var machine: Machine { spec.machine }
    private var document: SpecDocument { spec.document }

    /// `topology` must be the one for `options.group` (the builder shares the plan's).
    init(spec: LoadedSpec, options: DiagramOptions, path: ScenarioPath?, topology: DiagramTopology? = nil) {
        self.spec = spec
        self.options = options
        self.path = path
        self.topology = topology ?? DiagramTopology(machine: spec.machine, group: options.group)
        var texts: [Int: String] = [:]
        for info in spec.document.transitions { if let text = info.guardText { texts[info.index] = text } }
        guardTexts = texts
        lookup = DocumentIndex(spec.document)
        childrenByParent = DiagramTopology.childrenByParent(spec.machine)
        initialActiveStates = Set((try? Runner(machine: spec.machine))?.activeStates ?? [])
        words = Glossary(locale: options.locale ?? spec.document.defaultLocale)
    }

    func graph() -> DOTGraph {
        var statements: [DOTStatement]
        if let group = options.group, let node = machine.state(group) {
            statements = [node.isCompound || node.isParallel ? .subgraph(cluster(node, depth: 0)) : .node(leaf(node))]
            statements += topology.outsideStates.compactMap { machine.state($0) }.map { .node(outside($0)) }
        } else {
            statements = states(in: nil, depth: 0)
        }
        for group in topology.arrows {
            if let edge = arrow(group) { statements.append(.edge(edge)) }
        }
        statements += forks()
        if isSystemOverview { statements += drives() }
        var attributes: DOTAttributes = [
            "rankdir": .string(options.direction.rawValue),
            "compound": true,
            "fontname": .string(DiagramStyle.font),
            "fontsize": 10,
            "fontcolor": .string(DiagramStyle.ink),
            "bgcolor": "white",
            "pad": 0.3,
            "nodesep": options.detail == .overview ? 0.3 : 0.45,
            "ranksep": .string(options.detail == .states ? "0.45" : options.detail == .overview ? "0.3" : "0.35"),
            "outputorder": "edgesfirst",
            // Bounds on the network-simplex and crossing-minimisation passes: they keep large
            // machines from taking minutes without changing small diagrams (see DiagramPlan).
            "nslimit": 8,
            "nslimit1": 8,
            "mclimit": 0.5,
            "searchsize": 30,
            "remincross": true,
        ]
        if options.legend {
            attributes["label"] = .html(legend())
            attributes["labelloc"] = "b"
            attributes["labeljust"] = "l"
        }
        return DOTGraph(
            id: machine.id,
            attributes: attributes,
            nodeDefaults: [
                "fontname": .string(DiagramStyle.font),
                "fontsize": .number(scaled(DiagramStyle.stateSize)),
                "fontcolor": .string(DiagramStyle.ink),
                "shape": "box",
                "style": "rounded,filled",
                "fillcolor": "white",
                "color": .string(DiagramStyle.line),
                "penwidth": 1.2,
                "margin": "0.14,0.06",
            ],
            edgeDefaults: [
                "fontname": .string(DiagramStyle.font),
                "fontsize": .number(scaled(DiagramStyle.edgeSize)),
                "fontcolor": .string(DiagramStyle.ink),
                "color": .string(DiagramStyle.line),
                "arrowsize": 0.7,
                "penwidth": 1.1,
            ],
            statements: statements
        )
    }

    // MARK: States

    /// The states whose parent is `parent` (top level for `nil`), with `parent`'s initial marker.
    private func states(in parent: String?, depth: Int) -> [DOTStatement] {
        var statements: [DOTStatement] = []
        let initial = parent.flatMap { machine.state($0)?.initial } ?? (parent == nil ? machine.initial : nil)
        if let initial, !(isSystemOverview && parent == nil && machine.state(initial)?.isParallel == true) {
            let marker = DiagramTopology.markerID(parent)
            let onPath = markerOnPath(parent)
            statements.append(
                .node(
                    DOTNode(
                        marker,
                        attributes: [
                            "shape": "point", "width": 0.13, "height": 0.13, "style": "filled",
                            "color": .string(
                                onPath ? DiagramStyle.accent : (path == nil ? DiagramStyle.ink : DiagramStyle.fadedText)
                            ),
                            "fillcolor": .string(
                                onPath ? DiagramStyle.accent : (path == nil ? DiagramStyle.ink : DiagramStyle.fadedText)
                            ),
                            "label": .text(""),
                            "id": .string("initial-" + (parent ?? machine.id)),
                        ])))
            var edge: DOTAttributes = ["arrowsize": 0.6]
            // An initial transition to one state deeper than a child (a system's `initial:` naming
            // where a part starts) points at that state, not at the child that holds it, whose own
            // initial marker would say the machine starts somewhere else.
            let targets = parent.map { machine.state($0)?.initialTargets ?? [] } ?? machine.initialTargets
            let initial = !isSystemOverview && targets.count == 1 ? targets[0] : initial
            let isCompound = machine.state(initial)?.isCompound ?? false
            let isParallel = machine.state(initial)?.isParallel ?? false
            if isCompound || isParallel { edge["lhead"] = .string(DiagramTopology.clusterID(initial)) }
            if path != nil {
                edge["color"] = .string(onPath ? DiagramStyle.accent : DiagramStyle.faded)
                if onPath { edge["penwidth"] = 2 }
            }
            // A parallel state has no dot of its own: the arrow ends at its first region's leaf.
            let head =
                isCompound
                ? DiagramTopology.markerID(initial)
                : DiagramTopology.nodeID(
                    isParallel
                        ? machine.defaultLeaves(entering: initial).first {
                            !isSystemOverview || document.part(of: $0) == nil
                        }
                            ?? initial : initial)
            // Written after the children so the head node is first declared inside its cluster.
            statements += children(of: parent, depth: depth)
            statements.append(.edge(DOTEdge(from: marker, to: head, attributes: edge)))
            return statements
        }
        return children(of: parent, depth: depth)
    }

    private func children(of parent: String?, depth: Int) -> [DOTStatement] {
        // The regions of a parallel state share its box, each framed by a dashed line.
        let inParallel = parent.flatMap { machine.state($0)?.isParallel } ?? false
        if isSystemOverview, parent == nil, let root = childrenByParent[nil]?.first, root.isParallel {
            // A system's overview draws no box around the whole: its own region, then the parts
            // on the last rank, beneath it, where a page's width has room for them.
            let parts = (childrenByParent[root.id] ?? []).compactMap { region in
                document.parts.first { $0.name == region.id }.map { (part: $0, region: region) }
            }
            let own = (childrenByParent[root.id] ?? []).filter { region in !parts.contains { $0.region.id == region.id }
            }
            return own.map { .subgraph(cluster($0, depth: 0)) } + [.node(partsRow(parts))]
        }
        return (childrenByParent[parent] ?? []).map { state in
            if state.isCompound || state.isParallel {
                return .subgraph(cluster(state, depth: depth, isRegion: inParallel))
            }
            if state.isHistory { return .node(history(state)) }
            guard inParallel else { return .node(leaf(state)) }
            return .subgraph(
                DOTSubgraph(
                    id: DiagramTopology.regionClusterID(state.id),
                    attributes: [
                        "label": .text(""), "style": "dashed,rounded", "color": .string(DiagramStyle.tertiary),
                        "penwidth": 1, "margin": 10,
                    ], statements: [.node(leaf(state))]))
        }
    }

    private func cluster(_ state: StateNode, depth: Int, isRegion: Bool = false) -> DOTSubgraph {
        // A region keeps its parallel state's fill, so the regions read as parts of one box.
        let fill = DiagramStyle.clusterFills[min(isRegion ? depth - 1 : depth, DiagramStyle.clusterFills.count - 1)]
        var attributes: DOTAttributes = [
            "label": .html(stateLabel(state, titleSize: scaled(DiagramStyle.clusterSize), alignLeft: true)),
            "labeljust": "l",
            "labelloc": "t",
            "style": "rounded,filled",
            "fillcolor": .string(fill),
            "color": .string(DiagramStyle.clusterLine),
            "penwidth": 1,
            "margin": 12,
            "id": .string("state-" + state.id),
        ]
        if isRegion {
            attributes["style"] = "rounded,filled,dashed"
            attributes["color"] = .string(DiagramStyle.tertiary)
        }
        if state.isParallel { attributes["penwidth"] = 1.4 }
        if let path, state.isParallel || isRegion,
            path.visited.contains(where: { machine.ancestry(of: $0).contains(state.id) })
        {
            attributes["color"] = .string(DiagramStyle.accent)
        }
        return DOTSubgraph(
            id: DiagramTopology.clusterID(state.id), attributes: attributes,
            statements: states(in: state.id, depth: depth + 1))
    }

    /// A history pseudo-state: a small circle, `H` (shallow) or `H*` (deep).
    private func history(_ state: StateNode) -> DOTNode {
        let onPath = path?.visited.contains(state.id) ?? false
        var attributes: DOTAttributes = [
            "shape": "circle", "width": 0.32, "height": 0.32, "fixedsize": true, "margin": "0",
            "label": .text(state.history == .deep ? "H*" : "H"),
            "fontsize": .number(scaled(DiagramStyle.edgeSize)),
            "id": .string("state-" + state.id),
            "tooltip": .string(title(of: state.id)),
        ]
        if path != nil {
            attributes["color"] = .string(onPath ? DiagramStyle.accent : DiagramStyle.faded)
            if !onPath { attributes["fontcolor"] = .string(DiagramStyle.fadedText) }
        }
        return DOTNode(DiagramTopology.nodeID(state.id), attributes: attributes)
    }

    /// The fork bars of transitions with several targets: one bar per transition and source, an
    /// arrow from it into each target (a compound target's initial dot, clipped to its border).
    private func forks() -> [DOTStatement] {
        var statements: [DOTStatement] = []
        for entry in topology.entries where entry.transition.targets.count > 1 {
            if isSystemOverview, document.part(of: entry.source) != nil { continue }
            let fork = DiagramTopology.forkID(transition: entry.transition.index, source: entry.source)
            // The topology routes through a fork only what it draws whole (not from outside a group).
            guard case .arrow(_, let head, _, _, _) = entry.placement, head == fork else { continue }
            let onPath = !numbers(of: entry).isEmpty
            let color = path == nil ? DiagramStyle.line : onPath ? DiagramStyle.accent : DiagramStyle.faded
            statements.append(
                .node(
                    DOTNode(
                        fork,
                        attributes: [
                            "shape": "box", "width": 0.4, "height": 0.05, "fixedsize": true, "style": "filled",
                            "label": .text(""),
                            "color": .string(color), "fillcolor": .string(color),
                            "id": .string("fork-\(entry.transition.index)-\(entry.source)"),
                        ])))
            for target in entry.transition.targets {
                guard let node = machine.state(target) else { continue }
                var attributes: DOTAttributes = ["color": .string(color)]
                if onPath { attributes["penwidth"] = 2.2 }
                if entry.transition.isEventless { attributes["style"] = "dashed" }
                let container = node.isCompound || node.isParallel
                if container { attributes["lhead"] = .string(DiagramTopology.clusterID(target)) }
                let head =
                    container
                    ? (node.isCompound
                        ? DiagramTopology.markerID(target)
                        : DiagramTopology.nodeID(machine.defaultLeaves(entering: target).first ?? target))
                    : DiagramTopology.nodeID(target)
                statements.append(.edge(DOTEdge(from: fork, to: head, attributes: attributes)))
            }
        }
        return statements
    }

    // MARK: System overview

    /// A system's first drawing: its own states as usual, each part one box, and a dashed arrow
    /// from the system to each part its transitions drive, labelled with the part's events they raise.
    private var isSystemOverview: Bool { options.detail == .overview && document.isSystem && options.group == nil }

    /// The parts in one node, one framed cell each (its port is the part's name), one above the
    /// other: Graphviz keeps a node out of a cluster's ranks, so they stand beside the system, and
    /// a column adds one part's width, not all of theirs.
    private func partsRow(_ parts: [(part: SpecDocument.PartInfo, region: StateNode)]) -> DOTNode {
        let cells = parts.map { part, region in
            DOTHTMLCell(
                partBox(part, region: region),
                attributes: [
                    "PORT": part.name, "BORDER": "1", "COLOR": DiagramStyle.line,
                    "BGCOLOR": DiagramStyle.clusterFills[0], "CELLPADDING": "6", "VALIGN": "TOP",
                ])
        }
        return DOTNode(
            Self.partsNode,
            attributes: [
                "label": .html(
                    .table(
                        DOTHTMLTable(
                            attributes: ["BORDER": "0", "CELLBORDER": "0", "CELLSPACING": "10", "CELLPADDING": "0"],
                            rows: cells.map { .cells([$0]) }))),
                "shape": "plain", "id": "parts",
            ])
    }

    /// The parts' node (`@` keeps it apart from every state's node).
    private static let partsNode = "@parts"

    /// A part's box: its title, its top-level states, and the events the system raises in it.
    private func partBox(_ part: SpecDocument.PartInfo, region: StateNode) -> DOTHTML {
        let name = document.text(part.title ?? part.specTitle, locale: options.locale) ?? part.name
        let states = (childrenByParent[region.id] ?? []).filter { !$0.isHistory }.map { title(of: $0.id) }
        var rows: [DOTHTMLRow] = Self.wrap(name, columns: DiagramStyle.overviewColumns + 4).map {
            .cells([DOTHTMLCell(.bold(.text($0)))])
        }
        func lines(_ items: [String], color: String, bold: Bool = false) {
            for line in Self.wrap(
                items.joined(separator: words.listSeparator), columns: 3 * DiagramStyle.overviewColumns / 2)
            {
                let text: DOTHTML = bold ? .bold(.text(line)) : .text(line)
                rows.append(.cells([DOTHTMLCell(styled(text, size: scaled(DiagramStyle.edgeSize), color: color))]))
            }
        }
        lines(states, color: DiagramStyle.secondary)
        let driven = drivenEvents(of: part)
        if !driven.isEmpty {
            rows.append(.cells([Self.spacer]))
            lines(driven, color: DiagramStyle.ink, bold: true)
        }
        return .table(DOTHTMLTable(attributes: Self.labelTable, rows: rows))
    }

    /// The titles of the part's events the system's own transitions raise, each once, in order.
    private func drivenEvents(of part: SpecDocument.PartInfo) -> [String] {
        var titles: [String] = []
        for transition in machine.transitions where transition.sources.allSatisfy({ document.part(of: $0) == nil }) {
            for case .raise(let event) in machine.effects(of: transition)
            where document.part(of: event)?.name == part.name {
                let text = eventTitle(event)
                if !titles.contains(text) { titles.append(text) }
            }
        }
        return titles
    }

    /// A dashed arrow from the system's own states to each part its transitions raise events in.
    private func drives() -> [DOTStatement] {
        let own = machine.states.filter { document.part(of: $0.id) == nil }
        guard let anchor = own.first(where: { !$0.isCompound && !$0.isParallel && !$0.isHistory }) else { return [] }
        let ownTop = own.last { $0.isCompound && anchor.id != $0.id && machine.ancestry(of: anchor.id).contains($0.id) }
        return document.parts.filter { !drivenEvents(of: $0).isEmpty }.map { part in
            var attributes: DOTAttributes = [
                "style": "dashed", "color": .string(DiagramStyle.secondary), "penwidth": 1.4,
                "id": .string("drives-" + part.name),
            ]
            if let ownTop { attributes["ltail"] = .string(DiagramTopology.clusterID(ownTop.id)) }
            attributes["headport"] = .string(part.name + ":w")
            return .edge(DOTEdge(from: DiagramTopology.nodeID(anchor.id), to: Self.partsNode, attributes: attributes))
        }
    }

    private func leaf(_ state: StateNode) -> DOTNode {
        var attributes: DOTAttributes = [
            "label": .html(stateLabel(state, titleSize: nil, alignLeft: false)),
            "id": .string("state-" + state.id),
        ]
        if state.isFinal {
            attributes["shape"] = "doublecircle"
            attributes["style"] = "filled"
            attributes["margin"] = "0.04"
        }
        if let path {
            if path.visited.contains(state.id) {
                attributes["color"] = .string(DiagramStyle.accent)
                attributes["penwidth"] = 2.2
            } else {
                attributes["color"] = .string(DiagramStyle.faded)
                attributes["fontcolor"] = .string(DiagramStyle.fadedText)
            }
        }
        return DOTNode(DiagramTopology.nodeID(state.id), attributes: attributes)
    }

    /// A dashed stand-in for a state outside the group being drawn.
    private func outside(_ state: StateNode) -> DOTNode {
        let visited = path?.visited.contains(state.id) ?? false
        let stateTitle = title(of: state.id)
        var rows: [DOTHTMLRow] = [
            .cells([DOTHTMLCell(styled(.italic(.text(stateTitle)), color: DiagramStyle.secondary))])
        ]
        if showsID(of: state, title: stateTitle) { rows.append(idRow(state, faded: false)) }
        return DOTNode(
            DiagramTopology.outsideID(state.id),
            attributes: [
                "label": .html(.table(DOTHTMLTable(attributes: Self.labelTable, rows: rows))),
                "style": "rounded,dashed",
                "color": .string(visited ? DiagramStyle.accent : DiagramStyle.tertiary),
                "id": .string("outside-" + state.id),
            ])
    }

    /// The state's id in small code type, the row beneath its title.
    private func idRow(_ state: StateNode, faded: Bool, attributes: [String: String] = [:]) -> DOTHTMLRow {
        let color = faded ? DiagramStyle.fadedText : DiagramStyle.tertiary
        return .cells([
            DOTHTMLCell(
                styled(.text(state.id), face: DiagramStyle.monoFont, size: DiagramStyle.idSize, color: color),
                attributes: attributes)
        ])
    }

    /// Title (with the id beneath when the title does not already say it), then the internal
    /// transitions and, for a compound, its transitions into itself.
    private func stateLabel(_ state: StateNode, titleSize: Double?, alignLeft: Bool) -> DOTHTML {
        let faded = path.map { !$0.visited.contains(state.id) && state.isLeaf } ?? false
        let align = alignLeft ? Self.alignLeft : Self.alignCenter
        let stateTitle = title(of: state.id)
        // An overview's leaf titles wrap like its labels; a group's title heads a wide box already.
        let titleLines =
            options.detail == .overview && state.isLeaf
            ? Self.wrap(stateTitle, columns: DiagramStyle.overviewColumns) : [stateTitle]
        var rows: [DOTHTMLRow] = titleLines.map {
            .cells([DOTHTMLCell(styled(.bold(.text($0)), size: titleSize), attributes: align)])
        }
        if showsID(of: state, title: stateTitle) { rows.append(idRow(state, faded: faded, attributes: align)) }
        if options.detail >= .events {
            let listed = topology.listed(on: state.id)
            if !listed.isEmpty {
                rows.append(.cells([Self.spacer]))
                rows += labelLines(listed).map { .cells([$0]) }
            }
        }
        if options.detail == .full, !state.entry.isEmpty || !state.exit.isEmpty {
            rows.append(.cells([Self.spacer]))
            for (word, block) in [("entry", state.entry), ("exit", state.exit)] where !block.isEmpty {
                let text = lines(of: machine.effects(of: block)).map { line -> String in
                    switch line {
                    case .callback(let name): name
                    case .notification(let name): "→ " + name
                    case .note(let text): text
                    }
                }.joined(separator: words.listSeparator)
                rows.append(
                    .cells([
                        DOTHTMLCell(
                            .concat([
                                styled(
                                    .italic(.text(word + " / ")), size: DiagramStyle.codeSize,
                                    color: faded ? DiagramStyle.fadedText : DiagramStyle.secondary),
                                styled(
                                    .text(text), face: DiagramStyle.monoFont, size: DiagramStyle.codeSize,
                                    color: faded ? DiagramStyle.fadedText : DiagramStyle.ink),
                            ]), attributes: align)
                    ]))
            }
        }
        return .table(
            DOTHTMLTable(
                attributes: Self.labelTable,
                rows: rows
            ))
    }

    private static let spacer = DOTHTMLCell(.font(DOTHTMLFont(pointSize: 4), .text(" ")))
    // Shared by every label and cell rather than a dictionary literal each: a large diagram has
    // tens of thousands of cells, and each literal was an allocation to make and to free.
    private static let labelTable = ["BORDER": "0", "CELLBORDER": "0", "CELLSPACING": "0", "CELLPADDING": "1"]
    private static let alignLeft = ["ALIGN": "LEFT"]
    private static let alignCenter = ["ALIGN": "CENTER"]

    // MARK: Transitions

    /// One arrow for a group of transitions. A backward arrow is written head first with
    /// `dir=back`, so Graphviz ranks it with the flow while still drawing the arrowhead at the
    /// real target.
    private func arrow(_ group: DiagramTopology.ArrowGroup) -> DOTEdge? {
        guard case .arrow(let tail, let head, let ltail, let lhead, let backward) = group.placement,
            let first = group.entries.first
        else { return nil }
        if isSystemOverview, document.part(of: first.source) != nil { return nil }
        var attributes: DOTAttributes = [
            "id": .string("transition-\(first.transition.index)-\(first.source)")
        ]
        if let ltail { attributes[backward ? "lhead" : "ltail"] = .string(ltail) }
        if let lhead { attributes[backward ? "ltail" : "lhead"] = .string(lhead) }
        if backward { attributes["dir"] = "back" }
        if group.isEventless { attributes["style"] = "dashed" }
        if path != nil {
            let onPath = group.entries.contains { !numbers(of: $0).isEmpty }
            attributes["color"] = .string(onPath ? DiagramStyle.accent : DiagramStyle.faded)
            if onPath { attributes["penwidth"] = 2.2 }
        }
        let lines = labelLines(group.entries)
        if !lines.isEmpty {
            attributes["label"] = .html(
                .table(
                    DOTHTMLTable(
                        attributes: Self.labelTable,
                        rows: lines.map { .cells([$0]) }
                    )))
        }
        return backward
            ? DOTEdge(from: head, to: tail, attributes: attributes)
            : DOTEdge(from: tail, to: head, attributes: attributes)
    }

    private func numbers(of entry: DiagramTopology.Entry) -> [Int] {
        path?.numbers[ScenarioPath.EdgeKey(transition: entry.transition.index, source: entry.source)] ?? []
    }

    /// One line of a transition's effect, as the engine orders it.
    private enum EffectLine: Hashable {
        case callback(String)
        case notification(String)
        case note(String)
    }

    private func effect(of transition: Transition) -> [EffectLine] {
        guard options.detail == .full else { return [] }
        return lines(of: machine.effects(of: transition))
    }

    private func lines(of effects: [Effect]) -> [EffectLine] {
        effects.compactMap { effect in
            switch effect {
            case .callback(let id): .callback(lookup.shownName(ofCallback: id, in: machine))
            case .notification(let id, _):
                options.showNotifications ? .notification(lookup.shownName(ofNotification: id, in: machine)) : nil
            case .assignment(let assignment):
                .note(
                    lookup.assignmentWords(assignment.flag, to: assignment.value, locale: options.locale, words: words))
            case .raise(let event): .note(words.raise(eventTitle(event)))
            }
        }
    }

    /// The label lines for transitions drawn or listed together. Transitions with the same effect
    /// share one block: a line per event (`event [guard]`, with `→ target` for a compound's
    /// transition into itself; a guard common to the whole block gets its own line), then the
    /// callbacks, notifications, `set` and `raise` once, in engine order. A scenario's step
    /// numbers lead the line of the transition they took.
    private func labelLines(_ entries: [DiagramTopology.Entry]) -> [DOTHTMLCell] { labelCells(entries).cells }

    /// The label lines, and for each of `entries` the line that shows it (an entry without a line
    /// of its own, an eventless transition without a guard, is given the line after its place).
    private func labelCells(_ entries: [DiagramTopology.Entry]) -> (cells: [DOTHTMLCell], lineOf: [Int]) {
        guard options.detail > .states else { return ([], []) }
        if options.detail == .overview { return overviewCells(entries) }
        struct Block {
            let key: [EffectLine]
            var entries: [DiagramTopology.Entry]
            /// Each entry's position in `entries`.
            var positions: [Int]
        }
        var blocks: [Block] = []
        for (position, entry) in entries.enumerated() {
            var key = effect(of: entry.transition)
            if case .headerRow = entry.placement, let target = entry.transition.target {
                key.insert(.note("→ " + title(of: target)), at: 0)
            }
            if let index = blocks.firstIndex(where: { $0.key == key }) {
                blocks[index].entries.append(entry)
                blocks[index].positions.append(position)
            } else {
                blocks.append(Block(key: key, entries: [entry], positions: [position]))
            }
        }
        var cells: [DOTHTMLCell] = []
        var lineOf = Array(repeating: 0, count: entries.count)
        for (offset, block) in blocks.enumerated() {
            if offset > 0 { cells.append(Self.spacer) }
            let blockFaded = path != nil && block.entries.allSatisfy { numbers(of: $0).isEmpty }
            let guards = block.entries.map { guardText($0.transition) }
            let sharedGuard: String? =
                block.entries.count > 1 && Set(guards).count == 1 && block.entries[0].transition.trigger.eventID != nil
                ? guards[0] : nil
            for (index, (entry, guardText)) in zip(block.entries, guards).enumerated() {
                lineOf[block.positions[index]] = cells.count
                let stepNumbers = numbers(of: entry)
                let faded = path != nil && stepNumbers.isEmpty
                var parts: [DOTHTML] = []
                if let event = entry.transition.trigger.eventID { parts.append(.bold(.text(eventTitle(event)))) }
                if let guardText, sharedGuard == nil {
                    if entry.transition.trigger.eventID != nil { parts.append(.text(" ")) }
                    parts.append(.italic(.text("[" + guardText + "]")))
                }
                guard !parts.isEmpty else { continue }
                cells.append(
                    DOTHTMLCell(
                        styled(.concat(parts), color: faded ? DiagramStyle.fadedText : DiagramStyle.ink),
                        attributes: Self.alignLeft))
            }
            if let sharedGuard {
                cells.append(
                    DOTHTMLCell(
                        styled(
                            .italic(.text("[" + sharedGuard + "]")),
                            color: blockFaded ? DiagramStyle.fadedText : DiagramStyle.ink), attributes: Self.alignLeft))
            }
            for line in block.key {
                let content: DOTHTML
                switch line {
                case .callback(let name):
                    content = styled(
                        .text(name), face: DiagramStyle.monoFont, size: DiagramStyle.codeSize,
                        color: blockFaded ? DiagramStyle.fadedText : DiagramStyle.ink)
                case .notification(let name):
                    content = styled(
                        .text("→ " + name), face: DiagramStyle.monoFont, size: DiagramStyle.codeSize,
                        color: blockFaded ? DiagramStyle.fadedText : DiagramStyle.tertiary)
                case .note(let text):
                    content = styled(
                        .italic(.text(text)), size: DiagramStyle.codeSize,
                        color: blockFaded ? DiagramStyle.fadedText : DiagramStyle.secondary)
                }
                cells.append(DOTHTMLCell(content, attributes: Self.alignLeft))
            }
        }
        return (cells, lineOf)
    }

    /// An overview's label: each event's title once, in order, wrapped to a narrow column so that
    /// the drawing stays narrow enough to be read at a page's width (SequenceDiagramTests' measure).
    private func overviewCells(_ entries: [DiagramTopology.Entry]) -> (cells: [DOTHTMLCell], lineOf: [Int]) {
        var cells: [DOTHTMLCell] = []
        var lineOf = Array(repeating: 0, count: entries.count)
        var cellOfTitle: [String: Int] = [:]
        for (position, entry) in entries.enumerated() {
            guard let event = entry.transition.trigger.eventID else {
                lineOf[position] = cells.count
                continue
            }
            let title = eventTitle(event)
            if let line = cellOfTitle[title] {
                lineOf[position] = line
                continue
            }
            let faded =
                path != nil
                && entries.indices.filter { eventTitle(entries[$0].transition.trigger.eventID ?? "") == title }
                    .allSatisfy { numbers(of: entries[$0]).isEmpty }
            cellOfTitle[title] = cells.count
            lineOf[position] = cells.count
            for line in Self.wrap(title, columns: DiagramStyle.overviewColumns) {
                cells.append(
                    DOTHTMLCell(
                        styled(.bold(.text(line)), color: faded ? DiagramStyle.fadedText : DiagramStyle.ink),
                        attributes: Self.alignLeft))
            }
        }
        return (cells, lineOf)
    }

    /// `text` in lines of at most `columns` columns (a wide character counts two; a longer word
    /// keeps a line of its own), broken at spaces and beside any wide character, so Chinese wraps
    /// between characters and a Latin word inside it stays whole.
    static func wrap(_ text: String, columns: Int) -> [String] {
        func isWide(_ character: Character) -> Bool {
            character.unicodeScalars.contains { $0.properties.isIdeographic || (0x3000...0xFFEF).contains($0.value) }
        }
        // Tokens: a run of narrow non-space characters, or one wide character; `spaced` when a
        // space came before it.
        var tokens: [(text: String, width: Int, spaced: Bool)] = []
        var spaced = false
        for character in text {
            if character == " " {
                spaced = true
            } else if isWide(character) {
                tokens.append((String(character), 2, spaced))
                spaced = false
            } else if let last = tokens.last, !spaced, !isWide(last.text.last!) {
                tokens[tokens.count - 1] = (last.text + String(character), last.width + 1, last.spaced)
            } else {
                tokens.append((String(character), 1, spaced))
                spaced = false
            }
        }
        func joined(_ line: ArraySlice<(text: String, width: Int, spaced: Bool)>) -> String {
            var text = ""
            for (offset, token) in line.enumerated() { text += (token.spaced && offset > 0 ? " " : "") + token.text }
            return text
        }
        func width(of line: ArraySlice<(text: String, width: Int, spaced: Bool)>) -> Int {
            line.enumerated().reduce(0) { $0 + $1.element.width + ($1.element.spaced && $1.offset > 0 ? 1 : 0) }
        }
        var lines: [String] = []
        var line: [(text: String, width: Int, spaced: Bool)] = []
        for token in tokens {
            let gap = token.spaced && !line.isEmpty ? 1 : 0
            // Closing punctuation stays with what it closes.
            let closes = token.text.count == 1 && "，。、；：）」』！？,.;:)".contains(token.text)
            guard !line.isEmpty, width(of: line[...]) + gap + token.width > columns, !closes else {
                line.append(token)
                continue
            }
            // Inside a run of Chinese any break is allowed, but one between characters splits a
            // word as often as not (其|他, 视|图). A break a little earlier, after a mark or a word
            // that ends a phrase (或, 到, 的 …), keeps the words whole, if the line stays half full.
            var cut = line.count
            if token.width == 2, !token.spaced, let last = line.last, last.width == 2,
                !Self.chineseBreakAfter.contains(last.text)
            {
                var index = line.count - 1
                while index > 0, line[index].width == 2, !line[index].spaced {
                    if Self.chineseBreakAfter.contains(line[index - 1].text), width(of: line[..<index]) * 2 >= columns {
                        cut = index
                        break
                    }
                    index -= 1
                }
            }
            lines.append(joined(line[..<cut]))
            line = Array(line[cut...]) + [token]
        }
        if !line.isEmpty { lines.append(joined(line[...])) }
        return lines
    }

    /// Where a Chinese line may end without splitting a word: after a mark, or after a character
    /// that ends a word in the specs' Chinese (conjunctions, 到, 在, 的, 被, 从). Not 后, 时 or 并,
    /// which begin words there too (后台, 时间, 并排).
    static let chineseBreakAfter: Set<String> = [
        "、", "，", "；", "：", "）", "」", "』", "或", "和", "与", "及", "到", "在", "的", "被", "从",
    ]

    /// A scenario's step numbers, white on the accent colour.
    /// With `fixedSize` (points) it keeps that size inside a wider cell (a table stretches to fill its cell).
    static func badge(_ numbers: [Int], fixedSize: (width: Int, height: Int)? = nil) -> DOTHTML {
        var attributes = [
            "BORDER": "0", "CELLBORDER": "0", "CELLSPACING": "0", "CELLPADDING": "1", "BGCOLOR": DiagramStyle.accent,
            "STYLE": "rounded",
        ]
        if let fixedSize {
            attributes["FIXEDSIZE"] = "TRUE"
            attributes["WIDTH"] = String(fixedSize.width)
            attributes["HEIGHT"] = String(fixedSize.height)
        }
        return .table(
            DOTHTMLTable(
                attributes: attributes,
                rows: [
                    .cells([
                        DOTHTMLCell(
                            .font(
                                DOTHTMLFont(pointSize: DiagramStyle.badgeSize, color: "white"),
                                .bold(.text(numbers.map(String.init).joined(separator: ", ")))))
                    ])
                ]
            ))
    }

    /// A scenario's step badge on an arrow: its numbers, beside the label line of the transition
    /// those steps took (`linesAbove`: the label's lines above that one, `nil` for the first).
    struct StepBadge {
        let edgeID: String
        let numbers: [Int]
        let badge: DOTHTML
        let linesAbove: DOTHTML?
    }

    /// The step numbers of the scenario, by the arrow's `id`: one badge per label line taken, so
    /// where several events share an arrow each number sits beside the event its step took. They
    /// are drawn over the laid-out diagram rather than written into the labels, so a scenario has
    /// the overview's layout to the point (and is drawn from it: `GraphvizRenderer.render(layout:requests:)`).
    func stepBadges() -> [StepBadge] {
        guard path != nil else { return [] }
        return topology.arrows.flatMap { group -> [StepBadge] in
            guard case .arrow = group.placement, let first = group.entries.first else { return [] }
            let edgeID = "transition-\(first.transition.index)-\(first.source)"
            let (cells, lineOf) = labelCells(group.entries)
            guard !cells.isEmpty else {
                let all = group.entries.flatMap(numbers(of:)).sorted()
                return all.isEmpty
                    ? [] : [StepBadge(edgeID: edgeID, numbers: all, badge: Self.badge(all), linesAbove: nil)]
            }
            var byLine: [Int: [Int]] = [:]
            for (position, entry) in group.entries.enumerated() {
                let taken = numbers(of: entry)
                if !taken.isEmpty { byLine[lineOf[position], default: []] += taken }
            }
            return byLine.keys.sorted().map { line in
                let taken = byLine[line, default: []].sorted()
                let above: DOTHTML? =
                    line == 0
                    ? nil
                    : .table(
                        DOTHTMLTable(attributes: Self.labelTable, rows: cells[..<line].map { .cells([$0]) }))
                return StepBadge(edgeID: edgeID, numbers: taken, badge: Self.badge(taken), linesAbove: above)
            }
        }
    }

    // MARK: Scenario

    /// The machine's initial dot and those of the compounds entered on the way to the initial
    /// leaf are on the path when the scenario starts from the machine's initial state.
    private func markerOnPath(_ compound: String?) -> Bool {
        guard let path, path.startsAtInitial else { return false }
        guard let compound else { return true }
        // The compounds the engine enters on its way into the initial configuration.
        return initialActiveStates.contains(compound)
    }

    // MARK: Legend

    private func legend() -> DOTHTML {
        let hasFinal = machine.states.contains {
            $0.isFinal && options.group.map(machine.ancestry(of: $0.id).contains) ?? true
        }
        let hasEventless = topology.entries.contains { $0.transition.isEventless }
        let hasListed =
            options.detail >= .events
            && topology.entries.contains { entry in
                if case .arrow = entry.placement { false } else { true }
            }
        let hasCompoundSource = topology.entries.contains { entry in
            if case .arrow(_, _, .some, _, _) = entry.placement { true } else { false }
        }
        var rows: [(DOTHTML, String)] = []
        func sample(_ text: String, color: String = DiagramStyle.ink, face: String? = nil, bold: Bool = false)
            -> DOTHTML
        {
            let inner: DOTHTML = bold ? .bold(.text(text)) : .text(text)
            return styled(inner, face: face, color: color)
        }
        rows.append((sample("●"), words.initial))
        if !topology.outsideStates.isEmpty {
            rows.append((styled(.italic(.text("▢")), color: DiagramStyle.secondary), words.outside))
        }
        if hasFinal { rows.append((sample("◎"), words.final)) }
        let drawn = machine.states.filter { state in options.group.map(machine.ancestry(of: state.id).contains) ?? true
        }
        if drawn.contains(where: \.isParallel) {
            rows.append((sample("┆", color: DiagramStyle.tertiary), words.regions))
        }
        if drawn.contains(where: \.isHistory) { rows.append((sample("Ⓗ"), words.history)) }
        if topology.entries.contains(where: { $0.transition.targets.count > 1 }) {
            rows.append((sample("━┳►"), words.fork))
        }
        switch options.detail {
        case .states:
            rows.append((sample("───►"), words.transition))
        case .overview:
            rows.append((sample(words.eventWord, bold: true), words.transition))
        case .events, .full:
            rows.append(
                (
                    .concat([
                        sample(words.eventWord, bold: true), .text(" "), .italic(.text("[" + words.guardWord + "]")),
                    ]),
                    words.eventTransition
                ))
        }
        if hasEventless { rows.append((sample("- - ►"), words.eventless)) }
        if hasCompoundSource { rows.append((sample("□──►"), words.groupArrow)) }
        if options.detail == .full {
            rows.append((sample(words.callbackSample, face: DiagramStyle.monoFont), words.callbacks))
            let drawsClosure = topology.entries.contains { entry in
                machine.effects(of: entry.transition).contains { effect in
                    if case .callback(let id) = effect { lookup.callback(id)?.kind == .closure } else { false }
                }
            }
            if drawsClosure { rows.append((sample(words.closureSample, face: DiagramStyle.monoFont), words.closures)) }
            if options.showNotifications {
                rows.append(
                    (
                        sample(words.notificationSample, color: DiagramStyle.tertiary, face: DiagramStyle.monoFont),
                        words.notification
                    ))
            }
        }
        if hasListed { rows.append((sample(words.eventWord, bold: true), words.listed)) }
        if let path {
            rows.append((Self.badge([1, 2], fixedSize: (width: 22, height: 12)), words.steps(path.title ?? path.id)))
        }
        var tableRows: [DOTHTMLRow] = []
        if let caption = scenarioCaption(), headingArrow() == nil {
            tableRows.append(
                .cells([DOTHTMLCell(.bold(.text(caption)), attributes: ["ALIGN": "LEFT", "COLSPAN": "2"])]))
        }
        for (symbol, meaning) in rows {

            tableRows.append(
                .cells([
                    DOTHTMLCell(symbol, attributes: Self.alignLeft),
                    DOTHTMLCell(styled(.text(meaning), color: DiagramStyle.secondary), attributes: Self.alignLeft),
                ]))
        }
        return .table(
            DOTHTMLTable(
                attributes: ["BORDER": "0", "CELLBORDER": "0", "CELLSPACING": "0", "CELLPADDING": "2"],
                rows: tableRows
            ))
    }

    /// "Scenario: …", where it starts and with which flags.
    private func scenarioCaption() -> String? {
        guard let path else { return nil }
        var caption = words.scenario(path.title ?? path.id)
        if !path.startsAtInitial { caption += words.captionStartsIn(title(of: path.start)) }
        if !path.flags.isEmpty {
            caption += words.with(
                path.flags.map { flag, value in
                    lookup.flagTitle(flag, locale: options.locale).map { words.flagPhrase($0, value) }
                        ?? "\(flag) = \(value)"
                })
        }
        return caption
    }

    /// The arrow that holds the scenario's title above the drawing: its first numbered one (an
    /// overlay is held by an arrow the scenario draws). `nil` when it takes none: the title then
    /// heads the legend.
    private func headingArrow() -> String? {
        guard path != nil else { return nil }
        for group in topology.arrows {
            guard case .arrow = group.placement, let first = group.entries.first,
                group.entries.contains(where: { !numbers(of: $0).isEmpty })
            else { continue }
            return "transition-\(first.transition.index)-\(first.source)"
        }
        return nil
    }

    /// The scenario's title at the top of the drawing, by the arrow that holds it.
    func heading() -> (edgeID: String, html: DOTHTML)? {
        guard let edgeID = headingArrow(), let caption = scenarioCaption() else { return nil }
        return (edgeID, .bold(.text(caption)))
    }

    // MARK: Text

    /// `html` in a `<FONT>` only for what differs from the defaults (Helvetica, ink): Graphviz
    /// 2.43 leaks a little memory for every font element it parses, and the DOT stays shorter.
    private func styled(_ html: DOTHTML, face: String? = nil, size: Double? = nil, color: String? = nil) -> DOTHTML {
        let face = face == DiagramStyle.font ? nil : face
        let color = color == DiagramStyle.ink ? nil : color
        guard face != nil || size != nil || color != nil else { return html }
        return .font(DOTHTMLFont(face: face, pointSize: size, color: color), html)
    }

    /// An overview's type is larger, its labels fewer: its reader sees it at a page's width.
    private func scaled(_ size: Double) -> Double {
        options.detail == .overview ? (size * DiagramStyle.overviewScale).rounded() : size
    }

    private func title(of state: String) -> String {
        document.text(lookup.state(state)?.title, locale: options.locale) ?? state
    }

    private func eventTitle(_ event: String) -> String {
        document.text(lookup.event(event)?.title, locale: options.locale) ?? event
    }

    private func guardText(_ transition: Transition) -> String? {
        if let expression = transition.guardExpression,
            let text = lookup.guardWords(expression, locale: options.locale, words: words)
        {
            return text
        }
        return guardTexts[transition.index] ?? transition.guardExpression?.description
    }

    /// A leaf's id beneath its title, for the English reader who meets it in code and traces, when
    /// the title does not say it already. A drawing in another language shows no id (its reader
    /// reads the titles), nor does a compound state, whose title heads a whole group.
    private func showsID(of state: StateNode, title: String) -> Bool {
        guard options.detail != .overview else { return false }
        let locale = options.locale ?? document.defaultLocale
        return locale.map { Language.resolve($0) == .english } ?? true
            && !state.isCompound && !state.isParallel && !Self.titleSaysID(title, state.id)
    }

    /// "Not Running" says `notRunning`; "未运行" does not, so the id is shown beneath it.
    static func titleSaysID(_ title: String, _ id: String) -> Bool {
        func squash(_ text: String) -> String {
            // Asked for every state: ASCII text is squashed byte-wise, without the Unicode
            // property lookups of `isLetter`/`isNumber` (which for ASCII mean A–Z, a–z, 0–9).
            if text.withUTF8Buffer({ $0.allSatisfy { $0 < 0x80 } }) {
                return String(
                    decoding: text.utf8.compactMap { byte -> UInt8? in
                        switch byte {
                        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
                        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): byte
                        default: nil
                        }
                    }, as: UTF8.self)
            }
            return String(text.lowercased().filter { $0.isLetter || $0.isNumber })
        }
        return squash(title) == squash(id)
    }
}
