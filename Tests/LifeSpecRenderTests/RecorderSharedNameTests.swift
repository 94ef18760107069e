import LifeSpec
import LifeSpecTestSupport
import Testing

@testable import LifeSpecRender

/// The recorder and a shared Swift name (#35 item 1): `#function` gives both of WKNavigationDelegate's
/// `webView(_:decidePolicyFor:decisionHandler:)` the same name, so the recorder has the app log
/// the one name check-trace can tell apart, the selector.
@Suite("Recorder: names two callbacks share")
struct RecorderSharedNameTests {
    static let spec = """
        lifespec: 1
        id: web-navigation
        states:
          idle:
          deciding:
          loading:
          answering:
        initial: idle
        events:
          load: {kind: user}
          allow: {kind: system}
          respond: {kind: system}
          finish: {kind: system}
        callbacks:
          decideAction:
            swift: "webView(_:decidePolicyFor:decisionHandler:)"
            objc: "webView:decidePolicyForNavigationAction:decisionHandler:"
          didStart: {swift: "webView(_:didStartProvisionalNavigation:)"}
          decideResponse:
            swift: "webView(_:decidePolicyFor:decisionHandler:)"
          didFinish: {swift: "webView(_:didFinish:)"}
        transitions:
          - {from: idle, on: load, to: deciding, do: decideAction}
          - {from: deciding, on: allow, to: loading, do: didStart}
          - {from: loading, on: respond, to: answering, do: decideResponse}
          - {from: answering, on: finish, to: idle, do: didFinish}

        """

    @Test("a shared Swift name is recorded by its selector, or by its id without one; other names stay")
    func sharedNamesAreRecordedByWhatTellsThemApart() throws {
        let spec = try SpecFixtures.load(yaml: Self.spec)
        let names = RecorderRenderer.distinguishingLogNames(spec.machine)
        #expect(
            names == [
                .callback("decideAction"): "webView:decidePolicyForNavigationAction:decisionHandler:",
                .callback("decideResponse"): "decideResponse",
            ])
        let file = RecorderRenderer.render(spec)
        #expect(file.contains("`record(\"webView:decidePolicyForNavigationAction:decisionHandler:\")`"), "\(file)")
        #expect(file.contains("`record(\"decideResponse\")`"), "\(file)")
        // `#function` is offered only where it gives a name of one method.
        #expect(file.contains("`record(\"webView(_:didFinish:)\")`"))
        #expect(!file.contains("`record(\"webView(_:decidePolicyFor:decisionHandler:)\")`"), "\(file)")
    }
}
