import Foundation

@testable import LifeSpecRender

/// The layout-quality measure of issue #31, read from a drawing's SVG geometry:
///   (a) no text box overlaps another text box, or a node it does not belong to (a cluster's
///       title is a text of the cluster);
///   (b) every edge label is nearer to its own edge than to any other edge;
///   (c) the label of an edge whose two ends lie in a cluster lies inside that cluster (the
///       innermost one holding both), not across its border or beside the neighbouring cluster.
///
/// Graphviz's SVG gives a text's anchor, baseline, font and size but not its width. The boxes are
/// measured with the metrics Graphviz itself laid the drawing out with (`DrawingTextMetrics`,
/// LifeSpec's own text-layout plugin, shim.h): exact for every drawing LifeSpec makes, on any
/// machine, and the same glyph advances the PNGs draw (Liberation Sans). A box runs from the
/// ascender to the descender of its font size.
struct LayoutQuality {
    struct Box: CustomStringConvertible {
        var minX, minY, maxX, maxY: Double
        var description: String {
            String(format: "[%.1f,%.1f – %.1f,%.1f]", minX, minY, maxX, maxY)
        }
        func overlaps(_ other: Box, by slack: Double = 0.25) -> Bool {
            min(maxX, other.maxX) - max(minX, other.minX) > slack
                && min(maxY, other.maxY) - max(minY, other.minY) > slack
        }
        var area: Double { (maxX - minX) * (maxY - minY) }
        /// Whether `other` lies inside this box (up to `slack` over its border).
        func holds(_ other: Box, slack: Double = 0) -> Bool {
            other.minX >= minX - slack && other.maxX <= maxX + slack && other.minY >= minY - slack
                && other.maxY <= maxY + slack
        }
        func union(_ other: Box) -> Box {
            Box(
                minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX),
                maxY: max(maxY, other.maxY))
        }
        /// The distance from the box to the segment a–b (0 when they touch).
        func distance(to a: (Double, Double), _ b: (Double, Double)) -> Double {
            if contains(a) || contains(b) { return 0 }
            let corners = [(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)]
            for index in 0..<4 where Self.intersects(a, b, corners[index], corners[(index + 1) % 4]) { return 0 }
            var best = min(pointDistance(a), pointDistance(b))
            for corner in corners { best = min(best, Self.segmentDistance(corner, a, b)) }
            return best
        }
        private func contains(_ p: (Double, Double)) -> Bool {
            p.0 >= minX && p.0 <= maxX && p.1 >= minY && p.1 <= maxY
        }
        private func pointDistance(_ p: (Double, Double)) -> Double {
            let dx = max(minX - p.0, 0, p.0 - maxX)
            let dy = max(minY - p.1, 0, p.1 - maxY)
            return (dx * dx + dy * dy).squareRoot()
        }
        private static func segmentDistance(_ p: (Double, Double), _ a: (Double, Double), _ b: (Double, Double))
            -> Double
        {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1)
            let length = dx * dx + dy * dy
            let t = length == 0 ? 0 : max(0, min(1, ((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length))
            let (x, y) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1)
            return (x * x + y * y).squareRoot()
        }
        private static func intersects(
            _ p1: (Double, Double), _ p2: (Double, Double), _ q1: (Double, Double), _ q2: (Double, Double)
        ) -> Bool {
            func cross(_ o: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
                (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
            }
            let d1 = cross(q1, q2, p1)
            let d2 = cross(q1, q2, p2)
            let d3 = cross(p1, p2, q1)
            let d4 = cross(p1, p2, q2)
            return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
        }
    }

    enum Kind: String { case node, edge, cluster, graph }

    /// A node, edge, cluster or the graph itself, with what the SVG draws for it.
    struct Object {
        let kind: Kind
        /// Graphviz's `<title>`: a node's name, `tail->head` for an edge.
        var name = ""
        var texts: [(text: String, box: Box)] = []
        /// A node's outline (every shape it draws).
        var shape: Box?
        /// An edge's curve and arrowheads, as points along them.
        var polyline: [[(Double, Double)]] = []
    }

    var objects: [Object] = []

    init(svg: String) {
        var stack: [Int?] = []
        var bytes = Array(svg.utf8)
        bytes.append(0)
        var index = 0
        func current() -> Int? { stack.last { $0 != nil } ?? nil }
        while index < bytes.count - 1 {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count - 1, bytes[end] != UInt8(ascii: ">") { end += 1 }
            let tag = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            index = end + 1
            if tag.hasPrefix("/") {
                if tag == "/g" { _ = stack.popLast() }
                continue
            }
            let name = String(tag.prefix { $0 != " " && $0 != "/" })
            let attributes = Self.attributes(tag)
            switch name {
            case "g":
                if let kind = attributes["class"].flatMap(Kind.init(rawValue:)) {
                    objects.append(Object(kind: kind))
                    stack.append(objects.count - 1)
                } else {
                    stack.append(nil)
                }
            case "title", "text":
                var close = index
                while close < bytes.count - 1, bytes[close] != UInt8(ascii: "<") { close += 1 }
                let content = Self.decode(String(decoding: bytes[index..<close], as: UTF8.self))
                index = close
                guard let owner = current() else { continue }
                if name == "title" {
                    if objects[owner].name.isEmpty { objects[owner].name = content }
                } else if !content.allSatisfy({ $0 == " " || $0 == "\u{A0}" }),
                    let box = Self.textBox(content, attributes)
                {
                    objects[owner].texts.append((content, box))
                }
            case "path", "polygon", "polyline", "ellipse":
                guard let owner = current() else { continue }
                let points = Self.points(name, attributes)
                guard !points.isEmpty else { continue }
                switch objects[owner].kind {
                case .node:
                    let box = Self.bounds(points)
                    objects[owner].shape = objects[owner].shape.map { $0.union(box) } ?? box
                case .edge:
                    // The curve and its arrowheads; a filled path is an overlay's background (a step badge).
                    if name != "path" || attributes["fill"] == "none" { objects[owner].polyline.append(points) }
                case .cluster:
                    let box = Self.bounds(points)
                    objects[owner].shape = objects[owner].shape.map { $0.union(box) } ?? box
                case .graph: break
                }
            default: break
            }
        }
    }

    /// Whether a problem is of kind (c): a label outside the cluster that holds its edge.
    static func isOutsideItsCluster(_ problem: String) -> Bool { problem.contains(" is not inside cluster ") }

    /// One problem, naming both things and their boxes.
    static func describe(_ a: (text: String, box: Box), _ b: String, _ box: Box) -> String {
        "“\(a.text)” \(a.box) overlaps \(b) \(box)"
    }

    /// Every violation of (a) and (b), each a line naming `file`.
    func violations(file: String) -> [String] {
        var found: [String] = []
        // A scenario's title is held by an arrow (GraphvizRenderer's heading overlay) but is the
        // drawing's: an edge's text lying wholly above every node and cluster.
        let top = objects.filter { $0.kind == .node || $0.kind == .cluster }
            .flatMap { object in (object.shape.map { [$0.minY] } ?? []) + object.texts.map(\.box.minY) }.min()
        var texts: [(object: Int, text: String, box: Box)] = []
        for (index, object) in objects.enumerated() {
            for text in object.texts { texts.append((index, text.text, text.box)) }
        }
        // (a) text against text.
        let sorted = texts.indices.sorted { texts[$0].box.minX < texts[$1].box.minX }
        for (position, i) in sorted.enumerated() {
            for j in sorted[(position + 1)...] {
                if texts[j].box.minX >= texts[i].box.maxX { break }
                if texts[i].box.overlaps(texts[j].box) {
                    let (a, b) = (texts[i], texts[j])
                    found.append(
                        "\(file): \(objects[a.object].kind) \(objects[a.object].name) "
                            + Self.describe(
                                (a.text, a.box), "\(objects[b.object].kind) \(objects[b.object].name)’s “\(b.text)”",
                                b.box))
                }
            }
        }
        // (a) text against a node it does not belong to.
        for (index, object) in objects.enumerated() where object.kind == .node {
            guard let shape = object.shape else { continue }
            for text in texts where text.object != index && text.box.overlaps(shape) {
                found.append(
                    "\(file): \(objects[text.object].kind) \(objects[text.object].name) "
                        + Self.describe((text.text, text.box), "node \(object.name)", shape))
            }
        }
        // (b) an edge's label against the other edges: its own must be the nearest.
        let edges = objects.indices.filter { objects[$0].kind == .edge && !objects[$0].polyline.isEmpty }
        func distance(_ box: Box, _ edge: Int) -> Double {
            var best = Double.infinity
            for line in objects[edge].polyline {
                for (a, b) in zip(line, line.dropFirst()) { best = min(best, box.distance(to: a, b)) }
                if line.count == 1 { best = min(best, box.distance(to: line[0], line[0])) }
            }
            return best
        }
        var labels: [(edge: Int, texts: [(text: String, box: Box)])] = []
        for edge in edges {
            let own = objects[edge].texts.filter { text in top.map { text.box.maxY > $0 } ?? true }
            if !own.isEmpty { labels.append((edge, own)) }
        }
        // A sequence diagram's message text is node `t<row>`, its arrow `a<row>_from->a<row>_to`.
        for object in objects where object.kind == .node && object.name.hasPrefix("t") && !object.texts.isEmpty {
            let arrow = "a" + object.name.dropFirst() + "_from->a" + object.name.dropFirst() + "_to"
            if let edge = edges.first(where: { objects[$0].name == arrow }) { labels.append((edge, object.texts)) }
        }
        // (c) an edge's label inside the innermost cluster holding both its ends.
        var nodeShapes: [String: Box] = [:]
        for object in objects where object.kind == .node {
            if let shape = object.shape { nodeShapes[object.name] = shape }
        }
        let clusters = objects.compactMap { object in
            object.kind == .cluster ? object.shape.map { (object.name, $0) } : nil
        }
        for (edge, label) in labels {
            let ends = objects[edge].name.components(separatedBy: "->")
            guard ends.count == 2, let tail = nodeShapes[ends[0]], let head = nodeShapes[ends[1]],
                let (home, border) = clusters.filter({ $0.1.holds(tail) && $0.1.holds(head) }).min(by: {
                    $0.1.area < $1.1.area
                })
            else { continue }
            let box = label.dropFirst().reduce(label[0].box) { $0.union($1.box) }
            if !border.holds(box, slack: 0.5) {
                found.append(
                    "\(file): the label “\(label.map(\.text).joined(separator: " / "))” \(box) of edge "
                        + "\(objects[edge].name) is not inside cluster \(home) \(border), which holds both its ends"
                )
            }
        }
        for (edge, label) in labels {
            let box = label.dropFirst().reduce(label[0].box) { $0.union($1.box) }
            let own = distance(box, edge)
            for other in edges where other != edge {
                let theirs = distance(box, other)
                if theirs < own - 0.5 {
                    found.append(
                        String(
                            format: "%@: the label “%@” %@ of edge %@ is %.1f from it but %.1f from edge %@", file,
                            label.map(\.text).joined(separator: " / "), box.description, objects[edge].name, own,
                            theirs, objects[other].name))
                }
            }
        }
        return found
    }

    // MARK: - Reading the SVG

    private static func attributes(_ tag: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(tag)
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].split(separator: " ").last.map(String.init) ?? ""
            let afterEquals = rest.index(after: equals)
            guard afterEquals < rest.endIndex, rest[afterEquals] == "\"" else { break }
            let valueStart = rest.index(after: afterEquals)
            guard let close = rest[valueStart...].firstIndex(of: "\"") else { break }
            result[key] = String(rest[valueStart..<close])
            rest = rest[rest.index(after: close)...]
        }
        return result
    }

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                if entity.hasPrefix("#x"), let code = UInt32(entity.dropFirst(2), radix: 16),
                    let scalar = Unicode.Scalar(code)
                {
                    result.unicodeScalars.append(scalar)
                } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()),
                    let scalar = Unicode.Scalar(code)
                {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "&" + entity + ";"
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return result + rest
    }

    private static func textBox(_ text: String, _ attributes: [String: String]) -> Box? {
        guard let x = attributes["x"].flatMap(Double.init), let y = attributes["y"].flatMap(Double.init),
            let size = attributes["font-size"].flatMap(Double.init)
        else { return nil }
        let family = (attributes["font-family"] ?? "").lowercased()
        let width = DrawingTextMetrics.width(
            text, size: size, bold: attributes["font-weight"] == "bold", italic: attributes["font-style"] == "italic",
            monospace: family.hasPrefix("courier") || family.hasPrefix("mono"))
        let left: Double
        switch attributes["text-anchor"] {
        case "middle": left = x - width / 2
        case "end": left = x - width
        default: left = x
        }
        return Box(
            minX: left, minY: y - DrawingTextMetrics.ascent * size, maxX: left + width,
            maxY: y + DrawingTextMetrics.descent * size)
    }

    private static func numbers(_ text: String) -> [Double] {
        var result: [Double] = []
        var current = ""
        for character in text {
            if character.isNumber || character == "." || (character == "-" && current.isEmpty) || character == "e" {
                current.append(character)
            } else {
                if let value = Double(current) { result.append(value) }
                current = character == "-" ? "-" : ""
            }
        }
        if let value = Double(current) { result.append(value) }
        return result
    }

    /// The points of a shape: a path's cubic Béziers sampled (Graphviz writes `M x,y C …` only).
    private static func points(_ name: String, _ attributes: [String: String]) -> [(Double, Double)] {
        switch name {
        case "ellipse":
            guard let cx = attributes["cx"].flatMap(Double.init), let cy = attributes["cy"].flatMap(Double.init),
                let rx = attributes["rx"].flatMap(Double.init), let ry = attributes["ry"].flatMap(Double.init)
            else { return [] }
            return (0..<24).map { step in
                let angle = Double(step) * .pi / 12
                return (cx + rx * cos(angle), cy + ry * sin(angle))
            }
        case "path":
            let values = numbers(attributes["d"] ?? "")
            guard values.count >= 2 else { return [] }
            var controls: [(Double, Double)] = stride(from: 0, to: values.count - 1, by: 2).map {
                (values[$0], values[$0 + 1])
            }
            var result = [controls.removeFirst()]
            while controls.count >= 3 {
                let (p0, p1, p2, p3) = (result.last!, controls[0], controls[1], controls[2])
                controls.removeFirst(3)
                for step in 1...12 {
                    let t = Double(step) / 12
                    let u = 1 - t
                    let (a, b, c, d) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
                    result.append(
                        (a * p0.0 + b * p1.0 + c * p2.0 + d * p3.0, a * p0.1 + b * p1.1 + c * p2.1 + d * p3.1))
                }
            }
            return result
        default:
            let values = numbers(attributes["points"] ?? "")
            return stride(from: 0, to: values.count - 1, by: 2).map { (values[$0], values[$0 + 1]) }
        }
    }

    private static func bounds(_ points: [(Double, Double)]) -> Box {
        var box = Box(minX: points[0].0, minY: points[0].1, maxX: points[0].0, maxY: points[0].1)
        for point in points {
            box.minX = min(box.minX, point.0)
            box.maxX = max(box.maxX, point.0)
            box.minY = min(box.minY, point.1)
            box.maxY = max(box.maxY, point.1)
        }
        return box
    }
}
