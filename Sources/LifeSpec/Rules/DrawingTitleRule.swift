import LifecycleEngine

/// LS152: a state, event or flag with no title in a spec that declares a locale other than
/// English. Drawings in that locale show titles only, so such an element would be drawn as its id,
/// a word of code in the middle of the reader's language (an English drawing shows ids beneath
/// titles anyway). A title missing one translation is LS150's, at the text.
struct DrawingTitleRule: SpecRule {
    static func check(_ context: RuleContext) -> [Finding] {
        let document = context.document
        let locales = context.raw.locales.map(\.value).filter { Language.resolve($0) != .english }
        guard !locales.isEmpty else { return [] }
        // A part's elements are the part's spec's to report, in its own file.
        func isOwn(_ location: SourceLocation) -> Bool { location.path == context.raw.path }
        var findings: [Finding] = []
        for state in document.states where state.title == nil && isOwn(state.location) {
            // A history pseudo-state is drawn as H or H*, and a part's region by the part's title.
            if context.machine.state(state.id)?.isHistory == true || document.part(of: state.id) != nil { continue }
            findings.append(Finding(.missingDrawingTitle, .untitled("state", state.id, locales), at: state.location))
        }
        for event in document.events where event.title == nil && isOwn(event.location) {
            findings.append(Finding(.missingDrawingTitle, .untitled("event", event.id, locales), at: event.location))
        }
        for flag in document.flags where flag.title == nil && isOwn(flag.location) {
            findings.append(Finding(.missingDrawingTitle, .untitled("flag", flag.id, locales), at: flag.location))
        }
        return findings
    }
}

extension Finding.Message {
    static func untitled(_ kind: String, _ id: String, _ locales: [String]) -> Self {
        let list = locales.map { "'\($0)'" }.joined(separator: ", ")
        return Self("\(kind) '\(id)' has no title: drawings in \(list) would show its id; give it a 'title'")
    }
}
