/// Scenario drawings made from their differences.
///
/// A scenario's drawing is the overview restyled: its path coloured, everything else faded. Most
/// states and arrows are off most paths, so the scenarios restyle them the same way, and drawing
/// every scenario whole made Graphviz write the same pieces of SVG again and again under its one
/// lock. Instead Graphviz draws a base once, every state and arrow in the look most scenarios give
/// it, and then each scenario with only what differs from the base shown (the rest hidden, which
/// costs no drawing). A scenario's SVG is the base's, with the pieces of what it shows replaced.
///
/// Graphviz writes each state and arrow as one comment and one group that depend only on its
/// own attributes and position, so the pieced-together SVG is byte for byte the SVG of the whole
/// scenario drawn (`ScenarioDifferencesTests` checks this on every spec's scenarios). Anything
/// that does not line up piece for piece is refused (`nil`), and the caller draws that scenario
/// whole.
package struct ScenarioDifferences: Sendable {
    /// Every state and arrow in its most common look among the scenarios.
    package let base: DOTGraph
    /// Per scenario: its graph with every state and arrow that looks as in `base` hidden (its
    /// arrows with step numbers are always shown: the numbers are drawn with them).
    package let differences: [DOTGraph]
    /// The same differences with the hidden arrows and states left out (a hidden state stays when
    /// a shown arrow ends at it), for a restyle that hides what it does not list
    /// (`DrawingRequest.hidesUnlisted`): Graphviz parses a few dozen objects instead of every one.
    /// `nil` when arrows cannot be told apart by their ends and ids.
    package let listed: [DOTGraph?]

    /// `nil` unless the graphs are the same graph (the same statements in the same order), as
    /// scenarios of one diagram are. `layout` is the graph they are drawn on (the overview): an
    /// object can only be hidden when it declares `style` for objects of its kind, because Graphviz
    /// reads that attribute through a handle bound when the graph is laid out.
    package init?(scenarios: [DOTGraph], overlays: [[Overlay]], layout: DOTGraph) {
        guard let first = scenarios.first, overlays.count == scenarios.count else { return nil }
        let shape = Self.shape(of: first.statements)
        var looks: [[DOTAttributes]] = []
        for graph in scenarios {
            guard Self.shape(of: graph.statements) == shape else { return nil }
            looks.append(Self.objectAttributes(in: graph.statements))
        }
        let objectCount = looks[0].count
        var baseLooks: [DOTAttributes] = []
        baseLooks.reserveCapacity(objectCount)
        for object in 0..<objectCount {
            var counts: [DOTAttributes: Int] = [:]
            var best = looks[0][object]
            var bestCount = 0
            // Of looks equally common, the one that reached that count first wins: the base is the
            // same on every run.
            for scenario in looks.indices {
                let look = looks[scenario][object]
                let count = counts[look, default: 0] + 1
                counts[look] = count
                if count > bestCount {
                    best = look
                    bestCount = count
                }
            }
            baseLooks.append(best)
        }
        var base = first
        var next = 0
        base.statements = Self.replacingObjects(in: first.statements, next: &next) { index, _, _ in baseLooks[index] }
        self.base = base
        let hidesNodes = Self.declaresStyle(in: layout, edges: false)
        let hidesEdges = Self.declaresStyle(in: layout, edges: true)
        let edgesKnownByID = Self.edgesKnownByID(first.statements)
        var listed: [DOTGraph?] = []
        differences = scenarios.indices.map { scenario in
            let numbered = Set(overlays[scenario].map(\.edgeID))
            var graph = scenarios[scenario]
            var next = 0
            var hidden = Set<Int>()
            graph.statements = Self.replacingObjects(in: graph.statements, next: &next) { index, isEdge, attributes in
                guard attributes == baseLooks[index], isEdge ? hidesEdges : hidesNodes else { return attributes }
                if case .string(let id)? = attributes["id"], numbered.contains(id) { return attributes }
                hidden.insert(index)
                var hiddenLook: DOTAttributes = ["style": "invis"]
                hiddenLook["id"] = attributes["id"]
                return hiddenLook
            }
            var sparse = graph
            sparse.statements = Self.listing(graph.statements, hidden: hidden)
            listed.append(edgesKnownByID ? sparse : nil)
            return graph
        }
        self.listed = listed
    }

    /// Whether no two arrows between the same two states have the same id, or both none (the
    /// sparse restyle finds arrows by it), and every state is declared once, arrows' ends included
    /// (a state DOT makes for an arrow alone would be left out of the listing, so hidden).
    private static func edgesKnownByID(_ statements: [DOTStatement]) -> Bool {
        var declared = Set<String>()
        for node in DOTStatement.nodes(in: statements) where !declared.insert(node.id).inserted { return false }
        var seen = Set<[String]>()
        for edge in DOTStatement.edges(in: statements) {
            guard declared.contains(edge.from), declared.contains(edge.to) else { return false }
            var id = ""
            if let value = edge.attributes["id"] {
                guard case .string(let text) = value else { return false }
                id = text
            }
            guard seen.insert([edge.from, edge.to, id]).inserted else { return false }
        }
        return true
    }

    /// `statements` without the objects numbered in `hidden`, except the hidden states a listed
    /// arrow ends at: left out, DOT would make them anew with no style, shown.
    private static func listing(_ statements: [DOTStatement], hidden: Set<Int>) -> [DOTStatement] {
        var ends = Set<String>()
        var next = 0
        func collectEnds(_ statements: [DOTStatement]) {
            for statement in statements {
                switch statement {
                case .node: next += 1
                case .edge(let edge):
                    if !hidden.contains(next) {
                        ends.insert(edge.from)
                        ends.insert(edge.to)
                    }
                    next += 1
                case .subgraph(let subgraph): collectEnds(subgraph.statements)
                }
            }
        }
        collectEnds(statements)
        next = 0
        func keep(_ statements: [DOTStatement]) -> [DOTStatement] {
            var kept: [DOTStatement] = []
            for statement in statements {
                switch statement {
                case .node(let node):
                    if !hidden.contains(next) || ends.contains(node.id) { kept.append(statement) }
                    next += 1
                case .edge:
                    if !hidden.contains(next) { kept.append(statement) }
                    next += 1
                case .subgraph(var subgraph):
                    subgraph.statements = keep(subgraph.statements)
                    kept.append(.subgraph(subgraph))
                }
            }
            return kept
        }
        return keep(statements)
    }

    /// The statements' structure without attributes: what must match for two graphs to be one.
    private static func shape(of statements: [DOTStatement]) -> [String] {
        var shape: [String] = []
        func walk(_ statements: [DOTStatement]) {
            for statement in statements {
                switch statement {
                case .node(let node): shape.append("n \(node.id)")
                case .edge(let edge): shape.append("e \(edge.from) \(edge.to)")
                case .subgraph(let subgraph):
                    shape.append("s \(subgraph.id)")
                    walk(subgraph.statements)
                    shape.append("end")
                }
            }
        }
        walk(statements)
        return shape
    }

    /// Whether `graph` sets `style` anywhere for its nodes (or edges).
    private static func declaresStyle(in graph: DOTGraph, edges: Bool) -> Bool {
        func declares(_ statements: [DOTStatement]) -> Bool {
            statements.contains { statement in
                switch statement {
                case .node(let node): !edges && node.attributes["style"] != nil
                case .edge(let edge): edges && edge.attributes["style"] != nil
                case .subgraph(let subgraph):
                    (edges ? subgraph.edgeDefaults : subgraph.nodeDefaults)["style"] != nil
                        || declares(subgraph.statements)
                }
            }
        }
        return (edges ? graph.edgeDefaults : graph.nodeDefaults)["style"] != nil || declares(graph.statements)
    }

    /// The attributes of every node and edge, depth first in statement order.
    private static func objectAttributes(in statements: [DOTStatement]) -> [DOTAttributes] {
        statements.flatMap { statement -> [DOTAttributes] in
            switch statement {
            case .node(let node): [node.attributes]
            case .edge(let edge): [edge.attributes]
            case .subgraph(let subgraph): objectAttributes(in: subgraph.statements)
            }
        }
    }

    private static func replacingObjects(
        in statements: [DOTStatement], next: inout Int, _ replace: (Int, Bool, DOTAttributes) -> DOTAttributes
    ) -> [DOTStatement] {
        var result: [DOTStatement] = []
        result.reserveCapacity(statements.count)
        for statement in statements {
            switch statement {
            case .node(var node):
                node.attributes = replace(next, false, node.attributes)
                next += 1
                result.append(.node(node))
            case .edge(var edge):
                edge.attributes = replace(next, true, edge.attributes)
                next += 1
                result.append(.edge(edge))
            case .subgraph(var subgraph):
                subgraph.statements = replacingObjects(in: subgraph.statements, next: &next, replace)
                result.append(.subgraph(subgraph))
            }
        }
        return result
    }

    /// The scenario's SVG: `difference` (its drawing with what looks as in the base hidden) with
    /// every hidden state and arrow taken from `base`. `nil` when the two do not line up piece for
    /// piece.
    package static func piece(base: [UInt8], difference: [UInt8]) -> [UInt8]? {
        piece(base: base, differences: [difference])[0]
    }

    /// The same for every scenario's difference, the base cut into pieces once.
    package static func piece(base: [UInt8], differences: [[UInt8]]) -> [[UInt8]?] {
        guard let basePieces = SVGPieces(base) else { return differences.map { _ in nil } }
        return differences.map { difference in
            guard let differencePieces = SVGPieces(difference),
                basePieces.objects.count == differencePieces.objects.count
            else { return nil }
            var svg: [UInt8] = []
            svg.reserveCapacity(base.count + difference.count / 8)
            svg += difference[differencePieces.head]
            for (shown, inBase) in zip(differencePieces.objects, basePieces.objects) {
                guard difference[shown.comment].elementsEqual(base[inBase.comment]) else { return nil }
                svg += shown.isDrawn ? difference[shown.range] : base[inBase.range]
            }
            svg += difference[differencePieces.tail]
            return svg
        }
    }
}

/// Graphviz's SVG cut at its states and arrows. Inside the graph's group it writes the graph's own
/// drawing (background, legend) and the cluster boxes first, then for each node and edge a comment
/// line naming it and, unless it is hidden, a group drawing it; every element starts a line.
struct SVGPieces {
    struct Object {
        /// The comment line, then the group (if drawn).
        var range: Range<Int>
        var comment: Range<Int>
        var isDrawn: Bool
    }

    /// Up to the first node's or edge's comment.
    var head: Range<Int>
    var objects: [Object] = []
    /// From the graph's closing `</g>`.
    var tail: Range<Int>

    init?(_ svg: [UInt8]) {
        let openGroup = Array("<g".utf8)
        let closeGroup = Array("</g>".utf8)
        let openComment = Array("<!-- ".utf8)
        let closeComment = Array(" -->".utf8)
        func starts(_ line: Range<Int>, with prefix: [UInt8]) -> Bool {
            line.count >= prefix.count && svg[line.lowerBound..<(line.lowerBound + prefix.count)].elementsEqual(prefix)
        }
        var depth = 0
        var headEnd: Int?
        var tailStart: Int?
        var objects: [Object] = []
        // Whether the last object's group is still open.
        var inObject = false
        var lineStart = 0
        while lineStart < svg.count, tailStart == nil {
            let lineEnd = svg[lineStart...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? svg.count
            let line = lineStart..<lineEnd
            defer { lineStart = lineEnd }
            if starts(line, with: closeGroup) {
                depth -= 1
                if depth < 0 { return nil }
                if depth == 0 {
                    tailStart = lineStart
                } else if inObject {
                    objects[objects.count - 1].range = objects[objects.count - 1].range.lowerBound..<lineEnd
                    inObject = depth > 1
                }
            } else if depth == 1 && starts(line, with: openComment) {
                let text = lineStart..<(svg[lineEnd - 1] == UInt8(ascii: "\n") ? lineEnd - 1 : lineEnd)
                guard text.count >= openComment.count + closeComment.count,
                    svg[(text.upperBound - closeComment.count)..<text.upperBound].elementsEqual(closeComment)
                else { return nil }
                if headEnd == nil { headEnd = lineStart }
                objects.append(Object(range: line, comment: text, isDrawn: false))
            } else if starts(line, with: openGroup) {
                if depth == 1 && !objects.isEmpty {
                    // A node's or edge's group, right after its comment.
                    guard !objects[objects.count - 1].isDrawn, objects[objects.count - 1].range.upperBound == lineStart
                    else { return nil }
                    objects[objects.count - 1].isDrawn = true
                    inObject = true
                }
                if inObject { objects[objects.count - 1].range = objects[objects.count - 1].range.lowerBound..<lineEnd }
                depth += 1
            } else if inObject {
                objects[objects.count - 1].range = objects[objects.count - 1].range.lowerBound..<lineEnd
            } else if depth == 1 && !objects.isEmpty {
                // Something other than a node or an edge after them: not the layout this expects.
                return nil
            }
        }
        guard let tailStart else { return nil }
        head = 0..<(headEnd ?? tailStart)
        tail = tailStart..<svg.count
        self.objects = objects
    }
}
