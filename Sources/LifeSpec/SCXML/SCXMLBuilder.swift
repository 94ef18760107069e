import Foundation
import LifecycleEngine

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension SCXMLReader {
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
        func readMetadata(_ element: String, attributes: [String: String], at location: SourceLocation) {
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
            case "flag":
                guard let id = value("id"), let variable = value("var") else {
                    error(.missingKey, "<lifespec:flag> needs an 'id' and a 'var'", at: location)
                    return
                }
                guard metadata.flagNames[variable] == nil else {
                    error(.duplicateID, "<lifespec:flag var=\"\(variable)\"> is listed twice", at: location)
                    return
                }
                metadata.flagNames[variable] = SCXMLDocument.FlagName(id: id, location: location)
            default:
                error(.unsupportedSCXML, "<lifespec:\(element)> is not an element LifeSpec writes", at: location)
            }
        }
        var states: [SCXMLDocument.State] = []
        var transitions: [SCXMLDocument.Transition] = []
        /// Per transition: its `cond` text and location, resolved once every state is known.
        var conditions: [Int: (text: String, location: SourceLocation)] = [:]
        var tagCount = 0
        var idLocations: [String: SourceLocation] = [:]

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
            /// `<lifespec:yaml>`: text only, gathered in `carriedText`.
            case carriedYAML(location: SourceLocation, base64: Bool)
        }
        var carriedText = ""

        /// `<lifespec:yaml>` opens: one per chart, its only attribute `encoding="base64"`.
        func openCarriedYAML(attributes: [String: String], at location: SourceLocation) -> Frame {
            for key in attributes.keys.sorted() where key != "encoding" && key != "lifespec:encoding" {
                error(.unsupportedSCXML, "<lifespec:yaml> has no attribute '\(key)'", at: location)
            }
            let encoding = attributes["encoding"] ?? attributes["lifespec:encoding"]
            if let encoding, encoding != "base64" {
                error(.invalidValue, "<lifespec:yaml encoding=\"\(encoding)\"> is 'base64' or left out", at: location)
            }
            if let earlier = metadata.yaml {
                error(
                    .duplicateID, "a chart carries one <lifespec:yaml>; the first is at \(earlier.location)",
                    at: location)
            }
            carriedText = ""
            return .carriedYAML(location: location, base64: encoding == "base64")
        }

        /// `<lifespec:yaml>` closes: its text, decoded, is the spec `import` restores.
        func closeCarriedYAML(at location: SourceLocation, base64: Bool) {
            var text: String? = carriedText
            if base64 {
                text = Data(base64Encoded: carriedText, options: .ignoreUnknownCharacters).flatMap {
                    String(validating: [UInt8]($0), as: UTF8.self)
                }
                if text == nil {
                    error(
                        .invalidValue, "<lifespec:yaml encoding=\"base64\"> is not base64 of UTF-8 text", at: location)
                }
            }
            carriedText = ""
            if let text, metadata.yaml == nil {
                metadata.yaml = SCXMLDocument.CarriedYAML(text: text, location: location)
            }
        }
        var stack: [Frame] = []

        init(path: String, tagLocations: [SourceLocation], limits: LoaderLimits) {
            self.path = path
            self.tagLocations = tagLocations
            self.limits = limits
            rootLocation = SourceLocation(path: path, line: 1, column: 1)
        }

        func location(_ parser: XMLParser) -> SourceLocation {
            if tagCount - 1 < tagLocations.count { return tagLocations[tagCount - 1] }
            return SourceLocation(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
        }

        func error(_ code: DiagnosticCode, _ message: String, at location: SourceLocation) {
            diagnostics.append(.error(code, message, at: location))
        }

        func unsupported(_ element: String, _ why: String, at location: SourceLocation) {
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
            if case .carriedYAML = parent {
                unsupported(elementName, "<lifespec:yaml> holds text, not elements", at: here)
                stack.append(.skipped)
                return
            }
            if case .leaf = parent {
                unsupported(elementName, "<raise> and <log> have no child elements", at: here)
                stack.append(.skipped)
                return
            }
            if namespaceURI == SCXMLReader.lifespecNamespace, case .root? = parent, elementName == "yaml" {
                stack.append(openCarriedYAML(attributes: attributes, at: here))
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
            if case .carriedYAML(let location, let base64) = frame { closeCarriedYAML(at: location, base64: base64) }
            if case .initial(let index) = frame, states[index].initial.isEmpty {
                error(.missingKey, "<initial> needs a <transition> with a target", at: states[index].location)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if case .carriedYAML? = stack.last {
                // Bounded: the chart itself is (LoaderLimits.maxFileBytes).
                carriedText += string
                return
            }
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

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            guard case .carriedYAML? = stack.last else { return }
            guard let text = String(validating: [UInt8](block), as: UTF8.self) else {
                error(.unreadableFile, "<lifespec:yaml> holds text that is not UTF-8", at: location(parser))
                return
            }
            carriedText += text
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if xmlError == nil {
                xmlError = (
                    SCXMLReader.xmlErrorText(parseError),
                    SourceLocation(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
                )
            }
        }
    }
}
