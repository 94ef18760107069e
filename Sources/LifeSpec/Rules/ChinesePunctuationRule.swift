/// LS151: ASCII punctuation next to Chinese characters in a Simplified Chinese text.
struct ChinesePunctuationRule: RawSpecRule {
    static func check(_ raw: RawSpec) -> [Finding] {
        guard !raw.chineseTexts.isEmpty else { return [] }
        let lines = raw.sourceText.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var findings: [Finding] = []
        for item in raw.chineseTexts {
            let scalars = Array(item.text.unicodeScalars)
            var searchFrom = (line: item.location.line, column: 1)
            for finding in ChineseTypography.findings(in: item.text) {
                let location = locate(
                    finding.offset, in: scalars, lines: lines, from: &searchFrom, fallback: item.location)
                let context = excerpt(scalars, around: finding.offset)
                findings.append(
                    Finding(
                        .chinesePunctuation,
                        .asciiPunctuation(finding.mark, fullWidth: finding.fullWidth, in: item.what, context: context),
                        at: location))
            }
        }
        return findings
    }

    /// Where the mark is in the file: the few characters around it are looked for in the source
    /// from the text's own position on (folding and escapes make offsets unreliable); the text's
    /// position when they are not found (a mark at a folded line break).
    private static func locate(
        _ offset: Int, in scalars: [Unicode.Scalar], lines: [Substring],
        from start: inout (line: Int, column: Int), fallback: SourceLocation
    ) -> SourceLocation {
        // The window stays on one line of the value.
        var lower = max(0, offset - 2)
        if let newline = scalars[lower..<offset].lastIndex(of: "\n") { lower = newline + 1 }
        var upper = min(scalars.count, offset + 3)
        if let newline = scalars[offset..<upper].firstIndex(of: "\n") { upper = newline }
        let needle = Array(scalars[lower..<upper])
        let before = offset - lower
        let lastLine = min(lines.count, start.line + scalars.count / 16 + 8)
        var lineNumber = start.line
        while lineNumber <= lastLine, lineNumber >= 1 {
            let line = lines[lineNumber - 1]
            let skip = lineNumber == start.line ? start.column - 1 : 0
            let lineScalars = Array(line.unicodeScalars)
            if !needle.isEmpty, lineScalars.count >= needle.count, skip <= lineScalars.count - needle.count {
                for column in skip...(lineScalars.count - needle.count)
                where Array(lineScalars[column..<(column + needle.count)]) == needle {
                    let markColumn = column + before + 1
                    // The next mark's window starts at least one character further on.
                    start = (lineNumber, column + 2)
                    return SourceLocation(path: fallback.path, line: lineNumber, column: markColumn)
                }
            }
            lineNumber += 1
        }
        return fallback
    }

    private static func excerpt(_ scalars: [Unicode.Scalar], around offset: Int) -> String {
        let lower = max(0, offset - 6)
        let upper = min(scalars.count, offset + 7)
        return String(String.UnicodeScalarView(scalars[lower..<upper].map { $0 == "\n" ? " " : $0 }))
    }
}

extension Finding.Message {
    static func asciiPunctuation(_ mark: Character, fullWidth: Character, in what: String, context: String) -> Self {
        Self("ASCII '\(mark)' next to Chinese text in \(what): use the full-width '\(fullWidth)' (…\(context)…)")
    }
}
