import Foundation
import LifecycleEngine

/// Explorations kept for machines seen again, for a long-running `lifespec watch`: a save that
/// changes a spec's words but not its machine (and every system using it as a part, whose composed
/// machine is then unchanged too) is validated without exploring the machine again. Off unless
/// enabled (a one-shot command explores each machine once anyway); keyed by the whole machine
/// (`Machine` is `Hashable`), so a reused exploration is exactly the one exploring would give.
package enum StateSpaceMemo {
    private static let memo = MemoBox()

    /// The memo behind its lock: only read or written inside `withLock`.
    private final class MemoBox: @unchecked Sendable {
        private let lock = NSLock()
        private var memo = Memo()
        func withLock<Result>(_ body: (inout Memo) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&memo)
        }
    }

    private struct Memo {
        var enabled = false
        var spaces: [Machine: StateSpace] = [:]
        var order: [Machine] = []
    }

    /// How many explorations are kept, the oldest dropped first (a watch holds one a spec).
    static let capacity = 64

    package static func enable() { memo.withLock { $0.enabled = true } }

    static func space(for machine: Machine) -> StateSpace {
        if let kept = memo.withLock({ $0.enabled ? $0.spaces[machine] : nil }) { return kept }
        let space = StateSpace(machine: machine)
        memo.withLock { memo in
            guard memo.enabled, memo.spaces.updateValue(space, forKey: machine) == nil else { return }
            memo.order.append(machine)
            if memo.order.count > capacity { memo.spaces[memo.order.removeFirst()] = nil }
        }
        return space
    }
}
