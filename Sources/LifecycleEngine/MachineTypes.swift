/// The kinds of element a machine numbers by id.
public enum ElementKind: String, Sendable, Hashable, CaseIterable {
    case state, event, flag, callback, notification
}

public enum MachineError: Error, Hashable, Sendable, CustomStringConvertible {
    case duplicate(kind: ElementKind, id: String)
    case unknown(kind: ElementKind, id: String, context: String)
    case compoundWithoutInitial(String)
    /// A history pseudo-state at the top level (it must be the child of a compound or parallel state).
    case historyOutsideCompound(String)
    /// A history pseudo-state needs one eventless, unguarded default transition to states inside its parent.
    case historyWithoutDefault(String)
    /// A child listed before its parent: states must be in document order.
    case notInDocumentOrder(String)

    public var description: String {
        switch self {
        case .duplicate(let kind, let id): "duplicate \(kind.rawValue) id '\(id)'"
        case .unknown(let kind, let id, let context): "unknown \(kind.rawValue) '\(id)' in \(context)"
        case .compoundWithoutInitial(let id): "compound state '\(id)' has no valid initial child"
        case .historyOutsideCompound(let id): "history state '\(id)' is not inside a compound or parallel state"
        case .historyWithoutDefault(let id):
            "history state '\(id)' needs one eventless, unguarded default transition to states inside its parent"
        case .notInDocumentOrder(let id): "state '\(id)' comes before its parent: states must be in document order"
        }
    }
}

public struct StateNode: Sendable, Hashable {
    public let id: String
    public let parent: String?
    /// Child states in document order, history pseudo-states included.
    public let children: [String]
    /// The child entered when this compound state is entered.
    public let initial: String?
    public let isFinal: Bool
    /// Every child region is active at once (SCXML `<parallel>`).
    public let isParallel: Bool
    /// Set for a history pseudo-state: it remembers its parent's active children (shallow) or
    /// active atomic descendants (deep) when the parent is exited. Its default transition is the
    /// eventless transition declared on it.
    public let history: HistoryDepth?
    /// Run when the state is entered, after its ancestors' entry and before its children's.
    public let entry: ActionBlock
    /// Run when the state is exited, after its children's exit and before its ancestors'.
    public let exit: ActionBlock
    /// The states a default entry of this compound state enters, when not just `initial` (SCXML's
    /// `<initial>` transition may name descendants, one per region of a parallel descendant).
    public let initialTargets: [String]
    /// What the default entry's `<initial>` transition does, after this state's entry actions.
    public let initialActions: ActionBlock

    public init(
        id: String, parent: String? = nil, children: [String] = [], initial: String? = nil, isFinal: Bool = false,
        isParallel: Bool = false, history: HistoryDepth? = nil, entry: ActionBlock = .init(),
        exit: ActionBlock = .init(),
        initialTargets: [String] = [], initialActions: ActionBlock = .init()
    ) {
        self.id = id
        self.parent = parent
        self.children = children
        self.initial = initial ?? initialTargets.first
        self.isFinal = isFinal
        self.isParallel = isParallel
        self.history = history
        self.entry = entry
        self.exit = exit
        self.initialTargets = initialTargets.isEmpty ? (initial.map { [$0] } ?? []) : initialTargets
        self.initialActions = initialActions
    }

    /// An atomic state: no children, and not a history pseudo-state.
    public var isLeaf: Bool { children.isEmpty && history == nil }
    public var isCompound: Bool { !children.isEmpty && !isParallel }
    public var isHistory: Bool { history != nil }
}

public enum HistoryDepth: String, Sendable, Hashable, CaseIterable {
    case shallow, deep
}

/// Executable content of an entry, an exit or an initial transition: callbacks and notifications
/// emitted in order, flags set, events raised onto the internal queue in order.
public struct ActionBlock: Sendable, Hashable {
    public var actions: [Action]
    public var assignments: [FlagAssignment]
    public var raises: [String]

    public init(actions: [Action] = [], assignments: [FlagAssignment] = [], raises: [String] = []) {
        self.actions = actions
        self.assignments = assignments
        self.raises = raises
    }

    public var isEmpty: Bool { actions.isEmpty && assignments.isEmpty && raises.isEmpty }
}

/// What an event no enabled transition takes does.
public enum UnhandledEventPolicy: String, Sendable, Hashable, CaseIterable {
    /// An error that changes nothing (YAML specs' default: a lifecycle that gets an event it cannot
    /// take is a bug worth reporting).
    case error
    /// Discarded, as in SCXML.
    case ignore
}

public struct LifecycleEvent: Sendable, Hashable, Identifiable {
    public enum Kind: String, Sendable, Hashable, CaseIterable { case user, system, `internal` }
    public let id: String
    public let kind: Kind
    public init(id: String, kind: Kind = .system) {
        self.id = id
        self.kind = kind
    }
}

public struct LifecycleFlag: Sendable, Hashable, Identifiable {
    public let id: String
    public let defaultValue: Bool
    public init(id: String, defaultValue: Bool = false) {
        self.id = id
        self.defaultValue = defaultValue
    }
}

public struct LifecycleCallback: Sendable, Hashable, Identifiable {
    public let id: String
    /// The Swift name, e.g. `applicationWillResignActive(_:)`.
    public let swiftName: String
    /// The Objective-C selector, e.g. `applicationWillResignActive:`.
    public let objcName: String?
    public let posts: PostedNotification?

    public init(id: String, swiftName: String? = nil, objcName: String? = nil, posts: PostedNotification? = nil) {
        self.id = id
        self.swiftName = swiftName ?? id
        self.objcName = objcName
        self.posts = posts
    }
}

public struct PostedNotification: Sendable, Hashable {
    public enum Order: String, Sendable, Hashable, CaseIterable { case before, after }
    public let notification: String
    /// Whether the notification is posted before or after the callback runs.
    public let order: Order
    public init(notification: String, order: Order = .after) {
        self.notification = notification
        self.order = order
    }
}

public struct LifecycleNotification: Sendable, Hashable, Identifiable {
    public let id: String
    public let swiftName: String
    public let objcName: String?
    public init(id: String, swiftName: String? = nil, objcName: String? = nil) {
        self.id = id
        self.swiftName = swiftName ?? id
        self.objcName = objcName
    }
}

public enum Action: Sendable, Hashable {
    case callback(String)
    case notify(String)
}

public enum Trigger: Sendable, Hashable {
    case event(String)
    /// Eventless: taken as soon as its source is active and its guard holds.
    case always

    public var eventID: String? {
        if case .event(let id) = self { id } else { nil }
    }
}

public struct FlagAssignment: Sendable, Hashable {
    public let flag: String
    public let value: Bool
    public init(flag: String, value: Bool) {
        self.flag = flag
        self.value = value
    }
}

public enum TransitionType: String, Sendable, Hashable, CaseIterable {
    /// Exits and re-enters its source when it targets the source or a descendant (SCXML's default).
    case external
    /// Does not exit its compound source when every target is a descendant of it.
    case `internal`
}

public struct Transition: Sendable, Hashable {
    /// Position in `Machine.transitions`; assigned by `Machine.init`.
    public internal(set) var index: Int
    /// The states this transition is declared on; it applies in their descendants too.
    public let sources: [String]
    /// Event descriptors (SCXML matching: `a.b` matches `a.b` and `a.b.c`, `*` matches every event);
    /// empty for an eventless transition.
    public let events: [String]
    public let guardExpression: GuardExpression?
    /// Empty for a targetless transition: actions run, no state is exited or entered.
    public let targets: [String]
    public let type: TransitionType
    public let actions: [Action]
    public let assignments: [FlagAssignment]
    /// Internal events queued for after this transition (run to completion).
    public let raises: [String]

    public init(
        sources: [String],
        trigger: Trigger,
        guardExpression: GuardExpression? = nil,
        target: String?,
        actions: [Action] = [],
        assignments: [FlagAssignment] = [],
        raises: [String] = []
    ) {
        self.init(
            sources: sources, events: trigger.eventID.map { [$0] } ?? [], guardExpression: guardExpression,
            targets: target.map { [$0] } ?? [], actions: actions, assignments: assignments, raises: raises)
    }

    public init(
        sources: [String],
        events: [String],
        guardExpression: GuardExpression? = nil,
        targets: [String],
        type: TransitionType = .external,
        actions: [Action] = [],
        assignments: [FlagAssignment] = [],
        raises: [String] = []
    ) {
        self.index = -1
        self.sources = sources
        self.events = events
        self.guardExpression = guardExpression
        self.targets = targets
        self.type = type
        self.actions = actions
        self.assignments = assignments
        self.raises = raises
    }

    /// The first event descriptor, or `.always` for an eventless transition.
    public var trigger: Trigger { events.first.map(Trigger.event) ?? .always }
    /// The first target; `nil` for a targetless transition.
    public var target: String? { targets.first }
    /// Targetless: actions run, the configuration does not change.
    public var isInternal: Bool { targets.isEmpty }
    public var isTargetless: Bool { targets.isEmpty }
    public var isEventless: Bool { events.isEmpty }

    /// `isActive` answers the guard's `in(…)` tests.
    public func isEnabled(flags: [String: Bool], isActive: (String) -> Bool = { _ in false }) -> Bool {
        guardExpression?.evaluate(flags, isActive: isActive) ?? true
    }

    /// SCXML's event matching: a descriptor matches the event named by it or by one of its
    /// dot-separated extensions; `*` matches every event.
    public static func descriptor(_ descriptor: String, matches event: String) -> Bool {
        var descriptor = Substring(descriptor)
        if descriptor == "*" { return true }
        // `a.*` and `a.` mean `a`.
        if descriptor.hasSuffix(".*") {
            descriptor = descriptor.dropLast(2)
        } else if descriptor.hasSuffix(".") {
            descriptor = descriptor.dropLast()
        }
        guard event.hasPrefix(descriptor) else { return false }
        let rest = event.dropFirst(descriptor.count)
        return rest.isEmpty || rest.hasPrefix(".")
    }
}
