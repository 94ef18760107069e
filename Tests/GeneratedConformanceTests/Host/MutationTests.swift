import LifecycleEngine
import Testing

/// The generated suites have teeth: their cases, run against deliberately broken implementations
/// (wrappers around the engine adapter), fail every time; run against the unbroken wrapper, they pass.
struct MutationTests {
    /// Every compiled suite's cases with the machine it was generated from.
    static func suites() throws -> [(name: String, cases: [ConformanceCase], machine: Machine)] {
        func entry<S: ConformanceSuite>(_ suite: S.Type) throws -> (String, [ConformanceCase], Machine) {
            (S.specID, S.cases, try SpecMachines.machine(atPackagePath: S.specPath))
        }
        return [
            try entry(IosAppLifecycleConformance.self),
            try entry(SwiftSuiteMiniConformance.self),
            try entry(SwiftSuiteHostileConformance.self),
            try entry(SwiftSuiteDoorConformance.self),
            try entry(PlayerConformance.self),
            (
                HostileIDsFixture.specID, Spec7HostileIdsU00FCNU00EFCodeConformance.cases,
                try HostileIDsFixture.machine()
            ),
        ]
    }

    static func failures(of cases: [ConformanceCase], on machine: Machine, _ mutation: Mutation) throws
        -> [ConformanceFailure]
    {
        var failures: [ConformanceFailure] = []
        for item in cases {
            var system = try Mutant(machine: machine, mutation: mutation)
            failures += item.run(on: &system)
        }
        return failures
    }

    @Test("The unbroken wrapper passes every case of every suite")
    func unbrokenPasses() throws {
        for suite in try Self.suites() {
            let failures = try Self.failures(of: suite.cases, on: suite.machine, .none)
            #expect(failures.isEmpty, "\(suite.name): \(ConformanceFailure.report(failures))")
        }
    }

    @Test("The flagship suite catches two callbacks swapped")
    func swappedCallbacks() throws {
        let flagship = try #require(try Self.suites().first)
        let failures = try Self.failures(of: flagship.cases, on: flagship.machine, .swapFirstTwoCallbacks)
        #expect(!failures.isEmpty)
        #expect(failures.contains { $0.caseID.hasPrefix("scenario:") })
        #expect(failures.contains { $0.caseID.hasPrefix("coverage:") })
    }

    @Test("The flagship suite catches every posted notification on the wrong side of its callback")
    func notificationOnTheWrongSide() throws {
        let flagship = try #require(try Self.suites().first)
        for callback in flagship.machine.callbacks where callback.posts != nil {
            let failures = try Self.failures(
                of: flagship.cases, on: flagship.machine, .notificationOnWrongSide(callback: callback.id))
            #expect(
                failures.contains { $0.caseID == "ordering:\(callback.id)" },
                "ordering test of \(callback.id) missed it")
        }
    }

    @Test("Every suite catches any one of its event transitions missing")
    func missingTransition() throws {
        for suite in try Self.suites() {
            let plan = CoveragePlan(machine: suite.machine)
            for index in plan.covered
            where suite.machine.transitions[index].trigger.eventID.map({ suite.machine.event($0)?.kind != .internal })
                ?? false
            {
                let failures = try Self.failures(of: suite.cases, on: suite.machine, .missingTransition(index))
                #expect(!failures.isEmpty, "\(suite.name): transition \(index) removed and no case failed")
            }
        }
    }

    @Test("Every suite catches any one of its event transitions landing in the wrong state")
    func wrongTarget() throws {
        for suite in try Self.suites() {
            let plan = CoveragePlan(machine: suite.machine)
            let external = { (index: Int) in
                suite.machine.transitions[index].trigger.eventID.map { suite.machine.event($0)?.kind != .internal }
                    ?? false
            }
            for index in plan.covered where external(index) && suite.machine.transitions[index].target != nil {
                let failures = try Self.failures(of: suite.cases, on: suite.machine, .wrongTarget(index))
                #expect(!failures.isEmpty, "\(suite.name): transition \(index) lands elsewhere and no case failed")
            }
        }
    }

    @Test("The statechart suite catches exit actions run out of order and a region left in the wrong state")
    func statechartOrderAndRegions() throws {
        let player = try #require(try Self.suites().first { $0.name == "player" })
        // Leaving 'playing' for 'finished' observes stopAudio (exit) before playbackDidFinish (raised by the entry).
        let swapped = try Self.failures(of: player.cases, on: player.machine, .swapFirstTwoCallbacks)
        #expect(swapped.contains { $0.caseID == "ordering:exit:playing" })
        // 'mute' lands in the volume region; a system that ignores that region's state is caught.
        let mute = try #require(player.machine.transitions.firstIndex { $0.events == ["mute"] })
        let wrong = try Self.failures(of: player.cases, on: player.machine, .wrongTarget(mute))
        #expect(wrong.contains { $0.message.contains("+") })
    }

    @Test("The flagship suite catches a wrong final state, an unhandled event accepted, and a rejection that moves")
    func rejectionsAndFinalStates() throws {
        let flagship = try #require(try Self.suites().first)
        let wrongEnd = try Self.failures(
            of: flagship.cases, on: flagship.machine,
            .wrongTarget(flagship.machine.transitions.firstIndex { $0.target != nil }!))
        #expect(wrongEnd.contains { $0.message.contains("expected") })
        let accepts = try Self.failures(of: flagship.cases, on: flagship.machine, .acceptsUnhandledEvents)
        #expect(accepts.contains { $0.caseID.hasPrefix("rejection:") })
        let moves = try Self.failures(of: flagship.cases, on: flagship.machine, .rejectionMovesToInitial)
        #expect(moves.contains { $0.caseID.hasPrefix("rejection:") })
        let silent = try Self.failures(of: flagship.cases, on: flagship.machine, .dropsNotifications)
        #expect(silent.contains { $0.caseID.hasPrefix("ordering:") })
    }
}

enum Mutation: Sendable {
    case none
    /// In every handled event with two or more callbacks, the first two trade places.
    case swapFirstTwoCallbacks
    /// The callback's posted notification is observed on the other side of it.
    case notificationOnWrongSide(callback: String)
    /// The engine's transition is gone: its event is rejected wherever the transition would be taken.
    case missingTransition(Int)
    /// After the transition the system is in another leaf (flags kept).
    case wrongTarget(Int)
    /// An event the state does not handle is swallowed as handled, observing nothing.
    case acceptsUnhandledEvents
    /// A rejected event sends the system back to the initial state.
    case rejectionMovesToInitial
    /// No notification is ever observed.
    case dropsNotifications
}

/// A broken implementation: the engine adapter with one mutation.
struct Mutant: LifecycleSystem {
    var base: EngineLifecycleSystem
    let mutation: Mutation

    init(machine: Machine, mutation: Mutation) throws {
        base = try EngineLifecycleSystem(machine: machine)
        self.mutation = mutation
    }

    var machine: Machine { base.machine }
    var currentState: String { base.currentState }

    mutating func reset(to state: String, flags: [String: Bool]) throws {
        try base.reset(to: state, flags: flags)
    }

    mutating func send(_ event: String) throws -> EventOutcome {
        let taking = base.runner.transition(for: event)?.index
        if case .missingTransition(let index) = mutation, taking == index { return .rejected }
        let outcome = try base.send(event)
        guard case .handled(var observed) = outcome else {
            switch mutation {
            case .acceptsUnhandledEvents: return .handled([])
            case .rejectionMovesToInitial:
                try base.reset(to: machine.initial, flags: base.flags)
                return .rejected
            default: return outcome
            }
        }
        switch mutation {
        case .swapFirstTwoCallbacks:
            let callbacks = observed.indices.filter { if case .callback = observed[$0] { true } else { false } }
            if callbacks.count >= 2 { observed.swapAt(callbacks[0], callbacks[1]) }
        case .notificationOnWrongSide(let callback):
            if let posted = machine.callback(callback)?.posts {
                for index in observed.indices where observed[index] == .callback(callback) {
                    let neighbour = posted.order == .before ? index - 1 : index + 1
                    if observed.indices.contains(neighbour), observed[neighbour] == .notification(posted.notification) {
                        observed.swapAt(index, neighbour)
                    }
                }
            }
        case .wrongTarget(let index) where taking == index:
            if let other = machine.leafStates.map(\.id).first(where: { $0 != base.currentState }) {
                try base.reset(to: other, flags: base.flags)
            }
        case .dropsNotifications:
            observed.removeAll { if case .notification = $0 { true } else { false } }
        default:
            break
        }
        return .handled(observed)
    }
}
