import LifecycleEngine
import Testing

private let a = GuardExpression.flag("a")
private let b = GuardExpression.flag("b")
private let c = GuardExpression.flag("c")

struct ParseCase: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: GuardExpression
    var testDescription: String { "'\(text)'" }
}

struct ParseErrorCase: Sendable, CustomTestStringConvertible {
    let text: String
    let offset: Int
    let message: String
    var testDescription: String { "'\(text)'" }
}

@Suite("Guard expressions")
struct GuardExpressionTests {
    static let parseCases: [ParseCase] = [
        ParseCase(text: "a", expected: a),
        ParseCase(text: "!a", expected: .not(a)),
        ParseCase(text: "!!a", expected: .not(.not(a))),
        ParseCase(text: "a && b", expected: .and(a, b)),
        ParseCase(text: "a || b", expected: .or(a, b)),
        // `&&` binds tighter than `||`, on either side.
        ParseCase(text: "a || b && c", expected: .or(a, .and(b, c))),
        ParseCase(text: "a && b || c", expected: .or(.and(a, b), c)),
        // `!` binds tighter than `&&`.
        ParseCase(text: "!a && b", expected: .and(.not(a), b)),
        ParseCase(text: "!(a && b)", expected: .not(.and(a, b))),
        ParseCase(text: "(a || b) && c", expected: .and(.or(a, b), c)),
        ParseCase(text: "a && (b || c)", expected: .and(a, .or(b, c))),
        // Binary operators associate to the left.
        ParseCase(text: "a || b || c", expected: .or(.or(a, b), c)),
        ParseCase(text: "a && b && c", expected: .and(.and(a, b), c)),
        ParseCase(text: "true", expected: .constant(true)),
        ParseCase(text: "false", expected: .constant(false)),
        ParseCase(text: "!false && a", expected: .and(.not(.constant(false)), a)),
        ParseCase(text: "  ( a )  ", expected: a),
        ParseCase(text: "a&&!b||c", expected: .or(.and(a, .not(b)), c)),
        ParseCase(text: "((a))", expected: a),
        // Words that merely start like a constant are flags; ids may hold digits, '_' and '-'.
        ParseCase(text: "trueish || falsey", expected: .or(.flag("trueish"), .flag("falsey"))),
        ParseCase(text: "_x2 && exits-on-suspend", expected: .and(.flag("_x2"), .flag("exits-on-suspend"))),
    ]

    @Test(arguments: parseCases)
    func parsesWithPrecedence(_ testCase: ParseCase) throws {
        #expect(try GuardExpression(parsing: testCase.text) == testCase.expected)
    }

    /// Each expression agrees with Swift's own operators on every assignment of its flags.
    @Test func evaluationMatchesSwiftOnEveryAssignment() throws {
        let cases: [(String, (Bool, Bool, Bool) -> Bool)] = [
            ("!a && b || c", { a, b, c in !a && b || c }),
            ("a || b && c", { a, b, c in a || b && c }),
            ("(a || b) && c", { a, b, c in (a || b) && c }),
            ("!(a || b) && c", { a, b, c in !(a || b) && c }),
            ("!(a && !b) || !c", { a, b, c in !(a && !b) || !c }),
            ("a && true", { a, _, _ in a }),
            ("a || false", { a, _, _ in a }),
            ("!true || c", { _, _, c in c }),
        ]
        for (text, reference) in cases {
            let expression = try GuardExpression(parsing: text)
            for bits in 0..<8 {
                let (x, y, z) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0)
                #expect(
                    expression.evaluate(["a": x, "b": y, "c": z]) == reference(x, y, z),
                    "\(text) with a=\(x) b=\(y) c=\(z)")
            }
        }
    }

    @Test func missingFlagReadsAsFalse() throws {
        #expect(!(try GuardExpression(parsing: "a")).evaluate([:]))
        #expect(try GuardExpression(parsing: "!a").evaluate([:]))
    }

    static let errorCases: [ParseErrorCase] = [
        ParseErrorCase(text: "", offset: 0, message: "empty guard expression"),
        ParseErrorCase(text: "   ", offset: 0, message: "empty guard expression"),
        ParseErrorCase(text: "a &&", offset: 4, message: "ends where a flag was expected"),
        ParseErrorCase(text: "!", offset: 1, message: "ends where a flag was expected"),
        ParseErrorCase(text: "a && )", offset: 5, message: "expected a flag name, found ')'"),
        ParseErrorCase(text: "a || 1b", offset: 5, message: "expected a flag name, found '1'"),
        ParseErrorCase(text: "(a || b", offset: 7, message: "missing ')'"),
        ParseErrorCase(text: "((a)", offset: 4, message: "missing ')'"),
        ParseErrorCase(text: "a b", offset: 2, message: "unexpected 'b'"),
        ParseErrorCase(text: "a & b", offset: 2, message: "unexpected '&'"),
        ParseErrorCase(text: "a | b", offset: 2, message: "unexpected '|'"),
        ParseErrorCase(text: "a)", offset: 1, message: "unexpected ')'"),
        ParseErrorCase(text: "a and b", offset: 2, message: "unexpected 'a'"),
        ParseErrorCase(text: "活跃 && a", offset: 0, message: "expected a flag name, found '活'"),
        ParseErrorCase(text: "a && 活跃", offset: 5, message: "expected a flag name, found '活'"),
    ]

    @Test(arguments: errorCases)
    func reportsParseErrorsWithOffsets(_ testCase: ParseErrorCase) {
        do {
            let parsed = try GuardExpression(parsing: testCase.text)
            Issue.record("'\(testCase.text)' parsed as \(parsed)")
        } catch {
            #expect(error.offset == testCase.offset)
            #expect(error.message.contains(testCase.message), "\(error.message)")
            #expect(error.description == error.message)
        }
    }

    @Test func descriptionIsCanonicalWithMinimalParentheses() {
        #expect(GuardExpression.and(.or(a, b), c).description == "(a || b) && c")
        #expect(GuardExpression.or(.and(a, b), c).description == "a && b || c")
        #expect(GuardExpression.or(a, .and(b, c)).description == "a || b && c")
        #expect(GuardExpression.not(.and(a, b)).description == "!(a && b)")
        #expect(GuardExpression.not(.not(a)).description == "!!a")
        #expect(GuardExpression.and(.not(a), .constant(true)).description == "!a && true")
        #expect(GuardExpression.or(.or(a, b), c).description == "a || b || c")
        #expect(GuardExpression.constant(false).description == "false")
    }

    /// Every expression up to depth 3 over {a, b, true} survives description → parse unchanged,
    /// including right-nested ones the parser itself never produces.
    @Test func descriptionRoundTripsThroughParsing() throws {
        var expressions: [GuardExpression] = [a, b, .constant(true)]
        for _ in 0..<2 {
            var next = expressions
            for lhs in expressions {
                next.append(.not(lhs))
                for rhs in expressions {
                    next.append(.and(lhs, rhs))
                    next.append(.or(lhs, rhs))
                }
            }
            expressions = next
        }
        #expect(expressions.count > 1_000)
        var failures: [String] = []
        for expression in expressions where (try? GuardExpression(parsing: expression.description)) != expression {
            failures.append(expression.description)
        }
        #expect(failures.isEmpty, "\(failures.count) do not round-trip, e.g. \(failures.prefix(5))")
        #expect(GuardExpression.and(a, .and(b, c)).description == "a && (b && c)")
        #expect(GuardExpression.or(a, .or(b, c)).description == "a || (b || c)")
    }

    @Test func textRoundTripsToAnEquivalentCanonicalForm() throws {
        for text in ["a&&(b||c)", "!(a)", "((a || b)) && !(c)", "a || (b || c)", "(a && b) && c"] {
            let expression = try GuardExpression(parsing: text)
            let canonical = expression.description
            #expect(try GuardExpression(parsing: canonical) == expression, "\(text) → \(canonical)")
            #expect(try GuardExpression(parsing: canonical).description == canonical)
        }
        #expect(try GuardExpression(parsing: "a&&(b||c)").description == "a && (b || c)")
        #expect(try GuardExpression(parsing: "((a || b)) && !(c)").description == "(a || b) && !c")
    }

    @Test func flagsAreListedOnceInFirstUseOrder() throws {
        #expect(try GuardExpression(parsing: "c && !a || c && b && true").flags == ["c", "a", "b"])
        #expect(try GuardExpression(parsing: "true").flags.isEmpty)
    }

    @Test func satisfiability() throws {
        #expect(!(try GuardExpression(parsing: "a && !a")).isSatisfiable())
        #expect(!(try GuardExpression(parsing: "false")).isSatisfiable())
        #expect(!(try GuardExpression(parsing: "(a || b) && !a && !b")).isSatisfiable())
        #expect(try GuardExpression(parsing: "a || !a").isSatisfiable())
        #expect(try GuardExpression(parsing: "!a && b").isSatisfiable())

        let witness = GuardExpression.satisfyingAssignment(all: [
            try GuardExpression(parsing: "a"), try GuardExpression(parsing: "!b"),
        ])
        #expect(witness == ["a": true, "b": false])
        #expect(!GuardExpression.satisfiable(a, .not(a)))
        #expect(GuardExpression.satisfiable(a, .not(b)))
        #expect(GuardExpression.satisfyingAssignment(all: [.constant(true)]) == [:])
    }
}

@Suite("Guard parser limits")
struct GuardLimitTests {
    private func isLimit(_ text: String) -> Bool {
        do {
            _ = try GuardExpression(parsing: text)
            return false
        } catch {
            return error.isLimit
        }
    }

    @Test("nesting past the limit is an error, not a stack overflow, whatever nests: '!', '(' or both")
    func deepNestingIsRefused() throws {
        let depth = GuardExpression.maximumDepth
        #expect(try GuardExpression(parsing: String(repeating: "!", count: depth) + "a").flags == ["a"])
        #expect(
            try GuardExpression(
                parsing: String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth)
            ).flags == ["a"])
        for count in [depth + 1, 5_000, 60_000] {
            #expect(isLimit(String(repeating: "!", count: count) + "a"))
            #expect(isLimit(String(repeating: "(", count: count) + "a" + String(repeating: ")", count: count)))
            #expect(isLimit(String(repeating: "!(", count: count) + "a"), "unbalanced is refused by the limit first")
            #expect(isLimit(String(repeating: "(a && !", count: count) + "a"))
        }
    }

    @Test("a chain of more flags than the limit is an error: the tree is as deep as the chain")
    func longChainsAreRefused() throws {
        let terms = GuardExpression.maximumTerms
        #expect(
            try GuardExpression(parsing: Array(repeating: "a", count: terms).joined(separator: " && ")).flags == ["a"])
        #expect(isLimit(Array(repeating: "a", count: terms + 1).joined(separator: " && ")))
        #expect(isLimit(Array(repeating: "a || b", count: 100_000).joined(separator: " && ")))
    }
}
