import LifeSpec

/// A run of Markdown blocks (paragraphs, headings, lists, tables) written one after another into
/// one output, a blank line between two blocks. The pages, their sections and the DocC articles
/// write into these, so a page is one byte buffer from its first block to its last, tables
/// included, rather than Strings joined at the end.
struct MarkdownBlocks {
    private(set) var output = TextOutput()
    private var count = 0

    /// No block yet (an empty section is left out of its page).
    var isEmpty: Bool { count == 0 }

    /// A block written piece by piece.
    mutating func add(_ write: (inout TextOutput) -> Void) {
        if count > 0 { output.write("\n\n") }
        count += 1
        write(&output)
    }

    /// A block that is Markdown already (a phrase, a heading line).
    mutating func add(_ text: String) { add { $0.write(text) } }

    mutating func add(_ table: MarkdownTable) { add { $0.write(table.output) } }

    /// Lines that form one block (a list): one after another, without a blank line between them.
    /// Nothing when there are none.
    mutating func addLines(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        add { output in
            for (offset, line) in lines.enumerated() {
                if offset > 0 { output.newline() }
                output.write(line)
            }
        }
    }

    mutating func add(contentsOf texts: [String]) { for text in texts { add(text) } }

    /// Every block of `other`, after those written so far.
    mutating func add(contentsOf other: MarkdownBlocks) {
        guard !other.isEmpty else { return }
        if count > 0 { output.write("\n\n") }
        count += other.count
        output.write(other.output)
    }

    /// The page: its blocks and a final newline.
    var page: String {
        var page = output
        page.newline()
        return page.text
    }
}

extension MarkdownBlocks {
    /// One block.
    init(_ text: String) {
        self.init()
        add(text)
    }

    /// One list.
    init(lines: [String]) {
        self.init()
        addLines(lines)
    }

    /// A section that is an introduction and a table.
    init(_ intro: String, _ table: MarkdownTable) {
        self.init()
        add(intro)
        add(table)
    }

    /// A section that is an introduction and a list.
    init(_ intro: String, lines: [String]) {
        self.init()
        add(intro)
        addLines(lines)
    }
}
