/// The JSON Schema of the spec format (draft 2020-12), as `schema/lifespec.schema.json` holds it:
/// `lifespec schema` prints it and `lifespec init` writes it beside a project's specs, so editors
/// (the yaml-language-server behind VS Code's YAML extension) complete and check specs as they are
/// typed. Tests keep it in line with the parser's keys.
public enum SpecSchema {
    /// The file's place in this repository, and where `init` puts a copy in a project.
    public static let path = "schema/lifespec.schema.json"

    /// The file itself, compiled in (`Resources/lifespec.schema.json` is a link to it), so the
    /// schema has one source and a lone `lifespec` binary still carries it.
    public static let json = String(decoding: PackageResources.lifespec_schema_json, as: UTF8.self)
}

extension SpecSchema {
    /// Whether `id` can be a spec's id (lowercase letters, digits and '-', starting with a letter).
    public static func isValidSpecID(_ id: String) -> Bool { SpecParser.isValidSpecID(id) }

    /// A starter spec: three states, a guard, a callback that posts a notification and a
    /// scenario, valid as written; its first line points editors at the schema.
    /// `name` is the id as the user wrote it: its words give the title, each capitalised unless it
    /// has capitals of its own (`WKWebView-navigation` → "WKWebView Navigation").
    public static func starterSpec(id: String, path: String, schemaLocation: String, name: String? = nil) -> String {
        let title = (name ?? id).split(separator: "-").map { word in
            word.contains(where: \.isUppercase) ? String(word) : word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
        return """
            # yaml-language-server: $schema=\(schemaLocation)
            # A LifeSpec spec: one lifecycle as a state machine. The format: docs/spec-format.md.
            # Check it:  lifespec validate \(path)
            # Run it:    lifespec simulate \(path) start pause resume
            lifespec: 1
            id: \(id)
            title: \(title)
            summary: A starter lifecycle; replace its states, events and callbacks with yours.

            states:
              idle:
                title: Idle
                description: Nothing runs yet.
              running:
                title: Running
              paused:
                title: Paused
            initial: idle

            events:
              start: {title: Start, kind: user}
              pause: {title: Pause, kind: user}
              resume: {title: Resume, kind: user}
              stop: {title: Stop, kind: user}
              expire: {title: Session expires, kind: system}

            flags:
              sessionValid:
                default: true
                description: Whether a paused run may resume.

            callbacks:
              didStart:
                swift: "didStart()"
                description: Called when the run starts or resumes.
                posts: didStartNotification
              didPause: {swift: "didPause()"}
              didStop: {swift: "didStop()"}

            notifications:
              didStartNotification: {swift: "Player.didStartNotification"}

            transitions:
              - {from: idle, on: start, to: running, do: didStart}
              - {from: running, on: pause, to: paused, do: didPause}
              - {from: paused, on: resume, guard: sessionValid, to: running, do: didStart}
              - {from: paused, on: expire, set: {sessionValid: false}}
              - {from: [running, paused], on: stop, to: idle, do: didStop, set: {sessionValid: true}}

            scenarios:
              - id: pauseAndResume
                title: Pause, then resume
                events: [start, pause, resume]
                expect: [didStart, {notify: didStartNotification}, didPause, didStart, {notify: didStartNotification}]
                end: running

            """
    }
}
