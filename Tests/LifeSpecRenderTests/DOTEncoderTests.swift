import LifeSpec
import Testing

@testable import LifeSpecRender

@Suite("DOT model and encoder")
struct DOTEncoderTests {
    func identifier(_ id: String) -> String { TextOutput.string { DOTEncoder.writeIdentifier(id, to: &$0) } }
    func quoted(_ string: String) -> String { TextOutput.string { DOTEncoder.writeQuoted(string, to: &$0) } }
    func value(_ value: DOTValue) -> String { TextOutput.string { DOTEncoder.writeValue(value, to: &$0) } }
    func number(_ number: Double) -> String { TextOutput.string { DOTEncoder.writeNumber(number, to: &$0) } }

    @Test("identifiers are bare only when DOT reads them back unchanged")
    func identifiers() {
        #expect(identifier("inactive") == "inactive")
        #expect(identifier("_a9") == "_a9")
        #expect(identifier("12.5") == "12.5")
        #expect(identifier("-3") == "-3")
        #expect(identifier("1.2.3") == "\"1.2.3\"")
        #expect(identifier("9lives") == "\"9lives\"")
        #expect(identifier("a-b") == "\"a-b\"")
        #expect(identifier("") == "\"\"")
        #expect(identifier("未运行") == "\"未运行\"")
        for keyword in ["node", "edge", "graph", "digraph", "subgraph", "strict", "Node", "GRAPH"] {
            #expect(identifier(keyword) == "\"\(keyword)\"")
        }
    }

    @Test("quoted strings escape quotes and backslashes, keep newlines as \\n and drop control characters")
    func quoting() {
        #expect(quoted(#"say "hi""#) == #""say \"hi\"""#)
        #expect(quoted(#"ends with \"#) == #""ends with \\""#)
        #expect(quoted("a\nb") == #""a\nb""#)
        #expect(quoted("bell\u{7}\u{0}\u{1B}[0m\u{7F}") == #""bell[0m""#)
        #expect(quoted("tab\there") == #""tab here""#)
    }

    @Test("label text escapes what escString and the entity decoder would interpret")
    func labelText() {
        #expect(value(.text(#"\N is the node name"#)) == #""\\N is the node name""#)
        #expect(value(.text("a & b &amp; c")) == #""a &amp; b &amp;amp; c""#)
        #expect(value(.text("two\nlines")) == #""two\nlines""#)
        #expect(value(.text(#"{a|b} <p>"#)) == #""{a|b} <p>""#)
        #expect(value(.recordText(#"{a|b} <p>"#)) == #""\{a\|b\} \<p\>""#)
    }

    @Test("HTML-like labels entity-escape text and attribute values and never pass markup through")
    func htmlLabels() {
        let label = DOTHTML.table(
            DOTHTMLTable(
                attributes: ["BORDER": "0", "BGCOLOR": #"x" onload="y"#],
                rows: [
                    .cells([DOTHTMLCell(.bold(.text(#"<b>bold</b> & "quoted" ]]>"#)), attributes: ["ALIGN": "LEFT"])]),
                    .rule,
                    .cells([
                        DOTHTMLCell(
                            .font(
                                DOTHTMLFont(face: "Courier", pointSize: 8.5, color: "#123456"),
                                .text("line 1\nline 2\u{0}")))
                    ]),
                ]
            ))
        #expect(
            label.markup == """
                <TABLE BGCOLOR="x&quot; onload=&quot;y" BORDER="0"><TR><TD ALIGN="LEFT"><B>&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; ]]&gt;</B></TD></TR>\
                <HR/><TR><TD><FONT COLOR="#123456" FACE="Courier" POINT-SIZE="8.5">line 1<BR/>line 2</FONT></TD></TR></TABLE>
                """)
    }

    @Test("a backslash before a Graphviz placeholder letter is kept apart from it in HTML text")
    func htmlPlaceholders() {
        #expect(DOTHTML.text(#"\N \G \n \\L"#).markup == "\\\u{2060}N \\\u{2060}G \\n \\\\\u{2060}L")
        // A dropped control character must not join the backslash to the letter again.
        #expect(DOTHTML.text("\\\u{7}N").markup == "\\\u{2060}N")
    }

    @Test("numbers are written with at most four decimals, the same way every time")
    func numbers() {
        #expect(number(1) == "1")
        #expect(number(0.25) == "0.25")
        #expect(number(-3.5) == "-3.5")
        #expect(number(0.1 + 0.2) == "0.3")
        #expect(number(1e-9) == "0")
        #expect(number(.nan) == "0")
    }

    @Test("attributes come out sorted by name whatever order they were set in")
    func attributeOrder() {
        var first = DOTAttributes()
        first["shape"] = "box"
        first["label"] = .text("A")
        first["color"] = "red"
        var second = DOTAttributes()
        second["color"] = "red"
        second["shape"] = "box"
        second["label"] = .text("A")
        let graphs = [first, second].map { attributes in
            DOTEncoder.encode(DOTGraph(id: "g", statements: [.node(DOTNode("a", attributes: attributes))]))
        }
        #expect(graphs[0] == graphs[1])
        #expect(
            graphs[0] == """
                digraph g {
                  a [color=red, label="A", shape=box];
                }

                """)
    }

    @Test("the encoder writes defaults, nested clusters and edges in model order")
    func structure() {
        let graph = DOTGraph(
            id: "life cycle",
            attributes: ["rankdir": "LR", "compound": true],
            nodeDefaults: ["shape": "box"],
            edgeDefaults: ["arrowsize": 0.7],
            statements: [
                .subgraph(
                    DOTSubgraph(
                        id: "cluster_outer", attributes: ["label": .text("Outer")],
                        statements: [
                            .subgraph(DOTSubgraph(id: "cluster_inner", statements: [.node(DOTNode("x"))])),
                            .node(DOTNode("y")),
                        ])),
                .edge(DOTEdge(from: "x", to: "node", attributes: ["ltail": "cluster_inner"])),
            ]
        )
        #expect(
            DOTEncoder.encode(graph) == """
                digraph "life cycle" {
                  graph [compound=true, rankdir=LR];
                  node [shape=box];
                  edge [arrowsize=0.7];
                  subgraph cluster_outer {
                    graph [label="Outer"];
                    subgraph cluster_inner {
                      x;
                    }
                    y;
                  }
                  x -> "node" [ltail=cluster_inner];
                }

                """)
        #expect(graph.allSubgraphs.map(\.id) == ["cluster_outer", "cluster_inner"])
        #expect(graph.allNodes.map(\.id) == ["x", "y"])
        var undirected = graph
        undirected.isDirected = false
        undirected.isStrict = true
        #expect(DOTEncoder.encode(undirected).hasPrefix("strict graph \"life cycle\" {"))
        #expect(DOTEncoder.encode(undirected).contains("x -- \"node\""))
    }

    @Test(
        "hostile strings survive Graphviz: the SVG draws exactly the text given",
        arguments: [
            #"Say "hi" \ back\slash \N \G \n \l"#,
            "<b>bold</b> & <i>it</i> &amp; &lt; ]]> -->",
            "{record|fields} <port> a|b",
            "semi; colon: # hash %% `tick` 'single'",
            "完成 ✓ — 中文 🎉",
        ])
    func hostileRoundTrip(text: String) throws {
        let graph = DOTGraph(
            id: "g",
            statements: [
                .node(DOTNode("plain", attributes: ["label": .text(text)])),
                .node(DOTNode("html", attributes: ["label": .html(.bold(.text(text)))])),
                .node(DOTNode("record", attributes: ["shape": "record", "label": .recordText(text)])),
                .node(DOTNode(text, attributes: ["label": .text("named by the hostile text")])),
                .edge(DOTEdge(from: "plain", to: text, attributes: ["tooltip": .text(text)])),
            ])
        let output = try GraphvizRenderer.shared.renderWithWarnings(dot: DOTEncoder.encode(graph), format: .svg)
        #expect(output.warnings.isEmpty)
        let svg = try ParsedSVG(output.data)
        let drawn = try svg.drawnTexts
        #expect(drawn.filter { $0 == text }.count == 3, "drawn: \(drawn)")
        // An id keeps its text too, except that backslashes come back doubled (DOT's lexer keeps
        // `\\` as two characters in ids; labels un-escape it) and that Graphviz's SVG writer
        // passes `&…;` in ids through as entities (still well-formed XML).
        if !text.contains("&") {
            #expect(try svg.texts(of: "title").contains(text.replacingOccurrences(of: "\\", with: "\\\\")))
        }
    }
}
