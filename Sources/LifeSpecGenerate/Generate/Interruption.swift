import Foundation
import LifeSpec
import LifeSpecRender

/// SIGINT and SIGTERM: the stages in progress are thrown away (a commit under way is finished
/// first), then the process ends as the signal would have ended it.
final class Interruption: Sendable {
    static let shared = Interruption()
    private let stages = Locked([ObjectIdentifier: OutputStage]())
    private let committing = NSLock()
    private let sources = Locked([any DispatchSourceSignal]())

    func register(_ stage: OutputStage) { stages.withLock { $0[ObjectIdentifier(stage)] = stage } }
    func unregister(_ stage: OutputStage) { _ = stages.withLock { $0.removeValue(forKey: ObjectIdentifier(stage)) } }

    func whileCommitting<T>(_ body: () throws -> T) rethrows -> T {
        committing.lock()
        defer { committing.unlock() }
        return try body()
    }

    func install() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM, SIGHUP] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in
                    committing.lock()
                    let live = stages.withLock { Array($0.values) }
                    for stage in live { stage.discardForInterruption() }
                    // libdispatch blocks the signal to read it from a signalfd: unblock it on
                    // this thread and raise it again, so the process ends as the signal ends it.
                    signal(number, SIG_DFL)
                    var set = sigset_t()
                    sigemptyset(&set)
                    sigaddset(&set, number)
                    pthread_sigmask(SIG_UNBLOCK, &set, nil)
                    raise(number)
                    _exit(128 + number)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}

extension OutputStage {
    /// Makes SIGINT, SIGTERM and SIGHUP throw away the stages in progress (finishing a commit that
    /// has started) before the process ends. The command line calls this once at start.
    package static func cleanUpOnSignals() {
        Interruption.shared.install()
    }
}
