import Foundation
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
LifeSpecCommand.main()
