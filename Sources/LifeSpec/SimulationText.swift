import LifecycleEngine

/// `simulate`'s two formats of an engine trace, beside check-trace's (`TraceCheck`).
package enum SimulationText {
    /// `discarded`: events nothing took (a chart with SCXML's semantics discards them), each with
    /// the number of steps before it. Each callback is named by the object that receives it
    /// (`callName`).
    package static func render(
        _ steps: [Step], machine: Machine, document: SpecDocument? = nil, start: String, final: String?,
        discarded: [(position: Int, event: String)] = []
    ) -> String {
        var lines = ["start: \(start)"]
        var pending = discarded[...]
        func discard(upTo position: Int) {
            while let next = pending.first, next.position <= position {
                lines.append("\(next.event): discarded (no transition takes it; SCXML ignores such an event)")
                pending = pending.dropFirst()
            }
        }
        for (position, step) in steps.enumerated() {
            discard(upTo: position)
            switch step {
            case .transition(let transition):
                let trigger = transition.event ?? "(eventless)"
                let change =
                    transition.isInternal ? "stays in \(transition.from)" : "\(transition.from) → \(transition.to)"
                lines.append("\(trigger): \(change)")
            case .callback(let id):
                lines.append("    callback      \(callName(id, machine: machine, document: document))")
            case .notification(let id):
                lines.append("    notification  \(machine.notification(id)?.swiftName ?? id)")
            }
        }
        discard(upTo: steps.count)
        if let final { lines.append("final state: \(final)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A callback as `simulate` names it: by the object that receives it
    /// (`SpecDocument.traceReceiver(ofCallback:)`: `AppDelegate.applicationWillResignActive(_:)`,
    /// `S1.sceneDidBecomeActive(_:)`), else by its Swift name alone. A system's names already
    /// start with their object; a single-object spec's do not, as its logs record them.
    package static func callName(_ id: String, machine: Machine, document: SpecDocument?) -> String {
        let name = machine.callback(id)?.swiftName ?? id
        guard let receiver = document?.traceReceiver(ofCallback: id), !name.hasPrefix(receiver + ".") else {
            return name
        }
        return receiver + "." + name
    }

    /// `configurations`: every active state (atomic, compound, parallel) in document order, after
    /// start and after each event's macrostep. With the spec's `document`:
    /// - in a system, each step of a part says which (`"part": "A"`);
    /// - each callback says which object receives it (`"receiver"`, as `callName` prefixes it), and
    ///   each notification which object posts it, where the spec says (`SpecDocument.poster(ofNotification:)`).
    ///
    /// `name` stays the machine's Swift name: the one a log, `check-trace` and the generated suites use.
    package static func json(
        _ steps: [Step], machine: Machine, document: SpecDocument? = nil, final: String, configurations: [[String]]
    ) -> String {
        func part(_ id: String) -> [(String, JSONValue)] {
            document?.part(of: id).map { [("part", JSONValue.string($0.name))] } ?? []
        }
        func withPart(_ fields: [(String, JSONValue)], of id: String) -> JSONValue { .object(fields + part(id)) }
        func call(_ fields: [(String, JSONValue)], of id: String, receiver: String?) -> JSONValue {
            .object(fields + part(id) + (receiver.map { [("receiver", JSONValue.string($0))] } ?? []))
        }
        let items = steps.map { step -> JSONValue in
            switch step {
            case .transition(let transition):
                withPart(
                    [
                        ("kind", .string("transition")), ("event", .optional(transition.event)),
                        ("from", .string(transition.from)), ("to", .string(transition.to)),
                    ], of: transition.from)
            case .callback(let id):
                call(
                    [
                        ("kind", .string("callback")), ("id", .string(id)),
                        ("name", .string(machine.callback(id)?.swiftName ?? id)),
                    ], of: id, receiver: document?.traceReceiver(ofCallback: id))
            case .notification(let id):
                call(
                    [
                        ("kind", .string("notification")), ("id", .string(id)),
                        ("name", .string(machine.notification(id)?.swiftName ?? id)),
                    ], of: id, receiver: document?.poster(ofNotification: id))
            }
        }
        return JSONValue.object([
            ("steps", .array(items)), ("finalState", .string(final)),
            ("configurations", .array(configurations.map { .array($0.map(JSONValue.string)) })),
        ]).text + "\n"
    }
}
