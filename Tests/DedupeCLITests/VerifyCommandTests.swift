import DedupeLifecycle
import Foundation
import Testing

/// `verify` end to end: the table and verdict, the counterexample files and their replay, and
/// exit codes.
@Suite struct VerifyCommandTests {
    /// The scenario built for each switch: the smallest run whose verdict can hold.
    static let oneScenarioPerSwitch = [
        "reemit-during-fetch", "disabled-tab-replay", "two-fetches-quick-succession", "checkout-double-tap", "button-double-tap",
        "path-owned-twice", "retap-after-window", "relaunch-mid-fetch",
    ]

    @Test func verdictHoldsAndCounterexamplesReplay() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try BinaryRunner.run([
            "verify", "--filter", "scenario=" + Self.oneScenarioPerSwitch.joined(separator: ","), "--counterexamples", directory.path,
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("Verdict: holds"))
        #expect(outcome.output.contains("orderings/s"))
        #expect(outcome.output.contains("Published orderings no trade-off, persistence, identity or model limit explains: 0"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        for variant in PolicyVariant.allCases where variant != .published {
            #expect(files.contains { $0.hasPrefix(variant.rawValue + "--") }, "\(variant)")
        }
        let script = directory.appendingPathComponent("consume-after-success--no-envelope-handled-twice.script")
        let replay = try BinaryRunner.run(["policies", "--script", script.path, "--filter", "variant=consume-after-success"])
        #expect(replay.status == 0, "\(replay.error)")
        #expect(replay.output.contains("reprocessed_envelopes 1 (pending_route, consume-after-success)"), "\(replay.output)")
    }

    /// Without the scenarios that show them, switches have no counterexample: exit 1.
    @Test func aVerdictThatFailsExitsOne() throws {
        let outcome = try BinaryRunner.run(["verify", "--filter", "scenario=reemit-during-fetch"])
        #expect(outcome.status == 1, "\(outcome.error)")
        #expect(outcome.output.contains("Verdict: FAILS"))
        #expect(outcome.output.contains("NOT SHOWN"))
    }

    @Test(arguments: [
        ["verify", "--backs", "9"],
        ["verify", "--backs", "x"],
        ["verify", "--filter", "scenario=nope"],
        ["verify", "--filter", "variant=nope"],
        ["verify", "--filter", "mode=two-layer"],
        ["verify", "extra"],
    ])
    func badInputExitsTwo(arguments: [String]) throws {
        let outcome = try BinaryRunner.run(arguments)
        #expect(outcome.status == 2, "\(arguments): \(outcome.error)")
        #expect(outcome.error.split(separator: "\n").count == 1, "\(outcome.error)")
    }
}
