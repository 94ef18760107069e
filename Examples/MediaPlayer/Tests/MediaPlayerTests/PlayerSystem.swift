import Foundation
import LifecycleEngine
import MediaPlayer

/// The player as the generated suite sees it: a `LifecycleSystem` that sends each event of the
/// spec to the player and reports the callbacks and notifications it observed, by their spec ids.
final class PlayerSystem: LifecycleSystem, PlayerDelegate {
    private var player = Player()
    private let center = NotificationCenter()
    private let log = ObservationLog()
    private var observers: [NSObjectProtocol] = []

    init() {
        // A center of its own: notifications of other players (other tests) are not seen.
        let log = log
        observers.append(
            center.addObserver(forName: Player.didStartNotification, object: nil, queue: nil) { _ in
                log.append(.notification("startNotification"))
            })
        observers.append(
            center.addObserver(forName: Player.didFinishNotification, object: nil, queue: nil) { _ in
                log.append(.notification("finishNotification"))
            })
        reset(status: .idle, flags: [:])
    }

    deinit { observers.forEach(center.removeObserver) }

    // The spec's state ids are the player's statuses; `loaded` is the compound state around
    // `paused` and `playing` (entering it enters `paused`).
    func reset(to state: String, flags: [String: Bool]) throws {
        let status: Player.Status? = state == "loaded" ? .paused : Player.Status(rawValue: state)
        guard let status else { throw UnknownState(state: state) }
        reset(status: status, flags: flags)
    }

    private func reset(status: Player.Status, flags: [String: Bool]) {
        player = Player(
            status: status, autoplay: flags["autoplay"] ?? false, loop: flags["loop"] ?? false,
            notificationCenter: center)
        player.delegate = self
    }

    func send(_ event: String) throws -> EventOutcome {
        log.clear()
        let handled: Bool
        switch event {
        case "load": handled = player.load()
        case "play": handled = player.play()
        case "pause": handled = player.pause()
        case "reachEnd": handled = player.reachEnd()
        case "fail": handled = player.fail()
        case "close": handled = player.close()
        default: throw UnknownEvent(event: event)
        }
        return handled ? .handled(log.items) : .rejected
    }

    var currentState: String { player.status.rawValue }

    func playerDidStart(_ player: Player) { log.append(.callback("didStart")) }
    func playerDidPause(_ player: Player) { log.append(.callback("didPause")) }
    func playerDidFinish(_ player: Player) { log.append(.callback("didFinish")) }
    func playerStatusChangedToFailed(_ player: Player) { log.append(.callback("didFail")) }

    struct UnknownState: Error { let state: String }
    struct UnknownEvent: Error { let event: String }
}

/// What the player emitted during one event, in order. Notification blocks are `@Sendable`, so
/// the log they append to is a lock-protected reference.
final class ObservationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var observations: [Observation] = []

    func append(_ observation: Observation) { lock.withLock { observations.append(observation) } }
    func clear() { lock.withLock { observations.removeAll() } }
    var items: [Observation] { lock.withLock { observations } }
}

/// The one function the generated suite asks for: a fresh system under test for each case.
extension MediaPlayerConformance {
    static func makeSystem() throws -> PlayerSystem { PlayerSystem() }
}
