import LifeSpec
import LifecycleEngine

/// A scenario replayed by the engine, grouped for reading: per event, the transitions taken, each
/// with the callbacks and notifications it produced.
struct ScenarioWalkthrough: Sendable, Hashable {
    struct Move: Sendable, Hashable {
        let step: TransitionStep
        /// Callbacks and notifications, in the order the engine emitted them.
        let observations: [Observation]
    }

    struct Item: Sendable, Hashable {
        let event: String
        let moves: [Move]
        /// What the event did to the states, from the engine's record of the states it exited and
        /// entered, each list in document order: states active before and not after (left), active
        /// after and not before (entered), active before and after but exited and entered on the
        /// way (an external transition back into them), and entered and exited on the way (active
        /// neither before nor after: an eventless transition or a raised event moved on).
        var left: [String] = []
        var entered: [String] = []
        var reentered: [String] = []
        var passedThrough: [String] = []
    }

    enum Stop: Sendable, Hashable {
        /// The runner could not be created (unknown start state or flag).
        case cannotStart(RunError)
        /// An event failed; the walkthrough ends before it.
        case failed(event: String, error: RunError)
    }

    let start: String
    let flags: [String: Bool]
    let items: [Item]
    let end: String
    let stop: Stop?
    /// The active atomic states at the start and the end (one per region).
    let startStates: [String]
    let endStates: [String]

    /// What starting did (a scenario without `from` starts as SCXML does: initial states entered
    /// with their entry actions, eventless transitions taken), before the first event.
    let startMoves: [Move]
    let startObservations: [Observation]

    init(scenario: SpecDocument.ScenarioInfo, machine: Machine) {
        flags = scenario.flags
        let runner: Runner
        do {
            // As the validator replays it.
            let begun = try Runner.begin(machine: machine, from: scenario.from, flags: scenario.flags)
            runner = begun.runner
            startMoves = Self.group(begun.steps)
            // Observations before any transition (entry actions of the initial states).
            startObservations = Array(
                begun.steps.prefix { if case .transition = $0 { false } else { true } }.compactMap(\.observation))
        } catch {
            startMoves = []
            startObservations = []
            start = scenario.from ?? machine.initial
            items = []
            end = start
            stop = .cannotStart(error)
            startStates = [start]
            endStates = [start]
            return
        }
        var current = runner
        start = current.state
        startStates = current.states
        var items: [Item] = []
        var stop: Stop?
        for event in scenario.events {
            do {
                let before = Set(current.activeStates)
                let (steps, exited, entered) = try current.sendRecordingStates(event)
                let after = Set(current.activeStates)
                let both = Set(exited).intersection(entered)
                items.append(
                    Item(
                        event: event, moves: Self.group(steps),
                        left: exited.filter { before.contains($0) && !after.contains($0) },
                        entered: entered.filter { after.contains($0) && !before.contains($0) },
                        reentered: exited.filter { both.contains($0) && before.contains($0) && after.contains($0) },
                        passedThrough: exited.filter {
                            both.contains($0) && !before.contains($0) && !after.contains($0)
                        }))
            } catch {
                stop = .failed(event: event, error: error)
                break
            }
        }
        self.items = items
        self.stop = stop
        end = current.state
        endStates = current.states
    }

    private static func group(_ steps: [Step]) -> [Move] {
        var moves: [Move] = []
        var pending: (step: TransitionStep, observations: [Observation])?
        for step in steps {
            switch step {
            case .transition(let taken):
                if let pending { moves.append(Move(step: pending.step, observations: pending.observations)) }
                pending = (taken, [])
            case .callback, .notification:
                if let observation = step.observation { pending?.observations.append(observation) }
            }
        }
        if let pending { moves.append(Move(step: pending.step, observations: pending.observations)) }
        return moves
    }
}
