import Foundation
import Testing
@testable import DedupeHarness

/// A child that hangs is killed after the timeout, and the error names the stage.
@Suite struct ChildProcessTimeoutTests {
    @Test func hangingChildIsKilledAndTheStageNamed() throws {
        #expect(throws: ChildProcess.Timeout(stage: "memory pass", seconds: 0.5)) {
            try ChildProcess.run(
                executable: "/bin/sh", arguments: ["-c", "exec sleep 600"], environment: [:], input: Data(),
                stage: "memory pass", timeoutSeconds: 0.5)
        }
    }

    /// SIGTERM ignored: SIGKILL follows.
    @Test func childIgnoringTerminationIsKilled() throws {
        let error = #expect(throws: ChildProcess.Timeout.self) {
            try ChildProcess.run(
                executable: "/bin/sh", arguments: ["-c", "trap '' TERM; while :; do sleep 1; done"], environment: [:],
                input: Data(), timeoutSeconds: 0.5)
        }
        #expect(error?.description == "sh: the child process did not finish within 0.5 s and was killed")
    }

    @Test func childWithinTheTimeoutIsUnaffected() throws {
        let result = try ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", "echo done"], environment: [:], input: Data(),
            stage: "probe", timeoutSeconds: 30)
        #expect(result.status == 0)
        #expect(String(decoding: result.output, as: UTF8.self) == "done\n")
    }
}
