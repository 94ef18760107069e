import LifecycleEngine
@testable import LifeSpec

/// A media player with every statechart construct the renderers draw: a parallel state `on` with
/// two regions (`playback`, `volume`), a shallow history `resume` with its default transition,
/// final states (`finished` inside a region, `unplugged` at the top level), entry and exit
/// actions, a targetless transition and a transition with two targets (a fork).
enum StatechartFixture {
    static func machine() throws -> Machine {
        try Machine(
            id: "player",
            states: [
                StateNode(id: "off"),
                StateNode(id: "on", children: ["playback", "volume"], isParallel: true,
                          entry: ActionBlock(actions: [.callback("powerOn")]), exit: ActionBlock(actions: [.callback("powerDown")])),
                StateNode(id: "playback", parent: "on", children: ["stopped", "playing", "paused", "finished", "resume"], initial: "stopped"),
                StateNode(id: "stopped", parent: "playback"),
                StateNode(id: "playing", parent: "playback",
                          entry: ActionBlock(actions: [.callback("startAudio")]), exit: ActionBlock(actions: [.callback("stopAudio")])),
                StateNode(id: "paused", parent: "playback"),
                StateNode(id: "finished", parent: "playback", isFinal: true),
                StateNode(id: "resume", parent: "playback", history: .shallow),
                StateNode(id: "volume", parent: "on", children: ["normal", "muted"], initial: "normal"),
                StateNode(id: "normal", parent: "volume"),
                StateNode(id: "muted", parent: "volume"),
                StateNode(id: "unplugged", isFinal: true),
            ],
            initial: "off",
            events: ["power", "powerMuted", "play", "pause", "stop", "end", "seek", "mute", "unmute", "powerOff", "unplug"]
                .map { LifecycleEvent(id: $0, kind: .user) },
            callbacks: [
                LifecycleCallback(id: "powerOn", swiftName: "playerDidPowerOn()"),
                LifecycleCallback(id: "powerDown", swiftName: "playerWillPowerOff()"),
                LifecycleCallback(id: "startAudio", swiftName: "startAudio()"),
                LifecycleCallback(id: "stopAudio", swiftName: "stopAudio()"),
                LifecycleCallback(id: "seekAudio", swiftName: "seek(to:)"),
            ],
            transitions: [
                Transition(sources: ["off"], events: ["power"], targets: ["resume"]),
                Transition(sources: ["off"], events: ["powerMuted"], targets: ["resume", "muted"]),
                Transition(sources: ["off"], events: ["unplug"], targets: ["unplugged"]),
                Transition(sources: ["stopped"], events: ["play"], targets: ["playing"]),
                Transition(sources: ["playing"], events: ["pause"], targets: ["paused"]),
                Transition(sources: ["paused"], events: ["play"], targets: ["playing"]),
                Transition(sources: ["playing", "paused"], events: ["stop"], targets: ["stopped"]),
                Transition(sources: ["playing"], events: ["end"], targets: ["finished"]),
                Transition(sources: ["playing"], events: ["seek"], targets: [], actions: [.callback("seekAudio")]),
                Transition(sources: ["normal"], events: ["mute"], targets: ["muted"]),
                Transition(sources: ["muted"], events: ["unmute"], targets: ["normal"]),
                Transition(sources: ["on"], events: ["powerOff"], targets: ["off"]),
                Transition(sources: ["resume"], events: [], targets: ["stopped"]),
            ]
        )
    }

    /// The document of `Tests/Fixtures/Statechart/player-document.yaml` with `machine()`.
    static func spec() throws -> LoadedSpec {
        let loaded = try DiagramFixtures.load("Tests/Fixtures/Statechart/player-document.yaml")
        return LoadedSpec(document: loaded.document, machine: try machine())
    }
}
