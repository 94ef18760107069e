import LifecycleEngine

/// `simulate`'s two formats of an engine trace, beside check-trace's (`TraceCheck`).
package enum SimulationText {
    /// `discarded`: events nothing took (a chart with SCXML's semantics discards them), each with
    /// the number of steps before it.
    package static func render(
        _ steps: [Step], machine: Machine, start: String, final: String?,
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
                lines.append("    callback      \(machine.callback(id)?.swiftName ?? id)")
            case .notification(let id):
                lines.append("    notification  \(machine.notification(id)?.swiftName ?? id)")
            }
        }
        discard(upTo: steps.count)
        if let final { lines.append("final state: \(final)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `configurations`: every active state (atomic, compound, parallel) in document order, after
    /// start and after each event's macrostep.
    /// `part(id)`: in a system spec, the part a state, callback or notification belongs to; each
    /// step of a part says which (`"part": "A"`). `receiver(id)`: the object that receives a
    /// callback or posts a notification (`SpecDocument.receiver(of:)`: `"AppDelegate"` for an app
    /// delegate method whichever part's region models it); each call says which. `name` stays the
    /// machine's Swift name: the one a log, `check-trace` and the generated suites use.
    package static func json(
        _ steps: [Step], machine: Machine, final: String, configurations: [[String]],
        part: (String) -> String? = { _ in nil }, receiver: (String) -> String? = { _ in nil }
    ) -> String {
        func withPart(_ fields: [(String, JSONValue)], of id: String) -> JSONValue {
            .object(fields + (part(id).map { [("part", JSONValue.string($0))] } ?? []))
        }
        func call(_ fields: [(String, JSONValue)], of id: String) -> JSONValue {
            .object(
                fields + (part(id).map { [("part", JSONValue.string($0))] } ?? [])
                    + (receiver(id).map { [("receiver", JSONValue.string($0))] } ?? []))
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
                    ], of: id)
            case .notification(let id):
                call(
                    [
                        ("kind", .string("notification")), ("id", .string(id)),
                        ("name", .string(machine.notification(id)?.swiftName ?? id)),
                    ], of: id)
            }
        }
        return JSONValue.object([
            ("steps", .array(items)), ("finalState", .string(final)),
            ("configurations", .array(configurations.map { .array($0.map(JSONValue.string)) })),
        ]).text + "\n"
    }
}
