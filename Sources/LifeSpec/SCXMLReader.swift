import Foundation
import LifecycleEngine

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An SCXML document in the subset LifeSpec runs: the null datamodel plus `In()` conditions;
/// `<state>`, `<parallel>`, `<final>`, `<history>`, `<initial>`, `<transition>` (several events and
/// targets, `type="internal"`), `<onentry>`/`<onexit>`, and as executable content `<raise>` and
/// `<log>` (a callback). Everything else is refused with a located diagnostic by `SCXMLReader`.
public struct SCXMLDocument: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case state, parallel, final
        case history(HistoryDepth)
    }

    /// Executable content, in document order.
    public enum Content: Sendable, Hashable {
        case raise(String)
        /// A `<log>`: the callback it stands for.
        case log(String)
        /// `<log label="notification" expr="'id'"/>`.
        case notify(String)
        /// `<assign location="flag" expr="true|false"/>` (boolean flags of an ECMAScript datamodel).
        case assign(flag: String, value: Bool)
    }

    /// What LifeSpec's own export records in its namespace (`SCXMLReader.lifespecNamespace`), so a
    /// spec survives YAML → SCXML → YAML: names, kinds and posted notifications.
    public struct Metadata: Sendable, Hashable {
        public var title: String?
        public var unhandled: UnhandledEventPolicy?
        public var eventKinds: [String: LifecycleEvent.Kind] = [:]
        /// The events in the order the spec declared them.
        public var eventOrder: [String] = []
        public var callbacks: [LifecycleCallback] = []
        public var notifications: [LifecycleNotification] = []
    }

    public struct State: Sendable, Hashable {
        public var id: String
        /// Position of the parent in `states`; nil at the top level.
        public var parent: Int?
        public var kind: Kind
        /// The `initial` attribute's ids, or the `<initial>` transition's targets.
        public var initial: [String]
        /// What the `<initial>` transition runs.
        public var initialContent: [Content]
        public var entry: [Content]
        public var exit: [Content]
        public var location: SourceLocation
        /// The document gave no id: this one was generated (document order).
        public var idIsGenerated: Bool
    }

    public struct Transition: Sendable, Hashable {
        /// Position of the state it is declared on in `states`.
        public var source: Int
        /// Event descriptors as written (`a`, `a.b`, `a.*`, `*`); empty for an eventless transition.
        public var events: [String]
        public var condition: GuardExpression?
        public var targets: [String]
        public var type: TransitionType
        public var content: [Content]
        public var location: SourceLocation
        /// Further states it is declared on (a spec's `from: [a, b]`, exported once per state).
        public var extraSources: [Int] = []
        /// `lifespec:index`: its position in the exported spec.
        public var specIndex: Int?
    }

    public var path: String
    /// The `<scxml name>`, if any.
    public var name: String?
    /// The `<scxml initial>` ids, or the first top-level state.
    public var initial: [String]
    /// Every state in document order (parents before children).
    public var states: [State]
    /// Transitions in document order (a history state's default included, an `<initial>`'s not).
    public var transitions: [Transition]
    public var rootLocation: SourceLocation
    /// Boolean `<data>` of an ECMAScript datamodel: LifeSpec's flags, with their defaults.
    public var flags: [LifecycleFlag] = []
    public var metadata = Metadata()

    /// Events named by transitions (descriptors without `.*`, `*` excluded) and `<raise>`, in first-use order.
    public var eventNames: [String] {
        var seen: Set<String> = []
        var result: [String] = []
        func add(_ name: String) { if seen.insert(name).inserted { result.append(name) } }
        // The exported spec's own order first; then transitions' events, then raised ones.
        for name in metadata.eventOrder { add(name) }
        for transition in transitions {
            for descriptor in transition.events {
                guard let name = Self.eventName(descriptor) else { continue }
                add(name)
            }
        }
        for name in raisedEvents { add(name) }
        return result
    }

    /// Events `<raise>` queues, in first-use order.
    public var raisedEvents: [String] {
        names { if case .raise(let name) = $0 { name } else { nil } }
    }

    /// Callbacks (`<log>`), in first-use order.
    public var callbackNames: [String] {
        names { if case .log(let name) = $0 { name } else { nil } }
    }

    /// Notifications (`<log label="notification">`) and the ones the metadata declares, in first-use order.
    public var notificationNames: [String] {
        names(after: metadata.notifications.map(\.id)) { if case .notify(let name) = $0 { name } else { nil } }
    }

    /// The names `pick` finds in the executable content, each once: `first`, then in document order
    /// (each state's entry, initial and exit content, then the transitions').
    private func names(after first: [String] = [], _ pick: (Content) -> String?) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for name in first where seen.insert(name).inserted { result.append(name) }
        let blocks = states.flatMap { [$0.entry, $0.initialContent, $0.exit] } + transitions.map(\.content)
        for block in blocks {
            for item in block { if let name = pick(item), seen.insert(name).inserted { result.append(name) } }
        }
        return result
    }

    /// Callbacks: the metadata's, then every other `<log>` callback.
    var allCallbacks: [LifecycleCallback] {
        var result = metadata.callbacks
        var seen = Set(result.map(\.id))
        for name in callbackNames where seen.insert(name).inserted { result.append(LifecycleCallback(id: name)) }
        return result
    }

    /// The event a descriptor names: `a.*` and `a.` name `a`; `*` names none.
    public static func eventName(_ descriptor: String) -> String? {
        if descriptor == "*" { return nil }
        if descriptor.hasSuffix(".*") { return String(descriptor.dropLast(2)) }
        if descriptor.hasSuffix(".") { return String(descriptor.dropLast()) }
        return descriptor
    }

    /// The engine's machine for this chart. Unhandled events are ignored, as in SCXML.
    /// `extraEvents` declares events a caller will send that no transition names (an SCXML engine
    /// accepts any event name; LifeSpec's machines number the ones they know).
    public func machine(id: String? = nil, extraEvents: [String] = []) throws(MachineError) -> Machine {
        var children = [[String]](repeating: [], count: states.count)
        for state in states { if let parent = state.parent { children[parent].append(state.id) } }
        func block(_ content: [Content]) -> ActionBlock {
            var block = ActionBlock()
            for item in content {
                switch item {
                case .raise(let event): block.raises.append(event)
                case .log(let name): block.actions.append(.callback(name))
                case .notify(let name): block.actions.append(.notify(name))
                case .assign(let flag, let value): block.assignments.append(FlagAssignment(flag: flag, value: value))
                }
            }
            return block
        }
        var nodes: [StateNode] = []
        nodes.reserveCapacity(states.count)
        for (offset, state) in states.enumerated() {
            let parentID = state.parent.map { states[$0].id }
            switch state.kind {
            case .state:
                var initial = state.initial
                if initial.isEmpty, !children[offset].isEmpty {
                    // SCXML: the first child state in document order (not a history pseudo-state).
                    if let first = states.indices.first(where: { states[$0].parent == offset && !states[$0].isHistory })
                    {
                        initial = [states[first].id]
                    }
                }
                nodes.append(
                    StateNode(
                        id: state.id, parent: parentID, children: children[offset], initial: initial.first,
                        entry: block(state.entry), exit: block(state.exit),
                        initialTargets: children[offset].isEmpty ? [] : initial,
                        initialActions: block(state.initialContent)))
            case .parallel:
                nodes.append(
                    StateNode(
                        id: state.id, parent: parentID, children: children[offset], isParallel: true,
                        entry: block(state.entry), exit: block(state.exit)))
            case .final:
                nodes.append(
                    StateNode(
                        id: state.id, parent: parentID, isFinal: true, entry: block(state.entry),
                        exit: block(state.exit)))
            case .history(let depth):
                nodes.append(StateNode(id: state.id, parent: parentID, history: depth))
            }
        }
        let raised = Set(raisedEvents)
        var events: [LifecycleEvent] = []
        var seen: Set<String> = []
        for name in eventNames + extraEvents where seen.insert(name).inserted {
            events.append(
                LifecycleEvent(
                    id: name, kind: metadata.eventKinds[name] ?? (raised.contains(name) ? .internal : .system)))
        }
        let machineTransitions = transitions.map { transition in
            let content = block(transition.content)
            return LifecycleEngine.Transition(
                sources: ([transition.source] + transition.extraSources).map { states[$0].id },
                events: transition.events, guardExpression: transition.condition,
                targets: transition.targets, type: transition.type, actions: content.actions, raises: content.raises
            )
        }
        return try Machine(
            id: id ?? name ?? "scxml", states: nodes, initial: initial.first ?? "", initialTargets: initial,
            events: events,
            flags: flags, callbacks: allCallbacks,
            notifications: notificationNames.map { name in
                metadata.notifications.first { $0.id == name } ?? LifecycleNotification(id: name)
            },
            transitions: machineTransitions, unhandledEvents: metadata.unhandled ?? .ignore
        )
    }
}

extension SCXMLDocument.State {
    public var isHistory: Bool { if case .history = kind { true } else { false } }
}

/// Reads SCXML (Foundation's `XMLParser`) into an `SCXMLDocument`, with a located diagnostic for
/// every construct outside the supported subset and every broken reference.
public enum SCXMLReader {
    public static let namespace = "http://www.w3.org/2005/07/scxml"
    /// LifeSpec's own elements and attributes in an exported chart (other engines ignore them).
    public static let lifespecNamespace = "urn:lifespec:scxml:1"

    public static func read(path: String, limits: LoaderLimits = LoaderLimits()) -> (
        document: SCXMLDocument?, diagnostics: [Diagnostic]
    ) {
        let start = SourceLocation(path: path, line: 1, column: 1)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        guard exists, !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
            let reason = exists ? (isDirectory.boolValue ? "is a directory" : "cannot be read") : "does not exist"
            return (nil, [.error(.unreadableFile, "spec file \(reason)", at: start)])
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: limits.maxFileBytes + 1)) ?? Data()
        guard data.count <= limits.maxFileBytes else {
            return (nil, [.error(.inputLimit, "spec file is larger than \(limits.maxFileBytes) bytes", at: start)])
        }
        return read(data: data, path: path, limits: limits)
    }

    public static func read(data: Data, path: String, limits: LoaderLimits = LoaderLimits()) -> (
        document: SCXMLDocument?, diagnostics: [Diagnostic]
    ) {
        let start = SourceLocation(path: path, line: 1, column: 1)
        var bytes = [UInt8](data)
        // From the raw bytes: the parser decodes by the file's own declarations, not as we read it.
        if let problem = XMLInputPolicy.problem(in: bytes, path: path) { return (nil, [problem]) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return (nil, [.error(.unreadableFile, "SCXML file is not valid UTF-8", at: start)])
        }
        let tags = TagScanner.scan(text, path: path)
        if let flood = tags.flood { return (nil, [.error(.inputLimit, "SCXML: \(flood.message)", at: flood.location)]) }
        let builder = Builder(path: path, tagLocations: tags.starts, limits: limits)
        let parser = XMLParser(data: Data(text.utf8))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if !parsed || builder.xmlError != nil {
            let location =
                builder.xmlError?.location
                ?? SourceLocation(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
            let reason = builder.xmlError?.message ?? parser.parserError.map { xmlErrorText($0) } ?? "malformed XML"
            var diagnostics = builder.diagnostics
            diagnostics.append(.error(.xmlSyntax, reason, at: location))
            return (nil, diagnostics.sorted())
        }
        return builder.finish()
    }

    private static func xmlErrorText(_ error: Error) -> String {
        let nsError = error as NSError
        // libxml2's error numbers, for the mistakes people make by hand (Foundation on Linux gives no text).
        let known: [Int: String] = [
            4: "the document is empty", 5: "the document ends before every element is closed",
            23: "a '&' that starts no entity (write &amp;)", 26: "an undeclared entity",
            38: "an attribute value without quotes or with '<'",
            39: "an attribute without a value", 41: "an attribute without a value", 65: "an attribute without a value",
            68: "a name was expected", 73: "'>' was expected", 76: "a closing tag does not match the element it closes",
            5000: "the document ends before every element is closed",
        ]
        if let text = known[nsError.code] { return "XML: \(text)" }
        if let message = nsError.userInfo[NSLocalizedDescriptionKey] as? String, !message.isEmpty {
            return "XML: " + message.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return "XML: malformed document (parser error \(nsError.code))"
    }

    /// Where each start tag begins (`<`), in document order: libxml2 reports where a tag *ends*,
    /// which for a tag written over several lines is not where a reader looks.
    struct TagScanner {
        var starts: [SourceLocation] = []
        /// The first tag with more attributes than `maximumAttributes`, or where the document's
        /// namespace declarations pass `maximumNamespaceDeclarations`: libxml2 takes time
        /// quadratic in them (100,000 attributes on one element took 9 s).
        var flood: (message: String, location: SourceLocation)?

        /// SCXML's elements take a handful; LifeSpec's own export writes at most eight.
        static let maximumAttributes = 64
        static let maximumNamespaceDeclarations = 256

        static func scan(_ text: String, path: String) -> TagScanner {
            var result = TagScanner()
            var namespaces = 0
            let scalars = Array(text.unicodeScalars)
            var index = 0
            var line = 1
            var column = 1
            func advance() {
                if scalars[index] == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                index += 1
            }
            func starts(with literal: String) -> Bool {
                var offset = index
                for scalar in literal.unicodeScalars {
                    guard offset < scalars.count, scalars[offset] == scalar else { return false }
                    offset += 1
                }
                return true
            }
            func skip(past terminator: String) {
                while index < scalars.count, !starts(with: terminator) { advance() }
                for _ in terminator.unicodeScalars where index < scalars.count { advance() }
            }
            while index < scalars.count {
                guard scalars[index] == "<" else {
                    advance()
                    continue
                }
                if starts(with: "<!--") {
                    skip(past: "-->")
                    continue
                }
                if starts(with: "<![CDATA[") {
                    skip(past: "]]>")
                    continue
                }
                if starts(with: "<?") {
                    skip(past: "?>")
                    continue
                }
                if starts(with: "<!") {
                    skip(past: ">")
                    continue
                }
                let isStart = index + 1 < scalars.count && scalars[index + 1] != "/"
                let tag = SourceLocation(path: path, line: line, column: column)
                if isStart { result.starts.append(tag) }
                // To the tag's end, across quoted attribute values (which may hold `>`).
                var quote: Unicode.Scalar?
                var attributes = 0
                while index < scalars.count {
                    let scalar = scalars[index]
                    if quote == nil, scalar.properties.isWhitespace,
                        starts(with: " xmlns") || starts(with: "\txmlns")
                            || starts(with: "\nxmlns") || starts(with: "\rxmlns")
                    {
                        namespaces += 1
                    }
                    advance()
                    if let open = quote {
                        if scalar == open { quote = nil }
                    } else if scalar == "\"" || scalar == "'" {
                        quote = scalar
                    } else if scalar == "=" {
                        attributes += 1
                    } else if scalar == ">" {
                        break
                    }
                }
                if result.flood == nil, attributes > maximumAttributes {
                    result.flood = ("an element with more than \(maximumAttributes) attributes", tag)
                } else if result.flood == nil, namespaces > maximumNamespaceDeclarations {
                    result.flood = ("more than \(maximumNamespaceDeclarations) namespace declarations", tag)
                }
                if result.flood != nil { return result }
            }
            return result
        }
    }

    /// The SAX delegate: builds the document as elements open and close.
    final class Builder: NSObject, XMLParserDelegate {
        let path: String
        let tagLocations: [SourceLocation]
        let limits: LoaderLimits
        var diagnostics: [Diagnostic] = []
        var xmlError: (message: String, location: SourceLocation)?

        var name: String?
        var rootInitial: [String] = []
        var rootLocation: SourceLocation
        var rootSeen = false
        var datamodelName = "null"
        var flags: [LifecycleFlag] = []
        var metadata = SCXMLDocument.Metadata()
        /// Every `<assign>` location, checked against the flags once all are known.
        var assignments: [(flag: String, location: SourceLocation)] = []

        /// LifeSpec's own top-level elements (`lifespec export` writes them).
        private func readMetadata(_ element: String, attributes: [String: String], at location: SourceLocation) {
            func value(_ key: String) -> String? { attributes[key] ?? attributes["lifespec:" + key] }
            switch element {
            case "spec":
                metadata.title = value("title")
                if let unhandled = value("unhandled") {
                    if let policy = UnhandledEventPolicy(rawValue: unhandled) {
                        metadata.unhandled = policy
                    } else {
                        error(.invalidValue, "unhandled=\"\(unhandled)\" is 'error' or 'ignore'", at: location)
                    }
                }
            case "event":
                guard let id = value("id"), let kind = value("kind").flatMap(LifecycleEvent.Kind.init(rawValue:)) else {
                    error(
                        .invalidValue, "<lifespec:event> needs an 'id' and a 'kind' (user, system or internal)",
                        at: location)
                    return
                }
                if metadata.eventKinds.updateValue(kind, forKey: id) == nil { metadata.eventOrder.append(id) }
            case "callback":
                guard let id = value("id") else {
                    error(.missingKey, "<lifespec:callback> needs an 'id'", at: location)
                    return
                }
                var posts: PostedNotification?
                if let notification = value("posts") {
                    posts = PostedNotification(
                        notification: notification,
                        order: value("order").flatMap(PostedNotification.Order.init(rawValue:)) ?? .after)
                }
                metadata.callbacks.append(
                    LifecycleCallback(id: id, swiftName: value("swift"), objcName: value("objc"), posts: posts))
            case "notification":
                guard let id = value("id") else {
                    error(.missingKey, "<lifespec:notification> needs an 'id'", at: location)
                    return
                }
                metadata.notifications.append(
                    LifecycleNotification(id: id, swiftName: value("swift"), objcName: value("objc")))
            default:
                error(.unsupportedSCXML, "<lifespec:\(element)> is not an element LifeSpec writes", at: location)
            }
        }
        var states: [SCXMLDocument.State] = []
        var transitions: [SCXMLDocument.Transition] = []
        /// Per transition: its `cond` text and location, resolved once every state is known.
        var conditions: [Int: (text: String, location: SourceLocation)] = [:]
        private var tagCount = 0
        private var idLocations: [String: SourceLocation] = [:]

        /// What an open element is, so its children know where they go.
        enum Frame {
            case root
            case state(Int)
            case initial(Int)
            /// Executable content of a state's entry (`true`) or exit.
            case handler(state: Int, isEntry: Bool)
            case transition(Int)
            /// A transition inside `<initial>`.
            case initialTransition(Int)
            /// An element already refused: its subtree is skipped.
            case skipped
            /// `<raise>` and `<log>`: no children allowed.
            case leaf
            /// `<datamodel>` at the top: boolean `<data>` only.
            case datamodel
        }
        private var stack: [Frame] = []

        init(path: String, tagLocations: [SourceLocation], limits: LoaderLimits) {
            self.path = path
            self.tagLocations = tagLocations
            self.limits = limits
            rootLocation = SourceLocation(path: path, line: 1, column: 1)
        }

        private func location(_ parser: XMLParser) -> SourceLocation {
            if tagCount - 1 < tagLocations.count { return tagLocations[tagCount - 1] }
            return SourceLocation(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
        }

        private func error(_ code: DiagnosticCode, _ message: String, at location: SourceLocation) {
            diagnostics.append(.error(code, message, at: location))
        }

        private func unsupported(_ element: String, _ why: String, at location: SourceLocation) {
            error(.unsupportedSCXML, "<\(element)> is not supported: \(why)", at: location)
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String]
        ) {
            tagCount += 1
            let here = location(parser)
            // The policy YAML strings get (LS015): ids, titles, names and conds reach every output.
            var attributes = attributes
            for (key, value) in attributes.sorted(by: { $0.key < $1.key }) where TextPolicy.needsCleaning(value) {
                let (clean, removed) = TextPolicy.clean(value)
                attributes[key] = clean
                diagnostics.append(
                    .warning(
                        .controlCharacters,
                        "<\(elementName) \(key)> contains \(removed.joined(separator: ", ")); generated files get the text without them",
                        at: here))
            }
            if stack.count > limits.maxDepth {
                if xmlError == nil { xmlError = ("SCXML nesting deeper than \(limits.maxDepth) levels", here) }
                parser.abortParsing()
                return
            }
            let parent = stack.last
            if case .skipped = parent {
                stack.append(.skipped)
                return
            }
            if case .leaf = parent {
                unsupported(elementName, "<raise> and <log> have no child elements", at: here)
                stack.append(.skipped)
                return
            }
            if namespaceURI == SCXMLReader.lifespecNamespace, case .root? = parent {
                readMetadata(elementName, attributes: attributes, at: here)
                stack.append(.leaf)
                return
            }
            guard namespaceURI == SCXMLReader.namespace else {
                let space = namespaceURI.flatMap { $0.isEmpty ? nil : "namespace '\($0)'" } ?? "no namespace"
                if parent == nil {
                    error(
                        .unsupportedSCXML,
                        "the root element <\(elementName)> is in \(space); an SCXML document is <scxml xmlns=\"\(SCXMLReader.namespace)\">",
                        at: here)
                } else {
                    unsupported(elementName, "it is in \(space), not SCXML's", at: here)
                }
                stack.append(.skipped)
                return
            }
            let element = elementName
            guard let parent else {
                guard element == "scxml" else {
                    error(
                        .unsupportedSCXML, "the root element is <\(element)>; an SCXML document starts with <scxml>",
                        at: here)
                    stack.append(.skipped)
                    return
                }
                rootSeen = true
                rootLocation = here
                check(
                    attributes, allowed: ["initial", "name", "version", "datamodel", "binding", "xmlns"],
                    element: element, at: here)
                datamodelName = attributes["datamodel"] ?? "null"
                if let datamodel = attributes["datamodel"], !["null", "ecmascript"].contains(datamodel) {
                    unsupported(
                        "scxml",
                        "datamodel '\(datamodel)' (LifeSpec runs SCXML with the null datamodel; 'ecmascript' is accepted when nothing uses it)",
                        at: here)
                }
                if let binding = attributes["binding"], binding != "early" {
                    unsupported(
                        "scxml", "binding '\(binding)' (only the default, early binding, without data)", at: here)
                }
                name = attributes["name"]
                rootInitial = tokens(attributes["initial"])
                stack.append(.root)
                return
            }
            switch (parent, element) {
            case (.root, "datamodel"):
                check(attributes, allowed: [], element: element, at: here)
                if datamodelName != "ecmascript" {
                    unsupported(
                        element,
                        "data needs datamodel=\"ecmascript\" on <scxml> (LifeSpec reads boolean <data> as flags)",
                        at: here)
                    stack.append(.skipped)
                    return
                }
                stack.append(.datamodel)
            case (.datamodel, "data"):
                check(attributes, allowed: ["id", "expr"], element: element, at: here)
                guard let id = attributes["id"], SCXMLWriter.isECMAScriptIdentifier(id) else {
                    error(.invalidValue, "<data> needs an 'id' that is an ECMAScript identifier", at: here)
                    stack.append(.leaf)
                    return
                }
                switch attributes["expr"]?.trimmingCharacters(in: .whitespaces) {
                case "true": flags.append(LifecycleFlag(id: id, defaultValue: true))
                case "false", nil: flags.append(LifecycleFlag(id: id, defaultValue: false))
                case let other?:
                    unsupported(
                        element, "expr=\"\(other)\": LifeSpec's data are boolean flags (expr=\"true\" or \"false\")",
                        at: here)
                }
                stack.append(.leaf)
            case (.handler, "assign"), (.transition, "assign"), (.initialTransition, "assign"):
                check(attributes, allowed: ["location", "expr"], element: element, at: here)
                let value: Bool?
                switch attributes["expr"]?.trimmingCharacters(in: .whitespaces) {
                case "true": value = true
                case "false": value = false
                default: value = nil
                }
                if let location = attributes["location"], let value {
                    append(.assign(flag: location, value: value), to: parent)
                    assignments.append((location, here))
                } else {
                    unsupported(
                        element,
                        "only <assign location=\"flag\" expr=\"true|false\"/> sets one of LifeSpec's boolean flags",
                        at: here)
                }
                stack.append(.leaf)
            case (.root, "state"), (.root, "parallel"), (.root, "final"),
                (.state, "state"), (.state, "parallel"), (.state, "final"), (.state, "history"):
                var parentIndex: Int?
                if case .state(let index) = parent {
                    parentIndex = index
                    if case .final = states[index].kind {
                        unsupported(element, "a <final> state has no child states", at: here)
                        stack.append(.skipped)
                        return
                    }
                    if case .history = states[index].kind {
                        unsupported(element, "a <history> state holds only its default <transition>", at: here)
                        stack.append(.skipped)
                        return
                    }
                    if element == "history", case .parallel = states[index].kind {}  // allowed by SCXML
                }
                if case .root = parent, element == "history" {
                    unsupported(element, "a <history> state belongs inside a <state> or <parallel>", at: here)
                    stack.append(.skipped)
                    return
                }
                let kind: SCXMLDocument.Kind
                switch element {
                case "parallel":
                    kind = .parallel
                    check(attributes, allowed: ["id"], element: element, at: here)
                case "final":
                    kind = .final
                    check(attributes, allowed: ["id"], element: element, at: here)
                case "history":
                    check(attributes, allowed: ["id", "type"], element: element, at: here)
                    switch attributes["type"] ?? "shallow" {
                    case "shallow": kind = .history(.shallow)
                    case "deep": kind = .history(.deep)
                    case let other:
                        error(.invalidValue, "<history type='\(other)'>: the type is 'shallow' or 'deep'", at: here)
                        kind = .history(.shallow)
                    }
                default:
                    kind = .state
                    check(attributes, allowed: ["id", "initial"], element: element, at: here)
                }
                if states.count >= limits.maxStates {
                    if xmlError == nil {
                        xmlError = ("the chart has more than \(limits.maxStates) states; split it", here)
                    }
                    parser.abortParsing()
                    return
                }
                var id = attributes["id"] ?? ""
                let generated = id.isEmpty
                if !generated {
                    if let first = idLocations[id] {
                        diagnostics.append(
                            .error(
                                .duplicateID, "duplicate state id '\(id)'", at: here,
                                notes: ["first declared at \(first)"]))
                    } else {
                        idLocations[id] = here
                    }
                } else {
                    id = ""  // named in `finish`, once every written id is known
                }
                states.append(
                    SCXMLDocument.State(
                        id: id, parent: parentIndex, kind: kind, initial: tokens(attributes["initial"]),
                        initialContent: [],
                        entry: [], exit: [], location: here, idIsGenerated: generated
                    ))
                if !tokens(attributes["initial"]).isEmpty, element != "state" {
                    unsupported(element, "the 'initial' attribute belongs to <state>", at: here)
                }
                stack.append(.state(states.count - 1))
            case (.state(let index), "initial"):
                guard case .state = states[index].kind else {
                    unsupported(element, "<initial> belongs inside a compound <state>", at: here)
                    stack.append(.skipped)
                    return
                }
                check(attributes, allowed: ["id"], element: element, at: here)
                if !states[index].initial.isEmpty {
                    error(
                        .invalidValue,
                        "state '\(states[index].id)' has both an 'initial' attribute and an <initial> element", at: here
                    )
                }
                stack.append(.initial(index))
            case (.state(let index), "transition"):
                if case .final = states[index].kind {
                    unsupported(element, "a <final> state has no transitions", at: here)
                    stack.append(.skipped)
                    return
                }
                stack.append(.transition(addTransition(source: index, attributes: attributes, at: here)))
            case (.initial(let index), "transition"):
                if !attributes.keys.filter({ $0 == "event" || $0 == "cond" }).isEmpty {
                    unsupported("transition", "the transition of an <initial> has no event or condition", at: here)
                }
                check(attributes, allowed: ["target", "type"], element: element, at: here)
                let targets = tokens(attributes["target"])
                if targets.isEmpty { error(.missingKey, "the transition of an <initial> needs a target", at: here) }
                if !states[index].initial.isEmpty {
                    error(.invalidValue, "an <initial> holds one <transition>", at: here)
                } else {
                    states[index].initial = targets
                }
                stack.append(.initialTransition(index))
            case (.state(let index), "onentry"), (.state(let index), "onexit"):
                if case .history = states[index].kind {
                    unsupported(element, "a <history> state has no entry or exit actions", at: here)
                    stack.append(.skipped)
                    return
                }
                check(attributes, allowed: [], element: element, at: here)
                stack.append(.handler(state: index, isEntry: element == "onentry"))
            case (.handler, "raise"), (.transition, "raise"), (.initialTransition, "raise"):
                check(attributes, allowed: ["event"], element: element, at: here)
                guard let event = attributes["event"], !event.isEmpty else {
                    error(.missingKey, "<raise> needs an 'event'", at: here)
                    stack.append(.leaf)
                    return
                }
                if event.contains(where: \.isWhitespace) || event == "*" || event.hasSuffix(".") {
                    error(
                        .invalidValue, "<raise event='\(event)'>: an event name has no spaces, '*' or trailing '.'",
                        at: here)
                }
                append(.raise(event), to: parent)
                stack.append(.leaf)
            case (.handler, "log"), (.transition, "log"), (.initialTransition, "log"):
                check(attributes, allowed: ["label", "expr"], element: element, at: here)
                // A notification an exported callback posts: the callback's metadata emits it.
                let implied = attributes.contains { $0.key.hasSuffix(":posted") && $0.value == "true" }
                if let name = logName(attributes, at: here), !implied {
                    append(attributes["label"] == "notification" ? .notify(name) : .log(name), to: parent)
                }
                stack.append(.leaf)
            default:
                unsupported(element, reason(for: element, in: parent), at: here)
                stack.append(.skipped)
            }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            let frame = stack.popLast()
            if case .initial(let index) = frame, states[index].initial.isEmpty {
                error(.missingKey, "<initial> needs a <transition> with a target", at: states[index].location)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard let frame = stack.last, !string.allSatisfy(\.isWhitespace) else { return }
            switch frame {
            case .skipped: return
            default:
                // Text is the content of <script>, <data>, <content> — none of which reach here.
                error(
                    .unsupportedSCXML,
                    "text content is not supported here: '\(string.trimmingCharacters(in: .whitespacesAndNewlines).prefix(40))'",
                    at: SourceLocation(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
                )
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if xmlError == nil {
                xmlError = (
                    SCXMLReader.xmlErrorText(parseError),
                    SourceLocation(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
                )
            }
        }

        private func reason(for element: String, in parent: Frame) -> String {
            switch element {
            case "script": return "LifeSpec runs SCXML with the null datamodel (no scripts)"
            case "assign", "data", "datamodel":
                return
                    "LifeSpec reads only boolean flags: a top-level <datamodel> of <data id expr=\"true|false\"/> (datamodel=\"ecmascript\") and <assign location=\"flag\" expr=\"true|false\"/> in executable content"
            case "invoke", "finalize": return "invoking other services is outside LifeSpec's subset"
            case "send": return "<send> is outside LifeSpec's subset (use <raise> for an internal event)"
            case "cancel": return "there are no delayed <send>s to cancel"
            case "if", "elseif", "else", "foreach":
                return "conditional and looping executable content needs a datamodel"
            case "donedata", "content", "param": return "event data needs a datamodel"
            case "raise", "log": return "executable content belongs in <onentry>, <onexit> or a <transition>"
            case "onentry", "onexit", "transition": return "it belongs inside a <state>, <parallel> or <final>"
            case "state", "parallel", "final", "history", "initial":
                return "it cannot appear inside this element"
            default: return "it is not an SCXML element LifeSpec knows"
            }
        }

        private func check(
            _ attributes: [String: String], allowed: Set<String>, element: String, at location: SourceLocation
        ) {
            for key in attributes.keys.sorted()
            where !allowed.contains(key) && !key.hasPrefix("xmlns") && !key.hasPrefix("lifespec:") {
                let what: String
                switch key {
                case "expr", "targetexpr", "eventexpr", "delay", "delayexpr", "idlocation", "namelist":
                    what = "it needs a datamodel or delayed events"
                default: what = "not part of LifeSpec's subset"
                }
                error(.unsupportedSCXML, "attribute '\(key)' of <\(element)> is not supported: \(what)", at: location)
            }
        }

        private func addTransition(source: Int, attributes: [String: String], at location: SourceLocation) -> Int {
            check(attributes, allowed: ["event", "cond", "target", "type"], element: "transition", at: location)
            var type = TransitionType.external
            switch attributes["type"] ?? "external" {
            case "external": break
            case "internal": type = .internal
            case let other:
                error(.invalidValue, "<transition type='\(other)'>: the type is 'external' or 'internal'", at: location)
            }
            let events = tokens(attributes["event"])
            if attributes["event"] != nil, events.isEmpty {
                error(
                    .invalidValue,
                    "<transition event=''> names no event (leave 'event' out for an eventless transition)", at: location
                )
            }
            if case .history = states[source].kind {
                if !events.isEmpty || attributes["cond"] != nil {
                    error(
                        .invalidValue, "a <history> state's default transition has no event or condition", at: location)
                }
                if tokens(attributes["target"]).isEmpty {
                    error(.missingKey, "a <history> state's default transition needs a target", at: location)
                }
                if transitions.contains(where: { $0.source == source }) {
                    error(.invalidValue, "a <history> state has one default transition", at: location)
                }
            }
            transitions.append(
                SCXMLDocument.Transition(
                    source: source, events: events, condition: nil, targets: tokens(attributes["target"]), type: type,
                    content: [], location: location, specIndex: attributes["lifespec:index"].flatMap { Int($0) }
                ))
            if let cond = attributes["cond"] { conditions[transitions.count - 1] = (cond, location) }
            return transitions.count - 1
        }

        private func append(_ content: SCXMLDocument.Content, to frame: Frame?) {
            switch frame {
            case .handler(let state, let isEntry)?:
                if isEntry { states[state].entry.append(content) } else { states[state].exit.append(content) }
            case .transition(let index)?: transitions[index].content.append(content)
            case .initialTransition(let state)?: states[state].initialContent.append(content)
            default: break
            }
        }

        /// A `<log>`'s callback: the string literal of `expr` (`'name'`), else the label. Other
        /// expressions need a datamodel.
        private func logName(_ attributes: [String: String], at location: SourceLocation) -> String? {
            if let expr = attributes["expr"]?.trimmingCharacters(in: .whitespaces), !expr.isEmpty {
                if let literal = stringLiteral(expr) { return literal }
                error(
                    .unsupportedSCXML,
                    "<log expr=\"\(expr)\"> is not supported: only a string literal ('name') names a callback without a datamodel",
                    at: location)
                return nil
            }
            if let label = attributes["label"], !label.isEmpty { return label }
            error(
                .missingKey, "<log> needs a 'label' or a string-literal 'expr' (it stands for a callback of that name)",
                at: location)
            return nil
        }

        private func stringLiteral(_ text: String) -> String? {
            guard text.count >= 2, let quote = text.first, quote == "'" || quote == "\"", text.last == quote else {
                return nil
            }
            let body = text.dropFirst().dropLast()
            guard !body.contains(quote), !body.contains("\\") else { return nil }
            return String(body)
        }

        private func tokens(_ text: String?) -> [String] {
            text.map { $0.split(whereSeparator: \.isWhitespace).map(String.init) } ?? []
        }

        /// Names generated ids, resolves references and conditions, checks what the engine needs.
        func finish() -> (document: SCXMLDocument?, diagnostics: [Diagnostic]) {
            guard rootSeen else {
                if diagnostics.hasErrors { return (nil, diagnostics.sorted()) }
                diagnostics.append(
                    .error(
                        .unsupportedSCXML, "no <scxml> root element", at: SourceLocation(path: path, line: 1, column: 1)
                    ))
                return (nil, diagnostics.sorted())
            }
            // Generated ids: document order, skipping any id the document writes.
            var used = Set(idLocations.keys)
            var counter = 0
            for index in states.indices where states[index].idIsGenerated {
                let prefix: String
                switch states[index].kind {
                case .state: prefix = "state"
                case .parallel: prefix = "parallel"
                case .final: prefix = "final"
                case .history: prefix = "history"
                }
                var candidate: String
                repeat {
                    counter += 1
                    candidate = "_\(prefix)\(counter)"
                } while used.contains(candidate)
                used.insert(candidate)
                states[index].id = candidate
                idLocations[candidate] = states[index].location
            }
            let index = Dictionary(states.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
                var current = states[state].parent
                while let parent = current {
                    if parent == ancestor { return true }
                    current = states[parent].parent
                }
                return false
            }
            // Built once, on the first unknown id: thousands of them must not cost thousands of scans.
            var suggestions: Suggestion.Index?
            func known(_ id: String, at location: SourceLocation, _ context: String) -> Int? {
                if let position = index[id] { return position }
                if suggestions == nil { suggestions = Suggestion.Index(states.map(\.id)) }
                let suggestion = suggestions?.closest(to: id).map { "; did you mean '\($0)'?" } ?? ""
                diagnostics.append(
                    .error(.unknownState, "\(context) '\(id)' is not a state of this chart\(suggestion)", at: location))
                return nil
            }
            if states.isEmpty {
                diagnostics.append(.error(.missingKey, "<scxml> holds no state", at: rootLocation))
                return (nil, diagnostics.sorted())
            }
            if rootInitial.isEmpty {
                rootInitial = states.first.map { [$0.id] } ?? []
            } else {
                for id in rootInitial { _ = known(id, at: rootLocation, "initial state") }
            }
            for (position, state) in states.enumerated() {
                let children = states.indices.filter { states[$0].parent == position }
                switch state.kind {
                case .state:
                    for id in state.initial {
                        guard let target = known(id, at: state.location, "initial state") else { continue }
                        if !isDescendant(target, of: position) {
                            diagnostics.append(
                                .error(
                                    .compoundWithoutInitial, "initial state '\(id)' of '\(state.id)' is not inside it",
                                    at: state.location))
                        }
                    }
                    if !state.initial.isEmpty, children.allSatisfy({ states[$0].isHistory }) {
                        diagnostics.append(
                            .error(
                                .compoundWithoutInitial, "state '\(state.id)' has an initial state but no child states",
                                at: state.location))
                    }
                case .parallel:
                    if children.allSatisfy({ states[$0].isHistory }) {
                        diagnostics.append(
                            .error(.invalidValue, "<parallel> '\(state.id)' has no regions", at: state.location))
                    }
                case .history:
                    if !transitions.contains(where: { $0.source == position }) {
                        diagnostics.append(
                            .error(
                                .missingKey,
                                "<history> '\(state.id)' needs a default <transition> to states inside its parent",
                                at: state.location))
                    }
                case .final: break
                }
            }
            for (position, transition) in transitions.enumerated() {
                for id in transition.targets {
                    guard let target = known(id, at: transition.location, "target") else { continue }
                    if case .history = states[transition.source].kind, let parent = states[transition.source].parent,
                        !isDescendant(target, of: parent)
                    {
                        diagnostics.append(
                            .error(
                                .invalidValue,
                                "the default of <history> '\(states[transition.source].id)' targets '\(id)', which is not inside its parent",
                                at: transition.location))
                    }
                }
                if let condition = conditions[position] {
                    do {
                        let expression = try SCXMLCondition.parse(condition.text, flags: Set(flags.map(\.id)))
                        for id in expression.states { _ = known(id, at: condition.location, "In() of") }
                        transitions[position].condition = expression
                    } catch {
                        // A hostile condition can be megabytes long: quote its start.
                        let shown = condition.text.count > 80 ? condition.text.prefix(80) + "…" : condition.text
                        diagnostics.append(
                            .error(
                                error.isLimit ? .inputLimit : .unsupportedSCXML,
                                "cond=\"\(shown)\" is not supported: \(error.message)", at: condition.location))
                    }
                }
            }
            // An exported spec's transitions in its own order, one per `lifespec:index` (several sources).
            if !transitions.isEmpty, transitions.allSatisfy({ $0.specIndex != nil }) {
                var merged: [SCXMLDocument.Transition] = []
                var conditionsByIndex: [Int: (text: String, location: SourceLocation)] = [:]
                for (position, transition) in transitions.enumerated().sorted(by: {
                    $0.element.specIndex! < $1.element.specIndex!
                }) {
                    if let last = merged.last, last.specIndex == transition.specIndex {
                        merged[merged.count - 1].extraSources.append(transition.source)
                    } else {
                        if let condition = conditions[position] { conditionsByIndex[merged.count] = condition }
                        merged.append(transition)
                    }
                }
                transitions = merged
                conditions = conditionsByIndex
            }
            let flagIDs = Set(flags.map(\.id))
            for (flag, location) in assignments where !flagIDs.contains(flag) {
                diagnostics.append(
                    .error(
                        .unknownFlag,
                        "<assign location=\"\(flag)\"> sets no <data> of this chart\(Suggestion.didYouMean(flag, among: flagIDs.sorted()))",
                        at: location))
            }
            var document = SCXMLDocument(
                path: path, name: name, initial: rootInitial, states: states, transitions: transitions,
                rootLocation: rootLocation)
            document.flags = flags
            document.metadata = metadata
            guard !diagnostics.hasErrors else { return (nil, diagnostics.sorted()) }
            // The engine checks the rest (targets of several regions and the like) by refusing a model it cannot run.
            do {
                _ = try document.machine()
            } catch {
                diagnostics.append(.error(.invalidValue, "the chart cannot run: \(error)", at: rootLocation))
                return (nil, diagnostics.sorted())
            }
            return (document, diagnostics.sorted())
        }
    }
}

/// `cond` under the null datamodel: `In('id')`, `true`, `false`, `!`, `&&`, `||` and parentheses,
/// read by the guard parser's SCXML dialect, so a `cond` has a guard's depth and size limits.
enum SCXMLCondition {
    /// `flags`: the chart's boolean `<data>`, which a condition may name.
    static func parse(_ text: String, flags: Set<String> = []) throws(GuardParseError) -> GuardExpression {
        try GuardExpression(parsing: text, dialect: .scxml(flags: flags))
    }
}
