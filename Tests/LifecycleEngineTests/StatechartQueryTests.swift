import LifecycleEngine
import Testing

/// The engine's read-only queries (`MachineQueries.swift`) and the trace checker on a machine with
/// parallel regions, history and entry/exit actions.
@Suite("Engine queries and trace checking for statecharts")
struct StatechartQueryTests {
    /// `on` is parallel: region `audio` (paused/playing, a shallow history `h`) and region `ui`
    /// (hidden/shown). Entering `playing` calls `startAudio`, leaving it `stopAudio`.
    static func player() throws -> Machine {
        try Machine(
            id: "player",
            states: [
                StateNode(id: "off"),
                StateNode(
                    id: "on", children: ["audio", "ui"], isParallel: true,
                    entry: ActionBlock(actions: [.callback("powerOn")])),
                StateNode(id: "audio", parent: "on", children: ["paused", "playing", "h"], initial: "paused"),
                StateNode(id: "paused", parent: "audio"),
                StateNode(
                    id: "playing", parent: "audio",
                    entry: ActionBlock(actions: [.callback("startAudio")]),
                    exit: ActionBlock(actions: [.callback("stopAudio")])),
                StateNode(id: "h", parent: "audio", history: .shallow),
                StateNode(id: "ui", parent: "on", children: ["hidden", "shown"], initial: "hidden"),
                StateNode(id: "hidden", parent: "ui"),
                StateNode(id: "shown", parent: "ui"),
            ],
            initial: "off",
            events: ["power", "play", "show", "quit"].map { LifecycleEvent(id: $0) },
            flags: [LifecycleFlag(id: "allowed", defaultValue: true), LifecycleFlag(id: "other")],
            callbacks: ["powerOn", "startAudio", "stopAudio", "shown"].map { LifecycleCallback(id: $0) },
            transitions: [
                Transition(sources: ["off"], events: ["power"], targets: ["h"]),
                Transition(
                    sources: ["paused"], events: ["play"], guardExpression: .flag("allowed"), targets: ["playing"]),
                Transition(
                    sources: ["hidden"], events: ["play"], guardExpression: .not(.flag("other")), targets: ["shown"],
                    actions: [.callback("shown")]),
                Transition(sources: ["on"], events: ["quit"], targets: ["off"]),
                Transition(sources: ["h"], events: [], targets: ["paused"]),
            ]
        )
    }

    @Test func structureByPosition() throws {
        let machine = try Self.player()
        let on = try #require(machine.position(of: "on"))
        let audio = try #require(machine.position(of: "audio"))
        let playing = try #require(machine.position(of: "playing"))
        let history = try #require(machine.position(of: "h"))
        #expect(machine.kind(at: on) == .parallel)
        #expect(machine.kind(at: audio) == .compound)
        #expect(machine.kind(at: playing) == .atomic)
        #expect(machine.kind(at: history) == .history(.shallow))
        #expect(machine.parentPosition(of: on) == nil)
        #expect(machine.parentPosition(of: playing) == audio)
        #expect(machine.childPositions(of: audio).map { machine.states[$0].id } == ["paused", "playing"])
        #expect(machine.historyPositions(of: audio) == [history])
        #expect(machine.ancestryPositions(of: playing).map { machine.states[$0].id } == ["playing", "audio", "on"])
        #expect(machine.isDescendant(playing, of: on) && !machine.isDescendant(on, of: on) && machine.isWithin(on, on))
        #expect(machine.regions(of: "on") == ["audio", "ui"])
        #expect(machine.regions(of: "audio") == [])
        let region = try #require(machine.enclosingRegion(of: playing))
        #expect(region.parallel == on && region.region == audio)
        #expect(machine.enclosingRegion(of: on) == nil)
        #expect(machine.hasParallelRegions)
        #expect(machine.defaultLeaves(entering: "on") == ["paused", "hidden"])
        #expect(machine.historyDefault(of: "h")?.targets == ["paused"])
        #expect(machine.historyDefault(of: "audio") == nil)
    }

    @Test func theRunQueryNamesTheMicrostepAndEveryFlagItsGuardsRead() throws {
        let machine = try Self.player()
        let runner = try Runner(machine: machine, states: ["paused", "hidden"])
        let play = runner.enabled(for: "play")
        // One transition per region, in document order; both regions' guards are read.
        #expect(play.transitions.map(\.index) == [1, 2])
        #expect(play.flagsRead == ["allowed", "other"])
        let blocked = try Runner(
            machine: machine, states: ["paused", "hidden"], flags: ["allowed": false, "other": true]
        ).enabled(for: "play")
        #expect(blocked.transitions.isEmpty)
        #expect(blocked.flagsRead == ["allowed", "other"])
        #expect(runner.enabled(for: "quit").transitions.map(\.index) == [3])
        #expect(runner.enabled(for: "quit").flagsRead == [])
        #expect(runner.enabled(for: "nonsense").transitions.isEmpty)
        #expect(machine.guardFlags(for: "play", onAncestryOf: machine.position(of: "shown")!) == [])
        #expect(machine.guardFlags(for: "play", onAncestryOf: machine.position(of: "hidden")!) == [1])
        #expect(machine.hasEventlessTransition(onAncestryOf: machine.position(of: "h")!))
        #expect(!machine.hasEventlessTransition(onAncestryOf: machine.position(of: "paused")!))
    }

    @Test func traceCheckingFollowsEveryRegion() throws {
        var checker = try TraceChecker(machine: Self.player())
        #expect(checker.possibleStates == ["off"])
        #expect(checker.feed(.callback("powerOn")) == nil)
        // `quit` is silent, so the app may have powered off again already.
        #expect(checker.possibleStates == ["off", "paused+hidden"])
        // `play` moves both regions: startAudio (entry of playing), then shown (the ui transition).
        // Which order the engine emits is what the checker expects.
        let trace = try Runner(machine: Self.player(), states: ["paused", "hidden"]).enabled(for: "play")
        #expect(trace.transitions.count == 2)
        var copy = checker
        let fed = copy.feed(.callback("stopAudio"))
        let deviation = try #require(fed)
        #expect(deviation.possibleStates == ["off", "paused+hidden"])
        #expect(
            deviation.allowedNext.contains(.callback("shown"))
                || deviation.allowedNext.contains(.callback("startAudio")))
        var runner = try Runner(machine: Self.player(), states: ["paused", "hidden"])
        for observation in try runner.send("play").compactMap(\.observation) {
            #expect(checker.feed(observation) == nil)
        }
        #expect(checker.possibleStates.contains("playing+shown"))
        #expect(!checker.possibleStates.contains("paused+hidden"))
    }

    @Test func traceCheckingStartsInANamedConfiguration() throws {
        let checker = try TraceChecker(machine: Self.player(), from: "playing+shown")
        #expect(checker.possibleStates == ["playing+shown"])
        #expect(throws: RunError.self) { try TraceChecker(machine: Self.player(), from: "playing+nowhere") }
    }
}
