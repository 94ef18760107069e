import CGraphviz
import LifeSpec

/// Lays a `SequenceDiagram` out itself and hands Graphviz a graph whose every node is pinned
/// (`pos` with `!`, drawn by the `nop2` layout): Graphviz only draws it, so SVG, PNG and PDF come
/// from the one renderer, fonts and text metrics the state diagrams use, and the positions are
/// LifeSpec's, the same on every machine. Text is measured with the metrics Graphviz itself is
/// given (`lifespec_advance`, shim.h), so a box fits its words wherever it is drawn.
package struct SequenceLayout: Sendable {
    package static let layoutEngine = "nop2"

    static let font = DiagramStyle.font
    static let textSize = 14.0
    static let titleSize = 17.0
    static let headerSize = 14.0
    static let lineHeight = 17.0
    /// The widest a label may be before it wraps (points).
    static let wrapWidth = 260.0
    static let margin = 16.0

    /// The width of `text` at `size` points, as Graphviz measures it with LifeSpec's metrics.
    static func width(_ text: String, size: Double, bold: Bool = false) -> Double {
        var units = 0.0
        for scalar in text.unicodeScalars { units += lifespec_advance(scalar.value, bold ? 1 : 0, 0) }
        return units * size / 2048
    }

    /// `text` in as few lines no wider than `limit` as it can, of even widths: broken at spaces,
    /// after a selector's colons and a type's dot, and between Chinese characters, never before
    /// closing punctuation; a piece wider than the limit stands on a line of its own.
    static func wrap(_ text: String, size: Double, bold: Bool = false, limit: Double = wrapWidth) -> [String] {
        guard width(text, size: size, bold: bold) > limit else { return [text] }
        var pieces: [String] = []
        var current = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            current.unicodeScalars.append(scalar)
            guard let next = index + 1 < scalars.count ? scalars[index + 1] : nil else { continue }
            let closing = "）)]」』，。、；：！？”’".unicodeScalars.contains(next) || next == ":"
            let opening = "（([「『“‘".unicodeScalars.contains(scalar)
            let breaks =
                !opening
                && (scalar == " " || (scalar == ":" && next != ")") || (scalar == "." && next.properties.isAlphabetic)
                    || ((scalar.value >= 0x2E80 || next.value >= 0x2E80) && !closing && next != " "))
            if breaks {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        func lines(within limit: Double) -> [String] {
            var lines: [String] = []
            var line = ""
            for piece in pieces {
                let candidate = line + piece
                if !line.isEmpty && width(candidate.trimmingSpaces, size: size, bold: bold) > limit {
                    lines.append(line.trimmingSpaces)
                    line = piece
                } else {
                    line = candidate
                }
            }
            if !line.trimmingSpaces.isEmpty { lines.append(line.trimmingSpaces) }
            return lines
        }
        // The narrowest limit that needs no more lines than `limit` does: lines of even width.
        let greedy = lines(within: limit)
        var low = 0.0
        var high = limit
        for _ in 0..<12 {
            let middle = (low + high) / 2
            if lines(within: middle).count <= greedy.count { high = middle } else { low = middle }
        }
        return lines(within: high)
    }

    let diagram: SequenceDiagram

    package init(_ diagram: SequenceDiagram) { self.diagram = diagram }

    /// A text block: its lines, and the box they need.
    struct Block {
        let lines: [String]
        let size: Double
        let bold: Bool
        var width: Double { lines.map { SequenceLayout.width($0, size: size, bold: bold) }.max() ?? 0 }
        var height: Double { Double(lines.count) * SequenceLayout.lineHeight * size / SequenceLayout.textSize }
    }

    /// The graph, ready for `GraphvizRenderer` with `layoutEngine`.
    package func graph() -> DOTGraph {
        let strings = Glossary(diagram.language)
        let count = diagram.lifelines.count
        let headers = diagram.lifelines.map {
            Block(
                lines: Self.wrap($0.title, size: Self.headerSize, bold: true, limit: 150), size: Self.headerSize,
                bold: true)
        }

        // What each row says, measured.
        func label(_ row: SequenceDiagram.Row) -> Block? {
            switch row {
            case .event(let number, let title, _):
                Block(
                    lines: Self.wrap("\(number)  \(title)", size: Self.textSize, bold: true), size: Self.textSize,
                    bold: true)
            case .raised(let title, _, _):
                Block(
                    lines: Self.wrap(strings.raise(title), size: Self.textSize, limit: 210), size: Self.textSize,
                    bold: false)
            case .call(let name, _):
                Block(lines: Self.wrap(name, size: Self.textSize), size: Self.textSize, bold: false)
            case .post(let name, _):
                Block(lines: Self.wrap(strings.postArrow(name), size: Self.textSize), size: Self.textSize, bold: false)
            case .state(let titles, _):
                Block(
                    lines: Self.wrap(titles.joined(separator: strings.listSeparator), size: Self.textSize, limit: 170),
                    size: Self.textSize, bold: false)
            case .stopped(let message):
                Block(lines: Self.wrap(message, size: Self.textSize, limit: 400), size: Self.textSize, bold: false)
            }
        }
        func stateBlock(_ titles: [String]) -> Block {
            Block(
                lines: Self.wrap(titles.joined(separator: strings.listSeparator), size: Self.textSize, limit: 170),
                size: Self.textSize, bold: false)
        }
        let labels = diagram.rows.map(label)

        // Columns: each lifeline's half-width (its header and state boxes), then the gaps the
        // arrows' labels need (a label sits centred over its arrow).
        var half = headers.map { $0.width / 2 + 12 }
        for (index, row) in diagram.rows.enumerated() {
            if case .state(_, let on) = row, let block = labels[index] {
                half[on] = max(half[on], block.width / 2 + 10)
            }
        }
        for states in [diagram.start, diagram.end] {
            for (on, titles) in states { half[on] = max(half[on], stateBlock(titles).width / 2 + 10) }
        }
        var spans: [(from: Int, to: Int, width: Double)] = []
        for (index, row) in diagram.rows.enumerated() {
            guard let block = labels[index] else { continue }
            switch row {
            case .event(_, _, let to), .call(_, let to), .post(_, let to):
                spans.append((0, to, block.width + 16))
            case .raised(_, let from, let to) where from != to:
                spans.append((min(from, to), max(from, to), block.width + 16))
            default: break
            }
        }
        var x = [Double](repeating: 0, count: count)
        x[0] = Self.margin + half[0]
        for column in 1..<max(count, 1) {
            var at = x[column - 1] + half[column - 1] + half[column] + 16
            for span in spans where span.to == column { at = max(at, x[span.from] + span.width) }
            x[column] = at
        }
        let right = (x.last ?? 0) + (half.last ?? 0) + Self.margin

        // Rows, top to bottom (y grows downwards here; Graphviz's grows upwards).
        var statements: [DOTStatement] = []
        var y = Self.margin
        let title = Block(
            lines: Self.wrap(diagram.title, size: Self.titleSize, bold: true, limit: max(right - 2 * Self.margin, 300)),
            size: Self.titleSize, bold: true)
        var texts: [(id: String, block: Block, x: Double, y: Double, color: String, italic: Bool, align: String)] = []
        texts.append(("title", title, Self.margin, y, DiagramStyle.ink, false, "l"))
        y += title.height + 14
        let headerHeight = (headers.map(\.height).max() ?? Self.lineHeight) + 14
        var boxes: [(id: String, block: Block, x: Double, y: Double, width: Double, height: Double, style: BoxStyle)] =
            []
        for (index, header) in headers.enumerated() {
            boxes.append(
                ("head\(index)", header, x[index], y + headerHeight / 2, 2 * half[index] - 8, headerHeight, .header))
        }
        y += headerHeight + 12
        let lifelineTop = y - 12
        func stateRow(_ states: [Int: [String]], id: String, style: BoxStyle) {
            guard !states.isEmpty else { return }
            let blocks = states.mapValues(stateBlock)
            let height = (blocks.values.map(\.height).max() ?? Self.lineHeight) + 10
            for (on, block) in blocks.sorted(by: { $0.key < $1.key }) {
                boxes.append(("\(id)_\(on)", block, x[on], y + height / 2, block.width + 20, height, style))
            }
            y += height + 12
        }
        stateRow(diagram.start, id: "start", style: .start)
        var arrows: [(id: String, from: Double, to: Double, y: Double, style: ArrowStyle)] = []
        for (index, row) in diagram.rows.enumerated() {
            guard let block = labels[index] else { continue }
            switch row {
            case .event(_, _, let to), .call(_, let to), .post(_, let to), .raised(_, _, let to):
                var from = 0
                var style = ArrowStyle.call
                var color = DiagramStyle.ink
                var italic = false
                switch row {
                case .event:
                    style = .event
                    y += 8
                case .post:
                    style = .post
                    color = DiagramStyle.secondary
                    italic = true
                case .raised(_, let raiser, _):
                    from = raiser
                    style = .raised
                    color = DiagramStyle.secondary
                    italic = true
                default: break
                }
                let textY = y
                y += block.height + 3
                if from == to {
                    // A lifeline raising an event for itself: the label beside it, inside the drawing.
                    let beside = to == count - 1 ? x[to] - 8 - block.width - 4 : x[to] + 8
                    texts.append(("t\(index)", block, beside, textY, color, italic, "l"))
                } else {
                    texts.append(("t\(index)", block, (x[from] + x[to]) / 2, textY, color, italic, "c"))
                    arrows.append(("a\(index)", x[from], x[to], y, style))
                }
                y += 9
            case .state(_, let on):
                let height = block.height + 10
                boxes.append(("s\(index)", block, x[on], y + height / 2, block.width + 20, height, .state))
                y += height + 8
            case .stopped:
                texts.append(("t\(index)", block, Self.margin, y, DiagramStyle.accent, false, "l"))
                y += block.height + 10
            }
        }
        y += 6
        stateRow(diagram.end, id: "end", style: .end)
        let lifelineBottom = y - 4
        let height = y + Self.margin - 8

        // Lifelines first: every box and label is drawn over them (outputorder=edgesfirst).
        func point(_ id: String, _ px: Double, _ py: Double) -> DOTStatement {
            .node(
                DOTNode(
                    id,
                    attributes: [
                        "pos": .string(Self.pos(px, height - py)), "shape": "point", "width": 0.01, "style": "invis",
                    ]))
        }
        // A lifeline stops short of every text that crosses it, so no text is struck through and
        // a message's label is nearer its own arrow than any lifeline: from a little above the text
        // to the arrow under it (or the text's foot when it has none).
        for column in 0..<count {
            var gaps: [(top: Double, bottom: Double)] = []
            for text in texts {
                let width = text.block.width + 4
                let left = text.align == "l" ? text.x : text.x - width / 2
                guard left - 3 < x[column], x[column] < left + width + 3 else { continue }
                let foot = arrows.first { $0.id == "a" + text.id.dropFirst() }?.y ?? text.y + text.block.height + 3
                gaps.append((text.y - 8, foot))
            }
            var segments: [(top: Double, bottom: Double)] = []
            var from = lifelineTop
            for gap in gaps.sorted(by: { $0.top < $1.top }) {
                if gap.top > from { segments.append((from, min(gap.top, lifelineBottom))) }
                from = max(from, gap.bottom)
            }
            if from < lifelineBottom { segments.append((from, lifelineBottom)) }
            for (index, segment) in segments.enumerated() where segment.bottom - segment.top > 1 {
                let (top, bottom) =
                    index == 0
                    ? ("top\(column)", "bottom\(column)") : ("top\(column)_\(index)", "bottom\(column)_\(index)")
                statements.append(point(top, x[column], segment.top))
                statements.append(point(bottom, x[column], segment.bottom))
                statements.append(
                    .edge(
                        DOTEdge(
                            from: top, to: bottom,
                            attributes: [
                                "arrowhead": "none", "style": "dashed", "color": .string(DiagramStyle.faded),
                                "penwidth": 1.2,
                            ])))
            }
        }
        for arrow in arrows {
            statements.append(point("\(arrow.id)_from", arrow.from, arrow.y))
            statements.append(point("\(arrow.id)_to", arrow.to, arrow.y))
            var attributes: DOTAttributes = ["color": .string(DiagramStyle.line), "arrowsize": 0.8]
            switch arrow.style {
            case .event:
                attributes["penwidth"] = 2.0
                attributes["color"] = .string(DiagramStyle.accent)
            case .call: attributes["penwidth"] = 1.2
            case .post:
                attributes["style"] = "dashed"
                attributes["arrowhead"] = "vee"
            case .raised:
                attributes["style"] = "dotted"
                attributes["arrowhead"] = "vee"
                attributes["color"] = .string(DiagramStyle.secondary)
            }
            statements.append(.edge(DOTEdge(from: "\(arrow.id)_from", to: "\(arrow.id)_to", attributes: attributes)))
        }
        for box in boxes {
            var attributes: DOTAttributes = [
                "pos": .string(Self.pos(box.x, height - box.y)), "shape": "box", "fixedsize": true,
                "width": .number(Self.inches(box.width)), "height": .number(Self.inches(box.height)),
                "label": Self.label(box.block.lines, bold: box.block.bold, italic: false),
                "fontname": .string(Self.font),
                "fontsize": .number(box.block.size), "style": "rounded,filled", "margin": 0,
            ]
            switch box.style {
            case .header:
                attributes["fillcolor"] = .string(DiagramStyle.clusterFills[1])
                attributes["color"] = .string(DiagramStyle.line)
            case .state:
                attributes["fillcolor"] = "#FFFFFF"
                attributes["color"] = .string(DiagramStyle.accent)
                attributes["fontcolor"] = .string(DiagramStyle.accent)
            case .start, .end:
                attributes["fillcolor"] = "#FFFFFF"
                attributes["color"] = .string(DiagramStyle.ink)
                attributes["penwidth"] = box.style == .end ? 2.2 : 1.2
            }
            statements.append(.node(DOTNode(box.id, attributes: attributes)))
        }
        for text in texts {
            // A text's anchor is its box's centre; `align` only moves the box.
            let width = text.block.width + 4
            let centre = text.align == "l" ? text.x + width / 2 : text.x
            statements.append(
                .node(
                    DOTNode(
                        text.id,
                        attributes: [
                            "pos": .string(Self.pos(centre, height - text.y - text.block.height / 2)),
                            "shape": "plaintext",
                            "fixedsize": true, "width": .number(Self.inches(width)),
                            "height": .number(Self.inches(text.block.height)),
                            "label": Self.label(text.block.lines, bold: text.block.bold, italic: text.italic),
                            "margin": 0,
                            "fontname": .string(Self.font),
                            "fontsize": .number(text.block.size), "fontcolor": .string(text.color),
                        ])))
        }
        return DOTGraph(
            id: "sequence",
            attributes: [
                "outputorder": "edgesfirst", "splines": "line", "bgcolor": "white",
                "bb": .string("0,0,\(Self.number(right)),\(Self.number(height))"), "pad": 0.1,
            ],
            edgeDefaults: ["fontname": .string(Self.font)],
            statements: statements)
    }

    /// Bold and italic through HTML-like labels: Graphviz then measures and draws the face asked for
    /// (a font name such as "Helvetica-Bold" is not matched in bitmaps).
    /// Lines of several go one to a table row: within one HTML-like text Graphviz spaces lines by
    /// the font size alone, closer than a line is tall (ascender to descender), where a plain label
    /// and a table row take the font's whole line height.
    static func label(_ lines: [String], bold: Bool, italic: Bool) -> DOTValue {
        guard bold || italic else { return .text(lines.joined(separator: "\n")) }
        func styled(_ line: String) -> DOTHTML { bold ? .bold(.text(line)) : .italic(.text(line)) }
        guard lines.count > 1 else { return .html(styled(lines.first ?? "")) }
        return .html(
            .table(
                DOTHTMLTable(
                    attributes: ["BORDER": "0", "CELLBORDER": "0", "CELLSPACING": "0", "CELLPADDING": "0"],
                    rows: lines.map { .cells([DOTHTMLCell(styled($0))]) })))
    }

    enum BoxStyle { case header, state, start, end }
    enum ArrowStyle { case event, call, post, raised }

    static func inches(_ points: Double) -> Double { (points / 72 * 10_000).rounded() / 10_000 }
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
    static func pos(_ x: Double, _ y: Double) -> String { "\(number(x)),\(number(y))!" }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}

/// The width of text as Graphviz measures it when it lays a drawing out: LifeSpec's own metrics
/// (`lifespec_advance`, shim.h), the only ones libgvc is given, so a drawing's text boxes can be
/// recomputed from its SVG exactly.
package enum DrawingTextMetrics {
    /// Height above the baseline and below it, in ems (Liberation Sans, as laid out).
    package static let ascent = 1854.0 / 2048
    package static let descent = 434.0 / 2048

    package static func width(_ text: String, size: Double, bold: Bool, italic: Bool, monospace: Bool) -> Double {
        let face: Int32 = (bold ? 1 : 0) + (italic ? 2 : 0)
        var units = 0.0
        for scalar in text.unicodeScalars { units += lifespec_advance(scalar.value, face, monospace ? 1 : 0) }
        return units * size / 2048
    }
}
