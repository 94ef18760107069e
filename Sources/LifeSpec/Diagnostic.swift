/// One problem found in a spec, at a location, with a stable code.
public struct Diagnostic: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable { case error, warning, note }

    public let severity: Severity
    public let code: DiagnosticCode
    public let message: String
    public let location: SourceLocation
    /// Further lines printed under the message (expected vs actual traces, candidates).
    public let notes: [String]

    public init(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String, at location: SourceLocation,
        notes: [String] = []
    ) {
        self.severity = severity
        self.code = code
        // A message quotes input (a catalog key, a cond, a file name): it must not drive the
        // terminal that shows it, reorder its text, or start a line that looks like another diagnostic.
        self.message = Self.escaped(message, keepingNewlines: false)
        self.location = location
        self.notes = notes.map { Self.escaped($0, keepingNewlines: true) }
    }

    /// Control characters (ESC, C1, CR …), bidirectional overrides and isolates, line separators
    /// and BOMs written as `\u{…}`; tab stays, and line feed when `keepingNewlines`.
    public static func escaped(_ text: String, keepingNewlines: Bool) -> String {
        func unsafe(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x09: false
            case 0x0A: !keepingNewlines
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: unsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if unsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    public static func error(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, notes: [String] = []
    ) -> Diagnostic {
        Diagnostic(.error, code, message, at: location, notes: notes)
    }

    public static func warning(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, notes: [String] = []
    ) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location, notes: notes)
    }

    /// `path:line:col: error: [LS102] message`, then indented notes.
    public var description: String {
        var text =
            "\(Self.escaped(location.description, keepingNewlines: false)): \(severity.rawValue): [\(code.rawValue)] \(message)"
        for note in notes { text += "\n    " + note }
        return text
    }

    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        if lhs.location != rhs.location { return lhs.location < rhs.location }
        if lhs.code != rhs.code { return lhs.code.rawValue < rhs.code.rawValue }
        return lhs.message < rhs.message
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// The diagnostics of several specs checked in one run, each once, in the order first found.
    /// A system spec reports its parts' problems where they are, in the part's file (with LS191 at
    /// the include naming the file), so a run that checks the part's file too, or two systems
    /// sharing a part, would otherwise print each of them again.
    public func removingRepeats() -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        return filter { seen.insert($0).inserted }
    }
}
