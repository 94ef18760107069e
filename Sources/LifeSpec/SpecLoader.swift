import Foundation
import LifecycleEngine
import Yams

/// The result of loading one spec: the spec when it lowered, and every diagnostic found, sorted.
public struct SpecLoadResult: Sendable {
    public let spec: LoadedSpec?
    public let diagnostics: [Diagnostic]
    public var hasErrors: Bool { diagnostics.hasErrors }
}

/// Loads a spec file: YAML with locations → `SpecDocument` + engine `Machine`, then checks it
/// against the engine (graph rules, guards, scenario replay, platform API names).
public enum SpecLoader {
    public static func load(path: String, limits: LoaderLimits = LoaderLimits()) -> SpecLoadResult {
        switch readFile(path: path, limits: limits) {
        case .success(let data): load(data: data, path: path, limits: limits)
        case .failure(let problem): SpecLoadResult(spec: nil, diagnostics: [problem.diagnostic])
        }
    }

    package struct FileProblem: Error { package let diagnostic: Diagnostic }

    /// A file's bytes, or why it cannot be read: the one door every input file (spec, SCXML
    /// chart, part, API catalog, and the bytes `generate` digests) comes in through, so each gets
    /// the same checks before a byte is used. `what` names the file in a diagnostic ("spec file",
    /// "API catalog file"). Within a run (`InputSnapshot`) the same file gives the same outcome.
    package static func readFile(path: String, limits: LoaderLimits, what: String = "spec file") -> Result<
        Data, FileProblem
    > {
        InputSnapshot.read(path: path, limits: limits).mapError {
            FileProblem(
                diagnostic: .error($0.code, "\(what) \($0.reason)", at: SourceLocation(path: path, line: 1, column: 1)))
        }
    }

    /// The input policy's checks and read, from the disk. Only `InputSnapshot` calls this, so what
    /// a snapshot keeps has always passed them.
    static func checkedRead(path: String, limits: LoaderLimits) -> Result<Data, InputRefusal> {
        // Only a regular file is opened: open(2) on a FIFO blocks until a writer comes (every
        // command hung), a device may never end, and a folder reads as empty on Linux.
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = errno == ENOENT ? "does not exist" : "cannot be read: \(String(cString: strerror(errno)))"
            return .failure(InputRefusal(code: .unreadableFile, reason: reason))
        }
        func notRegular(_ mode: mode_t) -> Result<Data, InputRefusal> {
            let kind =
                switch mode & S_IFMT {
                case S_IFDIR: "is a directory"
                case S_IFIFO: "is a FIFO, not a file"
                case S_IFCHR, S_IFBLK: "is a device, not a file"
                default: "is not a regular file"
                }
            return .failure(InputRefusal(code: .unreadableFile, reason: kind))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return notRegular(info.st_mode) }
        // A file named inside the project (a spec `generate` finds in `Spec/`) that is a link out of
        // it is not read: its lines would come back in diagnostics (#37).
        if let refusal = ProjectPaths.linkRefusal(of: path) {
            return .failure(InputRefusal(code: .outsideProject, reason: "is not read: \(refusal)"))
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            return .failure(
                InputRefusal(code: .unreadableFile, reason: "cannot be read: \(String(cString: strerror(errno)))"))
        }
        // The path may have been replaced between stat and open.
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return notRegular(info.st_mode)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        // Read one byte past the limit so an oversized file is refused without reading all of it.
        let data = (try? handle.read(upToCount: limits.maxFileBytes + 1)) ?? Data()
        guard data.count <= limits.maxFileBytes else {
            return .failure(InputRefusal(code: .inputLimit, reason: "is larger than \(limits.maxFileBytes) bytes"))
        }
        return .success(data)
    }

    public static func load(data: Data, path: String, limits: LoaderLimits = LoaderLimits()) -> SpecLoadResult {
        if isSCXML(path) { return loadSCXML(data: data, path: path, limits: limits) }
        switch decode(data, path: path) {
        case .success(let text): return load(text: text, path: path, limits: limits)
        case .failure(let problem): return SpecLoadResult(spec: nil, diagnostics: [problem.diagnostic])
        }
    }

    /// A YAML spec's text: UTF-8, without a byte order mark.
    static func decode(_ data: Data, path: String) -> Result<String, FileProblem> {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let location = firstInvalidUTF8(bytes, path: path)
            return .failure(
                FileProblem(diagnostic: .error(.unreadableFile, "spec file is not valid UTF-8", at: location)))
        }
        return .success(text)
    }

    public static func load(text: String, path: String, limits: LoaderLimits = LoaderLimits()) -> SpecLoadResult {
        let read = read(text: text, path: path, limits: limits)
        guard var raw = read.raw else { return SpecLoadResult(spec: nil, diagnostics: read.diagnostics.sorted()) }
        var diagnostics = read.diagnostics
        if raw.declaresParts {
            let composed = SpecComposer.compose(raw, limits: limits)
            diagnostics += composed.diagnostics
            guard let composedRaw = composed.raw else {
                return SpecLoadResult(spec: nil, diagnostics: diagnostics.sorted())
            }
            raw = composedRaw
            if let problem = sizeProblem(raw, limits: limits) {
                return SpecLoadResult(spec: nil, diagnostics: (diagnostics + [problem]).sorted())
            }
        }
        return check(raw, diagnostics: diagnostics, unknownKeys: read.unknownKeys)
    }

    /// A YAML spec as read, before references are resolved: `raw` is `nil` when reading stopped.
    struct ReadSpec {
        var raw: RawSpec?
        var diagnostics: [Diagnostic]
        var unknownKeys: [KnockOnErrors.UnknownKey] = []
    }

    static func read(text: String, path: String, limits: LoaderLimits) -> ReadSpec {
        let start = SourceLocation(path: path, line: 1, column: 1)
        guard text.utf8.count <= limits.maxFileBytes else {
            return ReadSpec(diagnostics: [
                .error(.inputLimit, "spec is larger than \(limits.maxFileBytes) bytes", at: start)
            ])
        }
        if let problem = precheck(text, path: path, limits: limits) { return ReadSpec(diagnostics: [problem]) }
        let root: Node
        // A duplicate key stops libyaml's composer; the repeated key is renamed out of the way
        // (the reader skips it: the first one written counts) and the text composed again, so
        // one run reports the duplicates and every other problem.
        var text = text
        var duplicates: [Diagnostic] = []
        while true {
            do {
                guard let node = try Yams.compose(yaml: text, .basic, .default) else {
                    return ReadSpec(diagnostics: [.error(.missingKey, "spec file is empty", at: start)])
                }
                root = node
                break
            } catch let error as YamlError {
                let diagnostic = diagnostic(for: error, text: text, path: path)
                if case .duplicatedKeysInMapping(let keys, _) = error, duplicates.count < 100, let key = keys.first,
                    diagnostic.location != start || !diagnostic.notes.isEmpty,
                    let renamed = renaming(
                        key, at: diagnostic.location, to: YAMLReader.duplicateKeyPrefix + "\(duplicates.count)",
                        in: text)
                {
                    duplicates.append(diagnostic)
                    text = renamed
                    continue
                }
                return ReadSpec(diagnostics: duplicates + [diagnostic])
            } catch {
                return ReadSpec(diagnostics: duplicates + [.error(.yamlSyntax, "\(error)", at: start)])
            }
        }
        let reader = YAMLReader(path: path, limits: limits, documentBytes: text.utf8.count)
        for duplicate in duplicates { reader.report(duplicate) }
        var parser = SpecParser(reader: reader, root: root)
        var raw = parser.parse(root)
        raw.sourceText = text
        var diagnostics = reader.diagnostics
        if reader.budgetExceeded {
            return ReadSpec(diagnostics: diagnostics)
        }
        if let problem = sizeProblem(raw, limits: limits) {
            diagnostics.append(problem)
            return ReadSpec(diagnostics: diagnostics)
        }
        return ReadSpec(raw: raw, diagnostics: diagnostics, unknownKeys: reader.unknownKeys)
    }

    /// What every YAML file (spec, part, API catalog) is checked for before libyaml composes it:
    /// nesting (libyaml recurses per level) and alias keys (composed and hashed before any budget).
    static func precheck(_ text: String, path: String, limits: LoaderLimits) -> Diagnostic? {
        if let depthProblem = nestingProblem(text, path: path, limit: limits.maxDepth) { return depthProblem }
        // Only aliases can make a key large: without a '*' there is nothing to check.
        if text.withUTF8Buffer({ $0.contains(UInt8(ascii: "*")) }),
            let keyProblem = YAMLKeyGuard.check(
                text, path: path, budget: YAMLReader.nodeBudget(limits: limits, documentBytes: text.utf8.count))
        {
            return keyProblem
        }
        return nil
    }

    private static func sizeProblem(_ raw: RawSpec, limits: LoaderLimits) -> Diagnostic? {
        guard raw.states.count > limits.maxStates || raw.transitions.count > limits.maxTransitions else { return nil }
        let what =
            raw.states.count > limits.maxStates
            ? "\(raw.states.count) states (the limit is \(limits.maxStates))"
            : "\(raw.transitions.count) transitions (the limit is \(limits.maxTransitions))"
        return .error(.inputLimit, "the spec has \(what); split it into several specs", at: raw.rootLocation)
    }

    /// An `.scxml` file is an SCXML chart (`SCXMLReader`); anything else is YAML.
    public static func isSCXML(_ path: String) -> Bool { path.lowercased().hasSuffix(".scxml") }

    /// Reads SCXML into the same `RawSpec` as YAML, so the same resolver and rules check it.
    static func loadSCXML(data: Data, path: String, limits: LoaderLimits) -> SpecLoadResult {
        let read = SCXMLReader.read(data: data, path: path, limits: limits)
        guard let document = read.document, !read.diagnostics.hasErrors else {
            return SpecLoadResult(spec: nil, diagnostics: read.diagnostics.sorted())
        }
        return check(document.rawSpec(), diagnostics: read.diagnostics)
    }

    /// Resolves a spec as read and runs every rule on it.
    /// `diagnostics` are the reading's; `unknownKeys` the keys it did not know (LS010), whose knock-on
    /// errors collapse under them.
    static func check(_ raw: RawSpec, diagnostics: [Diagnostic], unknownKeys: [KnockOnErrors.UnknownKey] = [])
        -> SpecLoadResult
    {
        let readingFailed = diagnostics.hasErrors
        let severity = RuleSeverity.policy(for: raw)
        var diagnostics = diagnostics
        diagnostics += SpecRules.check(raw: raw, severity: severity)
        var resolver = SpecResolver(raw: raw)
        let resolved = resolver.resolve()
        diagnostics += resolver.diagnostics
        guard let resolved, !diagnostics.hasErrors else {
            var collapsed = KnockOnErrors.collapse(
                diagnostics, unknownKeys: unknownKeys, unresolved: resolver.unresolved)
            if !readingFailed {
                if let resolved {
                    // Only the checks of the spec as read failed (API names, a guard that never
                    // holds): the machine is whole, so its own checks run too; a transition whose
                    // guard never holds is not reported again as one no run can take.
                    let unsatisfiable = Set(diagnostics.filter { $0.code == .unsatisfiableGuard }.map(\.location))
                    collapsed += SpecRules.check(resolved, raw: raw, severity: severity).diagnostics.filter {
                        !($0.code == .uncoverableTransition && unsatisfiable.contains($0.location))
                    }
                } else {
                    collapsed += KnockOnErrors.independentRuleDiagnostics(
                        raw: raw, resolver: resolver, severity: severity)
                }
            }
            return SpecLoadResult(spec: nil, diagnostics: collapsed.sorted())
        }
        let checked = SpecRules.check(resolved, raw: raw, severity: severity)
        diagnostics += checked.diagnostics
        var spec = diagnostics.hasErrors ? nil : resolved
        spec?.stateSpace = checked.space
        return SpecLoadResult(spec: spec, diagnostics: diagnostics.sorted())
    }

    static func diagnostic(for error: YamlError, text: String, path: String) -> Diagnostic {
        func at(_ mark: Mark) -> SourceLocation {
            SourceLocation(path: path, line: max(mark.line, 1), column: max(mark.column, 1))
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let contextText = context.map { " \($0.text)" } ?? ""
            var message = "YAML: \(problem)\(contextText)"
            // libyaml rarely names the tab it trips over ("found character that cannot start any token").
            if problem.contains("tab") || character(at: mark, in: text) == "\t" {
                message += " (YAML does not allow tabs for indentation)"
            }
            return .error(
                .yamlSyntax, message, at: at(mark), notes: indentationHint(at: mark, problem: problem, in: text))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            // Yams marks the first occurrence; point at the repeated one, as duplicate ids do.
            let first = at(context.mark)
            guard let key = duplicates.first, let repeated = repeatedKey(key, after: first, in: text) else {
                return .error(.duplicateKey, "duplicate key \(names) in one mapping", at: first)
            }
            return .error(
                .duplicateKey, "duplicate key \(names) in one mapping", at: repeated,
                notes: ["first written at \(first)"])
        case .reader(let problem, let offset, _, let yaml):
            let location =
                offset.map { offsetLocation($0, in: yaml, path: path) }
                ?? SourceLocation(path: path, line: 1, column: 1)
            return .error(.unreadableFile, "YAML: \(problem)", at: location)
        default:
            return .error(.yamlSyntax, "YAML: \(error)", at: SourceLocation(path: path, line: 1, column: 1))
        }
    }

    /// For the errors a mis-indented line gives ("mapping values are not allowed", "did not find
    /// expected key"): the line's indentation beside those of the keys it could belong to, which
    /// names the likely line. libyaml reports where parsing failed, often the line after the
    /// mistake; nothing is said when every line lines up with a key above it.
    static func indentationHint(at mark: Mark, problem: String, in text: String) -> [String] {
        guard
            problem.contains("mapping values are not allowed") || problem.contains("did not find expected key")
                || problem.contains("could not find expected ':'")
        else { return [] }
        let lines = sourceLines(text)
        func indentation(_ line: Substring) -> Int? {
            let content = line.drop { $0 == " " }
            guard let first = content.first, first != "#" else { return nil }
            return line.count - content.count
        }
        // The mark's line, and the keys open above it: each less indented than every line after it.
        var levels: [Int] = []
        var candidates: [(line: Int, indent: Int)] = []
        var lineNumber = min(max(mark.line, 1), lines.count)
        while lineNumber >= 1, candidates.count < 2 {
            if let indent = indentation(lines[lineNumber - 1]) { candidates.append((lineNumber, indent)) }
            lineNumber -= 1
        }
        guard let last = candidates.first else { return [] }
        var lowest = Int.max
        for index in stride(from: last.line - 1, through: 1, by: -1) {
            guard let indent = indentation(lines[index - 1]) else { continue }
            if index == last.line - 1 || indent < lowest {
                if !levels.contains(indent) { levels.append(indent) }
                lowest = min(lowest, indent)
            }
            if indent == 0 { break }
        }
        // The likely line: the first of the two that lines up with no key above it.
        let suspect =
            candidates.reversed().first { candidate in
                candidate.line == last.line ? !levels.contains(candidate.indent) : false
            } ?? (candidates.count > 1 && candidates[1].indent < last.indent ? candidates[0] : nil)
        guard let suspect else {
            // A key written without its colon reads as text, and the next key then fails.
            if candidates.count > 1, candidates[1].indent == last.indent {
                let previous = lines[candidates[1].line - 1].drop { $0 == " " }
                if !previous.hasPrefix("-"), !previous.contains(":") {
                    return ["line \(candidates[1].line) has no ':' after its key"]
                }
            }
            return []
        }
        let above = levels.sorted().map(String.init).joined(separator: ", ")
        let spaces = suspect.indent == 1 ? "1 space" : "\(suspect.indent) spaces"
        return [
            "line \(suspect.line) is indented \(spaces); the keys above it are at \(above): a key lines up with the keys of its own mapping, and a mapping's keys go on the lines after its key, indented further"
        ]
    }

    /// Lines as libyaml counts them (LF, CR and CRLF all end a line).
    private static func sourceLines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// The character at a 1-based line and column (columns count Unicode scalars, as libyaml does).
    private static func character(at mark: Mark, in text: String) -> Unicode.Scalar? {
        let lines = sourceLines(text)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let scalars = Array(lines[mark.line - 1].unicodeScalars)
        return mark.column >= 1 && mark.column <= scalars.count ? scalars[mark.column - 1] : nil
    }

    /// In a block mapping, the next line after `first` that starts with `key:` at the same column,
    /// before the mapping ends (a less indented line). `nil` for flow mappings and anything unusual.
    private static func repeatedKey(_ key: String, after first: SourceLocation, in text: String) -> SourceLocation? {
        let lines = sourceLines(text)
        guard first.line >= 1, first.line < lines.count else { return nil }
        let spellings = [key, "\"\(key)\"", "'\(key)'"]
        for index in first.line..<lines.count {
            let line = lines[index]
            let body = line.drop { $0 == " " }
            if body.isEmpty || body.hasPrefix("#") { continue }
            let column = line.count - body.count + 1
            if column < first.column { return nil }
            guard column == first.column else { continue }
            for spelling in spellings where body.hasPrefix(spelling) {
                let rest = body.dropFirst(spelling.count).drop { $0 == " " }
                if rest.hasPrefix(":") { return SourceLocation(path: first.path, line: index + 1, column: column) }
            }
        }
        return nil
    }

    /// `text` with the key written at `location` (as `key`, `"key"` or `'key'`) replaced by
    /// `replacement`; `nil` when it is not there as expected. Lines and columns as libyaml counts
    /// them (columns in Unicode scalars); nothing else moves but the rest of that line.
    private static func renaming(_ key: String, at location: SourceLocation, to replacement: String, in text: String)
        -> String?
    {
        let scalars = text.unicodeScalars
        var line = 1
        var column = 1
        var index = scalars.startIndex
        while index < scalars.endIndex, !(line == location.line && column == location.column) {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            // CR LF is one line break, as are a lone LF and a lone CR.
            if scalar == "\n" || (scalar == "\r" && (next == scalars.endIndex || scalars[next] != "\n")) {
                line += 1
                column = 1
            } else if scalar != "\r" {
                column += 1
            }
            if line > location.line { return nil }
            index = next
        }
        guard line == location.line, column == location.column else { return nil }
        let rest = String(scalars[index...])
        for spelling in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(spelling) {
            let afterKey = rest.dropFirst(spelling.count).drop { $0 == " " }
            guard afterKey.hasPrefix(":") else { continue }
            return String(scalars[..<index]) + replacement + rest.dropFirst(spelling.count)
        }
        return nil
    }

    private static func offsetLocation(_ offset: Int, in text: String, path: String) -> SourceLocation {
        offsetLocation(offset, in: text.utf8, path: path)
    }

    /// Line and column (in Unicode scalars) of a byte offset into UTF-8 bytes.
    static func offsetLocation(_ offset: Int, in bytes: some Collection<UInt8>, path: String) -> SourceLocation {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(path: path, line: line, column: column)
    }

    private static func firstInvalidUTF8(_ bytes: [UInt8], path: String) -> SourceLocation {
        var line = 1
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            var end = index + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80, end - index < 4 { end += 1 }
            if String(validating: bytes[index..<end], as: UTF8.self) == nil {
                let column = (String(decoding: bytes[lineStart..<index], as: UTF8.self).unicodeScalars.count) + 1
                return SourceLocation(path: path, line: line, column: column)
            }
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index = end
        }
        return SourceLocation(path: path, line: line, column: 1)
    }

    /// libyaml recurses per nesting level; refuse absurd nesting before handing it the text.
    /// Scans bytes, not scalars (decoding them cost more than the scan): every character that
    /// matters is ASCII, and a scalar is one byte that is not a continuation byte.
    private static func nestingProblem(_ text: String, path: String, limit: Int) -> Diagnostic? {
        text.withUTF8Buffer { nestingProblem($0, path: path, limit: limit) }
    }

    private static func nestingProblem(_ bytes: UnsafeBufferPointer<UInt8>, path: String, limit: Int) -> Diagnostic? {
        var depth = 0
        var line = 1
        var column = 0
        var inSingle = false
        var inDouble = false
        var inComment = false
        for byte in bytes where byte & 0xC0 != 0x80 {
            column += 1
            switch byte {
            case 0x0A:  // \n
                line += 1
                column = 0
                inComment = false
                inSingle = false
            case 0x23:  // #
                if !inSingle && !inDouble { inComment = true }
            case 0x27:  // '
                if !inDouble && !inComment { inSingle.toggle() }
            case 0x22:  // "
                if !inSingle && !inComment { inDouble.toggle() }
            case 0x5B, 0x7B:  // [ {
                guard !inSingle, !inDouble, !inComment else { continue }
                depth += 1
                if depth > limit {
                    return .error(
                        .inputLimit, "nesting deeper than \(limit) levels",
                        at: SourceLocation(path: path, line: line, column: column))
                }
            case 0x5D, 0x7D:  // ] }
                if !inSingle, !inDouble, !inComment, depth > 0 { depth -= 1 }
            default: break
            }
        }
        return nil
    }
}
