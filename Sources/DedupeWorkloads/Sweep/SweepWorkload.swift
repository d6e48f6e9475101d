import PushDedupe

/// The sweep family: a workload whose live-set size and duplicate ratio are exact parameters.
///
/// First intents arrive every `window / liveFingerprints`, each for a screen never seen before
/// (`item:0`, `item:1`, …), so a trailing window of length `window` holds exactly
/// `liveFingerprints` distinct fingerprints at steady state (one more at the instant an arrival
/// lands on the boundary). `round(duplicateRatio × events)` duplicates are then attached to
/// uniformly chosen intents, each `(0, window]` after it: an emit of the intent's envelope with
/// probability `emitShare`, otherwise a repeated payload with a new envelope. A duplicate never
/// adds a fingerprint, and a correct window or an unbounded consumed set catches every one, so a
/// bounded strategy's misses are due to its capacity alone.
///
/// ```swift
/// let workload = SweepWorkload.make(.init(liveFingerprints: 256, duplicateRatio: 0.3, events: 100_000), seed: 1)
/// ```
package enum SweepWorkload {
    /// The longest window the family models; longer ones are clamped (or rejected by
    /// ``SweepParameters/validate()``).
    package static let longestWindow: Duration = .seconds(3_600)

    /// Generates the workload; out-of-range parameters are clamped (see
    /// ``SweepParameters/validate()`` to reject them instead).
    ///
    /// - Complexity: O(*n* log *n*) in `events`.
    package static func make(_ parameters: SweepParameters, seed: UInt64) -> Workload {
        let events = max(0, parameters.events)
        let live = max(1, parameters.liveFingerprints)
        let ratio = parameters.duplicateRatio.isNaN ? 0 : min(max(parameters.duplicateRatio, 0), 1)
        let emitShare = parameters.emitShare.isNaN ? 0 : min(max(parameters.emitShare, 0), 1)
        let window = min(max(1, parameters.window.wholeNanoseconds), SweepWorkload.longestWindow.wholeNanoseconds)
        let duplicates = events == 0 ? 0 : min(events - 1, Int((Double(events) * ratio).rounded()))
        let intents = events - duplicates
        let spacing = Double(window) / Double(live)

        var builder = WorkloadBuilder(seed: seed, expectedEvents: events)
        var random = SplitMix64(seed: seed)
        var payloads: [WorkloadBuilder.PayloadHandle] = []
        payloads.reserveCapacity(intents)
        for index in 0..<intents {
            payloads.append(builder.payload(intent: builder.newIntent(), kind: .item, id: index, source: .tap,
                                            at: saturatingNanoseconds(Double(index) * spacing)))
        }
        for _ in 0..<duplicates {
            let target = random.uniformInt(below: intents)
            let original = payloads[target]
            let delay = 1 + Int64(random.uniformInt(below: Int(window)))
            let (time, overflow) = original.time.addingReportingOverflow(delay)
            if random.bernoulli(emitShare) {
                builder.emit(of: original, intent: target, source: .pendingRoute, at: overflow ? .max : time)
            } else {
                builder.payload(intent: target, kind: .item, id: target, source: .foreground, at: overflow ? .max : time)
            }
        }
        let name = "sweep-live\(live)-dup\(Int((ratio * 100).rounded()))"
        return builder.finish(
            name: name,
            summary: "\(events) events, \(live) fingerprints live per \(Double(window) / 1_000_000) ms window, "
                + "\(duplicates) duplicates (\(Int((emitShare * 100).rounded()))% emits)")
    }
}
