import PushDedupe

extension ScenarioCatalogue {
    /// The three ways the NavigationStack article stacks a screen twice, as episodes like the
    /// published situations. All are in-app navigations (a button, an async completion), so no
    /// payload carries a push id and both identities are the same.
    static let navigationStackCases: [Scenario] = [
        EpisodeBuilder.scenario(
            id: "button-double-tap",
            summary: "A button pushing a screen is tapped twice 80–300 ms apart (two payloads, same route): "
                + "a window of 300 ms or more and the path.last guard catch the dup, the consumed set cannot",
            category: .navigationStack
        ) { builder, random, number, start in
            let route = EpisodeBuilder.route(ofEpisode: number)
            let intent = builder.newIntent()
            let delay = random.uniform(80, 300)
            EpisodeBuilder.payloadTwice(&builder, intent: intent, route: route, sources: (.button, .button), at: (start, start + delay))
            return start + delay
        },
        EpisodeBuilder.scenario(
            id: "async-completion-after-retap",
            summary: "A second tap during a slow async task makes a second completion push a different route id "
                + "20 ms–3 s after the first: dup, yet no layer and no path.last guard can catch it (only a loading guard)",
            category: .navigationStack
        ) { builder, random, number, start in
            let intent = builder.newIntent()
            let delay = random.logNormal(median: 250, sigma: 0.6, clampedTo: 20 ... PushSource.secondCompletionBoundMilliseconds)
            // Two orders, two receipts: the second completion's route differs from the first's.
            builder.payload(intent: intent, kind: .document, id: 1_000 + number, source: .asyncCompletion,
                            at: nanoseconds(milliseconds: start))
            builder.payload(intent: intent, kind: .document, id: 1_000_000 + number, source: .asyncCompletion,
                            at: nanoseconds(milliseconds: start + delay))
            return start + delay
        },
        EpisodeBuilder.scenario(
            id: "path-owned-twice",
            summary: "A parent and a child each own a path and append the same envelope within a frame (0–16.7 ms): "
                + "an emit the consumed set, the path.last guard and a fingerprint-only window all catch",
            category: .navigationStack
        ) { builder, random, number, start in
            let delay = random.uniform(0, 16.7)
            return EpisodeBuilder.payloadAndReplay(
                &builder, episode: number, at: start, replayAfter: delay, payloadSource: .button,
                push: WorkloadEvent.noPush, replaySource: .secondPathOwner)
        },
    ]
}
