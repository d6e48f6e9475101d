import Foundation
import Testing

/// Two runs of the built tool, as separate processes, write the same non-timing figures byte for
/// byte: per-process hash seeding or any other per-process state would show up here, where a
/// comparison within one process cannot see it.
@Suite struct CrossProcessDeterminismTests {
    /// Strategies that hash (filters, direct-mapped) on a stress preset and a published situation.
    static let plan = [
        "run", "--quick", "--allow-debug", "--repetitions", "1", "--quiet", "--format", "csv",
        "--filter", "workload=marketing-burst,same-payload-twice", "--filter", "window=hash-deque,direct-mapped-window",
        "--filter", "consumed=aging-bloom,cuckoo",
    ]

    /// The rows of the correctness sweeps (window length, capacity, Bloom bits): no timing in them.
    static func correctnessSweepRows(_ csv: String) -> [Substring] {
        csv.split(separator: "\r\n").filter {
            $0.hasPrefix("window-length,") || $0.hasPrefix("consumed-capacity,") || $0.hasPrefix("bloom-bits-per-entry,")
        }
    }

    @Test func twoProcessesWriteTheSameNonTimingReports() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var outputs: [URL] = []
        for run in ["first", "second"] {
            let out = directory.appendingPathComponent(run)
            let outcome = try BinaryRunner.run(Self.plan + ["--out", out.path])
            try #require(outcome.status == 0, "\(outcome.error)")
            outputs.append(out)
        }
        // Memory comes from the allocator's counters (or footprints): deterministic for one plan.
        for name in ["correctness.csv", "memory.csv"] {
            let first = try Data(contentsOf: outputs[0].appendingPathComponent(name))
            let second = try Data(contentsOf: outputs[1].appendingPathComponent(name))
            #expect(first == second, "\(name) differs between processes")
            #expect(String(decoding: first, as: UTF8.self).split(separator: "\r\n").count > 10, "\(name) has rows")
        }
        let sweeps = try outputs.map { Self.correctnessSweepRows(try String(contentsOf: $0.appendingPathComponent("sweeps.csv"), encoding: .utf8)) }
        #expect(!sweeps[0].isEmpty)
        #expect(sweeps[0] == sweeps[1])
    }
}
