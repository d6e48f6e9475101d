import Testing
import PushDedupe
@testable import DedupeWorkloads

@Suite struct ScenarioCatalogueTests {
    /// Small enough for a debug build, large enough for every mechanism to occur.
    static let quickScale = 0.05

    @Test func idsAreStableKebabCaseAndUnique() {
        let ids = ScenarioCatalogue.all.map(\.id)
        #expect(ids == [
            "same-payload-twice", "envelope-reemitted", "retap-after-window", "ready-callback-replay",
            "button-double-tap", "async-completion-after-retap", "path-owned-twice",
            "marketing-burst", "chat-storm", "cold-launch-replay-storm", "long-session", "mixed-default",
            "content-available-double-callback", "launch-options-and-did-receive", "listener-registered-twice",
            "multi-token-duplicate-delivery", "poll-redelivery", "stale-initial-notification",
            "typical-app-week", "messaging-app-week",
        ])
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "-" } })
        #expect(ScenarioCatalogue.all.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("\n") })
        #expect(ScenarioCatalogue.scenario(named: "chat-storm")?.category == .stress)
        #expect(ScenarioCatalogue.scenario(named: "nope") == nil)
        let categories = ScenarioCatalogue.all.map(\.category)
        #expect(categories.filter { $0 == .publishedSituation }.count == 4)
        #expect(categories.filter { $0 == .navigationStack }.count == 3)
        #expect(categories.filter { $0 == .realWorld }.count == 8)
        #expect(ScenarioCatalogue.all.filter { $0.category == .realWorld }.allSatisfy { $0.tag == .device })
    }

    @Test(arguments: ScenarioCatalogue.all.map(\.id))
    func everyScenarioIsConsistentAndDeterministic(id: String) throws {
        let scenario = try #require(ScenarioCatalogue.scenario(named: id))
        let workload = scenario.workload(seed: 3, scale: Self.quickScale)
        #expect(workload.name == id)
        #expect(workload.summary == scenario.summary)
        #expect(!workload.events.isEmpty)
        #expect(workload.firstInconsistency() == nil)
        #expect(workload.events.allSatisfy { ($0.truth == .unknown) == $0.kind.isLifecycle })
        #expect(workload.count(.new) > 0)
        // A push's delivery says which push it is; an in-app navigation carries none.
        for event in workload.events where event.kind == .payload {
            let inApp = ["button", "async_completion"].contains(workload.source(of: event))
            #expect((event.push == WorkloadEvent.noPush) == inApp, "\(workload.source(of: event))")
        }
        #expect(workload.hasPushIDs == workload.events.contains { $0.push != WorkloadEvent.noPush })
        let again = scenario.workload(seed: 3, scale: Self.quickScale)
        #expect(TraceWriter.encode(again) == TraceWriter.encode(workload))
        #expect(TraceWriter.encode(scenario.workload(seed: 4, scale: Self.quickScale)) != TraceWriter.encode(workload))
    }

    // MARK: The episodic scenarios, checked against their definitions

    /// Splits an episodic workload at the quiet gaps between episodes.
    func episodes(_ id: String, seed: UInt64 = 1) throws -> (Workload, [[WorkloadEvent]]) {
        let workload = try #require(ScenarioCatalogue.scenario(named: id)).workload(seed: seed)
        var episodes: [[WorkloadEvent]] = []
        for event in workload.events {
            if let last = episodes.last?.last, event.time.nanoseconds - last.time.nanoseconds < 15_000_000_000 {
                episodes[episodes.count - 1].append(event)
            } else {
                episodes.append([event])
            }
        }
        #expect(episodes.count == EpisodeBuilder.episodeCount)
        #expect(Set(episodes.map { workload.route(of: $0[0]) }).count == episodes.count)
        return (workload, episodes)
    }

    func milliseconds(_ from: WorkloadEvent, _ to: WorkloadEvent) -> Double {
        Double(to.time.nanoseconds - from.time.nanoseconds) / 1e6
    }

    @Test func samePayloadTwice() throws {
        let (workload, episodes) = try episodes("same-payload-twice")
        var swapped = 0
        for episode in episodes {
            #expect(episode.map(\.kind) == [.payload, .payload])
            #expect(episode.map(\.truth) == [.new, .dup])
            #expect(episode[0].fingerprint == episode[1].fingerprint && episode[0].envelope != episode[1].envelope)
            // One push on two paths: the same push id, so push-id identity makes them one envelope.
            #expect(episode[0].push == episode[1].push && episode[0].push != WorkloadEvent.noPush)
            #expect(milliseconds(episode[0], episode[1]) <= 40)
            #expect(Set(episode.map { workload.source(of: $0) }) == ["tap", "cold_launch"])
            if workload.source(of: episode[0]) == "cold_launch" { swapped += 1 }
        }
        #expect(swapped > 20 && swapped < 60)
        #expect(workload.consumedSetOutcome(.minted, .afterEveryConsume).missed.count == episodes.count)
        #expect(workload.consumedSetOutcome(.pushID, .afterEveryConsume).missed.isEmpty)
    }

    @Test func envelopeReemitted() throws {
        let (workload, episodes) = try episodes("envelope-reemitted")
        var insideWindow = 0
        for episode in episodes {
            #expect(episode.map(\.kind) == [.payload, .emit])
            #expect(episode.map(\.truth) == [.new, .dup])
            #expect(episode[0].envelope == episode[1].envelope)
            #expect(episode[0].push == episode[1].push && episode[0].push != WorkloadEvent.noPush)
            #expect(workload.source(of: episode[1]) == "pending_route")
            let delay = milliseconds(episode[0], episode[1])
            #expect(delay >= 10 && delay <= 5_000)
            if delay <= 500 { insideWindow += 1 }
        }
        #expect(insideWindow >= 185)
    }

    @Test func retapAfterWindow() throws {
        let (workload, episodes) = try episodes("retap-after-window")
        var insideWindow = 0
        for episode in episodes {
            #expect(episode.map(\.kind) == [.payload, .payload])
            #expect(episode.map(\.truth) == [.new, .new])
            #expect(episode[0].fingerprint == episode[1].fingerprint && episode[0].envelope != episode[1].envelope)
            #expect(workload.source(of: episode[1]) == "retap")
            // Another notification: a new push, so no identity makes the two one envelope.
            #expect(episode[0].push != episode[1].push)
            let delay = milliseconds(episode[0], episode[1])
            #expect(delay >= 200 && delay <= 10_000)
            if delay <= 500 { insideWindow += 1 }
        }
        #expect(insideWindow >= 1 && insideWindow <= 20)
        for identity in Identity.allCases {
            #expect(workload.consumedSetOutcome(identity, .afterEveryConsume).falseDrops.isEmpty)
        }
    }

    @Test func readyCallbackReplay() throws {
        let (workload, episodes) = try episodes("ready-callback-replay")
        for episode in episodes {
            #expect(episode.map(\.kind) == [.payload, .emit, .emit])
            #expect(episode.map(\.truth) == [.new, .dup, .dup])
            #expect(episode.allSatisfy { $0.envelope == episode[0].envelope })
            #expect(Set(episode.dropFirst().map { workload.source(of: $0) }) == ["pending_route", "ready_callback"])
            #expect(episode.dropFirst().allSatisfy { milliseconds(episode[0], $0) >= 10 && milliseconds(episode[0], $0) <= 5_000 })
        }
    }

    @Test func buttonDoubleTap() throws {
        let (workload, episodes) = try episodes("button-double-tap")
        for episode in episodes {
            #expect(episode.map(\.kind) == [.payload, .payload])
            #expect(episode.map(\.truth) == [.new, .dup])
            #expect(episode[0].route == episode[1].route && episode[0].envelope != episode[1].envelope)
            #expect(episode.allSatisfy { workload.source(of: $0) == "button" && $0.push == WorkloadEvent.noPush })
            let delay = milliseconds(episode[0], episode[1])
            #expect(delay >= 80 && delay <= 300)
        }
    }

    /// Every payload is an action's completion; every action starts and finishes once; each
    /// episode has two orders of one intent, and some a wanted re-tap (a new intent) or a
    /// completion fired again (a dup of its action's screen).
    @Test func asyncCompletionAfterRetap() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "async-completion-after-retap")).workload(seed: 1)
        let actions = workload.events.columns.actions
        #expect(actions.completions.map(\.event) == Array(workload.events.indices))
        let starts = actions.records.filter { $0.kind == .started }
        #expect(starts.map(\.action) == Array(0..<UInt32(starts.count)))
        #expect(actions.records.filter { $0.kind == .finished }.map(\.action).sorted() == starts.map(\.action))
        let retaps = starts.count - 2 * EpisodeBuilder.episodeCount
        #expect(retaps > 0 && retaps < EpisodeBuilder.episodeCount)
        #expect(workload.count(.new) == EpisodeBuilder.episodeCount + retaps)
        var completed = Set<UInt32>()
        var again = 0
        for completion in actions.completions where !completed.insert(completion.action).inserted {
            again += 1
            #expect(workload.events[completion.event].truth == .dup)
        }
        #expect(again > 0 && again < EpisodeBuilder.episodeCount)
        #expect(workload.count(.dup) == EpisodeBuilder.episodeCount + again)
        #expect(workload.events.allSatisfy { workload.source(of: $0) == "async_completion" })
    }

    @Test func pathOwnedTwice() throws {
        let (workload, episodes) = try episodes("path-owned-twice")
        for episode in episodes {
            #expect(episode.map(\.kind) == [.payload, .emit])
            #expect(episode.map(\.truth) == [.new, .dup])
            #expect(episode[0].envelope == episode[1].envelope)
            #expect(workload.source(of: episode[1]) == "second_path_owner")
            #expect(milliseconds(episode[0], episode[1]) <= 16.7)
        }
        // In-app navigations only: no push ids, so `push-id` replays as `minted`.
        #expect(!workload.hasPushIDs)
    }

    // MARK: Stress presets

    @Test func marketingBurstHasAThousandPushesWithinTwoSeconds() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "marketing-burst")).workload(seed: 2)
        let early = workload.events.filter { $0.kind == .payload && $0.time.nanoseconds < 2_000_000_000 }
        #expect(early.count >= 1_000)
        #expect(Set(workload.routes).count <= 201)
    }

    @Test func chatStormTargetsAFewConversations() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "chat-storm")).workload(seed: 2, scale: 0.1)
        #expect(workload.count(.new) >= 2_000)
        #expect(Set(workload.events.map { workload.route(of: $0) }).count <= 12)
    }

    @Test func coldLaunchReplayStormIsMostlyEmits() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "cold-launch-replay-storm")).workload(seed: 2, scale: 0.1)
        let emits = workload.events.filter { $0.kind == .emit }.count
        #expect(Double(emits) / Double(workload.events.count) > 0.5)
    }

    /// Long-session guarantees its event count by construction (it generates whole intents until
    /// the target is met); its envelope count is the payload share of the events, about 0.75 with
    /// the default mechanisms, so at scale 1 it holds well over 10⁵ envelopes. Checked at 5% scale
    /// to keep the debug suite fast.
    @Test func longSessionScalesToAMillionEvents() throws {
        let scenario = try #require(ScenarioCatalogue.scenario(named: "long-session"))
        let workload = scenario.workload(seed: 1, scale: 0.05)
        let target = ScenarioCatalogue.longSessionEvents / 20
        #expect(workload.events.count >= target && workload.events.count < target + 50)
        let envelopes = Set(workload.events.map(\.envelope)).count
        #expect(Double(envelopes) / Double(workload.events.count) > 0.6)
        #expect(ScenarioCatalogue.longSessionEvents >= 1_000_000)
    }

    @Test func scaleShrinksStressPresetsOnly() throws {
        let burst = try #require(ScenarioCatalogue.scenario(named: "mixed-default"))
        #expect(burst.workload(seed: 1, scale: 0.1).events.count < burst.workload(seed: 1, scale: 0.5).events.count)
        #expect(burst.workload(seed: 1, scale: .nan).events.count == burst.workload(seed: 1).events.count)
        #expect(!burst.workload(seed: 1, scale: -1).events.isEmpty)
        let episodic = try #require(ScenarioCatalogue.scenario(named: "button-double-tap"))
        #expect(episodic.workload(seed: 1, scale: 0.01).events.count == 2 * EpisodeBuilder.episodeCount)
    }
}
