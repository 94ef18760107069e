import ArgumentParser
import Foundation
import LifeSpec
import LifeSpecRender

enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// Prints diagnostics the way compilers do, so editors and CI annotate the right line.
enum DiagnosticPrinter {
    static func text(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { $0.description + "\n" }.joined()
    }

    static func json(_ diagnostics: [Diagnostic]) -> String {
        let items = diagnostics.map { diagnostic -> JSONValue in
            .object([
                ("path", .string(diagnostic.location.path)),
                ("line", .int(diagnostic.location.line)),
                ("column", .int(diagnostic.location.column)),
                ("severity", .string(diagnostic.severity.rawValue)),
                ("code", .string(diagnostic.code.rawValue)),
                ("message", .string(diagnostic.message)),
                ("notes", .array(diagnostic.notes.map(JSONValue.string))),
            ])
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        return JSONValue.object([
            ("diagnostics", .array(items)),
            ("errors", .int(errors)),
            ("warnings", .int(warnings)),
        ]).text + "\n"
    }

    static func summary(_ diagnostics: [Diagnostic], files: Int) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        return "\(plural(files, "spec")) checked: \(plural(errors, "error")), \(plural(warnings, "warning"))\n"
    }
}

enum StandardStreams {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
