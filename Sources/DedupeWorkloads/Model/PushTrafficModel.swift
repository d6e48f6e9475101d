import PushDedupe

/// The generative model of bursty push traffic with ground truth.
///
/// Intents (one navigation the user wants each) arrive by an on-off Markov-modulated Poisson
/// process: quiet gaps (exponential) alternate with bursts of a geometric number of intents
/// arriving at ``Parameters/burstRate``. Each intent opens a route drawn from a Zipf popularity
/// over `item:N`, `content:N` and `document:N`, and each duplicate mechanism independently adds
/// representations of it with its own delay distribution. The first event of an intent in
/// processing order is `new`; every other one is `dup`. A re-tap is a new intent.
///
/// ```swift
/// let model = try PushTrafficModel(parameters: .init())
/// let workload = model.workload(name: "mixed", summary: "…", seed: 7, intents: 10_000)
/// ```
package struct PushTrafficModel: Sendable {
    package let parameters: Parameters

    /// - Throws: ``ConfigurationError`` when a parameter is out of range.
    /// - Complexity: O(1).
    package init(parameters: Parameters = Parameters()) throws(ConfigurationError) {
        try parameters.validate()
        self.parameters = parameters
    }

    /// For the catalogue's presets: constants, so an invalid one is a programming error that
    /// traps here, on the first generation any scenario test runs.
    init(preset parameters: Parameters) {
        do {
            try parameters.validate()
        } catch {
            preconditionFailure("invalid preset parameters: \(error)")
        }
        self.parameters = parameters
    }

    /// Generates `intents` first intents (re-taps come on top).
    ///
    /// - Complexity: O(*n* log *n*) in the events generated.
    package func workload(name: String, summary: String, seed: UInt64, intents: Int) -> Workload {
        let target = max(0, intents)
        return generate(name: name, summary: summary, seed: seed,
                        expectedEvents: Int(Double(target) * parameters.expectedEventsPerIntent * 1.05)) { intentsDone, _ in
            intentsDone >= target
        }
    }

    /// Generates whole intents until at least `minimumEvents` events exist.
    ///
    /// - Complexity: O(*n* log *n*) in the events generated.
    package func workload(name: String, summary: String, seed: UInt64, minimumEvents: Int) -> Workload {
        let target = max(0, minimumEvents)
        return generate(name: name, summary: summary, seed: seed, expectedEvents: target + 16) { _, events in
            events >= target
        }
    }

    private func generate(
        name: String, summary: String, seed: UInt64, expectedEvents: Int, isDone: (Int, Int) -> Bool
    ) -> Workload {
        var builder = WorkloadBuilder(seed: seed, expectedEvents: expectedEvents)
        var random = SplitMix64(seed: seed)
        let sampler = Sampler(parameters)
        var clock: Double = 0
        var intents = 0
        while !isDone(intents, builder.eventCount) {
            clock += random.exponential(mean: sampler.meanQuietGap)
            let burstSize = random.geometric(mean: parameters.meanBurstSize)
            for position in 0..<burstSize {
                if position > 0 { clock += random.exponential(mean: sampler.meanInterArrival) }
                sampler.appendIntent(at: clock, to: &builder, using: &random)
                intents += 1
                if isDone(intents, builder.eventCount) { break }
            }
        }
        return builder.finish(name: name, summary: summary)
    }
}

extension PushTrafficModel {
    /// The parameters converted to milliseconds, with the Zipf tables built once.
    struct Sampler {
        let parameters: Parameters
        let meanQuietGap: Double
        let meanInterArrival: Double
        private let kindCumulative: [Double]
        private let popularity: [ZipfDistribution]
        private let samePayloadMedian: Double
        private let reemitLower: Double
        private let reemitUpper: Double
        private let retapMedian: Double
        private let doubleTapLower: Double
        private let doubleTapUpper: Double
        private let asyncMedian: Double
        private let reorderMean: Double

        init(_ parameters: Parameters) {
            self.parameters = parameters
            meanQuietGap = parameters.meanQuietGap.milliseconds
            meanInterArrival = 1_000 / parameters.burstRate
            let total = parameters.kindMix.reduce(0, +)
            var running = 0.0
            kindCumulative = parameters.kindMix.map { share in
                running += share / total
                return running
            }
            popularity = parameters.catalogueSizes.map { ZipfDistribution(count: $0, exponent: parameters.zipfExponent) }
            samePayloadMedian = parameters.samePayloadMedian.milliseconds
            reemitLower = parameters.reemitDelay.lowerBound.milliseconds
            reemitUpper = parameters.reemitDelay.upperBound.milliseconds
            retapMedian = parameters.retapMedian.milliseconds
            doubleTapLower = parameters.doubleTapDelay.lowerBound.milliseconds
            doubleTapUpper = parameters.doubleTapDelay.upperBound.milliseconds
            asyncMedian = parameters.asyncCompletionMedian.milliseconds
            reorderMean = parameters.reorderMeanDelay.milliseconds
        }

        /// A route by kind mix, then Zipf rank within the kind (rank 1 is id 1).
        func sampleRoute(using random: inout SplitMix64) -> (RouteKind, Int) {
            let u = random.unitInterval()
            var kind = kindCumulative.count - 1
            for (index, bound) in kindCumulative.enumerated() where u < bound {
                kind = index
                break
            }
            return (RouteKind.allCases[kind], popularity[kind].sample(using: &random))
        }

        /// One intent arriving at `arrival` ms, with every mechanism's representations.
        func appendIntent(at arrival: Double, to builder: inout WorkloadBuilder, using random: inout SplitMix64) {
            let (kind, id) = sampleRoute(using: &random)
            appendIntent(kind: kind, id: id, at: arrival, to: &builder, using: &random)
        }

        /// One intent for `kind:id` arriving at `arrival` ms.
        func appendIntent(
            kind: RouteKind, id: Int, at arrival: Double, to builder: inout WorkloadBuilder, using random: inout SplitMix64
        ) {
            let intent = builder.newIntent()
            let push = builder.newPush()
            let source: PushSource = random.bernoulli(parameters.coldLaunchShare) ? .coldLaunch : .tap
            let delivered = arrival + holdBack(using: &random)
            let first = builder.payload(intent: intent, kind: kind, id: id, source: source, push: push,
                                        at: nanoseconds(milliseconds: delivered))

            // The same push delivered on a second path, a few milliseconds later unless APNs/the OS
            // holds one of the two back, which may swap them: a second payload with its own minted
            // envelope and the same push id.
            if random.bernoulli(parameters.samePayloadProbability) {
                let delay = random.logNormal(median: samePayloadMedian, sigma: 1, clampedTo: 0.05 ... 50)
                let otherPath: PushSource = source == .tap ? .foreground : .tap
                builder.payload(intent: intent, kind: kind, id: id, source: otherPath, push: push,
                                at: nanoseconds(milliseconds: arrival + delay + holdBack(using: &random)))
            }
            if random.bernoulli(parameters.reemitProbability) {
                let count = random.bernoulli(parameters.secondReemitProbability) ? 2 : 1
                for replay in 0..<count {
                    let delay = random.logUniform(reemitLower, reemitUpper)
                    builder.emit(of: first, intent: intent, source: replay == 0 ? .pendingRoute : .readyCallback,
                                 at: nanoseconds(milliseconds: delivered + delay))
                }
            }
            if random.bernoulli(parameters.doubleTapProbability) {
                let delay = random.uniform(doubleTapLower, doubleTapUpper)
                builder.payload(intent: intent, kind: kind, id: id, source: .button,
                                at: nanoseconds(milliseconds: delivered + delay))
            }
            if random.bernoulli(parameters.asyncCompletionProbability) {
                let delay = random.logNormal(median: asyncMedian, sigma: 0.6, clampedTo: 1 ... 10_000)
                builder.payload(intent: intent, kind: kind, id: id + 1, source: .asyncCompletion,
                                at: nanoseconds(milliseconds: delivered + delay))
            }
            // A re-tap opens another notification for the same screen (a tapped one leaves
            // Notification Center): a new intent and a new push. Button taps and async completions
            // above are in-app navigations and carry no push.
            if random.bernoulli(parameters.retapProbability) {
                let delay = random.logNormal(median: retapMedian, sigma: parameters.retapSigma, clampedTo: 50 ... 60_000)
                builder.payload(intent: builder.newIntent(), kind: kind, id: id, source: .retap, push: builder.newPush(),
                                at: nanoseconds(milliseconds: delivered + delay))
            }
        }

        /// The extra processing delay of a delivery APNs or the OS holds back, usually zero.
        private func holdBack(using random: inout SplitMix64) -> Double {
            random.bernoulli(parameters.reorderProbability) ? random.exponential(mean: reorderMean) : 0
        }
    }
}
