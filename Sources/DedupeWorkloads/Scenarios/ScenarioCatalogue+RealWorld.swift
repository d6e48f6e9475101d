import PushDedupe

extension ScenarioCatalogue {
    /// One scenario per duplicate mechanism of `Guides/Workloads.md` § Mechanisms from public bug
    /// reports, with the delays the threads state where they state any. Each is
    /// ``EpisodeBuilder/episodeCount`` episodes of one device's traffic.
    ///
    /// Where the same notification reaches the router twice, the app is taken to key its envelope
    /// on the push's message id (as every SDK keys its set), so the second delivery is an emit of
    /// the first envelope; where the server sent two notifications, they are two payloads.
    static let realWorldMechanisms: [Scenario] = [
        EpisodeBuilder.scenario(
            id: "content-available-double-callback",
            summary: "A content-available push is handled by the background callback, then again on tap or present "
                + "within the same second (70%) or the next (phonegap-plugin-push #1150, OneSignal-iOS-SDK #143)",
            category: .realWorld
        ) { builder, random, number, start in
            let delay = random.bernoulli(0.7) ? random.uniform(0, 1_000) : random.uniform(1_000, 2_000)
            return EpisodeBuilder.payloadAndReplay(
                &builder, episode: number, at: start, replayAfter: delay, payloadSource: .contentAvailable, replaySource: .tap)
        },
        EpisodeBuilder.scenario(
            id: "launch-options-and-did-receive",
            summary: "A cold launch delivers the payload in the launch options and again through didReceive, within "
                + "the launch: 1 ms–1 s, log-uniform (artsy/eigen #2929, firebase/flutterfire #9077)",
            category: .realWorld
        ) { builder, random, number, start in
            let delay = random.logUniform(1, 1_000)
            return EpisodeBuilder.payloadAndReplay(
                &builder, episode: number, at: start, replayAfter: delay, payloadSource: .coldLaunch, replaySource: .tap)
        },
        EpisodeBuilder.scenario(
            id: "listener-registered-twice",
            summary: "A handler registered twice (re-init, hot reload) gets every push back to back, 0–2 ms apart; "
                + "a quarter of pushes arrive four times (OneSignal-Flutter-SDK #1057, braze-flutter-sdk #87)",
            category: .realWorld
        ) { builder, random, number, start in
            let route = EpisodeBuilder.route(ofEpisode: number)
            let intent = builder.newIntent()
            let payload = builder.payload(intent: intent, kind: route.kind, id: route.id, source: .tap,
                                          at: nanoseconds(milliseconds: start))
            var time = start
            for _ in 0..<(random.bernoulli(0.25) ? 3 : 1) {
                time += random.uniform(0, 2)
                builder.emit(of: payload, intent: intent, source: .secondListener, at: nanoseconds(milliseconds: time))
            }
            return time
        },
        EpisodeBuilder.scenario(
            id: "multi-token-duplicate-delivery",
            summary: "The server sends one message to two tokens after a reinstall: two notification ids, same screen, "
                + "seconds apart (median 3 s); only a window can catch it (firebase-ios-sdk #8282, google/gcm #101)",
            category: .realWorld
        ) { builder, random, number, start in
            let route = EpisodeBuilder.route(ofEpisode: number)
            let intent = builder.newIntent()
            let delay = random.logNormal(median: 3_000, sigma: 0.8, clampedTo: 300 ... 20_000)
            builder.payload(intent: intent, kind: route.kind, id: route.id, source: .tap,
                            at: nanoseconds(milliseconds: start))
            builder.payload(intent: intent, kind: route.kind, id: route.id, source: .secondToken,
                            at: nanoseconds(milliseconds: start + delay))
            return start + delay
        },
        EpisodeBuilder.scenario(
            id: "poll-redelivery",
            summary: "A second channel re-delivers a message 6–8 minutes later (ntfy #316: 00:00 and 00:07), while "
                + "other pushes arrive at 2 a minute: past any short window, and mostly past 10 recent ids",
            category: .realWorld
        ) { builder, random, number, start in
            let delay = random.uniform(6 * 60_000, 8 * 60_000)
            EpisodeBuilder.payloadAndReplay(
                &builder, episode: number, at: start, replayAfter: delay, payloadSource: .tap, replaySource: .secondChannel)
            // Unrelated pushes meanwhile, each its own screen.
            var time = start + random.exponential(mean: 30_000)
            var other = 0
            while time < start + delay {
                let kind = RouteKind.allCases[other % RouteKind.allCases.count]
                builder.payload(intent: builder.newIntent(), kind: kind, id: 10_000_000 + number * 1_000 + other, source: .tap,
                                at: nanoseconds(milliseconds: time))
                other += 1
                time += random.exponential(mean: 30_000)
            }
            return start + delay
        },
        EpisodeBuilder.scenario(
            id: "stale-initial-notification",
            summary: "The app is relaunched 1–3 times, 30 s–10 min apart, after a notification opened it; after each "
                + "relaunch the SDK returns that notification again (react-native-firebase #2618, expo #30649)",
            category: .realWorld
        ) { builder, random, number, start in
            let route = EpisodeBuilder.route(ofEpisode: number)
            let intent = builder.newIntent()
            let payload = builder.payload(intent: intent, kind: route.kind, id: route.id, source: .coldLaunch,
                                          at: nanoseconds(milliseconds: start))
            var time = start
            for _ in 0..<(1 + random.uniformInt(below: 3)) {
                time += random.uniform(30_000, 600_000)
                builder.relaunch(at: nanoseconds(milliseconds: time))
                time += random.uniform(50, 500)
                builder.emit(of: payload, intent: intent, source: .initialNotification, at: nanoseconds(milliseconds: time))
            }
            return time
        },
    ]
}
