import PushDedupe

extension ScenarioCatalogue {
    /// The four rows of the comparison table in the two-layer article. Each has
    /// ``EpisodeBuilder/episodeCount`` independent episodes; the expected outcome per layer and
    /// identity is in each summary and in `Guides/Workloads.md`. Every payload is a push delivery
    /// and carries its push id; the router's replays are emits.
    static let publishedSituations: [Scenario] = [
        EpisodeBuilder.scenario(
            id: "same-payload-twice",
            summary: "One push arrives as two payloads (tap and cold launch, one push id, two minted envelopes) "
                + "0.05–40 ms apart, 20% swapped; the second is dup: the window catches it, the consumed set only "
                + "under push-id identity",
            category: .publishedSituation
        ) { builder, random, number, start in
            let route = EpisodeBuilder.route(ofEpisode: number)
            let intent = builder.newIntent()
            let push = builder.newPush()
            let delay = random.logNormal(median: 2, sigma: 0.8, clampedTo: 0.05 ... 40)
            let swapped = random.bernoulli(0.2)
            let tapTime = swapped ? start + delay : start
            let coldLaunchTime = swapped ? start : start + delay
            EpisodeBuilder.payloadTwice(
                &builder, intent: intent, route: route, push: push, sources: (.tap, .coldLaunch), at: (tapTime, coldLaunchTime))
            return start + delay
        },
        EpisodeBuilder.scenario(
            id: "envelope-reemitted",
            summary: "An envelope handled on the tap path is emitted again by the pending route 10 ms–5 s later "
                + "(median 120 ms, 98% within 500 ms): the consumed set catches every one, a window mostly",
            category: .publishedSituation
        ) { builder, random, number, start in
            let delay = random.logNormal(median: 120, sigma: 0.7, clampedTo: 10 ... 5_000)
            return EpisodeBuilder.payloadAndReplay(
                &builder, episode: number, at: start, replayAfter: delay, payloadSource: .tap, push: builder.newPush(),
                replaySource: .pendingRoute)
        },
        EpisodeBuilder.scenario(
            id: "retap-after-window",
            summary: "The user taps another notification (a new push) for the same screen 0.2–10 s later (median "
                + "1.5 s, 3% within 500 ms): a new intent both layers must pass; a window false-drops the ones inside it",
            category: .publishedSituation
        ) { builder, random, number, start in
            let route = EpisodeBuilder.route(ofEpisode: number)
            let delay = random.logNormal(median: 1_500, sigma: 0.6, clampedTo: 200 ... 10_000)
            builder.payload(intent: builder.newIntent(), kind: route.kind, id: route.id, source: .tap, push: builder.newPush(),
                            at: nanoseconds(milliseconds: start))
            builder.payload(intent: builder.newIntent(), kind: route.kind, id: route.id, source: .retap, push: builder.newPush(),
                            at: nanoseconds(milliseconds: start + delay))
            return start + delay
        },
        EpisodeBuilder.scenario(
            id: "ready-callback-replay",
            summary: "A cold-launch envelope is replayed by the latest pending route and by the ready callback, each "
                + "10 ms–5 s later (log-uniform, 63% within 500 ms): the consumed set catches both, a window only early ones",
            category: .publishedSituation
        ) { builder, random, number, start in
            let route = EpisodeBuilder.route(ofEpisode: number)
            let intent = builder.newIntent()
            let payload = builder.payload(intent: intent, kind: route.kind, id: route.id, source: .coldLaunch,
                                          push: builder.newPush(), at: nanoseconds(milliseconds: start))
            var latest = start
            for source in [PushSource.pendingRoute, .readyCallback] {
                let time = start + random.logUniform(10, 5_000)
                builder.emit(of: payload, intent: intent, source: source, at: nanoseconds(milliseconds: time))
                latest = max(latest, time)
            }
            return latest
        },
    ]
}
