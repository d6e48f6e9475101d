import DedupeHarness
import DedupeWorkloads
import PushDedupe

/// The decisions `report.html`'s diff view compares: for a few cases, on each workload, the
/// events where some two of them differ in outcome (one navigates, the other does not), at most
/// ``eventBound`` per workload, with how many there were in all for every pair.
///
/// Taken from the same per-case decisions as `--decisions FILE.csv` (``CaseDecisions``), so an
/// event's number, time, kind, truth and decision read the same in both.
package struct DecisionDiffData: Encodable, Sendable, Equatable {
    /// Differing events kept per workload; the first ones, in workload order.
    package static let eventBound = 300

    /// ``eventBound``, written into the page for its note on a cut list.
    package var bound = DecisionDiffData.eventBound
    /// The cases compared, by choice (``StrategyChoice/text``), in the order the page lists them.
    package var cases: [String]
    package var workloads: [WorkloadDiff]

    package init(cases: [String], workloads: [WorkloadDiff]) {
        self.cases = cases
        self.workloads = workloads
    }

    /// One workload's differing events.
    package struct WorkloadDiff: Encodable, Sendable, Equatable {
        package var id: String
        package var events: Int
        package var durationMilliseconds: Double
        /// For every pair `i < j` of cases, in order (0-1, 0-2, …, 1-2, …): the events on which
        /// the two differ in outcome, over the whole workload, not only those kept.
        package var pairTotals: [Int]
        /// Whether some differing events were left out (more than ``DecisionDiffData/eventBound``).
        package var cut: Bool
        package var rows: [Row]

        package init(id: String, events: Int, durationMilliseconds: Double, pairTotals: [Int], cut: Bool, rows: [Row]) {
            self.id = id
            self.events = events
            self.durationMilliseconds = durationMilliseconds
            self.pairTotals = pairTotals
            self.cut = cut
            self.rows = rows
        }
    }

    /// One event: its 1-based number, time in ms, kind (`p` payload, `e` emit), truth (`n` new,
    /// `d` duplicate, `u` unlabelled), and one letter per case (``DecisionDiffData/letters``).
    /// Written as an array, `[event, time, kind, truth, decisions]`, to keep the page small.
    package struct Row: Encodable, Sendable, Equatable {
        package var event: Int
        package var timeMilliseconds: Double
        package var kind: String
        package var truth: String
        package var decisions: String

        package init(event: Int, timeMilliseconds: Double, kind: String, truth: String, decisions: String) {
            self.event = event
            self.timeMilliseconds = timeMilliseconds
            self.kind = kind
            self.truth = truth
            self.decisions = decisions
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(event)
            try container.encode(timeMilliseconds)
            try container.encode(kind)
            try container.encode(truth)
            try container.encode(decisions)
        }
    }

    /// The letter of each decision in ``Row/decisions``, and the `--decisions` label it stands for.
    package static let letters: [(letter: Character, label: String)] = [
        ("N", "navigated"), ("W", "window"), ("C", "consumed"), ("G", "guard"), ("L", "loading-guard"), ("S", "skipped"),
        (".", "not an input of the mode"),
    ]

    static func letter(_ decision: CaseDecision) -> Character {
        switch decision {
        case .navigated: return "N"
        case .suppressedByWindow: return "W"
        case .suppressedByConsumedSet: return "C"
        case .suppressedByGuard: return "G"
        case .suppressedByLoadingGuard: return "L"
        case .skippedEmit: return "S"
        case .notApplicable: return "."
        }
    }

    /// Whether two decision letters differ in outcome: both are inputs, and exactly one navigates.
    static func differ(_ a: Character, _ b: Character) -> Bool {
        a != "." && b != "." && (a == "N") != (b == "N")
    }

    /// The index of pair `i < j` in ``WorkloadDiff/pairTotals`` for `count` cases.
    static func pairIndex(_ i: Int, _ j: Int, count: Int) -> Int {
        i * count - i * (i + 1) / 2 + (j - i - 1)
    }
}

/// Collects ``DecisionDiffData`` from a run's decisions (``RunPlan/decisionSink``), holding one
/// workload's decision arrays at a time: a workload's differing events are extracted when the
/// next workload starts, and its arrays dropped.
///
/// The harness calls it from the one thread that runs the plan, so it is never used concurrently.
package final class DecisionSample: DecisionSink, @unchecked Sendable {
    private let cases: [String]
    private let workloads: Set<String>
    private var current: (workload: Workload, id: String, decisions: [[UInt8]?])?
    private var finished: [DecisionDiffData.WorkloadDiff] = []

    /// Samples the cases whose choice (``StrategyChoice/text``) is in `cases`, on `workloads`;
    /// every other case is ignored.
    package init(cases: [String], workloads: [String]) {
        self.cases = cases
        self.workloads = Set(workloads)
    }

    package func write(_ decisions: CaseDecisions) throws {
        guard workloads.contains(decisions.id.workload), let slot = cases.firstIndex(of: decisions.id.choice.text) else { return }
        if current?.id != decisions.id.workload {
            finishWorkload()
            current = (decisions.workload, decisions.id.workload, Array(repeating: nil, count: cases.count))
        }
        current?.decisions[slot] = decisions.decisions
    }

    /// What was collected, in the order the workloads ran.
    package func data() -> DecisionDiffData {
        finishWorkload()
        return DecisionDiffData(cases: cases, workloads: finished)
    }

    private func finishWorkload() {
        guard let current else { return }
        self.current = nil
        let events = current.workload.events
        let count = cases.count
        var totals = [Int](repeating: 0, count: count * (count - 1) / 2)
        var rows: [DecisionDiffData.Row] = []
        var cut = false
        for (offset, index) in events.indices.enumerated() {
            let letters = current.decisions.map { decisions -> Character in
                guard let decisions, offset < decisions.count else { return "." }
                return DecisionDiffData.letter(CaseDecision(rawValue: decisions[offset]) ?? .notApplicable)
            }
            var differs = false
            for i in 0..<count {
                for j in (i + 1)..<count where DecisionDiffData.differ(letters[i], letters[j]) {
                    totals[DecisionDiffData.pairIndex(i, j, count: count)] += 1
                    differs = true
                }
            }
            guard differs else { continue }
            guard rows.count < DecisionDiffData.eventBound else {
                cut = true
                continue
            }
            let event = events[index]
            rows.append(DecisionDiffData.Row(
                event: offset + 1, timeMilliseconds: (Double(event.time.nanoseconds) / 1e5).rounded() / 10,
                kind: event.kind == .emit ? "e" : "p",
                truth: event.truth == .new ? "n" : event.truth == .dup ? "d" : "u", decisions: String(letters)))
        }
        let duration = events.last.map { Double($0.time.nanoseconds) / 1e6 } ?? 0
        finished.append(DecisionDiffData.WorkloadDiff(
            id: current.id, events: events.count, durationMilliseconds: duration, pairTotals: totals, cut: cut, rows: rows))
    }
}
