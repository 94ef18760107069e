import LifecycleEngine

/// Second phase of loading: every id is known, so references resolve (forward references just
/// work), and the spec lowers into `SpecDocument` + `Machine`.
struct SpecResolver {
    let raw: RawSpec
    private(set) var diagnostics: [Diagnostic] = []

    init(raw: RawSpec) { self.raw = raw }

    private mutating func error(_ code: DiagnosticCode, _ message: String, at location: SourceLocation, notes: [String] = []) {
        diagnostics.append(.error(code, message, at: location, notes: notes))
    }

    /// Reports duplicates (at every later occurrence) and returns the set of ids.
    private mutating func ids(_ items: [(String, SourceLocation)], kind: String) -> Set<String> {
        var first: [String: SourceLocation] = [:]
        for (id, location) in items {
            if let previous = first[id] {
                error(.duplicateID, "\(kind) '\(id)' is declared twice", at: location,
                      notes: ["first declared at \(previous)"])
            } else {
                first[id] = location
            }
        }
        return Set(first.keys)
    }

    private mutating func check(_ reference: Located<String>, in known: Set<String>, kind: String, code: DiagnosticCode) -> Bool {
        if known.contains(reference.value) { return true }
        let hint = Suggestion.didYouMean(reference.value, among: known.sorted())
        error(code, "\(kind) '\(reference.value)' is not declared\(hint)", at: reference.location)
        return false
    }

    mutating func resolve() -> LoadedSpec? {
        let stateIDs = ids(raw.states.map { ($0.id.value, $0.id.location) }, kind: "state")
        let eventIDs = ids(raw.events.map { ($0.id, $0.location) }, kind: "event")
        let flagIDs = ids(raw.flags.map { ($0.id, $0.location) }, kind: "flag")
        let callbackIDs = ids(raw.callbacks.map { ($0.id.value, $0.id.location) }, kind: "callback")
        let notificationIDs = ids(raw.notifications.map { ($0.id.value, $0.id.location) }, kind: "notification")
        let sourceIDs = ids(raw.sources.map { ($0.id, $0.location) }, kind: "source")
        _ = ids(raw.scenarios.map { ($0.id.value, $0.id.location) }, kind: "scenario")

        for reference in raw.sourceReferences {
            _ = check(reference, in: sourceIDs, kind: "source", code: .unknownSource)
        }
        if let platform = raw.platform, APICatalog.catalog(for: platform.value) == nil {
            let known = APICatalog.platforms
            error(.unknownPlatform, "unknown platform '\(platform.value)' (known: \(known.joined(separator: ", ")))\(Suggestion.didYouMean(platform.value, among: known))", at: platform.location)
        }

        // States: compound states need an initial child.
        for state in raw.states {
            let childIDs = state.children.map(\.value)
            if let initial = state.initial {
                if childIDs.isEmpty {
                    error(.compoundWithoutInitial, "state '\(state.id.value)' has 'initial' but no child states", at: initial.location)
                } else if !childIDs.contains(initial.value) {
                    let hint = Suggestion.didYouMean(initial.value, among: childIDs)
                    error(.compoundWithoutInitial, "initial '\(initial.value)' of '\(state.id.value)' is not one of its child states (\(childIDs.joined(separator: ", ")))\(hint)", at: initial.location)
                }
            } else if !childIDs.isEmpty {
                error(.compoundWithoutInitial, "compound state '\(state.id.value)' needs 'initial: <child>' (one of \(childIDs.joined(separator: ", ")))", at: state.id.location)
            }
            if state.isFinal, !childIDs.isEmpty {
                error(.invalidValue, "compound state '\(state.id.value)' cannot be final; mark a child final instead", at: state.id.location)
            }
        }
        if let initial = raw.initial { _ = check(initial, in: stateIDs, kind: "initial state", code: .unknownState) }

        // Facts: once a spec declares them, every state's fact must be one of them.
        if raw.declaresFacts {
            let factIDs = ids(raw.facts.map { ($0.id, $0.location) }, kind: "fact")
            for state in raw.states {
                for key in state.factKeys { _ = check(key, in: factIDs, kind: "fact", code: .unknownFact) }
            }
        }

        // Callbacks and notifications.
        var postedBy: [String: Located<String>] = [:]
        for callback in raw.callbacks {
            guard let posts = callback.posts else { continue }
            guard check(posts.notification, in: notificationIDs, kind: "notification", code: .unknownNotification) else { continue }
            if let other = postedBy[posts.notification.value] {
                diagnostics.append(.warning(.notificationPostedTwice, "notification '\(posts.notification.value)' is posted by both '\(other.value)' and '\(callback.id.value)'; docs and ordering tests will attribute it to both", at: posts.notification.location))
            } else {
                postedBy[posts.notification.value] = callback.id
            }
        }

        // Transitions, read field by field: copying each whole transition retained a dozen
        // references per transition.
        let transitions = raw.transitions
        for index in transitions.indices {
            for source in transitions[index].from { _ = check(source, in: stateIDs, kind: "state", code: .unknownState) }
            if let to = transitions[index].to { _ = check(to, in: stateIDs, kind: "state", code: .unknownState) }
            if let on = transitions[index].on { _ = check(on, in: eventIDs, kind: "event", code: .unknownEvent) }
            for action in transitions[index].actions {
                switch action {
                case .callback(let id):
                    if !callbackIDs.contains(id.value), notificationIDs.contains(id.value) {
                        error(.unknownCallback, "'\(id.value)' is a notification, not a callback; write '{notify: \(id.value)}'", at: id.location)
                    } else {
                        _ = check(id, in: callbackIDs, kind: "callback", code: .unknownCallback)
                    }
                case .notify(let id): _ = check(id, in: notificationIDs, kind: "notification", code: .unknownNotification)
                }
            }
            if let guardText = transitions[index].guardText, let expression = transitions[index].guardExpression {
                for flag in expression.flags where !flagIDs.contains(flag) {
                    let hint = Suggestion.didYouMean(flag, among: flagIDs.sorted())
                    // Point at the flag itself inside the guard text.
                    let column = Self.offset(ofFlag: flag, in: guardText.value).map { guardText.location.column + transitions[index].guardColumnShift + $0 }
                    let location = SourceLocation(path: guardText.location.path, line: guardText.location.line, column: column ?? guardText.location.column)
                    error(.unknownFlag, "flag '\(flag)' in guard is not declared\(hint)", at: location)
                }
            }
            for (flag, _) in transitions[index].set { _ = check(flag, in: flagIDs, kind: "flag", code: .unknownFlag) }
            for event in transitions[index].raise { _ = check(event, in: eventIDs, kind: "event", code: .unknownEvent) }
        }

        // Scenarios.
        for scenario in raw.scenarios {
            if let from = scenario.from { _ = check(from, in: stateIDs, kind: "state", code: .unknownState) }
            if let end = scenario.end { _ = check(end, in: stateIDs, kind: "state", code: .unknownState) }
            for (flag, _) in scenario.flags { _ = check(flag, in: flagIDs, kind: "flag", code: .unknownFlag) }
            for event in scenario.events { _ = check(event, in: eventIDs, kind: "event", code: .unknownEvent) }
            for (observation, location) in scenario.expect {
                switch observation {
                case .callback(let id):
                    if !callbackIDs.contains(id), notificationIDs.contains(id) {
                        error(.unknownCallback, "'\(id)' is a notification, not a callback; write '{notify: \(id)}'", at: location)
                    } else {
                        _ = check(Located(id, at: location), in: callbackIDs, kind: "callback", code: .unknownCallback)
                    }
                case .notification(let id):
                    _ = check(Located(id, at: location), in: notificationIDs, kind: "notification", code: .unknownNotification)
                }
            }
        }

        checkTranslations()

        guard !diagnostics.hasErrors, let id = raw.id, let initial = raw.initial, !raw.states.isEmpty else { return nil }
        return lower(id: id.value, initial: initial.value)
    }

    /// Where `flag` is first written in a guard's text as a whole identifier, in characters.
    static func offset(ofFlag flag: String, in text: String) -> Int? {
        let characters = Array(text)
        func isIdentifier(_ character: Character, first: Bool) -> Bool {
            character.isASCII && (character.isLetter || character == "_" || (!first && (character.isNumber || character == "-")))
        }
        var index = 0
        while index < characters.count {
            guard isIdentifier(characters[index], first: true) else { index += 1; continue }
            let start = index
            while index < characters.count, isIdentifier(characters[index], first: index == start) { index += 1 }
            if String(characters[start..<index]) == flag { return start }
        }
        return nil
    }

    /// A declared locale with no text falls back to the default one: worth a warning, not an error.
    private mutating func checkTranslations() {
        let locales = raw.locales.map(\.value)
        guard locales.count > 1 else { return }
        let defaultLocale = locales.first
        for (text, what, location) in raw.localizedTexts {
            let missing = locales.filter { !text.hasTranslation(for: $0, defaultLocale: defaultLocale) }
            guard !missing.isEmpty else { continue }
            let list = missing.map { "'\($0)'" }.joined(separator: ", ")
            diagnostics.append(.warning(.missingTranslation, "\(what) has no \(list) translation; the default locale's text is used", at: location))
        }
    }

    private func lower(id: String, initial: String) -> LoadedSpec? {
        let states = raw.states.map { state in
            StateNode(id: state.id.value, parent: state.parent, children: state.children.map(\.value),
                      initial: state.initial?.value, isFinal: state.isFinal)
        }
        let callbacks = raw.callbacks.map { callback in
            LifecycleCallback(id: callback.id.value, swiftName: callback.swift?.value, objcName: callback.objc?.value,
                     posts: callback.posts.map { PostedNotification(notification: $0.notification.value, order: $0.order) })
        }
        let notifications = raw.notifications.map {
            LifecycleNotification(id: $0.id.value, swiftName: $0.swift?.value, objcName: $0.objc?.value)
        }
        let transitions = raw.transitions.indices.map { index in
            Transition(
                sources: raw.transitions[index].from.map(\.value),
                trigger: raw.transitions[index].on.map { .event($0.value) } ?? .always,
                guardExpression: raw.transitions[index].guardExpression,
                target: raw.transitions[index].to?.value,
                actions: raw.transitions[index].actions.map { action in
                    switch action {
                    case .callback(let id): .callback(id.value)
                    case .notify(let id): .notify(id.value)
                    }
                },
                assignments: raw.transitions[index].set.map { FlagAssignment(flag: $0.flag.value, value: $0.value) },
                raises: raw.transitions[index].raise.map(\.value)
            )
        }
        let machine: Machine
        do {
            machine = try Machine(
                id: id, states: states, initial: initial,
                events: raw.events.map { LifecycleEvent(id: $0.id, kind: $0.kind) },
                flags: raw.flags.map { LifecycleFlag(id: $0.id, defaultValue: $0.defaultValue) },
                callbacks: callbacks, notifications: notifications, transitions: transitions
            )
        } catch {
            // Every MachineError has a located diagnostic above; reaching here is a loader bug.
            return nil
        }
        let document = SpecDocument(
            path: raw.path,
            formatVersion: raw.formatVersion,
            id: id,
            title: raw.title,
            summary: raw.summary,
            platform: raw.platform?.value,
            locales: raw.locales.map(\.value),
            sources: raw.sources,
            states: raw.states.map {
                .init(id: $0.id.value, title: $0.title, description: $0.description, facts: $0.facts,
                      source: $0.source?.value, location: $0.id.location)
            },
            events: raw.events,
            flags: raw.flags,
            facts: raw.facts,
            callbacks: raw.callbacks.map {
                .init(id: $0.id.value, kind: $0.kind, passedTo: $0.passedTo?.value, swift: $0.swift?.value, objc: $0.objc?.value, returns: $0.returns,
                      description: $0.description, usage: $0.usage,
                      posts: $0.posts.map { PostedNotification(notification: $0.notification.value, order: $0.order) },
                      deprecated: $0.deprecated, timeLimit: $0.timeLimit, source: $0.source?.value, location: $0.id.location)
            },
            notifications: raw.notifications.map {
                .init(id: $0.id.value, swift: $0.swift?.value, objc: $0.objc?.value, description: $0.description,
                      source: $0.source?.value, location: $0.id.location)
            },
            transitions: raw.transitions.indices.map { index in
                .init(index: index, guardText: raw.transitions[index].guardText?.value, description: raw.transitions[index].description,
                      source: raw.transitions[index].source?.value, location: raw.transitions[index].location)
            },
            scenarios: raw.scenarios.map { scenario in
                .init(id: scenario.id.value, title: scenario.title, description: scenario.description,
                      from: scenario.from?.value,
                      flags: Dictionary(scenario.flags.map { ($0.flag.value, $0.value) }, uniquingKeysWith: { _, last in last }),
                      events: scenario.events.map(\.value), expect: scenario.expect.map(\.observation),
                      end: scenario.end?.value, source: scenario.source?.value, location: scenario.id.location)
            }
        )
        var withRelations = document
        withRelations.related = raw.related
        return LoadedSpec(document: withRelations, machine: machine)
    }
}
