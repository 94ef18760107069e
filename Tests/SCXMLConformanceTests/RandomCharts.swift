import Foundation
import LifeSpec
import LifecycleEngine

/// Seeded random SCXML charts for the differential test against Qt SCXML: nested compound and
/// parallel states, shallow and deep history with defaults, final states (top-level ones too),
/// `<initial>` elements and `initial="a b"`, internal, targetless and eventless transitions,
/// several targets, and `<raise>`/`<log>` in onentry/onexit.
///
/// Qt SCXML resolves conflicts between transitions of different parallel regions as SCXML drafts
/// before the recommendation did (SCION's `legacySemantics` charts show it), so a transition that
/// exits a parallel state from inside it gets an event no other transition inside that state uses:
/// such conflicts are left to the SCION charts. Nor do the charts use `In()`, broken in Qt under
/// the null datamodel.
struct RandomChart {
    enum Kind {
        case atomic, compound, parallel, final
        case history(deep: Bool)
    }

    struct Node {
        var id: String
        var kind: Kind
        var parent: Int?
        var children: [Int] = []
        var initialAttribute: [String] = []
        var initialElement: [String] = []
        var entry: [String] = []
        var exit: [String] = []
    }

    struct Edge {
        var source: Int
        var event: String?
        var targets: [Int]
        var isInternal: Bool
        var raises: [String]
    }

    var nodes: [Node] = []
    var edges: [Edge] = []
    var rootInitial: [String] = []
    /// Events a script may send.
    var alphabet: [String] = []

    static let pool = ["a", "b", "c", "d", "a.x"]

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var budget = random.int(8..<18)
        var counter = 0
        func newID(_ prefix: String) -> String {
            counter += 1
            // Ids as SCXML writes them: dots and dashes are kept.
            return random.int(0..<4) == 0
                ? "\(prefix)-\(counter)" : random.int(0..<4) == 0 ? "\(prefix).\(counter)" : "\(prefix)\(counter)"
        }
        func build(parent: Int?, depth: Int, allowFinal: Bool) -> Int {
            budget -= 1
            var kind: Kind = .atomic
            let roll = random.int(0..<10)
            if depth < 3, budget > 2 {
                if roll < 3 { kind = .compound } else if roll < 5 { kind = .parallel }
            }
            if case .atomic = kind, allowFinal, random.int(0..<6) == 0 { kind = .final }
            let prefix: String
            switch kind {
            case .parallel: prefix = "p"
            case .compound: prefix = "s"
            case .final: prefix = "f"
            default: prefix = "s"
            }
            let index = nodes.count
            nodes.append(Node(id: newID(prefix), kind: kind, parent: parent))
            switch kind {
            case .compound, .parallel:
                let count = random.int(2..<4)
                for _ in 0..<count {
                    let child = build(
                        parent: index, depth: depth + 1,
                        allowFinal: { if case .compound = kind { true } else { false } }())
                    nodes[index].children.append(child)
                }
                // Under a compound state only: Qt SCXML refuses a history state of a parallel one.
                if case .compound = kind, random.int(0..<3) == 0 {
                    let history = nodes.count
                    let deep = random.int(0..<2) == 0
                    nodes.append(Node(id: newID("h"), kind: .history(deep: deep), parent: index))
                    nodes[index].children.append(history)
                }
            default: break
            }
            return index
        }
        let topCount = random.int(2..<4)
        var top: [Int] = []
        for position in 0..<topCount {
            top.append(build(parent: nil, depth: 0, allowFinal: position > 0 && random.int(0..<3) == 0))
        }
        // Initial states: the default, an `initial` attribute or an `<initial>` naming a descendant.
        for index in nodes.indices {
            guard case .compound = nodes[index].kind else { continue }
            let candidates = nodes[index].children.filter { !nodes[$0].isHistory }
            switch random.int(0..<4) {
            case 0: nodes[index].initialAttribute = [nodes[random.pick(candidates)].id]
            case 1:
                nodes[index].initialElement = [
                    nodes[random.pick(descendants(of: index).filter { !nodes[$0].isHistory })].id
                ]
            default: break
            }
        }
        if random.int(0..<3) == 0 { rootInitial = [nodes[random.pick(top.filter { !nodes[$0].isFinal })].id] }
        // Entry and exit actions.
        for index in nodes.indices where !nodes[index].isHistory {
            if random.int(0..<5) == 0 { nodes[index].entry.append("raise:" + random.pick(Self.pool)) }
            if random.int(0..<6) == 0 { nodes[index].exit.append("raise:" + random.pick(Self.pool)) }
            if random.int(0..<4) == 0 { nodes[index].entry.append("log:enter " + nodes[index].id) }
            if random.int(0..<6) == 0 { nodes[index].exit.append("log:exit " + nodes[index].id) }
        }
        // History defaults: one child of the parent (or a deeper descendant).
        let states = nodes.indices.filter { !nodes[$0].isHistory }
        for index in nodes.indices where nodes[index].isHistory {
            let parent = nodes[index].parent!
            let choices = descendants(of: parent).filter { !nodes[$0].isHistory }
            edges.append(
                Edge(source: index, event: nil, targets: [random.pick(choices)], isInternal: false, raises: []))
        }
        // Transitions.
        var unique = 0
        for source in states where !nodes[source].isFinal {
            for _ in 0..<random.int(0..<3) {
                var targets: [Int] = []
                let roll = random.int(0..<20)
                if roll < 3 {
                    targets = []
                } else if roll < 5,
                    let parallel = nodes.indices.first(where: {
                        if case .parallel = nodes[$0].kind { random.int(0..<2) == 0 } else { false }
                    })
                {
                    // Several targets, one per region.
                    for region in nodes[parallel].children.filter({ !nodes[$0].isHistory }) where random.int(0..<3) > 0
                    {
                        let inside = [region] + descendants(of: region).filter { !nodes[$0].isHistory }
                        targets.append(random.pick(inside))
                    }
                    if targets.isEmpty { targets = [parallel] }
                } else {
                    targets = [random.pick(Array(nodes.indices))]
                    // A history state of a parallel ancestor restores a region; keep targets simple.
                }
                var event: String? = random.pick(Self.pool)
                if random.int(0..<8) == 0 { event = nil }
                let isInternal = random.int(0..<4) == 0
                var raises: [String] = []
                if random.int(0..<6) == 0 { raises.append(random.pick(Self.pool)) }
                var edge = Edge(source: source, event: event, targets: targets, isInternal: isInternal, raises: raises)
                if crossesParallel(edge) {
                    unique += 1
                    edge.event = "u\(unique)"
                }
                // Eventless transitions that re-enter their source loop at once; let the engine's loop check skip them.
                edges.append(edge)
            }
        }
        alphabet = Self.pool + (0..<unique).map { "u\($0 + 1)" }
    }

    var isEmpty: Bool { nodes.isEmpty }

    func descendants(of index: Int) -> [Int] {
        var result: [Int] = []
        for child in nodes[index].children {
            result.append(child)
            result += descendants(of: child)
        }
        return result
    }

    func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        var current = nodes[state].parent
        while let parent = current {
            if parent == ancestor { return true }
            current = nodes[parent].parent
        }
        return false
    }

    /// SCXML's transition domain: nil for the document root.
    func domain(_ edge: Edge) -> Int?? {
        if edge.targets.isEmpty { return .some(.none) }
        if edge.isInternal, case .compound = nodes[edge.source].kind,
            edge.targets.allSatisfy({ isDescendant($0, of: edge.source) })
        {
            return .some(edge.source)
        }
        var current = nodes[edge.source].parent
        while let ancestor = current {
            if case .compound = nodes[ancestor].kind, edge.targets.allSatisfy({ isDescendant($0, of: ancestor) }) {
                return .some(ancestor)
            }
            current = nodes[ancestor].parent
        }
        return .none
    }

    /// The transition exits some parallel state it lies in (its domain is above it).
    func crossesParallel(_ edge: Edge) -> Bool {
        guard !edge.targets.isEmpty else { return false }
        let domain = self.domain(edge).flatMap { $0 }
        for parallel in nodes.indices {
            guard case .parallel = nodes[parallel].kind else { continue }
            guard edge.source == parallel || isDescendant(edge.source, of: parallel) else { continue }
            if let domain, domain == parallel || isDescendant(domain, of: parallel) { continue }
            return true
        }
        return false
    }

    /// A random script over the chart's events.
    func script(seed: UInt64, length: Int) -> [String] {
        var random = SplitMix64(seed: seed &* 31 &+ 7)
        return (0..<length).map { _ in random.pick(alphabet) }
    }

    var scxml: String {
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"null\""
        if !rootInitial.isEmpty { text += " initial=\"\(rootInitial.joined(separator: " "))\"" }
        text += ">\n"
        for index in nodes.indices where nodes[index].parent == nil { write(index, indent: "  ", into: &text) }
        text += "</scxml>\n"
        return text
    }

    private func content(_ items: [String], indent: String) -> String {
        items.map { item in
            if item.hasPrefix("raise:") { return "\(indent)<raise event=\"\(item.dropFirst(6))\"/>\n" }
            return "\(indent)<log label=\"callback\" expr=\"'\(item.dropFirst(4))'\"/>\n"
        }.joined()
    }

    private func write(_ index: Int, indent: String, into text: inout String) {
        let node = nodes[index]
        let element: String
        var attributes = " id=\"\(node.id)\""
        switch node.kind {
        case .atomic, .compound: element = "state"
        case .parallel: element = "parallel"
        case .final: element = "final"
        case .history(let deep):
            element = "history"
            attributes += deep ? " type=\"deep\"" : " type=\"shallow\""
        }
        if !node.initialAttribute.isEmpty {
            attributes += " initial=\"\(node.initialAttribute.joined(separator: " "))\""
        }
        text += "\(indent)<\(element)\(attributes)>\n"
        let inner = indent + "  "
        if !node.initialElement.isEmpty {
            text +=
                "\(inner)<initial><transition target=\"\(node.initialElement.joined(separator: " "))\"/></initial>\n"
        }
        if !node.entry.isEmpty {
            text += "\(inner)<onentry>\n" + content(node.entry, indent: inner + "  ") + "\(inner)</onentry>\n"
        }
        if !node.exit.isEmpty {
            text += "\(inner)<onexit>\n" + content(node.exit, indent: inner + "  ") + "\(inner)</onexit>\n"
        }
        for edge in edges where edge.source == index {
            var attributes = ""
            if let event = edge.event { attributes += " event=\"\(event)\"" }
            if !edge.targets.isEmpty {
                attributes += " target=\"\(edge.targets.map { nodes[$0].id }.joined(separator: " "))\""
            }
            if edge.isInternal { attributes += " type=\"internal\"" }
            if edge.raises.isEmpty {
                text += "\(inner)<transition\(attributes)/>\n"
            } else {
                text +=
                    "\(inner)<transition\(attributes)>\n"
                    + content(edge.raises.map { "raise:" + $0 }, indent: inner + "  ") + "\(inner)</transition>\n"
            }
        }
        for child in node.children { write(child, indent: inner, into: &text) }
        text += "\(indent)</\(element)>\n"
    }
}

extension RandomChart.Node {
    var isHistory: Bool { if case .history = kind { true } else { false } }
    var isFinal: Bool { if case .final = kind { true } else { false } }
}

/// A small, fast, seedable generator (the same numbers on every machine).
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: Range<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0..<items.count)] }
}
