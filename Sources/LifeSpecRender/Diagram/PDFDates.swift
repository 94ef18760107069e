extension GraphvizRenderer {
    /// Cairo stamps `/CreationDate (D:…)` into every PDF. The date is overwritten in place with
    /// the epoch (same length, so the cross-reference offsets stay valid) to make output
    /// byte-identical across runs.
    static func normalizePDFDates(_ data: inout [UInt8]) {
        for key in ["/CreationDate (", "/ModDate ("] {
            let pattern = Array(key.utf8)
            var index = 0
            while let start = data.firstRange(of: pattern, from: index) {
                var cursor = start + pattern.count
                let epoch = Array("D:19700101000000".utf8)
                var offset = 0
                while cursor < data.count, data[cursor] != UInt8(ascii: ")") {
                    if offset < epoch.count {
                        data[cursor] = epoch[offset]
                    } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(data[cursor]) {
                        data[cursor] = UInt8(ascii: "0")
                    }
                    offset += 1
                    cursor += 1
                }
                index = cursor
            }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func firstRange(of pattern: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, count >= pattern.count, start <= count - pattern.count else { return nil }
        for index in start...(count - pattern.count) where self[index] == pattern[0] {
            if self[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
        }
        return nil
    }
}
