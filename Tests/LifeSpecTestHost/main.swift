import Foundation
import LifeSpec
import LifeSpecCLI
import LifeSpecGenerate

// `lifespec` with test probes, for the tests that kill or interrupt a run inside its output
// transaction (TransactionTests, GenerateTests). LIFESPEC_TEST_STEPS=1 announces each step on
// standard error as it begins; LIFESPEC_TEST_COMMIT_PAUSE=N then pauses N microseconds in each
// journal and commit step, so a signal sent on an announcement lands inside that step.
let environment = ProcessInfo.processInfo.environment
if environment["LIFESPEC_TEST_STEPS"] == "1" {
    let pause = environment["LIFESPEC_TEST_COMMIT_PAUSE"].flatMap { UInt32($0) } ?? 0
    TransactionProbe.install { step in
        FileHandle.standardError.write(Data("lifespec-test-step: \(step.rawValue)\n".utf8))
        if pause > 0, step != .stage { usleep(pause) }
    }
}
// LIFESPEC_TEST_HOLD_READ=NAME: after the run first reads a file whose name is NAME, announce it
// ("lifespec-test-step: read NAME") and hold the run until the file LIFESPEC_TEST_RELEASE exists,
// so a test can change the file on disk in between (InputSnapshot).
if let held = environment["LIFESPEC_TEST_HOLD_READ"], let release = environment["LIFESPEC_TEST_RELEASE"] {
    let announced = Locked(false)
    InputSnapshot.onFirstRead { path in
        guard URL(fileURLWithPath: path).lastPathComponent == held,
            announced.withLock({ done in
                defer { done = true }
                return !done
            })
        else { return }
        FileHandle.standardError.write(Data("lifespec-test-step: read \(held)\n".utf8))
        while !FileManager.default.fileExists(atPath: release) { usleep(2_000) }
    }
}
LifeSpecCommand.main()
