import DedupeWorkloads
import PushDedupe

/// The scenarios of the policy matrix, in report order: one built for each switch, existing
/// workload scenarios run through the lifecycle, then the process-death scenarios (built and
/// reused), which run under every persistence. `Guides/Policies.md` cites the article passage
/// each one models.
package enum LifecycleScenarioCatalogue {
    package static let all: [LifecycleScenario] = builtForSwitches + reused + builtForRelaunch + reusedWithRelaunch

    /// The scenario with `id`, or `nil`.
    package static func scenario(named id: String) -> LifecycleScenario? {
        all.first { $0.id == id }
    }

    /// Episodes per built scenario, as in the workload catalogue.
    static let episodeCount = 200

    static let builtForSwitches: [LifecycleScenario] = [
        LifecycleScenario(
            id: "reemit-during-fetch",
            summary: "The pending route re-emits an envelope 5 ms–1 s (median 60 ms) after the tap, while its detail fetch is usually still in flight",
            exercises: .consumeAfterSuccess
        ) { seed, _ in
            episodes("reemit-during-fetch", seed) { builder, random, number, start in
                let route = builder.route("item:\(1_000 + number)")
                let envelope = builder.envelope(wanting: route)
                let delay = random.logNormal(median: 60, sigma: 0.6, clampedTo: 5 ... 1_000)
                builder.payload(envelope, at: start, source: "tap")
                builder.emit(envelope, at: start + delay, source: "pending_route")
                return start + delay
            }
        },
        LifecycleScenario(
            id: "disabled-tab-replay",
            summary: "A push for a disabled tab (or a route with no tab) stays the latest pending route and is replayed on the next two host attaches",
            exercises: .consumeOnSuccessOnly
        ) { seed, _ in
            episodes("disabled-tab-replay", seed) { builder, random, number, start in
                let route = builder.route("content:\(1_000 + number)", tab: number % 2 == 0 ? .disabled : .noTab)
                let envelope = builder.envelope(wanting: route)
                builder.payload(envelope, at: start)
                var time = start
                for _ in 0..<2 {
                    time += random.uniform(2_000, 6_000)
                    builder.event(.hostDetach, at: time)
                    time += random.uniform(500, 3_000)
                    builder.event(.hostAttach, at: time)
                }
                return time
            }
        },
        LifecycleScenario(
            id: "cold-launch-late-host",
            summary: "A cold-launch push waits for the host (attaching 100 ms–5 s later, median 600 ms); the pending route is replayed to it, "
                + "the ready callback re-emits it 10–400 ms later, and the host re-attaches after 5–10 s",
            exercises: .consumeAfterSuccess
        ) { seed, _ in
            episodes("cold-launch-late-host", seed, hostAttachedAtStart: false) { builder, random, number, start in
                let route = builder.route("document:\(1_000 + number)")
                let envelope = builder.envelope(wanting: route)
                builder.event(.hostDetach, at: start)
                builder.payload(envelope, at: start, source: "cold_launch")
                let attach = start + random.logNormal(median: 600, sigma: 0.5, clampedTo: 100 ... 5_000)
                builder.event(.hostAttach, at: attach)
                builder.emit(envelope, at: attach + random.uniform(10, 400), source: "ready_callback")
                let detach = attach + random.uniform(5_000, 10_000)
                builder.event(.hostDetach, at: detach)
                let reattach = detach + random.uniform(500, 3_000)
                builder.event(.hostAttach, at: reattach)
                return reattach
            }
        },
        LifecycleScenario(
            id: "two-fetches-quick-succession",
            summary: "Two pushes for different screens 20 ms–1 s apart (median 120 ms), each needing a detail fetch: the later one should win",
            exercises: .keepInFlight
        ) { seed, _ in
            episodes("two-fetches-quick-succession", seed) { builder, random, number, start in
                let first = builder.route("item:\(1_000 + number)")
                let second = builder.route("content:\(1_000 + number)")
                let delay = random.logNormal(median: 120, sigma: 0.6, clampedTo: 20 ... 1_000)
                let firstEnvelope = builder.envelope(wanting: first)
                builder.payload(firstEnvelope, at: start)
                let secondEnvelope = builder.envelope(wanting: second)
                builder.payload(secondEnvelope, at: start + delay)
                return start + delay
            }
        },
        LifecycleScenario(
            id: "checkout-double-tap",
            summary: "The checkout button is tapped again 20 ms–3 s later (median 250 ms) while the checkout (median 600 ms) may still run; "
                + "each checkout returns a new order",
            exercises: .noLoadingGuard
        ) { seed, _ in
            episodes("checkout-double-tap", seed) { builder, random, _, start in
                let intent = builder.intent(wanting: .max)
                let delay = random.logNormal(median: 250, sigma: 0.6, clampedTo: 20 ... 3_000)
                builder.event(.checkoutTap, intent: intent, at: start)
                builder.event(.checkoutTap, intent: intent, at: start + delay)
                return start + delay
            }
        },
    ]

    /// Scenarios of process death, run under every ``Persistence``.
    static let builtForRelaunch: [LifecycleScenario] = [
        LifecycleScenario(
            id: "relaunch-mid-fetch",
            summary: "A tapped push's detail fetch is in flight when the app goes to the background (10–100 ms after the tap) "
                + "and is killed 10–100 ms later, then launched again: the pending route replays at the cold launch if the store kept it",
            exercises: .reserveThenCommit
        ) { seed, _ in
            episodes("relaunch-mid-fetch", seed) { builder, random, number, start in
                let route = builder.route("item:\(1_000 + number)")
                let envelope = builder.envelope(wanting: route)
                builder.payload(envelope, at: start, source: "tap")
                let background = start + random.uniform(10, 100)
                builder.event(.background, at: background)
                let relaunch = background + random.uniform(10, 100)
                builder.event(.relaunch, at: relaunch)
                // Room for the cold launch's host attach (at most 5 s) before the next episode.
                return relaunch + 5_000
            }
        },
        LifecycleScenario(
            id: "relaunch-before-host",
            summary: "A cold-launch push waits for the host; in half the episodes the ready callback hands it to the handler "
                + "first (an early return: no host); the app is killed 50 ms–2 s in, before the host attaches, and launched again",
            exercises: nil
        ) { seed, _ in
            episodes("relaunch-before-host", seed) { builder, random, number, start in
                let route = builder.route("document:\(1_000 + number)")
                let envelope = builder.envelope(wanting: route)
                builder.event(.hostDetach, at: start)
                builder.payload(envelope, at: start, source: "cold_launch")
                let relaunch = start + random.uniform(50, 2_000)
                if random.bernoulli(0.5) { builder.emit(envelope, at: start + random.uniform(10, 40), source: "ready_callback") }
                builder.event(.relaunch, at: relaunch)
                return relaunch + 5_000
            }
        },
    ]

    static let reused: [LifecycleScenario] = [
        ("button-double-tap", PolicyVariant.noLastRouteGuard),
        ("path-owned-twice", .twoPathOwners),
        ("envelope-reemitted", nil),
        ("ready-callback-replay", nil),
        ("same-payload-twice", nil),
        ("retap-after-window", .routerTopGuard),
        ("mixed-default", nil),
    ].compactMap { id, variant in
        ScenarioCatalogue.scenario(named: id).map { LifecycleScenario(reusing: $0, exercises: variant) }
    }

    /// Workload scenarios with relaunches, run under every persistence. Add a new one by id.
    static let reusedWithRelaunch: [LifecycleScenario] = ["stale-initial-notification"].compactMap { id in
        ScenarioCatalogue.scenario(named: id).map { LifecycleScenario(reusing: $0, exercises: nil) }
    }

    /// `episodeCount` episodes separated like the workload catalogue's (20 s plus an exponential
    /// 10 s on average), so episodes do not interact.
    static func episodes(
        _ name: String, _ seed: UInt64, hostAttachedAtStart: Bool = true,
        _ episode: (_ builder: inout LifecycleScriptBuilder, _ random: inout SplitMix64, _ number: Int, _ start: Double) -> Double
    ) -> LifecycleScript {
        let summary = (builtForSwitches + builtForRelaunch).first { $0.id == name }?.summary ?? ""
        var builder = LifecycleScriptBuilder(name: name, summary: summary, seed: seed, hostAttachedAtStart: hostAttachedAtStart)
        var random = SplitMix64(seed: seed)
        var start = 0.0
        for number in 0..<episodeCount {
            start += random.exponential(mean: 10_000)
            start = episode(&builder, &random, number, start) + 20_000
        }
        return builder.finish()
    }
}
