import LifeSpec

/// Where a test watches the output transaction from: `announce` is called as each step begins (a
/// file staged, the journal written, a commit step carried out). Nothing is installed in the
/// `lifespec` tool; `lifespec-test-host` (Tests/LifeSpecTestHost) installs a probe that reports the
/// steps and stretches them, so a test can kill a run inside a chosen step.
package enum TransactionProbe {
    package enum Step: String, Sendable {
        case stage, journal, commit
    }

    private static let installed = Locked<(@Sendable (Step) -> Void)?>(nil)

    package static func install(_ probe: @escaping @Sendable (Step) -> Void) { installed.withLock { $0 = probe } }

    static func announce(_ step: Step) {
        guard let probe = installed.withLock({ $0 }) else { return }
        probe(step)
    }
}
