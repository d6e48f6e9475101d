import PushDedupe

/// How long the action behind an in-app tap runs, and how users and callbacks repeat it: what the
/// generators draw taps, action ends and completions from, so that the router's loading guard
/// holds exactly as long as each drawn action runs. Fetch latency is a model of its own, drawn
/// from the builder's own stream (``WorkloadBuilder/fetchLatency()``), so scaling it changes no
/// tap's time. Sources and reasoning: `Guides/Workloads.md` § Taps and actions.
///
/// ```swift
/// let facts = ActionTimingFacts.published             // median 300 ms, p75 800 ms
/// let slower = facts.scaled(by: 4)                    // every fetch four times as long
/// ```
package struct ActionTimingFacts: Hashable, Sendable {
    /// The median fetch behind a tap (the detail request before the screen shows), in ms. A
    /// warm HTTPS request costs one round trip plus the server's time; LTE's round trip is under
    /// 100 ms and 3G's 100–500 ms (Grigorik, *High Performance Browser Networking*, ch. 7,
    /// "Mobile Networks"), and a cold connection adds DNS, TCP and TLS, about three more (ch. 4).
    /// 300 ms is a warm LTE request with a short server time.
    package let medianFetchMilliseconds: Double
    /// The fetch's 75th percentile, in ms: web.dev's "good" time to first byte at the 75th
    /// percentile of page loads, 800 ms (web.dev, "Time to First Byte (TTFB)"), the same tail a
    /// cold connection on 3G reaches. With the median it sets the log-normal's σ.
    package let p75FetchMilliseconds: Double
    /// The longest fetch, in ms: `URLSession`'s default request timeout, 60 s
    /// (`URLSessionConfiguration.timeoutIntervalForRequest`, Apple's documentation).
    package let timeoutMilliseconds: Double
    /// The multiplier on every fetch: 1 for the figures above, the router latency sweep's scale otherwise.
    package let fetchScale: Double

    /// The median and σ of an impatient second tap's delay after the first, in ms, and its
    /// bound: the re-tap timing of the published double-tap reports (80–300 ms for a button,
    /// `Guides/Workloads.md`), with a tail for a user who waits before tapping again.
    package static let secondTapMedianMilliseconds = 250.0
    package static let secondTapSigma = 0.6
    package static let secondTapMilliseconds: ClosedRange<Double> = 20 ... 3_000
    /// The share of actions whose completion callback fires twice (customerio-ios #979 and
    /// appboy-ios-sdk #170 report two `application(_:open:)` calls for one click) or is retried,
    /// and the median delay of the second call after the action finished, in ms (σ = 1). A
    /// modelling choice: no source states a rate.
    package static let doubleCallbackProbability = 0.1
    package static let doubleCallbackMedianMilliseconds = 500.0
    /// The share of actions the user runs again on purpose once the first finished (another
    /// order, a refresh), and the median gap after the finish, in ms (σ = 1, 0.5–60 s). A
    /// modelling choice.
    package static let wantedRetapProbability = 0.2
    package static let wantedRetapMedianMilliseconds = 2_000.0

    /// The figures above, at scale 1.
    package static let published = ActionTimingFacts(median: 300, p75: 800, timeout: 60_000, scale: 1)

    private init(median: Double, p75: Double, timeout: Double, scale: Double) {
        medianFetchMilliseconds = median
        p75FetchMilliseconds = p75
        timeoutMilliseconds = timeout
        fetchScale = scale
    }

    /// The same facts with every fetch `scale` times as long (still within the timeout).
    package func scaled(by scale: Double) -> ActionTimingFacts {
        precondition(scale.isFinite && scale > 0, "a fetch scale is a positive finite multiplier, not \(scale)")
        return ActionTimingFacts(
            median: medianFetchMilliseconds, p75: p75FetchMilliseconds, timeout: timeoutMilliseconds, scale: fetchScale * scale)
    }

    /// σ of the log-normal fetch: its 75th percentile is `median · e^(0.6745 σ)`.
    package var fetchSigma: Double { DeterministicMath.log(p75FetchMilliseconds / medianFetchMilliseconds) / 0.674_489_75 }

    /// One fetch's duration, in ms: at least 1 ms, at most the timeout.
    package func fetchMilliseconds(using random: inout SplitMix64) -> Double {
        random.logNormal(median: medianFetchMilliseconds * fetchScale, sigma: fetchSigma, clampedTo: 1 ... timeoutMilliseconds)
    }
}
