import PushDedupe

extension ScenarioCatalogue {
    /// One scenario per duplicate mechanism of `Guides/Workloads.md` § Mechanisms from public bug
    /// reports, with the delays the threads state where they state any. Each is
    /// ``EpisodeBuilder/episodeCount`` episodes of one device's traffic.
    ///
    /// Every delivery of a push to the app is a payload with its own minted envelope, carrying the
    /// push's id (the server's message id): the second delivery of one push has the same push id,
    /// so a consumed set catches it only under the `push-id` identity. Only the router's own
    /// re-emission of an envelope it created would be an emit, and none of these mechanisms is one.
    static let realWorldMechanisms: [Scenario] = [
        EpisodeBuilder.pushDeliveredTwiceScenario(
            id: "content-available-double-callback",
            summary: "A content-available push is handled by the background callback, then delivered again on tap "
                + "within the same second (70%) or the next (phonegap-plugin-push #1150, OneSignal-iOS-SDK #143): "
                + "a 500 ms window catches a third, the consumed set all under push-id, none under minted",
            firstSource: .contentAvailable, secondSource: .tap
        ) { random in
            random.bernoulli(0.7) ? random.uniform(0, 1_000) : random.uniform(1_000, 2_000)
        },
        EpisodeBuilder.pushDeliveredTwiceScenario(
            id: "launch-options-and-did-receive",
            summary: "A cold launch delivers the payload in the launch options and again through didReceive, within "
                + "the launch, 1 ms–1 s (artsy/eigen #2929, flutterfire #9077): a 500 ms window catches 90%, the "
                + "consumed set all under push-id, none under minted",
            firstSource: .coldLaunch, secondSource: .tap
        ) { random in
            random.logUniform(1, 1_000)
        },
        EpisodeBuilder.scenario(
            id: "listener-registered-twice",
            summary: "A handler registered twice (re-init, hot reload) gets every push back to back, 0–2 ms apart, a "
                + "quarter four times (OneSignal-Flutter-SDK #1057, braze-flutter-sdk #87): a window catches all, the "
                + "consumed set only under push-id",
            category: .realWorld
        ) { builder, random, number, start in
            let route = EpisodeBuilder.route(ofEpisode: number)
            let intent = builder.newIntent()
            let push = builder.newPush()
            builder.payload(intent: intent, kind: route.kind, id: route.id, source: .tap, push: push,
                            at: nanoseconds(milliseconds: start))
            var time = start
            for _ in 0..<(random.bernoulli(0.25) ? 3 : 1) {
                time += random.uniform(0, 2)
                builder.payload(intent: intent, kind: route.kind, id: route.id, source: .secondListener, push: push,
                                at: nanoseconds(milliseconds: time))
            }
            return time
        },
        EpisodeBuilder.pushDeliveredTwiceScenario(
            id: "multi-token-duplicate-delivery",
            summary: "The server sends one message to two tokens after a reinstall: the same server message id, two "
                + "transport ids, seconds apart (median 3 s); a 5 s window or a push-id consumed set catches it "
                + "(firebase-ios-sdk #8282, google/gcm #101)",
            firstSource: .tap, secondSource: .secondToken
        ) { random in
            random.logNormal(median: 3_000, sigma: 0.8, clampedTo: 300 ... 20_000)
        },
        EpisodeBuilder.scenario(
            id: "poll-redelivery",
            summary: "A second channel re-delivers a message 6–8 minutes later (ntfy #316: 00:00 and 00:07), while "
                + "other pushes arrive at 2 a minute: past any short window; only a push-id consumed set holding "
                + "more than 10 recent ids catches it",
            category: .realWorld
        ) { builder, random, number, start in
            let delay = random.uniform(6 * 60_000, 8 * 60_000)
            EpisodeBuilder.pushDeliveredTwice(
                &builder, episode: number, at: start, secondAfter: delay, firstSource: .tap, secondSource: .secondChannel)
            // Unrelated pushes meanwhile, each its own screen.
            var time = start + random.exponential(mean: 30_000)
            var other = 0
            while time < start + delay {
                let kind = RouteKind.allCases[other % RouteKind.allCases.count]
                builder.payload(intent: builder.newIntent(), kind: kind, id: 10_000_000 + number * 1_000 + other, source: .tap,
                                push: builder.newPush(), at: nanoseconds(milliseconds: time))
                other += 1
                time += random.exponential(mean: 30_000)
            }
            return start + delay
        },
        EpisodeBuilder.scenario(
            id: "stale-initial-notification",
            summary: "A notification opens the app; it is backgrounded and killed 1–3 times, relaunched 30 s–10 min "
                + "later, and the SDK returns that notification again each time (react-native-firebase #2618, expo "
                + "#30649): only a push-id consumed set restored from a snapshot catches the replays; in 30% of "
                + "kills a push was handled after the last background, lost without a snapshot per consume",
            category: .realWorld,
            episode: staleInitialNotificationEpisode
        ),
    ]

    /// The share of `stale-initial-notification`'s kills preceded by a consume after the last
    /// background: a content-available push handled while backgrounded, whose notification the
    /// user taps after the relaunch.
    static let consumeAfterBackgroundShare = 0.3

    /// One episode of `stale-initial-notification`. Every episode after the first starts with the
    /// relaunch of its cold launch, and every episode ends with the app backgrounded, so every
    /// kill follows a background.
    private static func staleInitialNotificationEpisode(
        _ builder: inout WorkloadBuilder, _ random: inout SplitMix64, _ number: Int, _ start: Double
    ) -> Double {
        let route = EpisodeBuilder.route(ofEpisode: number)
        let intent = builder.newIntent()
        let push = builder.newPush()
        if number > 0 { builder.relaunch(at: nanoseconds(milliseconds: start)) }
        builder.payload(intent: intent, kind: route.kind, id: route.id, source: .coldLaunch, push: push,
                        at: nanoseconds(milliseconds: start))
        var time = start
        for kill in 0..<(1 + random.uniformInt(below: 3)) {
            // The user leaves; the suspended app is killed and relaunched from its icon later.
            let background = time + random.uniform(5_000, 60_000)
            builder.background(at: nanoseconds(milliseconds: background))
            let relaunch = background + random.uniform(30_000, 600_000)
            var handledInBackground: (intent: Int, push: UInt32, id: Int)?
            if random.bernoulli(consumeAfterBackgroundShare) {
                let other = (intent: builder.newIntent(), push: builder.newPush(), id: 2_000_000 + number * 4 + kill)
                builder.payload(intent: other.intent, kind: .item, id: other.id, source: .contentAvailable, push: other.push,
                                at: nanoseconds(milliseconds: random.uniform(background + 1_000, relaunch - 1_000)))
                handledInBackground = other
            }
            builder.relaunch(at: nanoseconds(milliseconds: relaunch))
            time = relaunch + random.uniform(50, 500)
            builder.payload(intent: intent, kind: route.kind, id: route.id, source: .initialNotification, push: push,
                            at: nanoseconds(milliseconds: time))
            if let other = handledInBackground {
                // Its notification, tapped in the new process: the same push delivered again.
                time += random.uniform(2_000, 30_000)
                builder.payload(intent: other.intent, kind: .item, id: other.id, source: .tap, push: other.push,
                                at: nanoseconds(milliseconds: time))
            }
        }
        let leaves = time + random.uniform(1_000, 10_000)
        builder.background(at: nanoseconds(milliseconds: leaves))
        return leaves
    }
}
