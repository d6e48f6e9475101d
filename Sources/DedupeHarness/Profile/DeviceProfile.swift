import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

/// What one phone needs remembered, and the strategy parameters sized from it.
///
/// The consumed set is sized from stated facts (``HorizonFacts``: the heaviest push rate of one
/// app and how long dedupe state must last), not from the spacing of the synthetic episodes:
/// - ids to remember = pushes per day × retention days (``horizonIDs``);
/// - consumed-set capacity = ⌈ids to remember × f⌉, with the safety factor f;
/// - retention = retention days × f;
/// - a time-bounded filter's expected rate = capacity / retention, so it is sized for the same
///   count as the exact sets; the target false-positive rate stays the library default.
///
/// The window is sized from the measured traffic (a burst is a property of the traffic, not a
/// rate fact): window capacity = ⌈most payloads within any window-long span × f⌉.
///
/// A replayed trace long enough to show the horizon (spanning at least the retention and holding
/// a relaunch) sizes the set from what it shows instead: the most envelopes it created within any
/// retention-long span. A shorter trace is sized from the facts, and ``sizingNote`` says so.
package struct DeviceProfile: Codable, Sendable, Equatable {
    /// The workloads measured.
    package var workloads: [String]
    /// The facts the horizon was sized from.
    package var facts: HorizonFacts
    /// `facts` (the stated rate × horizon) or `trace` (the replayed trace's own peak).
    package var horizonSource: String
    /// Why the horizon came from where it did, in one sentence.
    package var sizingNote: String
    /// Ids the consumed set must remember to cover the horizon: rate × days, or the trace's peak.
    package var horizonIDs: Int
    /// The window length the window capacity was sized for, ms.
    package var windowMilliseconds: Double
    /// The longest time from an envelope's creation (its payload) to a later delivery of it (an
    /// emit, or, under push-id identity, another delivery of the same push), ms, as measured.
    package var longestReplayMilliseconds: Double
    /// The measured span from the first event to the last, ms.
    package var spanMilliseconds: Double
    /// Relaunches in the measured traffic.
    package var relaunches: Int
    /// The most payloads within any span of `windowMilliseconds`.
    package var peakPayloadsInWindow: Int
    /// The most envelopes created within any one-second span.
    package var peakIdsPerSecond: Int
    /// Delays of replays after their envelope's creation, ms.
    package var replayDelays: DelayDistribution
    /// Delays of wanted re-taps (truth `new` payloads) after the previous payload of the same
    /// route, ms: what a window must let through.
    package var wantedRetapDelays: DelayDistribution
    /// Delays of duplicate payloads (truth `dup`) after the previous payload of the same route,
    /// ms: what a window must stop.
    package var duplicatePayloadDelays: DelayDistribution
    /// The factor every sized parameter carries over what the profile needs.
    package var safetyFactor: Double
    /// The parameters every case is built with, unless a sweep varies one.
    package var sizing: Sizing

    /// The parameters sized from the profile.
    package struct Sizing: Codable, Sendable, Equatable {
        package var windowCapacity: Int
        package var consumedCapacity: Int
        package var retentionMilliseconds: Double
        package var expectedRatePerSecond: Double
        package var falsePositiveRate: Double

        package init(
            windowCapacity: Int, consumedCapacity: Int, retentionMilliseconds: Double, expectedRatePerSecond: Double,
            falsePositiveRate: Double
        ) {
            self.windowCapacity = windowCapacity
            self.consumedCapacity = consumedCapacity
            self.retentionMilliseconds = retentionMilliseconds
            self.expectedRatePerSecond = expectedRatePerSecond
            self.falsePositiveRate = falsePositiveRate
        }
    }

    /// The retention horizon in ms.
    package var horizonMilliseconds: Double { facts.retentionDays * 86_400_000 }
}

/// The two facts the consumed set is sized from, as the results record them: how many pushes one
/// app delivers a day at its heaviest and how long dedupe state must last (`--pushes-per-day`,
/// `--retention-days`). The defaults, their sources and their ranges are ``PhoneTrafficFacts``'s
/// (`Guides/Workloads.md` § A phone's traffic).
package struct HorizonFacts: Codable, Sendable, Equatable {
    package var pushesPerDay: Double
    package var retentionDays: Double

    package init(pushesPerDay: Double = HorizonFacts.defaultPushesPerDay, retentionDays: Double = HorizonFacts.defaultRetentionDays) {
        self.pushesPerDay = pushesPerDay
        self.retentionDays = retentionDays
    }

    /// A heavy messaging app's pushes per day: ``PhoneTrafficFacts/stated``'s heavy rate.
    package static let defaultPushesPerDay = PhoneTrafficFacts.stated.heavyPushesPerDay
    /// The longest dedupe lifetime an SDK ships: ``PhoneTrafficFacts/stated``'s retention.
    package static let defaultRetentionDays = PhoneTrafficFacts.stated.retentionDays

    /// The facts checked against ``PhoneTrafficFacts``'s ranges.
    ///
    /// - Throws: ``ConfigurationError`` naming the value out of range.
    func validated() throws(ConfigurationError) -> PhoneTrafficFacts {
        try PhoneTrafficFacts(
            typicalPushesPerDay: min(PhoneTrafficFacts.stated.typicalPushesPerDay, pushesPerDay),
            heavyPushesPerDay: pushesPerDay, retentionDays: retentionDays)
    }
}

/// The spread of a set of delays, ms (all 0 when there are none).
package struct DelayDistribution: Codable, Sendable, Equatable {
    package var count: Int
    package var p50: Double
    package var p90: Double
    package var p99: Double
    package var max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        p50 = SampleStatistics.quantile(sorted, 0.5)
        p90 = SampleStatistics.quantile(sorted, 0.9)
        p99 = SampleStatistics.quantile(sorted, 0.99)
        max = sorted.last ?? 0
    }
}

extension DeviceProfile {
    /// The default safety factor, 1: the heavy rate (250 a day for one app) is already above the
    /// heaviest all-app figure users report, so it carries the margin itself. A larger factor
    /// buys room for in-app navigations through the same router at the memory cost it shows
    /// (`Guides/Workloads.md` § A phone's traffic).
    package static let defaultSafetyFactor = 1.0
    /// The target false-positive rate filters are built with.
    package static let falsePositiveRate = 0.01

    /// Measures `workloads` and sizes the parameters from `facts` with `safetyFactor`. With
    /// `trace`, a replay long enough to show the horizon sizes the set from its own peak.
    ///
    /// Floors keep every strategy constructible on a workload without replays or payloads:
    /// capacities of at least 1 and a retention of at least one window length (and 1 ms). Every
    /// difference of times is taken in `Double`, so no pair of timestamps can overflow.
    ///
    /// - Complexity: O(*n* log *n*) in the events.
    package static func derive(
        from workloads: [Workload], windowMilliseconds: Double, facts: HorizonFacts = HorizonFacts(),
        safetyFactor: Double = defaultSafetyFactor, trace: Bool = false
    ) -> DeviceProfile {
        var replayDelays: [Double] = []
        var retapDelays: [Double] = []
        var duplicatePayloadDelays: [Double] = []
        var longestReplay = 0.0
        var span = 0.0
        var relaunches = 0
        var creationTimes: [[Int64]] = []
        var payloadTimes: [[Int64]] = []
        for workload in workloads {
            // Read from the columns, whose envelopes have dense slots already (`creation[slot]` is
            // each one's creation time), as pushes are dense numbers: flat arrays, no index.
            // `lastPayload` is a lookup table only: iteration order never reaches the output.
            let columns = workload.events.columns
            var creation = [Int64?](repeating: nil, count: columns.envelopeCount)
            var firstDelivery = PushTimes(count: workload.pushes.count)
            var lastPayload: [UInt64: Int64] = [:]
            var creations: [Int64] = []
            var payloads: [Int64] = []
            if let first = columns.times.first, let last = columns.times.last {
                span = Swift.max(span, milliseconds(last.nanoseconds, after: first.nanoseconds))
            }
            for i in 0..<columns.count {
                let time = columns.times[i].nanoseconds
                switch columns.kind(i) {
                case .payload:
                    let slot = Int(columns.envelopeSlot[i])
                    if creation[slot] == nil {
                        creation[slot] = time
                        creations.append(time)
                    }
                    let push = workload.events.pushes[i]
                    if push != WorkloadEvent.noPush {
                        if let first = firstDelivery[push] {
                            let delay = milliseconds(time, after: first)
                            replayDelays.append(delay)
                            longestReplay = Swift.max(longestReplay, delay)
                        } else {
                            firstDelivery[push] = time
                        }
                    }
                    payloads.append(time)
                    let fingerprint = columns.fingerprints[i].rawValue
                    if let previous = lastPayload[fingerprint] {
                        let delay = milliseconds(time, after: previous)
                        switch columns.truths[i] {
                        case .new: retapDelays.append(delay)
                        case .dup: duplicatePayloadDelays.append(delay)
                        case .unknown: break
                        }
                    }
                    lastPayload[fingerprint] = time
                case .emit:
                    guard let created = creation[Int(columns.envelopeSlot[i])] else { continue }
                    let delay = milliseconds(time, after: created)
                    replayDelays.append(delay)
                    longestReplay = Swift.max(longestReplay, delay)
                case .relaunch:
                    relaunches += 1
                case .background:
                    continue
                }
            }
            creationTimes.append(creations)
            payloadTimes.append(payloads)
        }
        let horizon = facts.retentionDays * 86_400_000
        let peakPayloads = payloadTimes.map { peakCount($0, spanMilliseconds: windowMilliseconds) }.max() ?? 0
        let peakPerSecond = creationTimes.map { peakCount($0, spanMilliseconds: 1_000) }.max() ?? 0
        let statedIDs = saturatingCount(facts.pushesPerDay * facts.retentionDays)
        let showsHorizon = trace && span >= horizon && relaunches >= 1
        let horizonIDs = showsHorizon ? creationTimes.map { peakCount($0, spanMilliseconds: horizon) }.max() ?? 0 : statedIDs
        let note: String
        if showsHorizon {
            note = "the trace spans \(NumberText.duration(milliseconds: span)) with \(relaunches) relaunch(es), so its "
                + "own peak over \(NumberText.duration(milliseconds: horizon)) sizes the set"
        } else if trace {
            note = "the trace is too short to size the horizon (\(NumberText.duration(milliseconds: span)), "
                + "\(relaunches) relaunch(es); it needs \(NumberText.duration(milliseconds: horizon)) and a relaunch), so "
                + "the set is sized from the stated facts"
        } else {
            note = "sized from the stated facts: \(NumberText.significant(facts.pushesPerDay)) pushes a day for "
                + NumberText.duration(milliseconds: horizon)
        }
        let consumedCapacity = Swift.max(1, saturatingCount(Double(horizonIDs) * safetyFactor))
        let retention = Swift.max(horizon * safetyFactor, windowMilliseconds, 1)
        return DeviceProfile(
            workloads: workloads.map(\.name), facts: facts, horizonSource: showsHorizon ? "trace" : "facts", sizingNote: note,
            horizonIDs: horizonIDs, windowMilliseconds: windowMilliseconds, longestReplayMilliseconds: longestReplay,
            spanMilliseconds: span, relaunches: relaunches, peakPayloadsInWindow: peakPayloads, peakIdsPerSecond: peakPerSecond,
            replayDelays: DelayDistribution(replayDelays), wantedRetapDelays: DelayDistribution(retapDelays),
            duplicatePayloadDelays: DelayDistribution(duplicatePayloadDelays), safetyFactor: safetyFactor,
            sizing: Sizing(
                windowCapacity: Swift.max(1, saturatingCount(Double(peakPayloads) * safetyFactor)),
                consumedCapacity: consumedCapacity, retentionMilliseconds: retention,
                expectedRatePerSecond: Double(consumedCapacity) / (retention / 1_000),
                falsePositiveRate: falsePositiveRate))
    }

    /// The first delivery time of each push: arrays over the dense push indices of
    /// ``Workload/pushes``, and a dictionary for an index past them (a hand-built workload).
    private struct PushTimes {
        private var times: [Int64]
        private var seen: [Bool]
        private var others: [UInt32: Int64] = [:]

        init(count: Int) {
            times = [Int64](repeating: 0, count: count)
            seen = [Bool](repeating: false, count: count)
        }

        subscript(push: UInt32) -> Int64? {
            get { Int(push) < seen.count ? (seen[Int(push)] ? times[Int(push)] : nil) : others[push] }
            set {
                guard Int(push) < seen.count else { return others[push] = newValue }
                seen[Int(push)] = newValue != nil
                times[Int(push)] = newValue ?? 0
            }
        }
    }

    /// `later − earlier` in ms, in `Double`, so no two timestamps can overflow.
    static func milliseconds(_ later: Int64, after earlier: Int64) -> Double {
        (Double(later) - Double(earlier)) / 1e6
    }

    /// ⌈`value`⌉ as an `Int`, saturating at `Int.max` (NaN reads as 0).
    static func saturatingCount(_ value: Double) -> Int {
        let rounded = value.rounded(.up)
        if rounded.isNaN || rounded <= 0 { return 0 }
        return rounded >= 9.2e18 ? Int.max : Int(rounded)
    }

    /// The most of the sorted `times` inside any closed span of `spanMilliseconds`.
    static func peakCount(_ times: [Int64], spanMilliseconds: Double) -> Int {
        var peak = 0
        var lower = 0
        for upper in times.indices {
            while milliseconds(times[upper], after: times[lower]) > spanMilliseconds { lower += 1 }
            peak = Swift.max(peak, upper - lower + 1)
        }
        return peak
    }

    /// Whether a consumed set of `guarantee`, built with `parameters`, remembers every id the
    /// horizon needs: a never-forgetting set always does; one that forgets after `capacity`
    /// newer ids needs `capacity` ≥ ``horizonIDs``; one that forgets after a time needs that time
    /// ≥ the retention horizon; one that can forget at any moment never does.
    package func horizonCovers(consumed guarantee: GuaranteeRecord, parameters: CaseParameters) -> Bool {
        switch guarantee.forgetting {
        case "never": return true
        case "after-capacity": return parameters.consumedCapacity >= horizonIDs
        case "after-time": return parameters.retentionMilliseconds * (guarantee.timeFraction ?? 1) >= horizonMilliseconds
        default: return false
        }
    }

    /// Whether a window of `guarantee` remembers every fingerprint for its whole window length at
    /// the profile's peak: bounded windows need `capacity` ≥ the peak payloads within a window,
    /// a window exact for only part of its length does not cover it, nor does one that can forget
    /// at any moment.
    package func horizonCovers(window guarantee: GuaranteeRecord, parameters: CaseParameters) -> Bool {
        switch guarantee.forgetting {
        case "never": return true
        case "after-capacity": return parameters.windowCapacity >= peakPayloadsInWindow
        case "after-time": return (guarantee.timeFraction ?? 1) >= 1
        default: return false
        }
    }
}
