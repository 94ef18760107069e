import LifecycleEngine
import Testing

@Suite("Machine model")
struct MachineTests {
    private let leaves = nodes([.leaf("a"), .leaf("b")])

    @Test func transitionsAreIndexedInDocumentOrderAndLookedUpBySource() throws {
        let machine = try makeMachine(
            [.compound("p", initial: "a", [.leaf("a"), .leaf("b")])],
            initial: "p",
            transitions: [
                T("a", on: "x", to: "b"),
                T("p", "b", on: "y", to: "a"),
                T("a", on: "z", to: nil),
            ]
        )
        #expect(machine.transitions.map(\.index) == [0, 1, 2])
        #expect(machine.transitions(declaredOn: "a").map(\.index) == [0, 2])
        #expect(machine.transitions(declaredOn: "b").map(\.index) == [1])
        #expect(machine.transitions(declaredOn: "p").map(\.index) == [1])
        #expect(machine.transitions(declaredOn: "nowhere").isEmpty)
        #expect(machine.state("a")?.parent == "p")
        #expect(machine.state("zz") == nil)
        #expect(machine.event("y")?.kind == .system)
        #expect(machine.callback("nope") == nil)
    }

    @Test func defaultNamesAndKinds() {
        let callback = LifecycleCallback(id: "cb")
        #expect(callback.swiftName == "cb")
        #expect(callback.objcName == nil)
        #expect(LifecycleNotification(id: "n", swiftName: "N.n").swiftName == "N.n")
        #expect(LifecycleEvent(id: "e").kind == .system)
        #expect(!LifecycleFlag(id: "f").defaultValue)
        #expect(Trigger.always.eventID == nil)
        #expect(Trigger.event("e").eventID == "e")
    }

    @Test func duplicateIdsAreRefused() throws {
        #expect(throws: MachineError.duplicate(kind: .state, id: "a")) {
            try Machine(id: "m", states: nodes([.leaf("a"), .leaf("a")]), initial: "a")
        }
        #expect(throws: MachineError.duplicate(kind: .event, id: "e")) {
            try Machine(
                id: "m", states: leaves, initial: "a",
                events: [LifecycleEvent(id: "e"), LifecycleEvent(id: "e", kind: .user)])
        }
        #expect(throws: MachineError.duplicate(kind: .flag, id: "f")) {
            try Machine(id: "m", states: leaves, initial: "a", flags: [LifecycleFlag(id: "f"), LifecycleFlag(id: "f")])
        }
        #expect(throws: MachineError.duplicate(kind: .callback, id: "c")) {
            try Machine(
                id: "m", states: leaves, initial: "a",
                callbacks: [LifecycleCallback(id: "c"), LifecycleCallback(id: "c")])
        }
        #expect(throws: MachineError.duplicate(kind: .notification, id: "n")) {
            try Machine(
                id: "m", states: leaves, initial: "a",
                notifications: [LifecycleNotification(id: "n"), LifecycleNotification(id: "n")])
        }
    }

    @Test func brokenHierarchyIsRefused() throws {
        #expect(throws: MachineError.unknown(kind: .state, id: "zz", context: "machine initial")) {
            try Machine(id: "m", states: leaves, initial: "zz")
        }
        #expect(throws: MachineError.unknown(kind: .state, id: "ghost", context: "parent of 'a'")) {
            try Machine(id: "m", states: [StateNode(id: "a", parent: "ghost")], initial: "a")
        }
        #expect(throws: MachineError.compoundWithoutInitial("p")) {
            try Machine(
                id: "m", states: [StateNode(id: "p", children: ["a"]), StateNode(id: "a", parent: "p")], initial: "p")
        }
        #expect(throws: MachineError.compoundWithoutInitial("p")) {
            try Machine(
                id: "m",
                states: [
                    StateNode(id: "p", children: ["a"], initial: "b"), StateNode(id: "a", parent: "p"),
                    StateNode(id: "b"),
                ], initial: "p")
        }
    }

    @Test func danglingTransitionReferencesAreRefused() throws {
        let events = [LifecycleEvent(id: "e")]
        let flags = [LifecycleFlag(id: "f")]
        func build(_ transition: Transition) throws(MachineError) -> Machine {
            try Machine(
                id: "m", states: leaves, initial: "a", events: events, flags: flags,
                callbacks: [LifecycleCallback(id: "c")], notifications: [LifecycleNotification(id: "n")],
                transitions: [try! T("a", on: "e", to: "b"), transition])
        }
        #expect(throws: MachineError.unknown(kind: .state, id: "q", context: "transition 1 source")) {
            try build(try T("q", on: "e", to: "b"))
        }
        #expect(throws: MachineError.unknown(kind: .state, id: "q", context: "transition 1 target")) {
            try build(try T("a", on: "e", to: "q"))
        }
        #expect(throws: MachineError.unknown(kind: .event, id: "q", context: "transition 1")) {
            try build(try T("a", on: "q", to: "b"))
        }
        #expect(throws: MachineError.unknown(kind: .callback, id: "q", context: "transition 1")) {
            try build(try T("a", on: "e", to: "b", do: [.callback("c"), .callback("q")]))
        }
        #expect(throws: MachineError.unknown(kind: .notification, id: "q", context: "transition 1")) {
            try build(try T("a", on: "e", to: "b", do: [.notify("q")]))
        }
        #expect(throws: MachineError.unknown(kind: .flag, id: "q", context: "transition 1 guard")) {
            try build(try T("a", on: "e", guard: "f && !q", to: "b"))
        }
        #expect(throws: MachineError.unknown(kind: .flag, id: "q", context: "transition 1 set")) {
            try build(try T("a", on: "e", to: "b", set: ["q": true]))
        }
        #expect(throws: MachineError.unknown(kind: .event, id: "q", context: "transition 1 raise")) {
            try build(try T("a", on: "e", to: "b", raise: ["e", "q"]))
        }
        // The same references, all declared, are accepted.
        let fine = try build(
            try T(
                "a", on: "e", guard: "f", to: "b", do: [.callback("c"), .notify("n")], set: ["f": true], raise: ["e"]))
        #expect(fine.transitions.count == 2)
    }

    @Test func callbackPostingAnUnknownNotificationIsRefused() {
        #expect(throws: MachineError.unknown(kind: .notification, id: "q", context: "callback 'c'")) {
            try Machine(
                id: "m", states: leaves, initial: "a",
                callbacks: [LifecycleCallback(id: "c", posts: PostedNotification(notification: "q"))])
        }
    }

    @Test func errorDescriptionsNameTheProblem() {
        #expect(MachineError.duplicate(kind: .state, id: "a").description == "duplicate state id 'a'")
        #expect(
            MachineError.unknown(kind: .flag, id: "q", context: "transition 1 set").description
                == "unknown flag 'q' in transition 1 set")
        #expect(MachineError.compoundWithoutInitial("p").description == "compound state 'p' has no valid initial child")
    }
}
