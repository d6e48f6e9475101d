import PushDedupe

extension PushTrafficModel {
    /// Every knob of the generative model. The defaults, and why each is what it is, are in
    /// `Guides/Workloads.md`.
    package struct Parameters: Hashable, Sendable {
        // MARK: Arrivals (on-off Markov-modulated Poisson)

        /// Intents per second while a burst is on.
        package var burstRate: Double = 4
        /// Mean intents per burst; burst sizes are geometric on {1, 2, …}.
        package var meanBurstSize: Double = 6
        /// Mean quiet gap between bursts; gaps are exponential.
        package var meanQuietGap: Duration = .seconds(30)

        // MARK: Popularity

        /// Share of intents opening each route kind, in `RouteKind.allCases` order
        /// (item, content, document).
        package var kindMix: [Double] = [0.6, 0.3, 0.1]
        /// Distinct ids per route kind, same order as `kindMix`.
        package var catalogueSizes: [Int] = [10_000, 2_000, 500]
        /// Zipf exponent of the popularity of ids within a kind.
        package var zipfExponent: Double = 0.9
        /// Share of intents whose first payload arrives through the cold-launch path.
        package var coldLaunchShare: Double = 0.2

        // MARK: Duplicate mechanisms (each applied independently per intent)

        /// Probability that the payload also arrives on a second path (new envelope, same fingerprint).
        package var samePayloadProbability: Double = 0.15
        /// Median delay of that second copy; log-normal.
        package var samePayloadMedian: Duration = .milliseconds(3)
        /// Probability that the envelope is emitted again (pending-route replay or ready callback).
        package var reemitProbability: Double = 0.3
        /// Probability that a re-emitted envelope is emitted a second time too.
        package var secondReemitProbability: Double = 0.5
        /// Re-emit delays are log-uniform over this range.
        package var reemitDelay: ClosedRange<Duration> = .milliseconds(10) ... .seconds(5)
        /// Probability that the user taps the same screen again: a new intent.
        package var retapProbability: Double = 0.1
        /// Median re-tap delay; log-normal.
        package var retapMedian: Duration = .milliseconds(1_200)
        /// Log-normal shape of the re-tap delay.
        package var retapSigma: Double = 1.0
        /// Probability of a button double tap.
        package var doubleTapProbability: Double = 0.05
        /// Double-tap delays are uniform over this range.
        package var doubleTapDelay: ClosedRange<Duration> = .milliseconds(80) ... .milliseconds(300)
        /// Probability that a second async completion pushes a different route id.
        package var asyncCompletionProbability: Double = 0.03
        /// Median delay of the second completion after the first; log-normal.
        package var asyncCompletionMedian: Duration = .milliseconds(250)
        /// Probability that a delivery is held back by APNs/the OS and processed late.
        package var reorderProbability: Double = 0.05
        /// Mean hold-back of a reordered delivery; exponential.
        package var reorderMeanDelay: Duration = .milliseconds(20)

        package init() {}

        /// Checks every field.
        ///
        /// - Throws: ``ConfigurationError`` naming the first invalid field.
        /// - Complexity: O(1).
        package func validate() throws(ConfigurationError) {
            func fail(_ parameter: String, _ reason: String) -> ConfigurationError {
                ConfigurationError(strategy: "push-traffic-model", parameter: parameter, reason: reason)
            }
            // The bounds keep every derived time inside Int64 nanoseconds: no gap, delay or burst
            // spacing may pass a day, and bursts are capped at the sampler's 2²⁰.
            guard burstRate.isFinite && burstRate >= 1e-3 else {
                throw fail("burstRate", "must be at least 0.001 per second, got \(burstRate)")
            }
            guard meanBurstSize.isFinite && meanBurstSize >= 1 && meanBurstSize <= 1_048_576 else {
                throw fail("meanBurstSize", "must be in 1...1048576, got \(meanBurstSize)")
            }
            guard kindMix.count == RouteKind.allCases.count, kindMix.allSatisfy({ $0.isFinite && $0 >= 0 }),
                  kindMix.reduce(0, +) > 0 else {
                throw fail("kindMix", "needs \(RouteKind.allCases.count) non-negative shares with a positive sum")
            }
            guard catalogueSizes.count == RouteKind.allCases.count, catalogueSizes.allSatisfy({ $0 >= 1 && $0 <= 10_000_000 }) else {
                throw fail("catalogueSizes", "needs \(RouteKind.allCases.count) sizes in 1...10000000")
            }
            guard zipfExponent.isFinite && zipfExponent >= 0 else {
                throw fail("zipfExponent", "must be non-negative, got \(zipfExponent)")
            }
            let probabilities: [(String, Double)] = [
                ("coldLaunchShare", coldLaunchShare), ("samePayloadProbability", samePayloadProbability),
                ("reemitProbability", reemitProbability), ("secondReemitProbability", secondReemitProbability),
                ("retapProbability", retapProbability), ("doubleTapProbability", doubleTapProbability),
                ("asyncCompletionProbability", asyncCompletionProbability), ("reorderProbability", reorderProbability),
            ]
            for (name, value) in probabilities where !(value >= 0 && value <= 1) {
                throw fail(name, "must be in [0, 1], got \(value)")
            }
            let delays: [(String, Duration)] = [
                ("meanQuietGap", meanQuietGap), ("samePayloadMedian", samePayloadMedian), ("retapMedian", retapMedian),
                ("asyncCompletionMedian", asyncCompletionMedian), ("reorderMeanDelay", reorderMeanDelay),
                ("doubleTapDelay", doubleTapDelay.lowerBound), ("doubleTapDelay", doubleTapDelay.upperBound),
                ("reemitDelay", reemitDelay.upperBound),
            ]
            for (name, value) in delays where !(value >= .zero && value <= .seconds(86_400)) {
                throw fail(name, "must be in 0...1 day, got \(value)")
            }
            guard reemitDelay.lowerBound > .zero else { throw fail("reemitDelay", "must start above zero") }
            guard retapSigma.isFinite && retapSigma >= 0 else { throw fail("retapSigma", "must be non-negative") }
        }

        /// `dup` events per intent the mechanisms add on average (re-taps, which are `new`, are not
        /// counted), before reordering. Used by the guide and to size outputs.
        package var expectedDuplicatesPerIntent: Double {
            samePayloadProbability + reemitProbability * (1 + secondReemitProbability)
                + doubleTapProbability + asyncCompletionProbability
        }

        /// The long-run fraction of events whose truth is `dup`.
        ///
        /// Each first intent brings 1 `new` event, `retapProbability` more `new` events (re-taps
        /// carry no mechanisms of their own), and ``expectedDuplicatesPerIntent`` `dup` events.
        package var expectedDuplicateRatio: Double {
            let duplicates = expectedDuplicatesPerIntent
            return duplicates / (1 + retapProbability + duplicates)
        }

        /// Expected events per first intent, re-taps included.
        package var expectedEventsPerIntent: Double {
            1 + retapProbability + expectedDuplicatesPerIntent
        }

        /// The long-run fraction of time spent inside bursts: a burst of *m* intents lasts
        /// (*m* − 1) inter-arrival times.
        package var expectedBurstTimeShare: Double {
            let burst = (meanBurstSize - 1) / burstRate
            return burst / (burst + meanQuietGap.seconds)
        }
    }
}

extension Duration {
    /// The duration in milliseconds, as a double.
    var milliseconds: Double { Double(wholeNanoseconds) / 1_000_000 }
    /// The duration in seconds, as a double.
    var seconds: Double { Double(wholeNanoseconds) / 1_000_000_000 }
}
