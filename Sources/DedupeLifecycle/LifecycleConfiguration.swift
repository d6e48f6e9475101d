import DedupeWorkloads
import PushDedupe

/// The timing and failure model of the lifecycle simulator. Every duration is in milliseconds
/// of simulated time.
///
/// Latencies are log-normal: a median and a 99th percentile give the shape
/// `σ = ln(p99 / median) / 2.326`. Defaults: detail fetch median 150 ms, p99 2 s, failing 2% of
/// the time; checkout (an async button's action) median 600 ms with the same shape; the user
/// dwells on a screen for a median of 15 s (σ = 1) before going back; after a relaunch the host
/// attaches a median of 600 ms later (σ = 0.5, 100 ms–5 s, as `cold-launch-late-host`).
package struct LifecycleConfiguration: Sendable, Hashable {
    package var fetchMedianMilliseconds = 150.0
    package var fetchP99Milliseconds = 2_000.0
    /// Probability that a detail fetch or a checkout fails, in [0, 1].
    package var fetchFailureRate = 0.02
    package var checkoutMedianMilliseconds = 600.0
    package var dwellMedianMilliseconds = 15_000.0
    /// Shape of the dwell time's log-normal.
    package var dwellSigma = 1.0
    /// Layer 1's window length.
    package var windowMilliseconds = 500.0
    /// Median delay from a relaunch to the host attaching (the cold launch), log-normal σ = 0.5,
    /// clamped to 100 ms–5 s. Scripts with scripted scheduling attach the host themselves.
    package var coldLaunchHostMedianMilliseconds = 600.0
    /// What survives a relaunch.
    package var persistence = Persistence.memory

    package init() {}

    /// The z-score of the 99th percentile of a standard normal.
    static let z99 = 2.326_347_874

    /// The log-normal shape of fetch and checkout latencies.
    package var latencySigma: Double {
        DeterministicMath.log(fetchP99Milliseconds / fetchMedianMilliseconds) / Self.z99
    }

    /// The same shape with the fetch median (and so its p99) scaled to `median` ms: what the
    /// latency sweep varies.
    package func withFetchMedian(_ median: Double) -> LifecycleConfiguration {
        var copy = self
        copy.fetchP99Milliseconds = fetchP99Milliseconds / fetchMedianMilliseconds * median
        copy.fetchMedianMilliseconds = median
        return copy
    }

    /// Checks every value.
    ///
    /// - Throws: ``LifecycleConfigurationError`` naming the first bad parameter.
    package func validate() throws(LifecycleConfigurationError) {
        func positive(_ value: Double, _ name: String) throws(LifecycleConfigurationError) {
            guard value.isFinite, value > 0 else {
                let problem = value < 0 ? "cannot be negative" : "must be a positive finite number of milliseconds"
                throw LifecycleConfigurationError(parameter: name, reason: "\(problem), got \(value)")
            }
        }
        try positive(fetchMedianMilliseconds, "fetchMedianMilliseconds")
        guard fetchP99Milliseconds.isFinite, fetchP99Milliseconds >= fetchMedianMilliseconds else {
            throw LifecycleConfigurationError(
                parameter: "fetchP99Milliseconds",
                reason: "must be finite and at least the median (\(fetchMedianMilliseconds)), got \(fetchP99Milliseconds)")
        }
        guard fetchFailureRate.isFinite, (0...1).contains(fetchFailureRate) else {
            throw LifecycleConfigurationError(parameter: "fetchFailureRate", reason: "must be in [0, 1], got \(fetchFailureRate)")
        }
        try positive(checkoutMedianMilliseconds, "checkoutMedianMilliseconds")
        try positive(dwellMedianMilliseconds, "dwellMedianMilliseconds")
        try positive(coldLaunchHostMedianMilliseconds, "coldLaunchHostMedianMilliseconds")
        guard dwellSigma.isFinite, dwellSigma >= 0 else {
            throw LifecycleConfigurationError(parameter: "dwellSigma", reason: "must be a non-negative finite number, got \(dwellSigma)")
        }
        guard windowMilliseconds.isFinite, windowMilliseconds >= 0 else {
            throw LifecycleConfigurationError(parameter: "windowMilliseconds", reason: "must be a non-negative finite number, got \(windowMilliseconds)")
        }
    }
}

/// A lifecycle configuration that cannot be simulated.
package struct LifecycleConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offending field of ``LifecycleConfiguration``.
    package var parameter: String
    package var reason: String

    package var description: String {
        "invalid lifecycle \(parameter): \(reason)"
    }
}
