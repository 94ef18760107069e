import LifeSpec
import LifecycleEngine

/// One scenario's engine trace as a sequence diagram: who hears what, in which order.
///
/// The rows come from the engine's replay of the scenario (`ScenarioWalkthrough`, the trace the
/// pages print), never from a reading of the spec of its own: each event the scenario sends, each
/// event a transition raises, each callback and notification in the order the engine emitted
/// them, and the state each transition entered. Lifelines: the party that sends the events (the
/// person and the system), then the object of a single-object spec, or, for a system, the
/// system's own region (when it has states) and each part.
package struct SequenceDiagram: Sendable, Hashable {
    package struct Lifeline: Sendable, Hashable {
        /// The part's name; `""` for the sender, `"."` for the object or the system's own region,
        /// `"@name"` for an object shared by the app (`SpecDocument.sharedReceivers`).
        package let key: String
        package let title: String
    }

    package enum Row: Sendable, Hashable {
        /// The scenario's `number`th event, sent to lifeline `to`.
        case event(number: Int, title: String, to: Int)
        /// An event a transition raised, from the lifeline whose transition raised it.
        case raised(title: String, from: Int, to: Int)
        /// A callback called on lifeline `to`.
        case call(name: String, to: Int)
        /// A notification posted, observed by lifeline `to`.
        case post(name: String, to: Int)
        /// The states lifeline `on` is in from here on (several: one per region).
        case state(titles: [String], on: Int)
        /// The engine refused the next event: the replay ends here.
        case stopped(message: String)
    }

    package let title: String
    package let lifelines: [Lifeline]
    /// The states each lifeline starts in (the sender has none).
    package let start: [Int: [String]]
    package let rows: [Row]
    /// The states each lifeline ends in.
    package let end: [Int: [String]]
    package let language: Language

    /// `nil` when the spec has no scenario `scenario`.
    package init?(spec: LoadedSpec, scenario id: String, locale: String?) {
        guard let scenario = spec.document.scenario(id) else { return nil }
        let document = spec.document
        let strings = Glossary(locale: locale)
        language = strings.language
        func text(_ localized: LocalizedText?, _ fallback: String) -> String {
            document.text(localized, locale: locale) ?? fallback
        }
        title = text(scenario.title, scenario.id)

        let walk = ScenarioWalkthrough(scenario: scenario, machine: spec.machine)

        // A single-object spec whose calls go to several objects (the app delegate and a scene
        // delegate or a view controller: `SpecDocument.catalogReceivers`) draws each as a lifeline
        // of its own, as a system draws its app-wide objects; when they all go to one object, the
        // object's own lifeline takes them.
        let callObjects = document.isSystem ? [:] : document.catalogReceivers
        let splitsCalls = Set(callObjects.values).count > 1
        func object(of observation: Observation) -> String? {
            switch observation {
            case .callback(let id): document.sharedReceivers[id] ?? (splitsCalls ? callObjects[id] : nil)
            case .notification(let id):
                document.sharedReceivers[id] ?? (splitsCalls ? document.catalogPosters[id] : nil)
            }
        }

        // Lifelines: the sender; the objects this trace calls apart from the one it is about (the
        // app delegate of a system of scenes); the object, or the system's own region; the parts.
        var lifelines = [Lifeline(key: "", title: strings.sequenceSender)]
        let observed =
            walk.startObservations + (walk.startMoves + walk.items.flatMap(\.moves)).flatMap(\.observations)
        for observation in observed {
            if let object = object(of: observation), !lifelines.contains(where: { $0.key == "@" + object }) {
                lifelines.append(Lifeline(key: "@" + object, title: object))
            }
        }
        let own = document.parts.isEmpty || spec.machine.states.contains { document.part(of: $0.id) == nil }
        let ownIndex = own ? lifelines.count : 0
        if own {
            lifelines.append(Lifeline(key: ".", title: text(document.title, document.id)))
        }
        for part in document.parts {
            lifelines.append(Lifeline(key: part.name, title: text(part.title ?? part.specTitle, part.name)))
        }
        self.lifelines = lifelines
        // The receiver of a call (`SpecDocument.receiver(of:)`): an app-wide object, else a part.
        func lifeline(of id: String) -> Int {
            guard let receiver = document.receiver(of: id) else { return ownIndex }
            return lifelines.firstIndex { $0.key == "@" + receiver || $0.key == receiver } ?? ownIndex
        }
        func stateTitle(_ id: String) -> String {
            text(document.state(id)?.title, id.split(separator: ".").last.map(String.init) ?? id)
        }
        func eventTitle(_ id: String) -> String { text(document.event(id)?.title, id) }
        func grouped(_ states: [String]) -> [Int: [String]] {
            var result: [Int: [String]] = [:]
            for state in states { result[lifeline(of: state), default: []].append(stateTitle(state)) }
            return result
        }

        var rows: [Row] = []
        // The events transitions raised and not yet taken, with the lifeline that raised each: SCXML
        // takes them in the order they were raised, after the step that raised them.
        var pending: [(event: String, from: Int)] = []
        func observe(_ observation: Observation) {
            let objectLifeline = object(of: observation).flatMap { name in lifelines.firstIndex { $0.key == "@" + name }
            }
            switch observation {
            case .callback(let id):
                let to = objectLifeline ?? lifeline(of: id)
                rows.append(.call(name: shortName(spec.machine.callback(id)?.swiftName ?? id, ofCallback: id), to: to))
            case .notification(let id):
                let to = objectLifeline ?? lifeline(of: id)
                rows.append(.post(name: shortName(spec.machine.notification(id)?.swiftName ?? id), to: to))
            }
        }
        /// A part's names carry the part (`B.viewDidLoad()`), and a call to an object the whole app
        /// shares that object (`AppDelegate.application(_:…)`); on that lifeline the arrow says so.
        /// A notification keeps the name of the class that posts it (`UIApplication.…Notification`).
        func shortName(_ name: String, ofCallback callback: String? = nil) -> String {
            let shared = callback.flatMap { document.sharedReceivers[$0] }.map { [$0] } ?? []
            guard let object = (document.parts.map(\.name) + shared).first(where: { name.hasPrefix($0 + ".") })
            else { return name }
            return String(name.dropFirst(object.count + 1))
        }
        func add(_ moves: [ScenarioWalkthrough.Move], sent: String?, target: Int) {
            for move in moves {
                let mover = lifeline(of: move.step.from)
                if let event = move.step.event, event != sent {
                    var from = target
                    if let index = pending.firstIndex(where: { $0.event == event }) {
                        from = pending.remove(at: index).from
                    }
                    rows.append(.raised(title: eventTitle(event), from: from, to: mover))
                }
                if spec.machine.transitions.indices.contains(move.step.transitionIndex) {
                    pending += spec.machine.transitions[move.step.transitionIndex].raises.map { ($0, mover) }
                }
                move.observations.forEach(observe)
                if !move.step.isInternal {
                    rows.append(.state(titles: [stateTitle(move.step.to)], on: lifeline(of: move.step.to)))
                }
            }
        }
        walk.startObservations.forEach(observe)
        add(walk.startMoves, sent: nil, target: ownIndex)
        for (index, item) in walk.items.enumerated() {
            let target = lifeline(of: item.event)
            rows.append(.event(number: index + 1, title: eventTitle(item.event), to: target))
            pending = []
            add(item.moves, sent: item.event, target: target)
        }
        switch walk.stop {
        case .cannotStart(let error): rows.append(.stopped(message: "\(error)"))
        case .failed(let event, let error): rows.append(.stopped(message: "\(eventTitle(event)): \(error)"))
        case nil: break
        }
        if case .cannotStart? = walk.stop { start = [:] } else { start = grouped(walk.startStates) }
        end = grouped(walk.endStates)
        // A state row just before the end says what the end says: the end says it once.
        while case .state = rows.last { rows.removeLast() }
        self.rows = rows
    }
}
