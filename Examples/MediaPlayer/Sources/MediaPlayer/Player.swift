import Foundation

/// What a player tells its delegate. The spec (docs/examples/media-player.yaml) names these
/// callbacks `didStart`, `didPause`, `didFinish` and `didFail`.
public protocol PlayerDelegate: AnyObject {
    func playerDidStart(_ player: Player)
    func playerDidPause(_ player: Player)
    func playerDidFinish(_ player: Player)
    func playerStatusChangedToFailed(_ player: Player)
}

/// A media player written by hand, the way an app's code is: no state machine library, just
/// methods that check the status, change it, call the delegate and post notifications. The
/// example's tests check it against the spec with the suite lifespec generated from it.
public final class Player {
    public enum Status: String, Sendable {
        case idle, paused, playing, finished
    }

    public static let didStartNotification = Notification.Name("PlayerDidStartNotification")
    public static let didFinishNotification = Notification.Name("PlayerDidFinishNotification")

    public private(set) var status: Status
    /// Start playing as soon as an item is loaded.
    public var autoplay: Bool
    /// Play the item again when it ends.
    public var loop: Bool
    public weak var delegate: PlayerDelegate?
    public let notificationCenter: NotificationCenter

    public init(
        status: Status = .idle, autoplay: Bool = false, loop: Bool = false,
        notificationCenter: NotificationCenter = .default
    ) {
        self.status = status
        self.autoplay = autoplay
        self.loop = loop
        self.notificationCenter = notificationCenter
    }

    /// Loads an item; plays it at once with autoplay. False when an item is loaded already.
    @discardableResult
    public func load() -> Bool {
        guard status == .idle else { return false }
        status = .paused
        if autoplay { start() }
        return true
    }

    @discardableResult
    public func play() -> Bool {
        guard status == .paused else { return false }
        start()
        return true
    }

    @discardableResult
    public func pause() -> Bool {
        guard status == .playing else { return false }
        status = .paused
        autoplay = false
        delegate?.playerDidPause(self)
        return true
    }

    /// The item reached its end: again from the start with `loop`, else finished (back to idle
    /// with autoplay, ready for the next item).
    @discardableResult
    public func reachEnd() -> Bool {
        guard status == .playing else { return false }
        if loop {
            start()
            return true
        }
        status = autoplay ? .idle : .finished
        notificationCenter.post(name: Self.didFinishNotification, object: self)
        delegate?.playerDidFinish(self)
        return true
    }

    /// Playback failed: the delegate hears of it and the item is closed.
    @discardableResult
    public func fail() -> Bool {
        guard status == .paused || status == .playing else { return false }
        delegate?.playerStatusChangedToFailed(self)
        return close()
    }

    @discardableResult
    public func close() -> Bool {
        guard status == .paused || status == .playing else { return false }
        status = .idle
        return true
    }

    private func start() {
        status = .playing
        delegate?.playerDidStart(self)
        notificationCenter.post(name: Self.didStartNotification, object: self)
    }
}
