import DedupeWorkloads
import PushDedupe

/// What one phone sees, measured on the `device`-tagged workloads (or on a replayed trace), and
/// the strategy parameters sized from it.
///
/// Sizing, with `safetyFactor` f (see ``sizing``):
/// - consumed-set capacity = ⌈(most envelopes created within any span as long as the longest
///   replay delay) × f⌉;
/// - retention = longest replay delay × f;
/// - window capacity = ⌈(most payloads within any span as long as the window) × f⌉;
/// - a time-bounded filter's expected rate = capacity / retention, so it is sized for the same
///   count as the exact sets; the target false-positive rate stays the library default.
public struct DeviceProfile: Codable, Sendable, Equatable {
    /// The workloads measured.
    public var workloads: [String]
    /// The window length the window capacity was sized for, ms.
    public var windowMilliseconds: Double
    /// The longest time from an envelope's creation (its payload) to its last emit, ms.
    public var longestReplayMilliseconds: Double
    /// The most envelopes created within any span of `longestReplayMilliseconds`.
    public var peakEnvelopesInLongestReplay: Int
    /// The most payloads within any span of `windowMilliseconds`.
    public var peakPayloadsInWindow: Int
    /// The most envelopes created within any one-second span.
    public var peakIdsPerSecond: Int
    /// Delays of emits after their envelope's creation (every replay), ms.
    public var replayDelays: DelayDistribution
    /// Delays of wanted re-taps (truth `new` payloads) after the previous payload of the same
    /// route, ms: what a window must let through.
    public var wantedRetapDelays: DelayDistribution
    /// Delays of duplicate payloads (truth `dup`) after the previous payload of the same route,
    /// ms: what a window must stop.
    public var duplicatePayloadDelays: DelayDistribution
    /// The factor every sized parameter carries over what the profile needs.
    public var safetyFactor: Double
    /// The parameters every case is built with, unless a sweep varies one.
    public var sizing: Sizing

    /// The parameters sized from the profile.
    public struct Sizing: Codable, Sendable, Equatable {
        public var windowCapacity: Int
        public var consumedCapacity: Int
        public var retentionMilliseconds: Double
        public var expectedRatePerSecond: Double
        public var falsePositiveRate: Double

        public init(
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
}

/// The spread of a set of delays, ms (all 0 when there are none).
public struct DelayDistribution: Codable, Sendable, Equatable {
    public var count: Int
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double

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
    /// The default safety factor: each sized parameter covers four times what the profile saw.
    public static let defaultSafetyFactor = 4.0
    /// The target false-positive rate filters are built with.
    public static let falsePositiveRate = 0.01

    /// Measures `workloads` and sizes the parameters with `safetyFactor`.
    ///
    /// Floors keep every strategy constructible on a workload without replays or payloads:
    /// capacities of at least 1 and a retention of at least one window length (and 1 ms).
    ///
    /// - Complexity: O(*n* log *n*) in the events.
    public static func derive(
        from workloads: [Workload], windowMilliseconds: Double, safetyFactor: Double = defaultSafetyFactor
    ) -> DeviceProfile {
        var replayDelays: [Double] = []
        var retapDelays: [Double] = []
        var duplicatePayloadDelays: [Double] = []
        var longestReplay: Int64 = 0
        // Creation times per workload, measured after the longest replay is known.
        var creationTimes: [[Int64]] = []
        var payloadTimes: [[Int64]] = []
        for workload in workloads {
            // Lookup tables only: iteration order never reaches the output.
            var created: [EnvelopeID: Int64] = [:]
            var lastPayload: [UInt64: Int64] = [:]
            var creations: [Int64] = []
            var payloads: [Int64] = []
            for event in workload.events {
                let time = event.time.nanoseconds
                switch event.kind {
                case .payload:
                    let key = event.envelope
                    if created[key] == nil {
                        created[key] = time
                        creations.append(time)
                    }
                    payloads.append(time)
                    if let previous = lastPayload[event.fingerprint.rawValue] {
                        let delay = Double(time - previous) / 1e6
                        switch event.truth {
                        case .new: retapDelays.append(delay)
                        case .dup: duplicatePayloadDelays.append(delay)
                        case .unknown: break
                        }
                    }
                    lastPayload[event.fingerprint.rawValue] = time
                case .emit:
                    guard let creation = created[event.envelope] else { continue }
                    replayDelays.append(Double(time - creation) / 1e6)
                    longestReplay = Swift.max(longestReplay, time - creation)
                case .relaunch, .background:
                    continue
                }
            }
            creationTimes.append(creations)
            payloadTimes.append(payloads)
        }
        let windowNanoseconds = Int64((windowMilliseconds * 1e6).rounded())
        let peakEnvelopes = creationTimes.map { peakCount($0, span: longestReplay) }.max() ?? 0
        let peakPayloads = payloadTimes.map { peakCount($0, span: windowNanoseconds) }.max() ?? 0
        let peakPerSecond = creationTimes.map { peakCount($0, span: 1_000_000_000) }.max() ?? 0
        let longestReplayMilliseconds = Double(longestReplay) / 1e6
        let consumedCapacity = Swift.max(1, Int((Double(peakEnvelopes) * safetyFactor).rounded(.up)))
        let retention = Swift.max(longestReplayMilliseconds * safetyFactor, windowMilliseconds, 1)
        return DeviceProfile(
            workloads: workloads.map(\.name), windowMilliseconds: windowMilliseconds,
            longestReplayMilliseconds: longestReplayMilliseconds, peakEnvelopesInLongestReplay: peakEnvelopes,
            peakPayloadsInWindow: peakPayloads, peakIdsPerSecond: peakPerSecond,
            replayDelays: DelayDistribution(replayDelays), wantedRetapDelays: DelayDistribution(retapDelays),
            duplicatePayloadDelays: DelayDistribution(duplicatePayloadDelays), safetyFactor: safetyFactor,
            sizing: Sizing(
                windowCapacity: Swift.max(1, Int((Double(peakPayloads) * safetyFactor).rounded(.up))),
                consumedCapacity: consumedCapacity, retentionMilliseconds: retention,
                expectedRatePerSecond: Double(consumedCapacity) / (retention / 1_000),
                falsePositiveRate: falsePositiveRate))
    }

    /// The most of the sorted `times` inside any closed span of `span` nanoseconds.
    static func peakCount(_ times: [Int64], span: Int64) -> Int {
        var peak = 0
        var lower = 0
        for upper in times.indices {
            while times[upper] - times[lower] > span { lower += 1 }
            peak = Swift.max(peak, upper - lower + 1)
        }
        return peak
    }

    /// Whether a consumed set of `guarantee`, built with `parameters`, remembers every id for
    /// the profile's longest replay at its peak rate: a never-forgetting set always does; one
    /// that forgets after `capacity` newer ids needs `capacity` ≥ the peak envelopes created
    /// within the longest replay; one that forgets after a time needs that time ≥ the longest
    /// replay; one that can forget at any moment never does.
    public func horizonCovers(consumed guarantee: GuaranteeRecord, parameters: CaseParameters) -> Bool {
        switch guarantee.forgetting {
        case "never": return true
        case "after-capacity": return parameters.consumedCapacity >= peakEnvelopesInLongestReplay
        case "after-time": return parameters.retentionMilliseconds * (guarantee.timeFraction ?? 1) >= longestReplayMilliseconds
        default: return false
        }
    }

    /// Whether a window of `guarantee` remembers every fingerprint for its whole window length at
    /// the profile's peak: bounded windows need `capacity` ≥ the peak payloads within a window,
    /// a window exact for only part of its length does not cover it, nor does one that can forget
    /// at any moment.
    public func horizonCovers(window guarantee: GuaranteeRecord, parameters: CaseParameters) -> Bool {
        switch guarantee.forgetting {
        case "never": return true
        case "after-capacity": return parameters.windowCapacity >= peakPayloadsInWindow
        case "after-time": return (guarantee.timeFraction ?? 1) >= 1
        default: return false
        }
    }
}
