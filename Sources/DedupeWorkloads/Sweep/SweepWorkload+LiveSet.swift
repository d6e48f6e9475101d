import PushDedupe

extension SweepWorkload {
    /// The input of one point of the live-set speed sweep: payloads only, the first `warm` of
    /// them filling the window, the `timed` after them at steady state with `live` fingerprints
    /// live and a share `repeatShare` of repeats of a live fingerprint.
    ///
    /// A repeat is a payload of a fingerprint first seen `(0, window]` earlier, which every exact
    /// window suppresses; every other payload is a fingerprint never seen before. The stream is
    /// ``make(_:seed:)``'s with no emits, generated for `live` more events than needed and cut:
    /// its last half window holds repeats only (their originals are over), so without the cut
    /// the timed events of a large live set would carry more repeats than `repeatShare`.
    ///
    /// ```swift
    /// let input = SweepWorkload.liveSet(live: 64, repeatShare: 0.5, warm: 228, timed: 10_000, seed: 42)
    /// ```
    ///
    /// - Complexity: O(*n* log *n*) in `warm + timed + live`.
    package static func liveSet(
        live: Int, repeatShare: Double, window: Duration = .milliseconds(500), warm: Int, timed: Int, seed: UInt64
    ) -> Workload {
        let wanted = max(0, warm) + max(0, timed)
        var workload = make(
            SweepParameters(liveFingerprints: live, duplicateRatio: repeatShare, events: wanted + max(1, live),
                            window: window, emitShare: 0),
            seed: seed)
        workload.events.keepFirst(wanted)
        return workload
    }
}
