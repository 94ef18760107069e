/// A boolean expression over flags and active states: identifiers, `true`, `false`, `in(stateID)`
/// (SCXML's `In()`), `!`, `&&`, `||` and parentheses. `!` binds tightest, then `&&`, then `||`.
public indirect enum GuardExpression: Sendable, Hashable, CustomStringConvertible {
    case flag(String)
    case constant(Bool)
    /// True while the state is active (SCXML's `In(stateID)`).
    case inState(String)
    case not(GuardExpression)
    case and(GuardExpression, GuardExpression)
    case or(GuardExpression, GuardExpression)

    /// `isActive` answers `in(…)`; without it no state counts as active.
    public func evaluate(_ flags: [String: Bool], isActive: (String) -> Bool = { _ in false }) -> Bool {
        switch self {
        case .flag(let id): flags[id] ?? false
        case .constant(let value): value
        case .inState(let id): isActive(id)
        case .not(let inner): !inner.evaluate(flags, isActive: isActive)
        case .and(let lhs, let rhs): lhs.evaluate(flags, isActive: isActive) && rhs.evaluate(flags, isActive: isActive)
        case .or(let lhs, let rhs): lhs.evaluate(flags, isActive: isActive) || rhs.evaluate(flags, isActive: isActive)
        }
    }

    /// The states `in(…)` tests, in first-use order.
    public var states: [String] {
        leaves { if case .inState(let id) = $0 { id } else { nil } }
    }

    /// The flags the expression reads, in first-use order.
    public var flags: [String] {
        leaves { if case .flag(let id) = $0 { id } else { nil } }
    }

    /// The names `name` picks from the leaves, each once, in reading order.
    private func leaves(_ name: (GuardExpression) -> String?) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        func walk(_ expression: GuardExpression) {
            switch expression {
            case .flag, .constant, .inState:
                if let id = name(expression), seen.insert(id).inserted { result.append(id) }
            case .not(let inner): walk(inner)
            case .and(let lhs, let rhs), .or(let lhs, let rhs):
                walk(lhs)
                walk(rhs)
            }
        }
        walk(self)
        return result
    }

    /// The same expression with its flags and `in()` states renamed (a part's guard in a system).
    public func renamed(flag renameFlag: (String) -> String, state renameState: (String) -> String) -> GuardExpression {
        switch self {
        case .flag(let id): .flag(renameFlag(id))
        case .constant: self
        case .inState(let id): .inState(renameState(id))
        case .not(let inner): .not(inner.renamed(flag: renameFlag, state: renameState))
        case .and(let lhs, let rhs):
            .and(lhs.renamed(flag: renameFlag, state: renameState), rhs.renamed(flag: renameFlag, state: renameState))
        case .or(let lhs, let rhs):
            .or(lhs.renamed(flag: renameFlag, state: renameState), rhs.renamed(flag: renameFlag, state: renameState))
        }
    }

    /// Canonical text with minimal parentheses; parsing it gives back the same expression.
    public var description: String { render(precedence: 0) }

    private func render(precedence: Int) -> String {
        switch self {
        case .flag(let id): return id
        case .constant(let value): return value ? "true" : "false"
        case .inState(let id): return "in(\(id))"
        case .not(let inner): return "!" + inner.render(precedence: 3)
        case .and(let lhs, let rhs):
            // The parser associates to the left, so a right operand of the same operator keeps
            // its parentheses: `a && (b && c)` must not print as `a && b && c`.
            let text = lhs.render(precedence: 2) + " && " + rhs.render(precedence: 3)
            return precedence > 2 ? "(\(text))" : text
        case .or(let lhs, let rhs):
            let text = lhs.render(precedence: 1) + " || " + rhs.render(precedence: 2)
            return precedence > 1 ? "(\(text))" : text
        }
    }

    /// Some flag assignment makes `self` true. Exhaustive over the flags it reads, which is exact;
    /// expressions reading more than `limit` flags are assumed satisfiable rather than enumerated.
    public func isSatisfiable(limit: Int = 16) -> Bool {
        Self.satisfiable(self, limit: limit)
    }

    /// Some flag assignment makes every expression true at once.
    public static func satisfiable(_ expressions: GuardExpression..., limit: Int = 16) -> Bool {
        satisfiable(all: expressions, limit: limit)
    }

    public static func satisfiable(all expressions: [GuardExpression], limit: Int = 16) -> Bool {
        satisfyingAssignment(all: expressions, limit: limit) != nil
    }

    /// One assignment that makes every expression true, over the flags they read; `nil` when none does.
    /// Above `limit` flags the search is skipped and an empty assignment returned (treated as satisfiable).
    public static func satisfyingAssignment(all expressions: [GuardExpression], limit: Int = 16) -> [String: Bool]? {
        // Flags are numbered in first-use order and the expressions evaluated on the bits of each
        // candidate assignment: building a dictionary per candidate cost far more than the search.
        guard limit >= 0 else { return [:] }
        var variables: [String] = []
        var compiled: [Numbered] = []
        for expression in expressions {
            guard let numbered = Numbered(expression, variables: &variables, limit: limit) else { return [:] }
            compiled.append(numbered)
        }
        for bits in 0..<(1 << variables.count) where compiled.allSatisfy({ $0.evaluate(bits) }) {
            var assignment: [String: Bool] = [:]
            // `in(…)` variables are states, not flags: callers run the assignment as flag values.
            for (offset, variable) in variables.enumerated() where !variable.hasPrefix("in(") {
                assignment[variable] = bits & (1 << offset) != 0
            }
            return assignment
        }
        return nil
    }

    /// An expression over flag numbers, evaluated on an assignment's bits.
    private indirect enum Numbered {
        case flag(Int)
        case constant(Bool)
        case not(Numbered)
        case and(Numbered, Numbered)
        case or(Numbered, Numbered)

        /// Numbers new flags in reading order (as `flags` lists them); nil once there are more than
        /// `limit` (the search is then skipped, and a linear search of `variables` stays short).
        init?(_ expression: GuardExpression, variables: inout [String], limit: Int) {
            /// The variable's number, a new one when it is new; nil past `limit`.
            func number(_ name: String) -> Int? {
                if let index = variables.firstIndex(of: name) { return index }
                guard variables.count < limit else { return nil }
                variables.append(name)
                return variables.count - 1
            }
            switch expression {
            case .flag(let id):
                guard let index = number(id) else { return nil }
                self = .flag(index)
            case .inState(let id):
                // An active state is a free variable here: a name no flag can have keeps it apart.
                guard let index = number("in(" + id + ")") else { return nil }
                self = .flag(index)
            case .constant(let value): self = .constant(value)
            case .not(let inner):
                guard let inner = Numbered(inner, variables: &variables, limit: limit) else { return nil }
                self = .not(inner)
            case .and(let lhs, let rhs):
                guard let lhs = Numbered(lhs, variables: &variables, limit: limit),
                    let rhs = Numbered(rhs, variables: &variables, limit: limit)
                else { return nil }
                self = .and(lhs, rhs)
            case .or(let lhs, let rhs):
                guard let lhs = Numbered(lhs, variables: &variables, limit: limit),
                    let rhs = Numbered(rhs, variables: &variables, limit: limit)
                else { return nil }
                self = .or(lhs, rhs)
            }
        }

        func evaluate(_ bits: Int) -> Bool {
            switch self {
            case .flag(let index): bits & (1 << index) != 0
            case .constant(let value): value
            case .not(let inner): !inner.evaluate(bits)
            case .and(let lhs, let rhs): lhs.evaluate(bits) && rhs.evaluate(bits)
            case .or(let lhs, let rhs): lhs.evaluate(bits) || rhs.evaluate(bits)
            }
        }
    }
}

public struct GuardParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Offset in characters from the start of the expression text.
    public let offset: Int
    public let message: String
    /// The guard is well formed but past a size limit (`GuardExpression.maximumDepth`, `maximumTerms`).
    public var isLimit = false
    public var description: String { message }
}

extension GuardExpression {
    /// How deep `(` and `!` may nest. The parser, and every walk over the tree, recurse once per
    /// level: a bound keeps a hostile guard from overflowing the stack (60,000 `!` did).
    public static let maximumDepth = 64
    /// How many flags and constants one guard may name: a chain of `&&` is a tree as deep as it is long.
    public static let maximumTerms = 512

    /// The languages a guard is written in. One parser reads both, so both have its limits.
    public enum Dialect: Sendable, Hashable {
        /// A spec's `guard:`: flag names (`A.flag`, `b-1`), `in(id)` with the id quoted or not.
        case lifespec
        /// SCXML `cond` under the null datamodel: `In('id')` (quoted), and only the chart's boolean
        /// `<data>` (`flags`) as names.
        case scxml(flags: Set<String>)
    }

    public init(parsing text: String, dialect: Dialect = .lifespec) throws(GuardParseError) {
        var parser = GuardParser(Array(text), dialect: dialect)
        self = try parser.parseAll()
    }
}

private struct GuardParser {
    private let characters: [Character]
    private let dialect: GuardExpression.Dialect
    private var position = 0
    private var depth = 0
    private var terms = 0

    init(_ characters: [Character], dialect: GuardExpression.Dialect) {
        self.characters = characters
        self.dialect = dialect
    }

    private var isSCXML: Bool { if case .scxml = dialect { true } else { false } }

    /// A syntax error; SCXML's says what its subset understands instead.
    private func syntax(_ offset: Int, _ message: String) -> GuardParseError {
        guard isSCXML else { return GuardParseError(offset: offset, message: message) }
        return GuardParseError(
            offset: offset, message: "only In('state'), boolean <data>, true, false, !, && and || are understood")
    }

    private mutating func enter() throws(GuardParseError) {
        depth += 1
        try check(
            depth, within: GuardExpression.maximumDepth, at: position, "nests deeper than", "levels of '(' and '!'")
    }

    /// A limit error when `count` passes `maximum`: "guard expression <verb> <maximum> <noun>".
    private func check(
        _ count: Int, within maximum: Int, at offset: Int, _ verb: String, _ noun: String
    ) throws(GuardParseError) {
        guard count > maximum else { return }
        throw GuardParseError(offset: offset, message: "guard expression \(verb) \(maximum) \(noun)", isLimit: true)
    }

    mutating func parseAll() throws(GuardParseError) -> GuardExpression {
        skipSpaces()
        guard position < characters.count else { throw syntax(0, "empty guard expression") }
        let expression = try parseOr()
        skipSpaces()
        if position < characters.count {
            throw syntax(position, "unexpected '\(characters[position])' in guard expression")
        }
        return expression
    }

    private mutating func skipSpaces() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }

    private mutating func consume(_ token: String) -> Bool {
        skipSpaces()
        // Compared in place: copying both sides into arrays made parsing allocate per token tried.
        var index = position
        for character in token {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
        }
        position = index
        return true
    }

    private mutating func parseOr() throws(GuardParseError) -> GuardExpression {
        var lhs = try parseAnd()
        while consume("||") { lhs = .or(lhs, try parseAnd()) }
        return lhs
    }

    private mutating func parseAnd() throws(GuardParseError) -> GuardExpression {
        var lhs = try parseUnary()
        while consume("&&") { lhs = .and(lhs, try parseUnary()) }
        return lhs
    }

    private mutating func parseUnary() throws(GuardParseError) -> GuardExpression {
        var negations = 0
        while consume("!") {
            try enter()
            negations += 1
        }
        var expression = try parsePrimary()
        for _ in 0..<negations { expression = .not(expression) }
        depth -= negations
        return expression
    }

    private mutating func parsePrimary() throws(GuardParseError) -> GuardExpression {
        skipSpaces()
        guard position < characters.count else {
            throw syntax(position, "guard expression ends where a flag was expected")
        }
        if consume("(") {
            try enter()
            defer { depth -= 1 }
            let inner = try parseOr()
            guard consume(")") else {
                throw syntax(min(position, characters.count), "missing ')' in guard expression")
            }
            return inner
        }
        let start = position
        while position < characters.count,
            isIdentifierCharacter(characters[position], first: position == start)
        {
            position += 1
        }
        guard position > start else {
            throw syntax(start, "expected a flag name, found '\(characters[start])'")
        }
        terms += 1
        try check(terms, within: GuardExpression.maximumTerms, at: start, "names more than", "flags and constants")
        let name = String(characters[start..<position])
        if case .scxml(let flags) = dialect {
            switch name {
            case "true": return .constant(true)
            case "false": return .constant(false)
            case "In":
                guard consume("(") else { throw syntax(position, "") }
                return try parseQuotedInState()
            default:
                guard flags.contains(name) else {
                    throw GuardParseError(
                        offset: start,
                        message:
                            "'\(name)' is not a boolean <data> of this chart (conditions read In('state') and the chart's flags)"
                    )
                }
                return .flag(name)
            }
        }
        if name == "in", consume("(") { return try parseInState() }
        switch name {
        case "true": return .constant(true)
        case "false": return .constant(false)
        default: return .flag(name)
        }
    }

    /// SCXML's `In(`: a quoted state id (any characters but the quote), then `)`.
    private mutating func parseQuotedInState() throws(GuardParseError) -> GuardExpression {
        skipSpaces()
        guard position < characters.count, characters[position] == "'" || characters[position] == "\"" else {
            throw syntax(position, "")
        }
        let quote = characters[position]
        position += 1
        let start = position
        while position < characters.count, characters[position] != quote { position += 1 }
        guard position < characters.count, position > start else {
            throw GuardParseError(offset: start, message: "In() needs a quoted state id")
        }
        let id = String(characters[start..<position])
        position += 1
        guard consume(")") else { throw syntax(position, "") }
        return .inState(id)
    }

    /// After `in(`: a state id as SCXML writes them (`b1.2`, `s-1`), optionally quoted, then `)`.
    private mutating func parseInState() throws(GuardParseError) -> GuardExpression {
        skipSpaces()
        var quote: Character?
        if position < characters.count, characters[position] == "'" || characters[position] == "\"" {
            quote = characters[position]
            position += 1
        }
        let start = position
        while position < characters.count {
            let character = characters[position]
            if let quote, character == quote { break }
            if quote == nil, character == ")" || character.isWhitespace { break }
            position += 1
        }
        guard position > start else {
            throw GuardParseError(offset: start, message: "in() needs a state id, e.g. in(active)")
        }
        let id = String(characters[start..<position])
        if quote != nil {
            guard position < characters.count else {
                throw GuardParseError(offset: start - 1, message: "unterminated quote in in(…)")
            }
            position += 1
        }
        guard consume(")") else {
            throw GuardParseError(offset: min(position, characters.count), message: "missing ')' after in(\(id)")
        }
        return .inState(id)
    }

    private func isIdentifierCharacter(_ character: Character, first: Bool) -> Bool {
        guard character.isASCII else { return false }
        // ECMAScript names (`$` too); the old SCXML reader took digits first as well.
        if isSCXML { return character.isLetter || character.isNumber || character == "_" || character == "$" }
        if character.isLetter || character == "_" { return true }
        // '.' too: a part's flags are namespaced (`A.needsLayout`), and element ids allow it.
        return !first && (character.isNumber || character == "-" || character == ".")
    }
}
