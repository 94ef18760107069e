import LifecycleEngine

/// A state tree written as nested values, flattened into `StateNode`s in document order.
indirect enum Tree {
    case leaf(String, final: Bool = false)
    case compound(String, initial: String, [Tree])

    var id: String {
        switch self {
        case .leaf(let id, _), .compound(let id, _, _): id
        }
    }
}

func nodes(_ trees: [Tree], parent: String? = nil) -> [StateNode] {
    trees.flatMap { tree -> [StateNode] in
        switch tree {
        case .leaf(let id, let final):
            return [StateNode(id: id, parent: parent, isFinal: final)]
        case .compound(let id, let initial, let children):
            return [StateNode(id: id, parent: parent, children: children.map(\.id), initial: initial)]
                + nodes(children, parent: id)
        }
    }
}

/// A transition in one line. `guard` is parsed, so a typo in a test's guard fails that test.
/// Named like a type because the tables of transitions it builds read as such.
// swift-format-ignore: AlwaysUseLowerCamelCase
func T(
    _ sources: String...,
    on event: String? = nil,
    guard guardText: String? = nil,
    to target: String?,
    do actions: [Action] = [],
    set assignments: KeyValuePairs<String, Bool> = [:],
    raise raises: [String] = []
) throws -> Transition {
    Transition(
        sources: sources,
        trigger: event.map { .event($0) } ?? .always,
        guardExpression: try guardText.map { text throws(GuardParseError) in try GuardExpression(parsing: text) },
        target: target,
        actions: actions,
        assignments: assignments.map { FlagAssignment(flag: $0.key, value: $0.value) },
        raises: raises
    )
}

/// Builds a machine; events default to every event a transition names (in first-use order),
/// callbacks to every callback an action names (posting nothing).
func makeMachine(
    _ trees: [Tree],
    initial: String,
    events: [String]? = nil,
    flags: [LifecycleFlag] = [],
    callbacks: [LifecycleCallback]? = nil,
    notifications: [String]? = nil,
    transitions: [Transition]
) throws -> Machine {
    var eventIDs: [String] = []
    var callbackIDs: [String] = []
    var notificationIDs: [String] = []
    func add(_ id: String, to list: inout [String]) { if !list.contains(id) { list.append(id) } }
    for transition in transitions {
        if let event = transition.trigger.eventID { add(event, to: &eventIDs) }
        for event in transition.raises { add(event, to: &eventIDs) }
        for action in transition.actions {
            switch action {
            case .callback(let id): add(id, to: &callbackIDs)
            case .notify(let id): add(id, to: &notificationIDs)
            }
        }
    }
    let callbackList = callbacks ?? callbackIDs.map { LifecycleCallback(id: $0) }
    for callback in callbackList { if let posted = callback.posts { add(posted.notification, to: &notificationIDs) } }
    return try Machine(
        id: "test",
        states: nodes(trees),
        initial: initial,
        events: (events ?? eventIDs).map { LifecycleEvent(id: $0) },
        flags: flags,
        callbacks: callbackList,
        notifications: (notifications ?? notificationIDs).map { LifecycleNotification(id: $0) },
        transitions: transitions
    )
}

/// A trace as short strings: `go a->b`, `always b->c`, `ping a->a (internal)`, `cb:x`, `n:y`.
func describe(_ steps: [Step]) -> [String] {
    steps.map { step in
        switch step {
        case .transition(let taken):
            "\(taken.event ?? "always") \(taken.from)->\(taken.to)" + (taken.isInternal ? " (internal)" : "")
        case .callback(let id): "cb:\(id)"
        case .notification(let id): "n:\(id)"
        }
    }
}

/// Runs `body` and returns the `RunError` it throws, or `nil` when it succeeds.
func runError(_ body: () throws(RunError) -> Void) -> RunError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
