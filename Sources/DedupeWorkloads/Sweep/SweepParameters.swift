import PushDedupe

/// Parameters of the sweep family the harness varies to draw trade-off curves.
package struct SweepParameters: Hashable, Sendable {
    /// Distinct fingerprints live inside one window at steady state.
    package var liveFingerprints: Int
    /// Fraction of events whose truth is `dup`, in [0, 1).
    package var duplicateRatio: Double
    /// Total events.
    package var events: Int
    /// The window the live-set size is computed for.
    package var window: Duration
    /// Fraction of the duplicates that are emits of an existing envelope (layer 2's work); the
    /// rest are repeated payloads with new envelopes (layer 1's work).
    package var emitShare: Double

    package init(
        liveFingerprints: Int, duplicateRatio: Double, events: Int, window: Duration = .milliseconds(500),
        emitShare: Double = 0.5
    ) {
        self.liveFingerprints = liveFingerprints
        self.duplicateRatio = duplicateRatio
        self.events = events
        self.window = window
        self.emitShare = emitShare
    }

    /// Checks every field; ``SweepWorkload/make(_:seed:)`` clamps instead.
    ///
    /// - Throws: ``ConfigurationError`` naming the first invalid field.
    /// - Complexity: O(1).
    package func validate() throws(ConfigurationError) {
        func fail(_ parameter: String, _ reason: String) -> ConfigurationError {
            ConfigurationError(strategy: "sweep", parameter: parameter, reason: reason)
        }
        guard liveFingerprints >= 1 else { throw fail("liveFingerprints", "must be at least 1, got \(liveFingerprints)") }
        guard duplicateRatio >= 0 && duplicateRatio < 1 else {
            throw fail("duplicateRatio", "must be in [0, 1), got \(duplicateRatio)")
        }
        guard events >= 0 else { throw fail("events", "must not be negative, got \(events)") }
        guard window > .zero && window <= SweepWorkload.longestWindow else {
            throw fail("window", "must be in (0, 1 h], got \(window)")
        }
        guard emitShare >= 0 && emitShare <= 1 else { throw fail("emitShare", "must be in [0, 1], got \(emitShare)") }
    }
}
