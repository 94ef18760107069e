import Yams

/// A value with the place it was written.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    public let value: Value
    public let location: SourceLocation
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// Limits that keep hostile input from hanging or exhausting the loader.
public struct LoaderLimits: Sendable, Hashable {
    public var maxFileBytes = 8 * 1024 * 1024
    /// Nodes visited while reading; bounds YAML alias expansion ("billion laughs"). The budget of
    /// one document is also at most one node per byte of it (and at least `minimumNodeBudget`):
    /// YAML without aliases needs two bytes or more per node, so only aliases get past that, and a
    /// small alias bomb is refused after a small walk (a 1 KB one took 0.7 s and 140 MB to reach
    /// the 500,000-node cap).
    public var maxNodes = 500_000
    public var minimumNodeBudget = 20_000
    public var maxDepth = 64
    public var maxScalarLength = 64 * 1024
    /// Beyond these, a spec is refused before the engine explores it.
    public var maxStates = 50_000
    public var maxTransitions = 250_000
    public init() {}
}

/// Walks a composed YAML tree, typing values and collecting diagnostics as it goes.
/// Every accessor reports the problem it finds and returns `nil`, so one pass finds every problem.
final class YAMLReader {
    let path: String
    let limits: LoaderLimits
    private(set) var diagnostics: [Diagnostic] = []
    /// Keys reported unknown (LS010), with the state names they would declare if they were states.
    private(set) var unknownKeys: [KnockOnErrors.UnknownKey] = []
    private var visitedNodes = 0
    /// Nodes whose tag was reported: a value may be read twice (a string, else a mapping).
    private var taggedNodes: Set<SourceLocation> = []
    private(set) var budgetExceeded = false

    /// The node budget of this document (see `LoaderLimits.maxNodes`).
    let nodeBudget: Int
    private let documentBytes: Int

    init(path: String, limits: LoaderLimits, documentBytes: Int = .max) {
        self.path = path
        self.limits = limits
        self.documentBytes = documentBytes
        nodeBudget = Self.nodeBudget(limits: limits, documentBytes: documentBytes)
    }

    static func nodeBudget(limits: LoaderLimits, documentBytes: Int) -> Int {
        min(limits.maxNodes, max(limits.minimumNodeBudget, documentBytes))
    }

    func location(_ node: Node) -> SourceLocation {
        location(node.mark)
    }

    private func location(_ mark: Mark?) -> SourceLocation {
        SourceLocation(path: path, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    func error(_ code: DiagnosticCode, _ message: String, at node: Node, notes: [String] = []) {
        diagnostics.append(.error(code, message, at: location(node), notes: notes))
    }

    func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    /// Counts a visit; false once the node budget is spent (reported once).
    func visit(_ node: Node) -> Bool {
        guard !budgetExceeded else { return false }
        visitedNodes += 1
        if visitedNodes > nodeBudget {
            budgetExceeded = true
            let message =
                nodeBudget < limits.maxNodes
                ? "aliases expand this \(documentBytes)-byte document to more than \(nodeBudget) YAML nodes (without aliases it could hold at most one per byte); refusing to read further"
                : "the document expands to more than \(nodeBudget) YAML nodes (aliases?); refusing to read further"
            error(.inputLimit, message, at: node)
            return false
        }
        if let tag = Self.unsupportedTag(node), taggedNodes.insert(location(node)).inserted {
            let hint =
                tag.hasPrefix("!") && !tag.hasPrefix("!!")
                ? " (a value that starts with '!', such as a guard, must be quoted)" : ""
            error(
                .invalidValue,
                "YAML tag '\(tag)' is not supported: a spec holds plain strings, numbers, booleans, lists and mappings\(hint)",
                at: node)
        }
        return true
    }

    /// The tag written on a node, unless it is none or one of YAML's core types (`!!str` …). Read
    /// unresolved: resolving a plain scalar's tag runs the resolver's patterns over it.
    static func unsupportedTag(_ node: Node) -> String? {
        let name: String
        switch node {
        case .scalar(let scalar): name = scalar.tag.rawValue
        case .mapping(let mapping): name = mapping.tag.rawValue
        case .sequence(let sequence): name = sequence.tag.rawValue
        case .alias: return nil
        }
        switch name {
        case "", "!", Tag.Name.str.rawValue, Tag.Name.int.rawValue, Tag.Name.bool.rawValue, Tag.Name.float.rawValue,
            Tag.Name.null.rawValue, Tag.Name.seq.rawValue, Tag.Name.map.rawValue:
            return nil
        default:
            let core = "tag:yaml.org,2002:"
            return name.hasPrefix(core) ? "!!" + name.dropFirst(core.count) : name
        }
    }

    /// The state `key` and the states nested under its `states:`, were it a state (bounded: this
    /// runs only for unknown keys).
    static func stateNames(_ key: String, _ value: Node, depth: Int = 0) -> [String] {
        var names = [key]
        guard depth < 16, case .mapping(let mapping) = value, let children = mapping["states"],
            case .mapping(let states) = children
        else { return names }
        for (childKey, childValue) in states {
            if let name = childKey.scalar?.string { names += stateNames(name, childValue, depth: depth + 1) }
        }
        return names
    }

    /// A non-empty mapping of state keys only (`title:`, `states:`, …): written as a state's body.
    static func looksLikeStateBody(_ value: Node) -> Bool {
        guard case .mapping(let mapping) = value, mapping.count > 0 else { return false }
        return mapping.keys.allSatisfy { $0.scalar.map { SpecParser.stateKeys.contains($0.string) } ?? false }
    }

    /// What the loader renames a repeated key to (with a number): no spec key starts like this.
    static let duplicateKeyPrefix = "~lifespec-repeated-key-"

    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar): scalar.style == .plain && scalar.string.isEmpty ? "null" : "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    static func isNull(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain else { return false }
        return isNullText(scalar.string)
    }

    /// A switch, not an array literal: this runs for every scalar read.
    private static func isNullText(_ text: String) -> Bool {
        switch text {
        case "", "~", "null", "Null", "NULL": true
        default: false
        }
    }

    // MARK: Typed access
    //
    // `what` is an autoclosure: it names the value only in messages, and building the name for every
    // value read cost more than reading it.

    /// The pairs of a mapping, with unknown keys reported (and "did you mean" suggested).
    func mapping(_ node: Node, what: @autoclosure () -> String, allowedKeys: [String]?) -> [(
        key: Located<String>, value: Node
    )]? {
        guard visit(node) else { return nil }
        guard case .mapping(let mapping) = node else {
            error(.wrongType, "\(what()) must be a mapping, found \(Self.describe(node))", at: node)
            return nil
        }
        var result: [(key: Located<String>, value: Node)] = []
        result.reserveCapacity(mapping.count)
        // By index: iterating a `Node.Mapping` first copies every pair into a new array.
        for index in mapping.startIndex..<mapping.endIndex {
            let (keyNode, value) = mapping[index]
            guard visit(keyNode) else { return nil }
            guard case .scalar(let keyScalar) = keyNode else {
                error(.wrongType, "keys in \(what()) must be scalars, found \(Self.describe(keyNode))", at: keyNode)
                continue
            }
            // A repeated key, renamed by the loader after reporting it (LS004): the first counts.
            if keyScalar.string.hasPrefix(Self.duplicateKeyPrefix) { continue }
            let key = Located(keyScalar.string, at: location(keyScalar.mark))
            if let allowedKeys, !allowedKeys.contains(key.value) {
                let hint = Suggestion.didYouMean(key.value, among: allowedKeys)
                error(
                    .unknownKey, "unknown key '\(key.value)' in \(what())\(hint)", at: keyNode,
                    notes: hint.isEmpty ? ["allowed keys: \(allowedKeys.joined(separator: ", "))"] : [])
                unknownKeys.append(
                    KnockOnErrors.UnknownKey(
                        key: key, context: what(), stateNames: Self.stateNames(key.value, value),
                        bodyLooksLikeState: Self.looksLikeStateBody(value)))
                continue
            }
            result.append((key, value))
        }
        return result
    }

    func sequence(_ node: Node, what: @autoclosure () -> String) -> [Node]? {
        guard visit(node) else { return nil }
        guard case .sequence(let sequence) = node else {
            error(.wrongType, "\(what()) must be a list, found \(Self.describe(node))", at: node)
            return nil
        }
        return Array(sequence)
    }

    /// A list, or a single item standing for a one-item list.
    func oneOrMany(_ node: Node) -> [Node] {
        if case .sequence(let sequence) = node {
            guard visit(node) else { return [] }
            return Array(sequence)
        }
        return [node]
    }

    func string(_ node: Node, what: @autoclosure () -> String) -> Located<String>? {
        guard visit(node) else { return nil }
        guard case .scalar(let scalar) = node, !(scalar.style == .plain && Self.isNullText(scalar.string)) else {
            error(.wrongType, "\(what()) must be a string, found \(Self.describe(node))", at: node)
            return nil
        }
        let text = scalar.string
        // A string has at most as many scalars as UTF-8 bytes, and the byte count is stored.
        guard text.utf8.count <= limits.maxScalarLength || text.unicodeScalars.count <= limits.maxScalarLength else {
            error(.inputLimit, "\(what()) is longer than \(limits.maxScalarLength) characters", at: node)
            return nil
        }
        if TextPolicy.needsCleaning(text) {
            let (clean, removed) = TextPolicy.clean(text)
            report(
                .warning(
                    .controlCharacters,
                    "\(what()) contains \(removed.joined(separator: ", ")); generated files get the text without them",
                    at: location(scalar.mark)))
            return Located(clean, at: location(scalar.mark))
        }
        return Located(text, at: location(scalar.mark))
    }

    func bool(_ node: Node, what: @autoclosure () -> String) -> Located<Bool>? {
        guard visit(node) else { return nil }
        if case .scalar(let scalar) = node, scalar.style == .plain, let value = Self.boolValue(scalar.string) {
            return Located(value, at: location(scalar.mark))
        }
        error(.wrongType, "\(what()) must be true or false, found \(Self.describe(node))\(Self.quoted(node))", at: node)
        return nil
    }

    /// `true` or `false` in any case, as comparing `lowercased()` would say, without lowercasing
    /// every scalar it is asked about.
    static func boolValue(_ text: String) -> Bool? {
        switch text {
        case "true": return true
        case "false": return false
        default: break
        }
        // Lowercasing keeps an ASCII string's length; non-ASCII text takes the full path.
        let utf8 = text.utf8
        if utf8.count != 4, utf8.count != 5, utf8.allSatisfy({ $0 < 0x80 }) { return nil }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    func int(_ node: Node, what: @autoclosure () -> String) -> Located<Int>? {
        guard visit(node) else { return nil }
        if case .scalar(let scalar) = node, scalar.style == .plain, let value = Int(scalar.string) {
            return Located(value, at: location(scalar.mark))
        }
        error(.wrongType, "\(what()) must be an integer, found \(Self.describe(node))\(Self.quoted(node))", at: node)
        return nil
    }

    private static func quoted(_ node: Node) -> String {
        if case .scalar(let scalar) = node, !scalar.string.isEmpty { return " '\(scalar.string)'" }
        return ""
    }

    /// A string, or a map locale → string.
    func localized(_ node: Node, what: @autoclosure () -> String, locales: [String]) -> LocalizedText? {
        guard visit(node) else { return nil }
        switch node {
        case .scalar:
            return string(node, what: what()).map { LocalizedText($0.value) }
        case .mapping:
            guard let pairs = mapping(node, what: what(), allowedKeys: nil) else { return nil }
            var translations: [(locale: String?, text: String)] = []
            for (key, value) in pairs {
                if !locales.isEmpty, !locales.contains(key.value) {
                    let hint = Suggestion.didYouMean(key.value, among: locales)
                    report(
                        .error(
                            .unknownLocale, "locale '\(key.value)' in \(what()) is not declared in 'locales'\(hint)",
                            at: key.location))
                    continue
                }
                if locales.isEmpty, !Self.looksLikeLocale(key.value) {
                    report(
                        .error(
                            .unknownLocale,
                            "'\(key.value)' in \(what()) is not a locale identifier (declare 'locales' at the top)",
                            at: key.location))
                    continue
                }
                if let text = string(value, what: "\(what()) (\(key.value))") {
                    translations.append((key.value, text.value))
                }
            }
            return translations.isEmpty ? nil : LocalizedText(translations: translations)
        default:
            error(
                .wrongType, "\(what()) must be a string or a map of locale to string, found \(Self.describe(node))",
                at: node)
            return nil
        }
    }

    static func looksLikeLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLowercase })
        else {
            return false
        }
        return parts.dropFirst().allSatisfy {
            !$0.isEmpty && $0.count <= 8 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}

/// "Did you mean" suggestions by edit distance, with bounded work: a word is compared only with
/// candidates whose length is within the edits it may differ by, each comparison stops as soon as
/// it cannot be close enough, and words too long to be a typo of a name get no suggestion. So
/// validating a spec full of unknown names stays near-linear, where a full edit distance per
/// pair grows with the product of the names' lengths and the number of candidates.
public enum Suggestion {
    /// Past this many characters a word gets no suggestion.
    public static let maximumWordLength = 256
    /// A suggestion differs by at most this many edits (and at most a third of the shorter word).
    public static let maximumEdits = 8

    /// How many candidates one word is compared with at most: N unknown names against M known
    /// ones then cost N × min(M, this), not N × M (8,000 unknown targets took 150 s).
    public static let maximumComparisons = 2_000

    /// The closest candidate, or `nil` if none is close enough to be a plausible typo.
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        Index(candidates).closest(to: word)
    }

    /// How many comparisons one index makes for all its words together. Past it a word gets only
    /// a candidate that differs from it in case alone (a dictionary look-up), so N unknown names
    /// against M known ones cost at most this plus N look-ups, not N × min(M, maximumComparisons)
    /// (8,000 unknown targets among 8,000 states were still 16 million comparisons, #37).
    public static let maximumTotalComparisons = 100_000

    /// Candidates lowercased once and grouped by length, for many words: a word is compared with
    /// the lengths it can reach, nearest first, and stops at `maximumComparisons`; all the words
    /// together stop at `maximumTotalComparisons`.
    public struct Index: Sendable {
        private var byLength: [Int: [(name: String, lowered: [Unicode.Scalar])]] = [:]
        /// Lowercased name → the smallest candidate of that spelling: distance 0, found at once.
        private var byLowered: [String: String] = [:]
        /// Comparisons left to this index's words (shared by its copies).
        private let remaining = Locked(maximumTotalComparisons)

        public init(_ candidates: some Sequence<String>) {
            for candidate in candidates {
                // A candidate of more bytes than this has more characters than any word could reach.
                guard candidate.utf8.count <= 4 * (maximumWordLength + maximumEdits) else { continue }
                let loweredText = candidate.lowercased()
                let lowered = Array(loweredText.unicodeScalars)
                byLength[lowered.count, default: []].append((candidate, lowered))
                if let other = byLowered[loweredText], other <= candidate { continue }
                byLowered[loweredText] = candidate
            }
        }

        public func closest(to word: String) -> String? {
            guard word.utf8.count <= 4 * maximumWordLength else { return nil }
            let loweredText = word.lowercased()
            let lowered = Array(loweredText.unicodeScalars)
            guard lowered.count <= maximumWordLength else { return nil }
            if let same = byLowered[loweredText] { return same }
            let allowed = remaining.withLock { min($0, maximumComparisons) }
            guard allowed > 0 else { return nil }
            var compared = 0
            defer { remaining.withLock { $0 -= min(compared, allowed) } }
            var best: (candidate: String, distance: Int)?
            for offset in 0...maximumEdits {
                if let best, offset > best.distance { break }
                for length in offset == 0 ? [lowered.count] : [lowered.count - offset, lowered.count + offset] {
                    guard let bucket = byLength[length] else { continue }
                    for (candidate, other) in bucket {
                        var limit = min(maximumEdits, max(1, min(lowered.count, other.count) / 3))
                        if let best { limit = min(limit, best.distance) }
                        guard offset <= limit else { continue }
                        compared += 1
                        if compared > allowed { return best?.candidate }
                        guard let distance = editDistance(lowered, other, limit: limit) else { continue }
                        if best == nil || distance < best!.distance
                            || (distance == best!.distance && candidate < best!.candidate)
                        {
                            best = (candidate, distance)
                        }
                    }
                }
            }
            return best?.candidate
        }
    }

    /// `"; did you mean 'x'?"` or the empty string.
    public static func didYouMean(_ word: String, among candidates: some Sequence<String>) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    public static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs.unicodeScalars)
        let b = Array(rhs.unicodeScalars)
        return editDistance(a, b, limit: max(a.count, b.count))!
    }

    /// The optimal-string-alignment distance (a swapped pair of letters is one typo), or `nil` as
    /// soon as it must exceed `limit`: only cells within `limit` of the diagonal are computed.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let outside = limit + 1
        var previous = (0...b.count).map { min($0, outside) }
        var current = [Int](repeating: outside, count: b.count + 1)
        var beforePrevious = [Int](repeating: outside, count: b.count + 1)
        for i in 1...a.count {
            let low = max(1, i - limit)
            let high = min(b.count, i + limit)
            current[0] = min(i, outside)
            if low > 1 { current[low - 1] = outside }
            var rowMinimum = current[0]
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = Swift.min(value, beforePrevious[j - 2] + 1)
                }
                current[j] = min(value, outside)
                rowMinimum = min(rowMinimum, current[j])
            }
            if high < b.count { current[high + 1] = outside }
            guard rowMinimum <= limit else { return nil }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
