import DedupeWorkloads
import PushDedupe

/// Where the published window (`published-literal`) stops on a workload, and why.
///
/// The published code scans its whole live set on every admit (O(live) per event, by design), so
/// on a workload that keeps thousands of fingerprints within one window its cost grows with the
/// square of the events: 10⁴ distinct fingerprints within 1 ms take it 184 µs an event. Its cases
/// run while an upper bound on that live set (every delivery within one window length since the
/// last relaunch) stays at most ``liveBound`` and the entries scanned so far stay at most
/// ``scanBound``; on a workload that passes either, its cases (correctness, timing, memory) run on
/// the events before, and the cases matched against them are matched on those. The limit is
/// recorded per workload (`WorkloadInfo.referenceWindowLimit`) and printed as one note (``note``).
package struct ReferenceWindowLimit: Codable, Sendable, Equatable {
    /// The live set the published window runs up to: the largest point of the live-set sweep,
    /// where its cost per admit is measured (`window-live-set`).
    package static let liveBound = 4_096
    /// The entries it may scan over one pass, about 5 s at the ~20 ns it spends on each (rendering
    /// and comparing strings).
    package static let scanBound = 250_000_000

    /// Events the published window's cases ran on: the workload's first ones.
    package var events: Int
    /// The workload's events in all.
    package var workloadEvents: Int
    /// The bound on the live set at the first event left out (0 when the scans stopped it).
    package var liveFingerprints: Int
    /// The entries scanned up to the first event left out.
    package var scannedEntries: Int

    package init(events: Int, workloadEvents: Int, liveFingerprints: Int, scannedEntries: Int) {
        self.events = events
        self.workloadEvents = workloadEvents
        self.liveFingerprints = liveFingerprints
        self.scannedEntries = scannedEntries
    }

    /// One line: what stopped the published window on `workload`, and what ran on the prefix.
    package func note(workload: String) -> String {
        let reason = liveFingerprints > Self.liveBound
            ? "more than \(Self.grouped(Self.liveBound)) live fingerprints within one window"
            : "more than \(Self.grouped(Self.scanBound)) entries scanned"
        return "\(workload): the published window published-literal is O(live) per event and would reach \(reason) at event "
            + "\(Self.grouped(events + 1)) of \(Self.grouped(workloadEvents)); its cases ran on the first "
            + "\(Self.grouped(events)) events, the cases matched against them were matched there, and timing "
            + "was capped there"
    }

    /// `12,345`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    /// The limit on `columns` with a window of `windowMilliseconds`, or `nil` when the published
    /// window can run the whole workload. (The bounds are parameters for tests only.)
    ///
    /// - Complexity: O(*n*), no hashing: two indices over the times.
    static func limit(
        _ columns: EventColumns, windowMilliseconds: Double, liveBound: Int = ReferenceWindowLimit.liveBound,
        scanBound: Int = ReferenceWindowLimit.scanBound
    ) -> ReferenceWindowLimit? {
        // A microsecond of slack covers the published code's `Double` rounding at the boundary.
        let window = windowMilliseconds + 0.001
        var lower = 0
        var live = 0
        var scanned = 0
        for i in 0..<columns.count {
            if columns.isRelaunch(i) {
                lower = i + 1
                live = 0
                continue
            }
            guard !columns.isLifecycle(i) else { continue }
            let now = columns.times[i].nanoseconds
            while lower < i, DeviceProfile.milliseconds(now, after: columns.times[lower].nanoseconds) > window {
                if !columns.isLifecycle(lower) { live -= 1 }
                lower += 1
            }
            scanned += live
            if live > liveBound || scanned > scanBound {
                return ReferenceWindowLimit(
                    events: i, workloadEvents: columns.count, liveFingerprints: live > liveBound ? live : 0, scannedEntries: scanned)
            }
            live += 1
        }
        return nil
    }
}

extension _Run {
    /// Finds where the published window stops on every workload one of its cases runs on.
    mutating func limitReferenceWindow() {
        let limited = Set(cases.indices.filter(runsReferenceWindow).map { caseWorkload[$0] })
        for index in limited.sorted() {
            referenceLimits[index] = ReferenceWindowLimit.limit(workloads[index].columns, windowMilliseconds: plan.windowMilliseconds)
        }
    }

    /// Whether case `index` runs the published window.
    func runsReferenceWindow(_ index: Int) -> Bool {
        cases[index].mode.usesWindow && cases[index].windowID == StrategyCatalogue.referenceWindowID
    }

    /// The events case `index` runs on: its workload's first ones up to the published window's
    /// limit, or `nil` for all of them.
    func eventLimit(_ index: Int) -> Int? {
        runsReferenceWindow(index) ? referenceLimits[caseWorkload[index]]?.events : nil
    }
}
