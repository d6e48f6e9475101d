import PushDedupe

extension ScenarioCatalogue {
    /// Traffic presets that stress speed and memory, all drawn from ``PushTrafficModel``. Each
    /// shrinks with the scale of ``Scenario/workload(seed:scale:)``.
    static let stressPresets: [Scenario] = [
        Scenario(
            id: "marketing-burst",
            summary: "A campaign drops 1,200 pushes for 200 promoted items (Zipf 1.1) within 2 s, with every "
                + "duplicate mechanism at its default rate",
            category: .stress, tag: .stress
        ) { seed, scale in
            marketingBurst(seed: seed, intents: scaled(1_200, scale))
        },
        Scenario(
            id: "chat-storm",
            summary: "20,000 message pushes in long fast bursts (15/s, 40 per burst) for 6 conversations: "
                + "wanted repeats of a screen inside any window",
            category: .stress, tag: .stress
        ) { seed, scale in
            var parameters = PushTrafficModel.Parameters()
            parameters.burstRate = 15
            parameters.meanBurstSize = 40
            parameters.meanQuietGap = .seconds(5)
            parameters.kindMix = [0, 1, 0]
            parameters.catalogueSizes = [1, 6, 1]
            parameters.zipfExponent = 1
            parameters.samePayloadProbability = 0.2
            parameters.retapProbability = 0.05
            return model(parameters).workload(name: "chat-storm", summary: summaryOf("chat-storm"), seed: seed,
                                              intents: scaled(20_000, scale))
        },
        Scenario(
            id: "cold-launch-replay-storm",
            summary: "10,000 pushes drained at cold launch in bursts of 20 (50/s), every envelope replayed by the "
                + "pending route and 80% by the ready callback too, 10 ms–5 s later",
            category: .stress, tag: .stress
        ) { seed, scale in
            var parameters = PushTrafficModel.Parameters()
            parameters.burstRate = 50
            parameters.meanBurstSize = 20
            parameters.meanQuietGap = .seconds(60)
            parameters.coldLaunchShare = 1
            parameters.reemitProbability = 1
            parameters.secondReemitProbability = 0.8
            parameters.samePayloadProbability = 0.3
            return model(parameters).workload(name: "cold-launch-replay-storm", summary: summaryOf("cold-launch-replay-storm"),
                                              seed: seed, intents: scaled(10_000, scale))
        },
        Scenario(
            id: "long-session",
            summary: "At least 10⁶ events and 10⁵ distinct envelopes of default traffic with 3 s quiet gaps: "
                + "the consumed set's memory over a long-lived process",
            category: .stress, tag: .stress
        ) { seed, scale in
            var parameters = PushTrafficModel.Parameters()
            parameters.meanQuietGap = .seconds(3)
            return model(parameters).workload(name: "long-session", summary: summaryOf("long-session"), seed: seed,
                                              minimumEvents: scaled(longSessionEvents, scale))
        },
        Scenario(
            id: "mixed-default",
            summary: "5,000 intents of the model's default parameters: every mechanism at its documented rate",
            category: .stress, tag: .stress
        ) { seed, scale in
            model(PushTrafficModel.Parameters()).workload(name: "mixed-default", summary: summaryOf("mixed-default"),
                                                          seed: seed, intents: scaled(5_000, scale))
        },
    ]

    /// Events of `long-session` at scale 1.
    static let longSessionEvents = 1_000_000

    /// `count` shrunk by `scale`, never below 1.
    static func scaled(_ count: Int, _ scale: Double) -> Int {
        max(1, Int((Double(count) * scale).rounded()))
    }

    private static func model(_ parameters: PushTrafficModel.Parameters) -> PushTrafficModel {
        PushTrafficModel(preset: parameters)
    }

    private static func summaryOf(_ id: String) -> String {
        stressPresets.first { $0.id == id }?.summary ?? ""
    }

    /// One campaign: `intents` first intents arriving uniformly within 2 s.
    private static func marketingBurst(seed: UInt64, intents: Int) -> Workload {
        var parameters = PushTrafficModel.Parameters()
        parameters.kindMix = [1, 0, 0]
        parameters.catalogueSizes = [200, 1, 1]
        parameters.zipfExponent = 1.1
        let sampler = PushTrafficModel.Sampler(model(parameters).parameters)
        var builder = WorkloadBuilder(seed: seed, expectedEvents: 2 * intents)
        var random = SplitMix64(seed: seed)
        for _ in 0..<intents {
            sampler.appendIntent(at: random.uniform(0, 2_000), to: &builder, using: &random)
        }
        return builder.finish(name: "marketing-burst", summary: summaryOf("marketing-burst"))
    }
}
