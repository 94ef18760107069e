import Foundation
import LifeSpec
import LifeSpecRender

/// With `LIFESPEC_TEST_STEPS=1` in the environment, `generate` announces each step of its output
/// transaction on standard error as it begins (a file staged, a commit step carried out), so a test
/// can kill or interrupt a run at a chosen step instead of after a guessed delay.
enum TestSteps {
    private static let enabled = ProcessInfo.processInfo.environment["LIFESPEC_TEST_STEPS"] == "1"

    static func announce(_ step: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("lifespec-test-step: \(step)\n".utf8))
    }
}
