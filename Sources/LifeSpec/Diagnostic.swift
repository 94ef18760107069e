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
        self.message = message
        self.location = location
        self.notes = notes
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
        var text = "\(location): \(severity.rawValue): [\(code.rawValue)] \(message)"
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
