import PushDedupe

/// Builds the published and NavigationStack scenarios: many independent episodes of one
/// situation, separated by quiet gaps longer than any window the harness sweeps (5 s), so that
/// episodes cannot interact and every rate is a rate over episodes.
enum EpisodeBuilder {
    /// Episodes per scenario: enough for a 95% interval of about ±7 points on a rate, and quick.
    static let episodeCount = 200
    /// The minimum quiet gap after an episode's last event, in ms: four times the longest window
    /// swept.
    static let minimumGap: Double = 20_000
    /// The mean of the exponential extra gap, in ms, so that episode starts are not periodic.
    static let meanExtraGap: Double = 10_000

    /// Builds ``episodeCount`` episodes. `episode` records episode `number` starting at `start`
    /// (ms) and returns the latest time (ms) it used.
    static func workload(
        name: String, summary: String, seed: UInt64, actionTiming: ActionTimingFacts = .published,
        episode: (_ builder: inout WorkloadBuilder, _ random: inout SplitMix64, _ number: Int, _ start: Double) -> Double
    ) -> Workload {
        var builder = WorkloadBuilder(seed: seed, expectedEvents: 3 * episodeCount, actionTiming: actionTiming)
        var random = SplitMix64(seed: seed)
        var start = 0.0
        for number in 0..<episodeCount {
            start += random.exponential(mean: meanExtraGap)
            start = episode(&builder, &random, number, start) + minimumGap
        }
        return builder.finish(name: name, summary: summary)
    }

    /// The most common episode: one intent's payload for episode `number`'s route at `start` (ms)
    /// on `payloadSource`, delivering `push` (none for an in-app navigation), and its envelope
    /// emitted again by the router `delay` ms later on `replaySource`. Returns the replay's time.
    @discardableResult
    static func payloadAndReplay(
        _ builder: inout WorkloadBuilder, episode number: Int, at start: Double, replayAfter delay: Double,
        payloadSource: PushSource, push: UInt32, replaySource: PushSource
    ) -> Double {
        let route = route(ofEpisode: number)
        let intent = builder.newIntent()
        let payload = builder.payload(intent: intent, kind: route.kind, id: route.id, source: payloadSource, push: push,
                                      at: nanoseconds(milliseconds: start))
        builder.emit(of: payload, intent: intent, source: replaySource, at: nanoseconds(milliseconds: start + delay))
        return start + delay
    }

    /// One push for episode `number`'s route delivered to the app twice: at `start` (ms) on
    /// `firstSource` and `delay` ms later on `secondSource`. Two payloads, each with its own
    /// minted envelope, carrying the same push id; one intent. Returns the second delivery's time.
    @discardableResult
    static func pushDeliveredTwice(
        _ builder: inout WorkloadBuilder, episode number: Int, at start: Double, secondAfter delay: Double,
        firstSource: PushSource, secondSource: PushSource
    ) -> Double {
        let route = route(ofEpisode: number)
        let intent = builder.newIntent()
        let push = builder.newPush()
        payloadTwice(&builder, intent: intent, route: route, push: push, sources: (firstSource, secondSource),
                     at: (start, start + delay))
        return start + delay
    }

    /// Two payloads of one intent for `route`, delivering `push` (none for an in-app navigation):
    /// on the first source at the first time (ms), on the second at the second.
    static func payloadTwice(
        _ builder: inout WorkloadBuilder, intent: Int, route: (kind: RouteKind, id: Int), push: UInt32 = WorkloadEvent.noPush,
        sources: (PushSource, PushSource), at times: (Double, Double)
    ) {
        builder.payload(intent: intent, kind: route.kind, id: route.id, source: sources.0, push: push,
                        at: nanoseconds(milliseconds: times.0))
        builder.payload(intent: intent, kind: route.kind, id: route.id, source: sources.1, push: push,
                        at: nanoseconds(milliseconds: times.1))
    }

    /// The route of episode `number`: every episode its own screen, cycling through the kinds, so
    /// that not even a navigation guard comparing with the previous screen can link two episodes.
    static func route(ofEpisode number: Int) -> (kind: RouteKind, id: Int) {
        (RouteKind.allCases[number % RouteKind.allCases.count], 1_000 + number)
    }
}

extension EpisodeBuilder {
    /// The signature of one episode: record it starting at `start` ms, return its latest time.
    typealias Episode = @Sendable (
        _ builder: inout WorkloadBuilder, _ random: inout SplitMix64, _ number: Int, _ start: Double
    ) -> Double

    /// A scenario of ``episodeCount`` episodes of `episode`: one episode about every 30 s, so
    /// traffic one device sees.
    static func scenario(id: String, summary: String, category: Scenario.Category, episode: @escaping Episode) -> Scenario {
        Scenario(id: id, summary: summary, category: category, tag: .device) { (seed: UInt64) in
            workload(name: id, summary: summary, seed: seed, episode: episode)
        }
    }

    /// A scenario like ``scenario(id:summary:category:episode:)`` whose episodes run actions, so
    /// that it can be regenerated with other fetch facts (``Scenario/workload(seed:actionTiming:)``).
    static func timedScenario(id: String, summary: String, category: Scenario.Category, episode: @escaping Episode) -> Scenario {
        Scenario(id: id, summary: summary, category: category, tag: .device, timedGenerate: { seed, facts in
            workload(name: id, summary: summary, seed: seed, actionTiming: facts, episode: episode)
        })
    }

    /// A real-world scenario of one push delivered twice per episode
    /// (``pushDeliveredTwice(_:episode:at:secondAfter:firstSource:secondSource:)``), the second
    /// delivery `delay` ms after the first.
    static func pushDeliveredTwiceScenario(
        id: String, summary: String, firstSource: PushSource, secondSource: PushSource,
        delay: @escaping @Sendable (_ random: inout SplitMix64) -> Double
    ) -> Scenario {
        scenario(id: id, summary: summary, category: .realWorld) { builder, random, number, start in
            pushDeliveredTwice(
                &builder, episode: number, at: start, secondAfter: delay(&random), firstSource: firstSource,
                secondSource: secondSource)
        }
    }
}
