/// A pure-Swift model of a Graphviz DOT graph: values only, no C library.
///
/// `DOTEncoder.encode(_:)` turns it into DOT text with every string escaped for the place it
/// goes, and attributes written in a fixed (alphabetical) order, so equal graphs give equal bytes.
package struct DOTGraph: Sendable, Hashable {
    package var id: String
    package var isDirected = true
    package var isStrict = false
    /// `graph [...]` defaults: layout, fonts, labels.
    package var attributes: DOTAttributes = [:]
    /// `node [...]` defaults.
    package var nodeDefaults: DOTAttributes = [:]
    /// `edge [...]` defaults.
    package var edgeDefaults: DOTAttributes = [:]
    /// Nodes, edges and subgraphs, written in this order.
    package var statements: [DOTStatement] = []

    /// Every node declared anywhere in the graph, depth first, in statement order.
    package var allNodes: [DOTNode] { DOTStatement.nodes(in: statements) }
    /// Every edge anywhere in the graph, depth first, in statement order.
    package var allEdges: [DOTEdge] { DOTStatement.edges(in: statements) }
    /// Every subgraph anywhere in the graph, depth first (a parent before its children).
    package var allSubgraphs: [DOTSubgraph] { DOTStatement.subgraphs(in: statements) }
}

/// A `subgraph`; named `cluster…` it is drawn as a box around its nodes.
package struct DOTSubgraph: Sendable, Hashable {
    package var id: String
    package var attributes: DOTAttributes = [:]
    package var nodeDefaults: DOTAttributes = [:]
    package var edgeDefaults: DOTAttributes = [:]
    package var statements: [DOTStatement] = []

    /// Graphviz draws a subgraph as a cluster box only when its name starts with `cluster`.
    package var isCluster: Bool { id.hasPrefix("cluster") }
}

package struct DOTNode: Sendable, Hashable {
    package var id: String
    package var attributes: DOTAttributes

    package init(_ id: String, attributes: DOTAttributes = [:]) {
        self.id = id
        self.attributes = attributes
    }
}

package struct DOTEdge: Sendable, Hashable {
    package var from: String
    package var to: String
    package var attributes: DOTAttributes = [:]
}

package enum DOTStatement: Sendable, Hashable {
    case node(DOTNode)
    case edge(DOTEdge)
    case subgraph(DOTSubgraph)

    static func nodes(in statements: [DOTStatement]) -> [DOTNode] {
        statements.flatMap { statement -> [DOTNode] in
            switch statement {
            case .node(let node): [node]
            case .edge: []
            case .subgraph(let subgraph): nodes(in: subgraph.statements)
            }
        }
    }

    static func edges(in statements: [DOTStatement]) -> [DOTEdge] {
        statements.flatMap { statement -> [DOTEdge] in
            switch statement {
            case .node: []
            case .edge(let edge): [edge]
            case .subgraph(let subgraph): edges(in: subgraph.statements)
            }
        }
    }

    static func subgraphs(in statements: [DOTStatement]) -> [DOTSubgraph] {
        statements.flatMap { statement -> [DOTSubgraph] in
            if case .subgraph(let subgraph) = statement { [subgraph] + subgraphs(in: subgraph.statements) } else { [] }
        }
    }
}

/// An attribute value, tagged with how it must be escaped.
package enum DOTValue: Sendable, Hashable {
    /// Label-like text (`label`, `xlabel`, `tooltip`, …): shown exactly as given. Backslashes,
    /// quotes and `&` are escaped, a newline becomes a centred line break, control characters go.
    case text(String)
    /// Text for a `record`/`Mrecord` label: like `.text`, and `{ } | < >` are escaped too, so the
    /// text cannot open fields or ports.
    case recordText(String)
    /// A plain value: colour, font name, style list, enum (`LR`, `true`, …). Written bare when it
    /// is a DOT identifier or number, otherwise quoted with `"` and `\` escaped.
    case string(String)
    /// A number, written in Swift's shortest round-trip form (deterministic).
    case number(Double)
    case bool(Bool)
    /// An HTML-like label (`<…>`); its text is entity-escaped by construction.
    case html(DOTHTML)
}

extension DOTValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(floatLiteral value: Double) { self = .number(value) }
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// Attributes keyed by name. Insertion order does not matter: the encoder writes them sorted by
/// name, so the same attributes always give the same text.
package struct DOTAttributes: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    package private(set) var values: [String: DOTValue]

    package init(_ values: [String: DOTValue] = [:]) { self.values = values }
    package init(dictionaryLiteral elements: (String, DOTValue)...) {
        // A plain loop (the last value of a repeated key wins): the composer writes a literal for
        // every node and arrow, and `Dictionary(_:uniquingKeysWith:)` costs several times more.
        var values: [String: DOTValue] = [:]
        values.reserveCapacity(elements.count)
        for (key, value) in elements { values[key] = value }
        self.values = values
    }

    package subscript(key: String) -> DOTValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    package var isEmpty: Bool { values.isEmpty }

    /// Attributes in the order they are written: by name.
    package var sorted: [(key: String, value: DOTValue)] {
        values.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    /// `self` with `other`'s values winning.
    package func merging(_ other: DOTAttributes) -> DOTAttributes {
        DOTAttributes(values.merging(other.values) { _, new in new })
    }
}
