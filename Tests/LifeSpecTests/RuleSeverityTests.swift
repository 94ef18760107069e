import Testing

@testable import LifeSpec

/// A finding's severity comes from one decision (`RuleSeverity.policy(for:)`), whether the spec
/// has other errors or not: a dead end is a warning in a chart with SCXML's semantics
/// (`unhandled: ignore`) on every path through the loader.
@Suite("Rule severity on every loader path")
struct RuleSeverityTests {
    /// A chart with SCXML's semantics and a state nothing leaves (LS121, advisory there).
    private static func chart(back transition: String) -> String {
        """
        lifespec: 1
        id: chart
        unhandled: ignore
        flags: {ready: {default: false}}
        states: {idle: {}, busy: {}, stuck: {}}
        initial: idle
        events: {go: {}, jam: {}, back: {}}
        transitions:
          - {from: idle, on: go, to: busy}
          - \(transition)
          - {from: busy, on: jam, to: stuck}

        """
    }

    private func severities(_ text: String) -> [String] {
        SpecLoader.load(text: text, path: "chart.yaml").diagnostics.map {
            "\($0.severity.rawValue) \($0.code.rawValue) \($0.location.line)"
        }
    }

    @Test func aDeadEndIsAWarningInAValidChart() {
        #expect(severities(Self.chart(back: "{from: busy, on: back, to: idle}")) == ["warning LS121 5"])
    }

    /// The spec as read fails a check (a guard that never holds), so the machine's rules run on the
    /// error path: they used to be judged as a lifecycle's there, making the dead end an error.
    @Test func aDeadEndStaysAWarningBesideAGuardThatNeverHolds() {
        #expect(
            severities(Self.chart(back: #"{from: busy, on: back, to: idle, guard: "ready && !ready"}"#))
                == ["warning LS121 5", "error LS132 10"])
    }

    /// A transition does not resolve, so the rules run on the machine without it.
    @Test func aDeadEndStaysAWarningBesideABrokenTransition() {
        #expect(
            severities(Self.chart(back: "{from: busy, on: back, to: idel}")) == ["warning LS121 5", "error LS101 10"])
    }

    /// The same findings in a lifecycle spec are errors on both paths.
    @Test func aLifecycleSpecKeepsItsDeadEndAnError() {
        let lifecycle = Self.chart(back: "{from: busy, on: back, to: idel}").replacingOccurrences(
            of: "unhandled: ignore\n", with: "")
        #expect(severities(lifecycle) == ["error LS121 4", "error LS101 9"])
    }
}
