import LifecycleEngine

/// Second phase of loading: every id is known, so references resolve (forward references just
/// work), and the spec lowers into `SpecDocument` + `Machine`.
struct SpecResolver {
    let raw: RawSpec
    private(set) var diagnostics: [Diagnostic] = []
    /// Every reference that did not resolve, for collapsing knock-on errors under their cause.
    private(set) var unresolved: [KnockOnErrors.Reference] = []
    /// "Did you mean" candidates by kind, built on the first unknown name of that kind.
    private var suggestions: [String: (known: Set<String>, index: Suggestion.Index)] = [:]
    /// Transitions and scenarios (by index) with an error of their own, and whether any error lies
    /// elsewhere: with errors only in transitions and scenarios, the rest can still be checked.
    private(set) var brokenTransitions: Set<Int> = []
    private(set) var brokenScenarios: Set<Int> = []
    private(set) var hasErrorsOutsideTransitionsAndScenarios = false

    /// The names of the system's parts (`A` of `A.appeared`).
    private let partNames: Set<String>

    init(raw: RawSpec) {
        self.raw = raw
        partNames = Set(raw.parts.map(\.name.value))
    }

    /// `A.pussh` where `A` is a part: the part's members are the ones to suggest from.
    private mutating func reportUnknownPartMember(
        _ reference: Located<String>, part: String, known: Set<String>, kind: String
    ) {
        let members = known.filter { $0.hasPrefix(part + ".") }.sorted()
        let spec =
            raw.parts.first { $0.name.value == part }.flatMap { $0.specID ?? $0.spec.value }.map { " (\($0))" } ?? ""
        let hint = Suggestion.didYouMean(reference.value, among: members)
        error(
            .unknownPartMember,
            "part '\(part)'\(spec) has no \(kind) '\(reference.value.dropFirst(part.count + 1))'\(hint)",
            at: reference.location)
        unresolved.append(
            KnockOnErrors.Reference(name: reference.value, code: .unknownPartMember, location: reference.location))
    }

    private mutating func error(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, notes: [String] = []
    ) {
        diagnostics.append(.error(code, message, at: location, notes: notes))
    }

    /// A platform names a built-in catalog; any other framework's names come from a catalog file.
    static let otherFrameworks =
        "for another framework (WebKit, AVFoundation, …), leave 'platform' out, write its names in a catalog file of your own and list the file under 'catalogs:' (see docs/spec-format.md, API catalogs)"

    /// Reports duplicates (at every later occurrence) and returns the set of ids.
    private mutating func ids(_ items: [(String, SourceLocation)], kind: String) -> Set<String> {
        var first: [String: SourceLocation] = [:]
        for (id, location) in items {
            if let previous = first[id] {
                error(
                    .duplicateID, "\(kind) '\(id)' is declared twice", at: location,
                    notes: ["first declared at \(previous)"])
            } else {
                first[id] = location
            }
        }
        return Set(first.keys)
    }

    private mutating func check(_ reference: Located<String>, in known: Set<String>, kind: String, code: DiagnosticCode)
        -> Bool
    {
        if known.contains(reference.value) { return true }
        if let part = SpecComposer.part(of: reference.value, among: partNames) {
            reportUnknownPartMember(reference, part: part, known: known, kind: kind)
            return false
        }
        if suggestions[kind]?.known != known { suggestions[kind] = (known, Suggestion.Index(known)) }
        let hint = suggestions[kind]!.index.closest(to: reference.value).map { "; did you mean '\($0)'?" } ?? ""
        error(code, "\(kind) '\(reference.value)' is not declared\(hint)", at: reference.location)
        unresolved.append(KnockOnErrors.Reference(name: reference.value, code: code, location: reference.location))
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
        // A modelling note may be about any element a reader sees named on the page.
        let elementIDs = stateIDs.union(eventIDs).union(flagIDs).union(callbackIDs).union(notificationIDs)
        for note in raw.modelling {
            for id in note.about {
                _ = check(id, in: elementIDs, kind: "element", code: .unknownElement)
            }
        }
        if let platform = raw.platform, APICatalog.catalog(for: platform.value) == nil {
            let known = APICatalog.platforms
            error(
                .unknownPlatform,
                "unknown platform '\(platform.value)' (known: \(known.joined(separator: ", ")))\(Suggestion.didYouMean(platform.value, among: known))",
                at: platform.location, notes: [Self.otherFrameworks])
        }

        // States: compound states need an initial child, parallel states regions, history a parent.
        var stateByID: [String: Int] = [:]
        for (offset, state) in raw.states.enumerated() where stateByID[state.id.value] == nil {
            stateByID[state.id.value] = offset
        }
        /// Whether `state` is `ancestor` or below it.
        func isWithin(_ state: String, _ ancestor: String) -> Bool {
            var current: String? = state
            var steps = 0
            while let id = current, steps <= raw.states.count {
                if id == ancestor { return true }
                current = stateByID[id].flatMap { raw.states[$0].parent }
                steps += 1
            }
            return false
        }
        /// Whether the engine can enter `targets` together (only in different regions of a parallel state).
        func checkTargetSet(_ targets: [Located<String>], what: String) {
            guard targets.count > 1, targets.allSatisfy({ stateIDs.contains($0.value) }),
                let conflict = Machine.targetSetConflict(
                    targets.map(\.value), limit: raw.states.count,
                    parent: { stateByID[$0].flatMap { raw.states[$0].parent } },
                    isParallel: { stateByID[$0].map { raw.states[$0].parallel?.value == true } ?? false })
            else { return }
            let (first, second) = (targets[conflict.first], targets[conflict.second])
            let reason =
                switch conflict.reason {
                case .nested: "one contains the other"
                case .sameCompound(let state): "both are inside '\(state)', a compound state with one active child"
                case .topLevel: "both are top-level states"
                }
            error(
                .invalidTargetSet,
                "\(what) '\(first.value)' and '\(second.value)' cannot be active together: \(reason); several targets name one state per region of a parallel state",
                at: second.location)
        }
        for state in raw.states {
            let childStates = state.children.filter { child in
                stateByID[child.value].map { raw.states[$0].history == nil } ?? true
            }
            let childIDs = childStates.map(\.value)
            let isParallel = state.parallel?.value == true
            if let history = state.history {
                if state.parent == nil {
                    error(
                        .misplacedHistory,
                        "history state '\(state.id.value)' must be the child of a compound or parallel state",
                        at: history.location)
                }
                if !state.children.isEmpty || !state.initial.isEmpty || isParallel || state.isFinal
                    || !state.entry.isEmpty || !state.exit.isEmpty
                {
                    error(
                        .misplacedHistory,
                        "history state '\(state.id.value)' is a pseudo-state: it has only 'history' and 'default' (no states, initial, parallel, final, entry or exit)",
                        at: state.id.location)
                }
                for target in state.historyDefault {
                    guard check(target, in: stateIDs, kind: "state", code: .unknownState) else { continue }
                    if let parent = state.parent, !isWithin(target.value, parent) || target.value == parent {
                        error(
                            .misplacedHistory,
                            "the default of history state '\(state.id.value)' must be inside its parent '\(parent)'",
                            at: target.location)
                    }
                }
                checkTargetSet(state.historyDefault, what: "default targets")
                continue
            }
            if !state.historyDefault.isEmpty, let first = state.historyDefault.first {
                error(
                    .invalidValue,
                    "'default' belongs to a history state; add 'history: shallow' or 'history: deep' to '\(state.id.value)'",
                    at: first.location)
            }
            if isParallel {
                if childIDs.count < 2 {
                    error(
                        .invalidParallel,
                        "parallel state '\(state.id.value)' needs at least two child regions (it has \(childIDs.count))",
                        at: state.parallel!.location)
                }
                if let initial = state.initial.first {
                    error(
                        .invalidParallel, "parallel state '\(state.id.value)' enters every region; remove 'initial'",
                        at: initial.location)
                }
                if state.isFinal {
                    error(
                        .invalidValue,
                        "parallel state '\(state.id.value)' cannot be final; mark a state in each region final instead",
                        at: state.id.location)
                }
                continue
            }
            if let initial = state.initial.first {
                if childIDs.isEmpty {
                    error(
                        .compoundWithoutInitial, "state '\(state.id.value)' has 'initial' but no child states",
                        at: initial.location)
                } else if state.initial.count == 1, !childIDs.contains(initial.value),
                    !(stateIDs.contains(initial.value) && initial.value != state.id.value
                        && isWithin(initial.value, state.id.value))
                {
                    // A deeper descendant or a history child is a valid default entry too (SCXML allows both).
                    let hint = Suggestion.didYouMean(initial.value, among: childIDs)
                    error(
                        .compoundWithoutInitial,
                        "initial '\(initial.value)' of '\(state.id.value)' is not one of its child states (\(childIDs.joined(separator: ", ")))\(hint)",
                        at: initial.location)
                } else if state.initial.count > 1 {
                    for target in state.initial where check(target, in: stateIDs, kind: "state", code: .unknownState) {
                        if target.value == state.id.value || !isWithin(target.value, state.id.value) {
                            error(
                                .compoundWithoutInitial,
                                "initial '\(target.value)' of '\(state.id.value)' is not inside it", at: target.location
                            )
                        }
                    }
                    checkTargetSet(state.initial, what: "initial states")
                }
            } else if !childIDs.isEmpty {
                error(
                    .compoundWithoutInitial,
                    "compound state '\(state.id.value)' needs 'initial: <child>' (one of \(childIDs.joined(separator: ", ")))",
                    at: state.id.location)
            }
            if state.isFinal, !childIDs.isEmpty {
                error(
                    .invalidValue, "compound state '\(state.id.value)' cannot be final; mark a child final instead",
                    at: state.id.location)
            }
        }
        for state in raw.states {
            checkBlock(
                state.entry, stateIDs: stateIDs, eventIDs: [], callbackIDs: callbackIDs,
                notificationIDs: notificationIDs, flagIDs: flagIDs, raisable: nil)
            checkBlock(
                state.exit, stateIDs: stateIDs, eventIDs: [], callbackIDs: callbackIDs,
                notificationIDs: notificationIDs, flagIDs: flagIDs, raisable: nil)
        }
        for initial in raw.initial { _ = check(initial, in: stateIDs, kind: "initial state", code: .unknownState) }
        checkTargetSet(raw.initial, what: "initial states")
        // Events a transition may name: the declared ones and the engine's `done.state.*` events.
        let doneEvents = Machine.doneEvents(
            for: raw.states.map { state in
                StateNode(
                    id: state.id.value, parent: state.parent, children: state.children.map(\.value),
                    isFinal: state.isFinal, isParallel: state.parallel?.value == true, history: state.history?.value)
            })
        let raisable = eventIDs.union(doneEvents)
        for state in raw.states {
            for event in state.entry.raise + state.exit.raise {
                _ = check(event, in: raisable, kind: "event", code: .unknownEvent)
            }
        }

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
            guard check(posts.notification, in: notificationIDs, kind: "notification", code: .unknownNotification)
            else { continue }
            if let other = postedBy[posts.notification.value] {
                diagnostics.append(
                    .warning(
                        .notificationPostedTwice,
                        "notification '\(posts.notification.value)' is posted by both '\(other.value)' and '\(callback.id.value)'; docs and ordering tests will attribute it to both",
                        at: posts.notification.location))
            } else {
                postedBy[posts.notification.value] = callback.id
            }
        }

        // Transitions, read field by field: copying each whole transition retained a dozen
        // references per transition.
        hasErrorsOutsideTransitionsAndScenarios = diagnostics.hasErrors
        let transitions = raw.transitions
        for index in transitions.indices {
            let errorsBefore = diagnostics.count
            defer {
                if diagnostics[errorsBefore...].contains(where: { $0.severity == .error }) {
                    brokenTransitions.insert(index)
                }
            }
            for source in transitions[index].from where check(source, in: stateIDs, kind: "state", code: .unknownState)
            {
                if let state = stateByID[source.value], raw.states[state].history != nil {
                    error(
                        .misplacedHistory,
                        "history state '\(source.value)' is a pseudo-state: a transition cannot leave it (its 'default' says where it leads)",
                        at: source.location)
                }
            }
            for target in transitions[index].to { _ = check(target, in: stateIDs, kind: "state", code: .unknownState) }
            checkTargetSet(transitions[index].to, what: "targets")
            for descriptor in transitions[index].on where !eventIDs.contains(descriptor.value) {
                // SCXML descriptors: `a` also names `a.b`, `*` every event.
                if raisable.contains(where: { Transition.descriptor(descriptor.value, matches: $0) }) { continue }
                _ = check(descriptor, in: raisable, kind: "event", code: .unknownEvent)
            }
            checkActions(transitions[index].actions, callbackIDs: callbackIDs, notificationIDs: notificationIDs)
            checkDoesSomething(transitions[index], stateByID: stateByID)
            if let guardText = transitions[index].guardText, let expression = transitions[index].guardExpression {
                for flag in expression.flags where !flagIDs.contains(flag) {
                    if let part = SpecComposer.part(of: flag, among: partNames) {
                        let column = Self.offset(ofFlag: flag, in: guardText.value).map {
                            guardText.location.column + transitions[index].guardColumnShift + $0
                        }
                        reportUnknownPartMember(
                            Located(
                                flag,
                                at: SourceLocation(
                                    path: guardText.location.path, line: guardText.location.line,
                                    column: column ?? guardText.location.column)),
                            part: part, known: flagIDs, kind: "flag")
                        continue
                    }
                    let hint = Suggestion.didYouMean(flag, among: flagIDs.sorted())
                    // Point at the flag itself inside the guard text.
                    let column = Self.offset(ofFlag: flag, in: guardText.value).map {
                        guardText.location.column + transitions[index].guardColumnShift + $0
                    }
                    let location = SourceLocation(
                        path: guardText.location.path, line: guardText.location.line,
                        column: column ?? guardText.location.column)
                    error(.unknownFlag, "flag '\(flag)' in guard is not declared\(hint)", at: location)
                }
                for state in expression.states where !stateIDs.contains(state) {
                    let hint = Suggestion.didYouMean(state, among: stateIDs.sorted())
                    let offset = guardText.value.range(of: state).map {
                        guardText.value.distance(from: guardText.value.startIndex, to: $0.lowerBound)
                    }
                    let column = offset.map { guardText.location.column + transitions[index].guardColumnShift + $0 }
                    let location = SourceLocation(
                        path: guardText.location.path, line: guardText.location.line,
                        column: column ?? guardText.location.column)
                    if let part = SpecComposer.part(of: state, among: partNames) {
                        reportUnknownPartMember(
                            Located(state, at: location), part: part, known: stateIDs, kind: "state")
                        continue
                    }
                    error(.unknownState, "state '\(state)' in in(…) is not declared\(hint)", at: location)
                }
            }
            for (flag, _) in transitions[index].set { _ = check(flag, in: flagIDs, kind: "flag", code: .unknownFlag) }
            for event in transitions[index].raise { _ = check(event, in: raisable, kind: "event", code: .unknownEvent) }
        }

        // Scenarios.
        for (index, scenario) in raw.scenarios.enumerated() {
            let errorsBefore = diagnostics.count
            defer {
                if diagnostics[errorsBefore...].contains(where: { $0.severity == .error }) {
                    brokenScenarios.insert(index)
                }
            }
            if let from = scenario.from { _ = check(from, in: stateIDs, kind: "state", code: .unknownState) }
            for end in scenario.end { _ = check(end, in: stateIDs, kind: "state", code: .unknownState) }
            for (flag, _) in scenario.flags { _ = check(flag, in: flagIDs, kind: "flag", code: .unknownFlag) }
            for event in scenario.events { _ = check(event, in: eventIDs, kind: "event", code: .unknownEvent) }
            for (observation, location) in scenario.expect {
                switch observation {
                case .callback(let id):
                    if !callbackIDs.contains(id), notificationIDs.contains(id) {
                        error(
                            .unknownCallback, "'\(id)' is a notification, not a callback; write '{notify: \(id)}'",
                            at: location)
                    } else {
                        _ = check(Located(id, at: location), in: callbackIDs, kind: "callback", code: .unknownCallback)
                    }
                case .notification(let id):
                    _ = check(
                        Located(id, at: location), in: notificationIDs, kind: "notification", code: .unknownNotification
                    )
                }
            }
        }

        // A part's calls are the part's own: its name already prefixes them and its lifeline receives them.
        for callback in raw.callbacks where callback.part == nil {
            guard let receiver = callback.receiver, raw.parts.contains(where: { $0.name.value == receiver.value })
            else { continue }
            error(
                .invalidValue,
                "receiver '\(receiver.value)' of callback '\(callback.id.value)' is a part; a part's calls are declared in its own spec, so name another object or leave 'receiver' out",
                at: receiver.location)
        }

        checkTranslations()

        guard !diagnostics.hasErrors, let id = raw.id, !raw.initial.isEmpty, !raw.states.isEmpty else { return nil }
        return lower(id: id.value)
    }

    private mutating func checkActions(
        _ actions: [RawSpec.ActionRef], callbackIDs: Set<String>, notificationIDs: Set<String>
    ) {
        for action in actions {
            switch action {
            case .callback(let id):
                if !callbackIDs.contains(id.value), notificationIDs.contains(id.value) {
                    error(
                        .unknownCallback,
                        "'\(id.value)' is a notification, not a callback; write '{notify: \(id.value)}'",
                        at: id.location)
                } else {
                    _ = check(id, in: callbackIDs, kind: "callback", code: .unknownCallback)
                }
            case .notify(let id): _ = check(id, in: notificationIDs, kind: "notification", code: .unknownNotification)
            }
        }
    }

    /// Entry and exit content; raised events are checked once `done.state.*` events are known.
    private mutating func checkBlock(
        _ block: RawSpec.Block, stateIDs: Set<String>, eventIDs: Set<String>, callbackIDs: Set<String>,
        notificationIDs: Set<String>, flagIDs: Set<String>, raisable: Set<String>?
    ) {
        checkActions(block.actions, callbackIDs: callbackIDs, notificationIDs: notificationIDs)
        for (flag, _) in block.set { _ = check(flag, in: flagIDs, kind: "flag", code: .unknownFlag) }
        if let raisable {
            for event in block.raise { _ = check(event, in: raisable, kind: "event", code: .unknownEvent) }
        }
    }

    /// A YAML transition with no `to` and nothing to do, from leaf states only, consumes its event
    /// and changes nothing: most often a forgotten target. `type: internal` says it is meant. (An
    /// SCXML chart says what it means with `<transition>` as written, so it is left alone.)
    private mutating func checkDoesSomething(_ transition: RawSpec.Transition, stateByID: [String: Int]) {
        guard transition.to.isEmpty, !transition.always, !transition.typeWritten, transition.actions.isEmpty,
            transition.set.isEmpty, transition.raise.isEmpty, transition.part == nil,
            !transition.location.path.lowercased().hasSuffix(".scxml"), !transition.from.isEmpty,
            transition.from.allSatisfy({ source in
                stateByID[source.value].map { raw.states[$0].children.isEmpty } ?? false
            })
        else { return }
        let events = transition.on.map { "'\($0.value)'" }.joined(separator: ", ")
        let sources = transition.from.map { "'\($0.value)'" }.joined(separator: ", ")
        diagnostics.append(
            .warning(
                .transitionDoesNothing,
                "this transition on \(events) from \(sources) has no 'to' and does nothing: the event is consumed and the state stays",
                at: transition.location,
                notes: [
                    "add 'to: <state>' if it should lead somewhere; write 'type: internal' if it is meant to swallow the event"
                ]))
    }

    /// Where `flag` is first written in a guard's text as a whole identifier, in characters.
    static func offset(ofFlag flag: String, in text: String) -> Int? {
        let characters = Array(text)
        func isIdentifier(_ character: Character, first: Bool) -> Bool {
            character.isASCII
                && (character.isLetter || character == "_"
                    || (!first && (character.isNumber || character == "-" || character == ".")))
        }
        var index = 0
        while index < characters.count {
            guard isIdentifier(characters[index], first: true) else {
                index += 1
                continue
            }
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
            diagnostics.append(
                .warning(
                    .missingTranslation, "\(what) has no \(list) translation; the default locale's text is used",
                    at: location))
        }
    }

    private func lower(id: String) -> LoadedSpec? {
        var parentOf: [String: String] = [:]
        for state in raw.states { if let parent = state.parent { parentOf[state.id.value] = parent } }
        /// The child of `ancestor` on the way down to `state`.
        func child(of ancestor: String, toward state: String) -> String {
            var current = state
            while let parent = parentOf[current], parent != ancestor { current = parent }
            return current
        }
        func block(_ block: RawSpec.Block) -> ActionBlock {
            ActionBlock(
                actions: Self.actions(block.actions),
                assignments: block.set.map { FlagAssignment(flag: $0.flag.value, value: $0.value) },
                raises: block.raise.map(\.value))
        }
        let states = raw.states.map { state in
            let initial = state.initial.map(\.value)
            return StateNode(
                id: state.id.value, parent: state.parent, children: state.children.map(\.value),
                initial: initial.first.map { child(of: state.id.value, toward: $0) }, isFinal: state.isFinal,
                isParallel: state.parallel?.value == true, history: state.history?.value,
                entry: block(state.entry), exit: block(state.exit), initialTargets: initial,
                initialActions: block(state.initialBlock))
        }
        // A history state's default is a transition on it, after the declared ones (indices stay).
        var historyDefaults: [(state: RawSpec.State, targets: [String])] = []
        for state in raw.states where state.history != nil {
            var targets = state.historyDefault.map(\.value)
            if targets.isEmpty, let parent = state.parent,
                let parentState = raw.states.first(where: { $0.id.value == parent })
            {
                // Without a default, the parent's own default entry.
                targets =
                    parentState.parallel?.value == true
                    ? parentState.children.map(\.value).filter { id in
                        raw.states.first { $0.id.value == id }?.history == nil
                    }
                    : parentState.initial.map(\.value)
            }
            historyDefaults.append((state, targets))
        }
        // A call to an object the whole app shares is named by that object in the machine itself
        // (`AppDelegate.application(_:…)`, not `S1.application(_:…)`), so that traces, logs,
        // `check-trace`, suites and pages all attribute it alike.
        // A callback's own `receiver:` names its object where no catalog can (a delegate of the
        // system's own region, a closure), and wins over the catalog's.
        var receivers =
            raw.parts.isEmpty
            ? [:]
            : Self.sharedReceivers(
                callbacks: raw.callbacks.map { ($0.id.value, $0.swift?.value) },
                notifications: raw.notifications.map { ($0.id.value, $0.swift?.value) },
                catalogs: PlatformNamesRule.catalogs(of: raw) + raw.partCatalogs, parts: raw.parts.map(\.name.value))
        let declaredReceivers = Dictionary(
            raw.callbacks.compactMap { callback in callback.receiver.map { (callback.id.value, $0.value) } },
            uniquingKeysWith: { first, _ in first })
        if !raw.parts.isEmpty { receivers.merge(declaredReceivers) { _, declared in declared } }
        let partNames = raw.parts.map(\.name.value)
        func called(_ id: String, _ name: String?, isCallback: Bool) -> String? {
            guard let name, let shared = receivers[id] else { return name }
            let own = partNames.first { name.hasPrefix($0 + ".") }.map { String(name.dropFirst($0.count + 1)) } ?? name
            // A notification's name already names its poster (`UIApplication.didEnterBackgroundNotification`).
            return isCallback && !own.hasPrefix(shared + ".") ? shared + "." + own : own
        }
        let callbacks = raw.callbacks.map { callback in
            LifecycleCallback(
                id: callback.id.value, swiftName: called(callback.id.value, callback.swift?.value, isCallback: true),
                objcName: called(callback.id.value, callback.objc?.value, isCallback: true),
                posts: callback.posts.map { PostedNotification(notification: $0.notification.value, order: $0.order) })
        }
        let notifications = raw.notifications.map {
            LifecycleNotification(
                id: $0.id.value, swiftName: called($0.id.value, $0.swift?.value, isCallback: false),
                objcName: called($0.id.value, $0.objc?.value, isCallback: false))
        }
        var transitions = raw.transitions.indices.map { index in
            Transition(
                sources: raw.transitions[index].from.map(\.value),
                events: raw.transitions[index].on.map(\.value),
                guardExpression: raw.transitions[index].guardExpression,
                targets: raw.transitions[index].to.map(\.value),
                type: raw.transitions[index].type,
                actions: Self.actions(raw.transitions[index].actions),
                assignments: raw.transitions[index].set.map { FlagAssignment(flag: $0.flag.value, value: $0.value) },
                raises: raw.transitions[index].raise.map(\.value)
            )
        }
        for (state, targets) in historyDefaults {
            transitions.append(
                Transition(
                    sources: [state.id.value], events: [], targets: targets,
                    actions: Self.actions(state.historyDefaultBlock.actions),
                    assignments: state.historyDefaultBlock.set.map {
                        FlagAssignment(flag: $0.flag.value, value: $0.value)
                    },
                    raises: state.historyDefaultBlock.raise.map(\.value)
                ))
        }
        let initialTargets = raw.initial.map(\.value)
        let machine: Machine
        do {
            machine = try Machine(
                id: id, states: states, initial: child(of: "", toward: initialTargets[0]),
                initialTargets: initialTargets,
                events: raw.events.map { LifecycleEvent(id: $0.id, kind: $0.kind) },
                flags: raw.flags.map { LifecycleFlag(id: $0.id, defaultValue: $0.defaultValue) },
                callbacks: callbacks, notifications: notifications, transitions: transitions,
                unhandledEvents: raw.unhandled?.value ?? .error
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
                .init(
                    id: $0.id.value, title: $0.title, description: $0.description, facts: $0.facts,
                    source: $0.source?.value, location: $0.id.location)
            },
            events: raw.events,
            flags: raw.flags,
            facts: raw.facts,
            callbacks: raw.callbacks.map {
                .init(
                    id: $0.id.value, kind: $0.kind, passedTo: $0.passedTo?.value,
                    swift: called($0.id.value, $0.swift?.value, isCallback: true),
                    objc: called($0.id.value, $0.objc?.value, isCallback: true), returns: $0.returns,
                    description: $0.description, usage: $0.usage,
                    posts: $0.posts.map { PostedNotification(notification: $0.notification.value, order: $0.order) },
                    deprecated: $0.deprecated, timeLimit: $0.timeLimit, source: $0.source?.value,
                    location: $0.id.location)
            },
            notifications: raw.notifications.map {
                .init(
                    id: $0.id.value, swift: called($0.id.value, $0.swift?.value, isCallback: false),
                    objc: called($0.id.value, $0.objc?.value, isCallback: false), description: $0.description,
                    source: $0.source?.value, location: $0.id.location)
            },
            transitions: raw.transitions.indices.map { index in
                .init(
                    index: index, guardText: raw.transitions[index].guardText?.value,
                    description: raw.transitions[index].description,
                    source: raw.transitions[index].source?.value, location: raw.transitions[index].location)
            }
                + historyDefaults.enumerated().map { offset, entry in
                    .init(
                        index: raw.transitions.count + offset, guardText: nil, description: nil,
                        source: entry.state.source?.value,
                        location: entry.state.history?.location ?? entry.state.id.location)
                },
            scenarios: raw.scenarios.map { scenario in
                .init(
                    id: scenario.id.value, title: scenario.title, description: scenario.description,
                    from: scenario.from?.value,
                    flags: Dictionary(
                        scenario.flags.map { ($0.flag.value, $0.value) }, uniquingKeysWith: { _, last in last }),
                    events: scenario.events.map(\.value), expect: scenario.expect.map(\.observation),
                    endStates: scenario.end.map(\.value), source: scenario.source?.value, location: scenario.id.location
                )
            }
        )
        var withRelations = document
        withRelations.unhandledEvents = raw.unhandled?.value
        withRelations.related = raw.related
        withRelations.modelling = raw.modelling.map {
            SpecDocument.ModellingNote(
                about: $0.about.map(\.value), text: $0.text, source: $0.source?.value, location: $0.location)
        }
        var modules = PlatformNamesRule.catalogs(of: raw).compactMap(\.module)
        for module in raw.partCatalogs.compactMap(\.module) where !modules.contains(module) { modules.append(module) }
        withRelations.apiModules = modules
        withRelations.sharedReceivers = receivers
        if raw.parts.isEmpty {
            let catalogs = PlatformNamesRule.catalogs(of: raw)
            withRelations.catalogReceivers = Self.catalogReceivers(
                callbacks: raw.callbacks.filter { $0.kind == .method }.map {
                    ($0.id.value, $0.swift?.value ?? $0.id.value)
                },
                catalogs: catalogs
            ).merging(declaredReceivers) { _, declared in declared }
            for notification in raw.notifications {
                let swift = notification.swift?.value ?? notification.id.value
                if let object = catalogs.lazy.compactMap({ $0.sharedReceiver(of: swift) }).first {
                    withRelations.catalogPosters[notification.id.value] = object
                }
            }
        }
        withRelations.parts = raw.parts.map { part in
            SpecDocument.PartInfo(
                name: part.name.value, specID: part.specID ?? part.spec.value, title: part.title,
                description: part.description,
                specTitle: part.specTitle, location: part.name.location)
        }
        var loaded = LoadedSpec(document: withRelations, machine: machine)
        loaded.sourceText = raw.sourceText.isEmpty ? nil : raw.sourceText
        loaded.carriedYAML = raw.carriedYAML
        return loaded
    }
}

extension SpecResolver {
    /// Which calls of a system go to an app-wide object rather than to the part that models them:
    /// the calls whose owner has one object per app (`APICatalog.sharedReceivers`), except in a
    /// part that is wholly that object (every callback of the part has that owner: a part that is
    /// the app delegate keeps its calls); and every notification such an object posts.
    /// `callbacks` and `notifications`: (id, Swift name as the composer prefixed it).
    static func sharedReceivers(
        callbacks: [(id: String, swift: String?)], notifications: [(id: String, swift: String?)],
        catalogs: [APICatalog], parts: [String]
    ) -> [String: String] {
        func split(_ swift: String?) -> (part: String?, name: String)? {
            guard let swift else { return nil }
            guard let part = parts.first(where: { swift.hasPrefix($0 + ".") }) else { return (nil, swift) }
            return (part, String(swift.dropFirst(part.count + 1)))
        }
        func owner(_ name: String) -> String? {
            catalogs.lazy.compactMap { catalog in
                (catalog.callbacks.first { $0.swift == name } ?? catalog.notifications.first { $0.swift == name })?
                    .owner
            }.first
        }
        func shared(_ owner: String) -> String? { catalogs.lazy.compactMap { $0.sharedReceivers[owner] }.first }
        var partOwners: [String: Set<String>] = [:]
        for callback in callbacks {
            // Closures and names no catalog knows say nothing about which object a part is.
            guard let (part, name) = split(callback.swift), let part, let owner = owner(name) else { continue }
            partOwners[part, default: []].insert(owner)
        }
        var receivers: [String: String] = [:]
        for callback in callbacks {
            guard let (part, name) = split(callback.swift), let owner = owner(name), let object = shared(owner),
                part.map({ partOwners[$0] != [owner] }) ?? true
            else { continue }
            receivers[callback.id] = object
        }
        for notification in notifications {
            guard let (_, name) = split(notification.swift), let owner = owner(name), let object = shared(owner)
            else { continue }
            receivers[notification.id] = object
        }
        return receivers
    }

    /// Outside a system, the object each method callback goes to by its catalog entry's owner: the
    /// app-wide object for an owner with one per app (`APICatalog.sharedReceivers`), else the owner.
    /// A method every object inherits (`APICatalog.inheritedOwners`: NSObject's `awakeFromNib()`)
    /// goes to the object the spec's other calls go to when they all go to one; else its owner.
    static func catalogReceivers(callbacks: [(id: String, swift: String)], catalogs: [APICatalog]) -> [String: String] {
        var receivers: [String: String] = [:]
        var inherited: [(id: String, owner: String)] = []
        for callback in callbacks {
            guard
                let (catalog, owner) = catalogs.lazy.compactMap({ catalog in
                    catalog.callbacks.first { $0.swift == callback.swift }?.owner.map { (catalog, $0) }
                }).first
            else { continue }
            if catalog.inheritedOwners.contains(owner) {
                inherited.append((callback.id, owner))
            } else {
                receivers[callback.id] = catalog.sharedReceivers[owner] ?? owner
            }
        }
        let objects = Set(receivers.values)
        for (id, owner) in inherited { receivers[id] = objects.count == 1 ? objects.first : owner }
        return receivers
    }

    static func actions(_ references: [RawSpec.ActionRef]) -> [Action] {
        references.map { action in
            switch action {
            case .callback(let id): .callback(id.value)
            case .notify(let id): .notify(id.value)
            }
        }
    }
}
