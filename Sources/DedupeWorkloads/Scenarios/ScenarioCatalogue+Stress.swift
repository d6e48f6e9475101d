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
        trafficPreset(
            id: "chat-storm",
            summary: "20,000 message pushes in long fast bursts (15/s, 40 per burst) for 6 conversations: "
                + "wanted repeats of a screen inside any window",
            size: .intents(20_000)
        ) { parameters in
            parameters.burstRate = 15
            parameters.meanBurstSize = 40
            parameters.meanQuietGap = .seconds(5)
            parameters.kindMix = [0, 1, 0]
            parameters.catalogueSizes = [1, 6, 1]
            parameters.zipfExponent = 1
            parameters.samePayloadProbability = 0.2
            parameters.retapProbability = 0.05
        },
        trafficPreset(
            id: "cold-launch-replay-storm",
            summary: "10,000 pushes drained at cold launch in bursts of 20 (50/s), every envelope replayed by the "
                + "pending route and 80% by the ready callback too, 10 ms–5 s later",
            size: .intents(10_000)
        ) { parameters in
            parameters.burstRate = 50
            parameters.meanBurstSize = 20
            parameters.meanQuietGap = .seconds(60)
            parameters.coldLaunchShare = 1
            parameters.reemitProbability = 1
            parameters.secondReemitProbability = 0.8
            parameters.samePayloadProbability = 0.3
        },
        trafficPreset(
            id: "long-session",
            summary: "At least 10⁶ events and 10⁵ distinct envelopes of default traffic with 3 s quiet gaps: "
                + "the consumed set's memory over a long-lived process",
            size: .minimumEvents(longSessionEvents)
        ) { parameters in
            parameters.meanQuietGap = .seconds(3)
        },
        trafficPreset(
            id: "mixed-default",
            summary: "5,000 intents of the model's default parameters: every mechanism at its documented rate",
            size: .intents(5_000)
        ) { _ in },
    ]

    /// Events of `long-session` at scale 1.
    static let longSessionEvents = 1_000_000

    /// `count` shrunk by `scale`, never below 1.
    static func scaled(_ count: Int, _ scale: Double) -> Int {
        max(1, Int((Double(count) * scale).rounded()))
    }

    /// How long a traffic preset runs at scale 1.
    private enum Size {
        case intents(Int)
        case minimumEvents(Int)
    }

    /// A stress preset of ``PushTrafficModel`` traffic: the default parameters as `configure`
    /// changes them, named and summarized as the scenario is.
    private static func trafficPreset(
        id: String, summary: String, size: Size, configure: (inout PushTrafficModel.Parameters) -> Void
    ) -> Scenario {
        var parameters = PushTrafficModel.Parameters()
        configure(&parameters)
        return Scenario(id: id, summary: summary, category: .stress, tag: .stress) { [parameters] seed, scale in
            switch size {
            case .intents(let intents):
                model(parameters).workload(name: id, summary: summary, seed: seed, intents: scaled(intents, scale))
            case .minimumEvents(let events):
                model(parameters).workload(name: id, summary: summary, seed: seed, minimumEvents: scaled(events, scale))
            }
        }
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
