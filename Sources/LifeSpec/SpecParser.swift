import Foundation
import LifecycleEngine
import Yams

/// Reads a composed YAML document into a `RawSpec`, reporting structural problems.
struct SpecParser {
    static let topLevelKeys = [
        "lifespec", "id", "title", "summary", "platform", "locales", "sources", "states", "initial",
        "events", "flags", "facts", "callbacks", "notifications", "transitions", "scenarios", "related", "unhandled",
        "catalogs", "parts", "modelling",
    ]
    static let partKeys = ["spec", "title", "description"]
    static let stateKeys = [
        "title", "description", "facts", "states", "initial", "final", "parallel", "history", "default", "entry",
        "exit", "source",
    ]
    static let eventKeys = ["title", "kind", "description", "source"]
    static let flagKeys = ["title", "default", "description", "source"]
    static let callbackKeys = [
        "kind", "passedTo", "receiver", "swift", "objc", "returns", "description", "usage", "posts", "deprecated",
        "timeLimit", "source",
    ]
    static let factKeys = ["title", "description"]
    static let notificationKeys = ["swift", "objc", "description", "source"]
    static let transitionKeys = [
        "from", "on", "always", "guard", "to", "type", "do", "set", "raise", "description", "source",
    ]
    static let scenarioKeys = ["id", "title", "description", "from", "flags", "events", "expect", "end", "source"]
    static let sourceKeys = ["title", "url"]
    static let modellingKeys = ["about", "note", "source"]

    let reader: YAMLReader
    var raw: RawSpec
    /// The first state parsed with each id (ids may repeat until the resolver reports it): a child
    /// finds its parent here instead of by a search through every state so far.
    private var firstStateIndex: [String: Int] = [:]
    /// `raw.locales` by value, fixed once the 'locales' section is read (before any text).
    private var locales: [String] = []
    /// Guards parsed so far by text: specs repeat the same few guards, and parsing one costs far
    /// more than looking it up.
    private var parsedGuards: [String: Result<GuardExpression, GuardParseError>] = [:]

    init(reader: YAMLReader, root: Node) {
        self.reader = reader
        raw = RawSpec(path: reader.path, rootLocation: reader.location(root))
    }

    mutating func parse(_ root: Node) -> RawSpec {
        guard let pairs = reader.mapping(root, what: "the spec", allowedKeys: Self.topLevelKeys) else { return raw }
        var byKey = Dictionary(pairs.map { ($0.key.value, $0) }, uniquingKeysWith: { first, _ in first })
        // A misspelt key (`state:` for `states:`) is reported once, with the key it resembles
        // (LS010), and read as that key: its contents would otherwise be missing and every
        // reference to them an error of its own (37 of them for the flagship's states).
        if case .mapping(let mapping) = root {
            for index in mapping.startIndex..<mapping.endIndex {
                let (keyNode, value) = mapping[index]
                guard case .scalar(let key) = keyNode, !Self.topLevelKeys.contains(key.string),
                    !key.string.hasPrefix(YAMLReader.duplicateKeyPrefix),
                    let meant = Suggestion.closest(to: key.string, among: Self.topLevelKeys), byKey[meant] == nil
                else { continue }
                byKey[meant] = (Located(meant, at: reader.location(keyNode)), value)
            }
        }
        // Locales first: every localized text is checked against them.
        if let entry = byKey["locales"], let items = reader.sequence(entry.value, what: "'locales'") {
            for item in items {
                guard let locale = reader.string(item, what: "a locale") else { continue }
                if !YAMLReader.looksLikeLocale(locale.value) {
                    reader.report(
                        .error(
                            .invalidValue, "'\(locale.value)' is not a locale identifier such as 'en' or 'zh-Hans'",
                            at: locale.location))
                } else if raw.locales.contains(where: { $0.value == locale.value }) {
                    reader.report(.error(.duplicateID, "locale '\(locale.value)' is listed twice", at: locale.location))
                } else {
                    raw.locales.append(locale)
                }
            }
        }
        locales = raw.locales.map(\.value)
        if let entry = byKey["lifespec"] {
            if let version = reader.int(entry.value, what: "'lifespec'") {
                raw.formatVersion = version.value
                if version.value != 1 {
                    reader.report(
                        .error(
                            .unsupportedVersion,
                            "spec format version \(version.value) is not supported; this lifespec reads version 1",
                            at: version.location))
                }
            }
        } else {
            reader.report(
                .error(
                    .missingKey, "missing 'lifespec: 1' (the format version) at the top of the spec",
                    at: raw.rootLocation))
        }
        if let entry = byKey["id"] {
            if let id = reader.string(entry.value, what: "'id'") {
                raw.id = valid(id, Self.isValidSpecID) {
                    "spec id '\($0)' must be lowercase letters, digits and '-', starting with a letter (it names Output/<id>/)"
                }
            }
        } else {
            reader.report(.error(.missingKey, "missing 'id' (it names Output/<id>/)", at: raw.rootLocation))
        }
        if let entry = byKey["title"] { raw.title = text(entry.value, what: "the spec's title") }
        if let entry = byKey["summary"] { raw.summary = text(entry.value, what: "the spec's summary") }
        if let entry = byKey["platform"] { raw.platform = reader.string(entry.value, what: "'platform'") }
        if let entry = byKey["catalogs"] { parseCatalogs(entry.value) }
        if let entry = byKey["sources"] { parseSources(entry.value) }
        if let entry = byKey["parts"] {
            raw.declaresParts = true
            parseParts(entry.value)
        }
        if let entry = byKey["states"] {
            parseStates(entry.value, parent: nil)
        } else if !raw.declaresParts {
            reader.report(.error(.missingKey, "missing 'states'", at: raw.rootLocation))
        }
        if let entry = byKey["initial"] {
            raw.initial = reader.oneOrMany(entry.value).compactMap { reader.string($0, what: "'initial'") }
        } else if !raw.declaresParts || byKey["states"] != nil {
            // The first top-level state is where most lifecycles start.
            let suggestion = raw.states.first { $0.parent == nil }.map { "; e.g. 'initial: \($0.id.value)'" } ?? ""
            reader.report(
                .error(
                    .missingKey, "missing 'initial' (the machine's initial state)\(suggestion)", at: raw.rootLocation))
        }
        if let entry = byKey["events"] { parseEvents(entry.value) }
        if let entry = byKey["flags"] { parseFlags(entry.value) }
        if let entry = byKey["facts"] { parseFactDeclarations(entry.value) }
        if let entry = byKey["notifications"] { parseNotifications(entry.value) }
        if let entry = byKey["callbacks"] { parseCallbacks(entry.value) }
        if let entry = byKey["transitions"] { parseTransitions(entry.value) }
        if let entry = byKey["scenarios"] { parseScenarios(entry.value) }
        if let entry = byKey["related"] { parseRelated(entry.value) }
        if let entry = byKey["modelling"] { parseModelling(entry.value) }
        if let entry = byKey["unhandled"] {
            raw.unhandled = oneOf(entry.value, what: "'unhandled'") { _, _ in
                "'unhandled' must be 'error' (an event no transition takes is a mistake) or 'ignore' (SCXML's rule)"
            }
        }
        return raw
    }

    /// Appended to every guard syntax error: the whole grammar fits in one line.
    static let guardGrammar =
        " (a guard combines flags with '&&', '||', '!' and parentheses; 'true' and 'false' are constants)"

    static func isValidSpecID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Element ids become DOT ids, Swift identifiers and file names: keep them to a safe alphabet.
    static func isValidElementID(_ id: String) -> Bool {
        // ASCII ids (all valid ones) are checked byte by byte: the Unicode property lookups below
        // agree with these classes on ASCII and cost far more.
        let utf8 = id.utf8
        if let first = utf8.first, utf8.allSatisfy({ $0 < 0x80 }) {
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
            guard isLetter(first) || first == 0x5F else { return false }
            return utf8.allSatisfy {
                isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D || $0 == 0x2E
            }
        }
        guard let first = id.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return id.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_" || $0 == "-" || $0 == "."
        }
            && id.unicodeScalars.allSatisfy { $0.isASCII }
    }

    /// A receiver names an object in traces and logs (`AppDelegate.…`): a Swift identifier in ASCII.
    static func isReceiverName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || first == "_"
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }

    private func checkElementID(_ id: Located<String>, kind: String) -> Bool {
        guard Self.isValidElementID(id.value) else {
            reader.report(
                .error(
                    .invalidValue,
                    "\(kind) id '\(id.value)' must start with an ASCII letter or '_' and contain only ASCII letters, digits, '_', '-' and '.'",
                    at: id.location))
            return false
        }
        return true
    }

    private mutating func text(_ node: Node, what: @autoclosure () -> String) -> LocalizedText? {
        guard let text = reader.localized(node, what: what(), locales: locales) else { return nil }
        // Only the translation check reads these, and only with more than one locale.
        if locales.count > 1 { raw.localizedTexts.append((text, what(), reader.location(node))) }
        recordChinese(node, text: text, what: what())
        return text
    }

    /// Keeps the Simplified Chinese values (a plain string counts when Chinese is the default
    /// locale) with their own positions, for `ChinesePunctuationRule`.
    private mutating func recordChinese(_ node: Node, text: LocalizedText, what: @autoclosure () -> String) {
        switch node {
        case .scalar:
            if Language.resolve(locales.first) == .simplifiedChinese, let value = text.translations.first?.text {
                raw.chineseTexts.append((value, what(), reader.location(node)))
            }
        case .mapping(let mapping):
            for (key, value) in mapping {
                guard let locale = key.scalar?.string, Language.resolve(locale) == .simplifiedChinese,
                    let string = value.scalar?.string
                else { continue }
                raw.chineseTexts.append((string, "\(what()) (\(locale))", reader.location(value)))
            }
        default:
            break
        }
    }

    private mutating func sourceRef(_ node: Node) -> Located<String>? {
        guard let id = reader.string(node, what: "'source'") else { return nil }
        raw.sourceReferences.append(id)
        return id
    }

    /// The elements an `id: body` section declares, a duplicate id reported at its second
    /// occurrence; an element whose id is not valid is reported and left out.
    private func elements(_ node: Node, what: String, kind: String) -> [(key: Located<String>, value: Node)] {
        (reader.mapping(node, what: what, allowedKeys: nil) ?? []).filter { checkElementID($0.key, kind: kind) }
    }

    /// `catalogs:` names built-in API catalogs (`uikit`) or catalog files, relative to the spec.
    private mutating func parseCatalogs(_ node: Node) {
        for item in reader.oneOrMany(node) {
            guard
                let reference = reader.string(
                    item, what: "an API catalog (a built-in name such as 'uikit' or a catalog file)")
            else { continue }
            if let builtIn = APICatalog.builtIn[reference.value] {
                raw.catalogs.append((reference, builtIn))
                continue
            }
            let isFile =
                reference.value.contains("/")
                || ["yaml", "yml", "json"].contains(where: { reference.value.lowercased().hasSuffix("." + $0) })
            let folder = (raw.path as NSString).deletingLastPathComponent
            let path =
                reference.value.hasPrefix("/") || folder.isEmpty ? reference.value : folder + "/" + reference.value
            guard isFile, !FileProblemCheck.isMissing(path) else {
                let known = APICatalog.builtIn.keys.sorted()
                let hint =
                    isFile
                    ? "there is no file '\(path)'"
                    : "built-in catalogs: \(known.joined(separator: ", ")); a catalog file is named by its path, ending in .yaml"
                raw.catalogMissing = true
                reader.report(
                    .error(
                        .unknownPlatform,
                        "unknown API catalog '\(reference.value)' (\(hint))\(isFile ? "" : Suggestion.didYouMean(reference.value, among: known))",
                        at: reference.location))
                continue
            }
            if let refusal = ProjectPaths.refusal(of: path, namedBy: raw.path) {
                raw.catalogMissing = true
                reader.report(
                    .error(
                        .outsideProject, "API catalog '\(reference.value)' is not read: \(refusal)",
                        at: reference.location))
                continue
            }
            let loaded = APICatalog.load(path: path, limits: reader.limits)
            for diagnostic in loaded.diagnostics { reader.report(diagnostic) }
            if let catalog = loaded.catalog {
                raw.catalogs.append((reference, catalog))
            } else {
                raw.catalogMissing = true
            }
        }
    }

    /// `parts:` maps a part name to a sibling spec id, or to `{spec, title, description}`.
    private mutating func parseParts(_ node: Node) {
        for (name, body) in elements(node, what: "'parts'", kind: "part") {
            if name.value.contains(".") {
                reader.report(
                    .error(
                        .invalidValue,
                        "part name '\(name.value)' cannot contain '.': it prefixes the part's ids ('\(name.value).<id>')",
                        at: name.location))
                continue
            }
            if case .scalar = body {
                guard let spec = reader.string(body, what: "the spec of part '\(name.value)'") else { continue }
                raw.parts.append(.init(name: name, spec: spec))
                continue
            }
            guard let pairs = reader.mapping(body, what: "part '\(name.value)'", allowedKeys: Self.partKeys) else {
                continue
            }
            var part: RawSpec.Part?
            var title: LocalizedText?
            var description: LocalizedText?
            for (key, value) in pairs {
                switch key.value {
                case "spec":
                    if let spec = reader.string(value, what: "the spec of part '\(name.value)'") {
                        part = .init(name: name, spec: spec)
                    }
                case "title": title = text(value, what: "the title of part '\(name.value)'")
                case "description": description = text(value, what: "the description of part '\(name.value)'")
                default: break
                }
            }
            guard var part else {
                reader.error(
                    .missingKey, "part '\(name.value)' needs 'spec: <spec id>' (a spec file beside this one)", at: body)
                continue
            }
            part.title = title
            part.description = description
            raw.parts.append(part)
        }
    }

    private mutating func parseSources(_ node: Node) {
        for (id, body) in elements(node, what: "'sources'", kind: "source") {
            guard let pairs = reader.mapping(body, what: "source '\(id.value)'", allowedKeys: Self.sourceKeys)
            else { continue }
            var title: LocalizedText?
            var url: Located<String>?
            for (key, value) in pairs {
                switch key.value {
                case "title": title = text(value, what: "the title of source '\(id.value)'")
                case "url": url = reader.string(value, what: "the url of source '\(id.value)'")
                default: break
                }
            }
            guard let url else {
                reader.report(.error(.missingKey, "source '\(id.value)' has no 'url'", at: id.location))
                continue
            }
            if !(url.value.hasPrefix("https://") || url.value.hasPrefix("http://"))
                || url.value.contains(where: { $0.isWhitespace })
            {
                reader.report(
                    .error(
                        .invalidValue, "the url of source '\(id.value)' must be an http(s) address without spaces",
                        at: url.location))
                continue
            }
            raw.sources.append(
                SourceRef(id: id.value, title: title ?? LocalizedText(id.value), url: url.value, location: id.location))
        }
    }

    private mutating func parseStates(_ node: Node, parent: String?) {
        for (id, body) in elements(node, what: parent.map { "the states of '\($0)'" } ?? "'states'", kind: "state") {
            var state = RawSpec.State(id: id, parent: parent)
            let stateIndex = raw.states.count
            raw.states.append(state)
            if firstStateIndex[id.value] == nil { firstStateIndex[id.value] = stateIndex }
            if let parent, let parentIndex = firstStateIndex[parent] {
                raw.states[parentIndex].children.append(id)
            }
            // An empty body (`active:` or `active: {}`) is a plain leaf state.
            if YAMLReader.isNull(body) { continue }
            guard let pairs = reader.mapping(body, what: "state '\(id.value)'", allowedKeys: Self.stateKeys) else {
                continue
            }
            var childNode: Node?
            for (key, value) in pairs {
                switch key.value {
                case "title": state.title = text(value, what: "the title of state '\(id.value)'")
                case "description": state.description = text(value, what: "the description of state '\(id.value)'")
                case "facts": state.facts = parseFacts(value, state: id.value, keys: &state.factKeys)
                case "states": childNode = value
                case "initial":
                    state.initialLocation = reader.location(value)
                    state.initial = reader.oneOrMany(value).compactMap {
                        reader.string($0, what: "the initial child of '\(id.value)'")
                    }
                case "final": state.isFinal = reader.bool(value, what: "'final'")?.value ?? false
                case "parallel":
                    if let flag = reader.bool(value, what: "'parallel'") {
                        state.parallel = Located(flag.value, at: key.location)
                    }
                case "history":
                    guard let depth = reader.string(value, what: "'history'") else { continue }
                    if let parsed = HistoryDepth(rawValue: depth.value) {
                        state.history = Located(parsed, at: depth.location)
                    } else {
                        reader.report(
                            .error(
                                .invalidValue,
                                "'history' must be 'shallow' (the parent's last active child) or 'deep' (its last active atomic states)\(Suggestion.didYouMean(depth.value, among: ["shallow", "deep"]))",
                                at: depth.location))
                    }
                case "default":
                    state.historyDefault = reader.oneOrMany(value).compactMap {
                        reader.string($0, what: "the default of history state '\(id.value)'")
                    }
                case "entry": state.entry = parseBlock(value, what: "'entry' of '\(id.value)'")
                case "exit": state.exit = parseBlock(value, what: "'exit' of '\(id.value)'")
                case "source": state.source = sourceRef(value)
                default: break
                }
            }
            state.children = raw.states[stateIndex].children
            raw.states[stateIndex] = state
            if let childNode { parseStates(childNode, parent: id.value) }
        }
    }

    private mutating func parseFacts(_ node: Node, state: String, keys: inout [Located<String>]) -> [(
        key: String, value: FactValue
    )] {
        guard let pairs = reader.mapping(node, what: "the facts of '\(state)'", allowedKeys: nil) else { return [] }
        var facts: [(key: String, value: FactValue)] = []
        for (key, value) in pairs {
            keys.append(key)
            switch value {
            case .scalar(let scalar) where scalar.style == .plain && YAMLReader.boolValue(scalar.string) != nil:
                facts.append((key.value, .bool(YAMLReader.boolValue(scalar.string)!)))
            case .scalar(let scalar) where scalar.style == .plain && Double(scalar.string) != nil:
                facts.append((key.value, .number(scalar.string)))
            default:
                if let text = text(value, what: "fact '\(key.value)' of '\(state)'") {
                    facts.append((key.value, .text(text)))
                }
            }
        }
        return facts
    }

    /// The case of `Value` the string `node` names; otherwise an invalid-value error (`message`
    /// from the string and the cases' names, then a did-you-mean among them) and `nil`.
    private func oneOf<Value: RawRepresentable & CaseIterable & Sendable & Hashable>(
        _ node: Node, what: String, message: (_ found: String, _ cases: [String]) -> String
    ) -> Located<Value>? where Value.RawValue == String {
        guard let text = reader.string(node, what: what) else { return nil }
        if let parsed = Value(rawValue: text.value) { return Located(parsed, at: text.location) }
        let cases = Value.allCases.map(\.rawValue)
        reader.report(
            .error(
                .invalidValue, message(text.value, cases) + Suggestion.didYouMean(text.value, among: cases),
                at: text.location))
        return nil
    }

    /// `value` when `isValid` holds for it; otherwise an invalid-value error at it, worded by
    /// `message` from the value, and `nil`.
    private func valid(
        _ value: Located<String>, _ isValid: (String) -> Bool, else message: (String) -> String
    ) -> Located<String>? {
        guard !isValid(value.value) else { return value }
        reader.report(.error(.invalidValue, message(value.value), at: value.location))
        return nil
    }

    /// `{flag: true, …}`: each flag with its value, in the order written; a value that is not a
    /// boolean is reported (as `valueWhat(flag)`) and left out.
    private func flagValues(
        _ node: Node, what: String, valueWhat: (String) -> String
    ) -> [(flag: Located<String>, value: Bool)] {
        (reader.mapping(node, what: what, allowedKeys: nil) ?? []).compactMap { flag, value in
            reader.bool(value, what: valueWhat(flag.value)).map { (flag, $0.value) }
        }
    }

    /// The fields of an element written `id: {…}`; none for a bare `id:`, which leaves them all out.
    private func fields(of body: Node, _ kind: String, _ id: Located<String>, allowedKeys: [String]) -> [(
        key: Located<String>, value: Node
    )] {
        guard !YAMLReader.isNull(body) else { return [] }
        return reader.mapping(body, what: "\(kind) '\(id.value)'", allowedKeys: allowedKeys) ?? []
    }

    private mutating func parseEvents(_ node: Node) {
        for (id, body) in elements(node, what: "'events'", kind: "event") {
            var title: LocalizedText?
            var description: LocalizedText?
            var source: Located<String>?
            var kind = LifecycleEvent.Kind.system
            for (key, value) in fields(of: body, "event", id, allowedKeys: Self.eventKeys) {
                switch key.value {
                case "title": title = text(value, what: "the title of event '\(id.value)'")
                case "description": description = text(value, what: "the description of event '\(id.value)'")
                case "source": source = sourceRef(value)
                case "kind":
                    let named: Located<LifecycleEvent.Kind>? = oneOf(value, what: "'kind'") {
                        "event kind '\($0)' must be one of \($1.joined(separator: ", "))"
                    }
                    kind = named?.value ?? kind
                default: break
                }
            }
            raw.events.append(
                .init(
                    id: id.value, title: title, kind: kind, description: description, source: source?.value,
                    location: id.location))
        }
    }

    private mutating func parseFlags(_ node: Node) {
        for (id, body) in elements(node, what: "'flags'", kind: "flag") {
            if ["true", "false"].contains(id.value) {
                reader.report(
                    .error(
                        .invalidValue, "a flag cannot be named '\(id.value)': guards read it as a constant",
                        at: id.location))
                continue
            }
            var title: LocalizedText?
            var defaultValue = false
            var description: LocalizedText?
            var source: Located<String>?
            for (key, value) in fields(of: body, "flag", id, allowedKeys: Self.flagKeys) {
                switch key.value {
                case "title": title = text(value, what: "the title of flag '\(id.value)'")
                case "default":
                    defaultValue = reader.bool(value, what: "the default of flag '\(id.value)'")?.value ?? false
                case "description": description = text(value, what: "the description of flag '\(id.value)'")
                case "source": source = sourceRef(value)
                default: break
                }
            }
            raw.flags.append(
                .init(
                    id: id.value, title: title, defaultValue: defaultValue, description: description,
                    source: source?.value, location: id.location))
        }
    }

    private mutating func parseNotifications(_ node: Node) {
        for (id, body) in elements(node, what: "'notifications'", kind: "notification") {
            var notification = RawSpec.Notification(id: id)
            for (key, value) in fields(of: body, "notification", id, allowedKeys: Self.notificationKeys) {
                switch key.value {
                case "swift": notification.swift = reader.string(value, what: "'swift'")
                case "objc": notification.objc = reader.string(value, what: "'objc'")
                case "description":
                    notification.description = text(value, what: "the description of notification '\(id.value)'")
                case "source": notification.source = sourceRef(value)
                default: break
                }
            }
            raw.notifications.append(notification)
        }
    }

    private mutating func parseCallbacks(_ node: Node) {
        for (id, body) in elements(node, what: "'callbacks'", kind: "callback") {
            var callback = RawSpec.Callback(id: id)
            for (key, value) in fields(of: body, "callback", id, allowedKeys: Self.callbackKeys) {
                switch key.value {
                case "kind":
                    let named: Located<SpecDocument.CallbackKind>? = oneOf(value, what: "'kind'") {
                        "callback kind '\($0)' must be one of \($1.joined(separator: ", "))"
                    }
                    guard let named else { continue }
                    callback.kind = named.value
                    callback.kindLocation = named.location
                case "passedTo": callback.passedTo = reader.string(value, what: "'passedTo'")
                case "receiver":
                    guard let receiver = reader.string(value, what: "'receiver'") else { continue }
                    // It prefixes the call's names in traces (`PresentationDelegate.…`): a Swift identifier.
                    callback.receiver = valid(receiver, Self.isReceiverName) {
                        "receiver '\($0)' must be an object's name: an ASCII letter or '_', then ASCII letters, digits or '_' (such as 'PresentationDelegate')"
                    }
                case "swift": callback.swift = reader.string(value, what: "'swift'")
                case "objc": callback.objc = reader.string(value, what: "'objc'")
                case "returns": callback.returns = reader.string(value, what: "'returns'")?.value
                case "description":
                    callback.description = text(value, what: "the description of callback '\(id.value)'")
                case "usage": callback.usage = text(value, what: "the usage of callback '\(id.value)'")
                case "posts": callback.posts = parsePosts(value)
                case "deprecated": callback.deprecated = parseDeprecation(value, callback: id.value)
                case "timeLimit":
                    guard let limit = reader.string(value, what: "'timeLimit'") else { continue }
                    callback.timeLimit =
                        valid(limit, Self.isDuration) {
                            "time limit '\($0)' must be a duration such as '5s', '500ms' or '2min'"
                        }?.value
                case "source": callback.source = sourceRef(value)
                default: break
                }
            }
            if callback.kind == .closure, callback.passedTo == nil {
                reader.report(
                    .error(
                        .missingKey, "closure '\(id.value)' needs 'passedTo: <the API the app passes it to>'",
                        at: callback.kindLocation ?? id.location))
            } else if callback.kind == .method, let passedTo = callback.passedTo {
                reader.report(
                    .error(
                        .invalidValue,
                        "'passedTo' is only for a callback of kind 'closure'; add 'kind: closure' to '\(id.value)' or remove it",
                        at: passedTo.location))
            }
            raw.callbacks.append(callback)
        }
    }

    /// `facts:` declares each fact states may state, with the title its column shows.
    private mutating func parseFactDeclarations(_ node: Node) {
        raw.declaresFacts = true
        for (id, body) in elements(node, what: "'facts'", kind: "fact") {
            var title: LocalizedText?
            var description: LocalizedText?
            for (key, value) in fields(of: body, "fact", id, allowedKeys: Self.factKeys) {
                switch key.value {
                case "title": title = text(value, what: "the title of fact '\(id.value)'")
                case "description": description = text(value, what: "the description of fact '\(id.value)'")
                default: break
                }
            }
            raw.facts.append(.init(id: id.value, title: title, description: description, location: id.location))
        }
    }

    static func isDuration(_ text: String) -> Bool {
        for unit in ["ms", "min", "s"] where text.hasSuffix(unit) {
            let number = text.dropLast(unit.count).trimmingCharacters(in: .whitespaces)
            if let value = Double(number), value >= 0 { return true }
        }
        return false
    }

    private mutating func parsePosts(_ node: Node) -> (notification: Located<String>, order: PostedNotification.Order)?
    {
        if case .scalar = node {
            return reader.string(node, what: "'posts'").map { ($0, .after) }
        }
        guard let pairs = reader.mapping(node, what: "'posts'", allowedKeys: ["notification", "order"]) else {
            return nil
        }
        var notification: Located<String>?
        var order = PostedNotification.Order.after
        for (key, value) in pairs {
            switch key.value {
            case "notification": notification = reader.string(value, what: "the posted notification")
            case "order":
                guard let text = reader.string(value, what: "'order'") else { continue }
                if let parsed = PostedNotification.Order(rawValue: text.value) {
                    order = parsed
                } else {
                    reader.report(
                        .error(
                            .invalidValue,
                            "order '\(text.value)' must be 'before' or 'after'\(Suggestion.didYouMean(text.value, among: ["before", "after"]))",
                            at: text.location))
                }
            default: break
            }
        }
        guard let notification else {
            reader.error(.missingKey, "'posts' needs a 'notification'", at: node)
            return nil
        }
        return (notification, order)
    }

    private mutating func parseDeprecation(_ node: Node, callback: String) -> SpecDocument.Deprecation? {
        if case .scalar = node, let flag = reader.bool(node, what: "'deprecated'") {
            return flag.value ? SpecDocument.Deprecation(since: nil, replacement: nil, note: nil) : nil
        }
        guard let pairs = reader.mapping(node, what: "'deprecated'", allowedKeys: ["since", "replacement", "note"])
        else { return nil }
        var since: String?
        var replacement: String?
        var note: LocalizedText?
        for (key, value) in pairs {
            switch key.value {
            case "since": since = reader.string(value, what: "'since'")?.value
            case "replacement": replacement = reader.string(value, what: "'replacement'")?.value
            case "note": note = text(value, what: "the deprecation note of '\(callback)'")
            default: break
            }
        }
        return SpecDocument.Deprecation(since: since, replacement: replacement, note: note)
    }

    private mutating func parseTransitions(_ node: Node) {
        guard let items = reader.sequence(node, what: "'transitions'") else { return }
        for item in items {
            var transition = RawSpec.Transition(location: reader.location(item))
            var onGiven = false
            guard let pairs = reader.mapping(item, what: "a transition", allowedKeys: Self.transitionKeys) else {
                continue
            }
            for (key, value) in pairs {
                switch key.value {
                case "from": transition.from = reader.oneOrMany(value).compactMap { reader.string($0, what: "'from'") }
                case "on":
                    onGiven = true
                    transition.on = reader.oneOrMany(value).compactMap { reader.string($0, what: "'on'") }
                    if case .sequence = value, transition.on.isEmpty {
                        reader.error(
                            .invalidValue, "'on' lists no event; name at least one, or write 'always: true'", at: value)
                        transition.isComplete = false
                    }
                case "type":
                    guard let kind = reader.string(value, what: "'type'") else { continue }
                    if let parsed = TransitionType(rawValue: kind.value) {
                        transition.type = parsed
                        transition.typeWritten = true
                    } else {
                        reader.report(
                            .error(
                                .invalidValue,
                                "transition type '\(kind.value)' must be 'external' (the default) or 'internal'\(Suggestion.didYouMean(kind.value, among: ["external", "internal"]))",
                                at: kind.location))
                    }
                case "always": transition.always = reader.bool(value, what: "'always'")?.value ?? false
                case "guard":
                    guard let text = reader.string(value, what: "'guard'") else {
                        transition.isComplete = false
                        continue
                    }
                    transition.guardText = text
                    transition.guardColumnShift = Self.columnOffset(of: 0, in: value)
                    let parsed: Result<GuardExpression, GuardParseError>
                    if let known = parsedGuards[text.value] {
                        parsed = known
                    } else {
                        parsed = Result { () throws(GuardParseError) in try GuardExpression(parsing: text.value) }
                        parsedGuards[text.value] = parsed
                    }
                    switch parsed {
                    case .success(let expression):
                        transition.guardExpression = expression
                    case .failure(let error):
                        let column = text.location.column + Self.columnOffset(of: error.offset, in: value)
                        reader.report(
                            .error(
                                error.isLimit ? .inputLimit : .guardSyntax,
                                error.message + (error.isLimit ? "" : Self.guardGrammar),
                                at: SourceLocation(path: text.location.path, line: text.location.line, column: column)))
                        transition.isComplete = false
                    }
                case "to": transition.to = reader.oneOrMany(value).compactMap { reader.string($0, what: "'to'") }
                case "do": transition.actions = parseActions(value)
                case "set": transition.set += flagValues(value, what: "'set'") { "the value set for '\($0)'" }
                case "raise":
                    transition.raise = reader.oneOrMany(value).compactMap { reader.string($0, what: "a raised event") }
                case "description": transition.description = text(value, what: "the description of a transition")
                case "source": transition.source = sourceRef(value)
                default: break
                }
            }
            if transition.from.isEmpty {
                reader.report(.error(.missingKey, "transition has no 'from'", at: transition.location))
                transition.isComplete = false
            }
            if transition.on.isEmpty && !transition.always && !onGiven {
                reader.report(
                    .error(.missingKey, "transition needs 'on: <event>' or 'always: true'", at: transition.location))
                transition.isComplete = false
            } else if let on = transition.on.first, transition.always {
                reader.report(
                    .error(.invalidValue, "a transition cannot have both 'on' and 'always: true'", at: on.location))
                transition.isComplete = false
            }
            raw.transitions.append(transition)
        }
    }

    /// Columns in a quoted scalar start after the quote.
    private static func columnOffset(of offset: Int, in node: Node) -> Int {
        if case .scalar(let scalar) = node, scalar.style == .singleQuoted || scalar.style == .doubleQuoted {
            return offset + 1
        }
        return offset
    }

    private mutating func parseActions(_ node: Node) -> [RawSpec.ActionRef] {
        var actions: [RawSpec.ActionRef] = []
        for item in reader.oneOrMany(node) {
            if case .mapping = item {
                guard let pairs = reader.mapping(item, what: "an action", allowedKeys: ["notify", "callback"]) else {
                    continue
                }
                for (key, value) in pairs {
                    guard let id = reader.string(value, what: "'\(key.value)'") else { continue }
                    actions.append(key.value == "notify" ? .notify(id) : .callback(id))
                }
            } else if let id = reader.string(item, what: "an action (a callback id or {notify: id})") {
                actions.append(.callback(id))
            }
        }
        return actions
    }

    /// `entry:` and `exit:`: a list of callbacks, `{notify: id}`, `{callback: id}`, `{raise: event}`
    /// and `{set: {flag: value}}`, in order.
    private mutating func parseBlock(_ node: Node, what: String) -> RawSpec.Block {
        var block = RawSpec.Block()
        for item in reader.oneOrMany(node) {
            if case .mapping = item {
                guard
                    let pairs = reader.mapping(
                        item, what: "an item of \(what)", allowedKeys: ["notify", "callback", "raise", "set"])
                else { continue }
                for (key, value) in pairs {
                    switch key.value {
                    case "set": block.set += flagValues(value, what: "'set'") { "the value set for '\($0)'" }
                    case "raise":
                        block.raise += reader.oneOrMany(value).compactMap { reader.string($0, what: "a raised event") }
                    default:
                        guard let id = reader.string(value, what: "'\(key.value)'") else { continue }
                        block.actions.append(key.value == "notify" ? .notify(id) : .callback(id))
                    }
                }
            } else if let id = reader.string(
                item, what: "an item of \(what) (a callback id, {notify: id}, {raise: event} or {set: {flag: value}})")
            {
                block.actions.append(.callback(id))
            }
        }
        return block
    }

    private mutating func parseRelated(_ node: Node) {
        guard let items = reader.sequence(node, what: "'related'") else { return }
        for item in items {
            guard let pairs = reader.mapping(item, what: "a related spec", allowedKeys: ["spec", "description"]) else {
                continue
            }
            var id: Located<String>?
            var description: LocalizedText?
            for (key, value) in pairs {
                switch key.value {
                case "spec": id = reader.string(value, what: "'spec'")
                case "description": description = text(value, what: "the description of a related spec")
                default: break
                }
            }
            guard let id else {
                reader.error(.missingKey, "a related entry needs 'spec: <spec id>'", at: item)
                continue
            }
            raw.related.append(.init(id: id.value, description: description, location: id.location))
        }
    }

    private mutating func parseModelling(_ node: Node) {
        guard let items = reader.sequence(node, what: "'modelling'") else { return }
        for item in items {
            guard let pairs = reader.mapping(item, what: "a modelling note", allowedKeys: Self.modellingKeys) else {
                continue
            }
            var about: [Located<String>] = []
            var note: LocalizedText?
            var source: Located<String>?
            for (key, value) in pairs {
                switch key.value {
                case "about": about = reader.oneOrMany(value).compactMap { reader.string($0, what: "'about'") }
                case "note": note = text(value, what: "a modelling note")
                case "source": source = sourceRef(value)
                default: break
                }
            }
            guard let note else {
                reader.error(.missingKey, "a modelling note needs 'note:' (the choice and why it is made)", at: item)
                continue
            }
            raw.modelling.append(.init(about: about, text: note, source: source, location: reader.location(item)))
        }
    }

    private mutating func parseScenarios(_ node: Node) {
        guard let items = reader.sequence(node, what: "'scenarios'") else { return }
        for item in items {
            guard let pairs = reader.mapping(item, what: "a scenario", allowedKeys: Self.scenarioKeys) else { continue }
            guard let idPair = pairs.first(where: { $0.key.value == "id" }),
                let id = reader.string(idPair.value, what: "the scenario id")
            else {
                reader.error(.missingKey, "scenario has no 'id'", at: item)
                continue
            }
            guard checkElementID(id, kind: "scenario") else { continue }
            var scenario = RawSpec.Scenario(id: id, location: reader.location(item))
            for (key, value) in pairs {
                switch key.value {
                case "title": scenario.title = text(value, what: "the title of scenario '\(id.value)'")
                case "description":
                    scenario.description = text(value, what: "the description of scenario '\(id.value)'")
                case "from": scenario.from = reader.string(value, what: "'from'")
                case "flags": scenario.flags += flagValues(value, what: "'flags'") { "the value of flag '\($0)'" }
                case "events":
                    scenario.events = reader.oneOrMany(value).compactMap { reader.string($0, what: "an event") }
                case "expect":
                    scenario.expectGiven = true
                    if YAMLReader.isNull(value) { continue }
                    guard let expectItems = reader.sequence(value, what: "'expect'") else { continue }
                    for expected in expectItems {
                        if case .mapping = expected {
                            guard
                                let notify = reader.mapping(
                                    expected, what: "an expected item", allowedKeys: ["notify", "callback"])
                            else { continue }
                            for (key, item) in notify {
                                guard let itemID = reader.string(item, what: "'\(key.value)'") else { continue }
                                scenario.expect.append(
                                    (
                                        key.value == "notify" ? .notification(itemID.value) : .callback(itemID.value),
                                        itemID.location
                                    ))
                            }
                        } else if let callback = reader.string(expected, what: "an expected callback") {
                            scenario.expect.append((.callback(callback.value), callback.location))
                        }
                    }
                case "end": scenario.end = reader.oneOrMany(value).compactMap { reader.string($0, what: "'end'") }
                case "source": scenario.source = sourceRef(value)
                default: break
                }
            }
            raw.scenarios.append(scenario)
        }
    }
}
