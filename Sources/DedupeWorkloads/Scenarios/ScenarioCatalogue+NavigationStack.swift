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
        EpisodeBuilder.timedScenario(
            id: "async-completion-after-retap",
            summary: "A second tap 20 ms–3 s after the first starts a second order whose completion pushes a different "
                + "route id: dup, yet no layer and no path.last guard can catch it, only a loading guard while the first "
                + "order's fetch still runs (fetch: ActionTimingFacts); some completions fire twice, and some users "
                + "order again on purpose once the first finished",
            category: .navigationStack
        ) { builder, random, number, start in
            let intent = builder.newIntent()
            let key = "order"
            let delay = WorkloadBuilder.secondTapDelay(using: &random)
            // Two orders, two receipts: the second completion's route differs from the first's.
            let first = builder.tappedAction(intent: intent, key: key, kind: .document, id: 1_000 + number, at: start)
            let second = builder.tappedAction(intent: intent, key: key, kind: .document, id: 1_000_000 + number, at: start + delay)
            let end = max(second.end, builder.followUps(
                of: first, intent: intent, key: key, kind: .document, id: 1_000 + number, retapID: 2_000_000 + number,
                random: &random))
            return end
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
