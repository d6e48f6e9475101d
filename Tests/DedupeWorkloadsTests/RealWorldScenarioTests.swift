import PushDedupe
import Testing
@testable import DedupeWorkloads

/// The mechanisms from public bug reports, each checked against its definition in
/// `Guides/Workloads.md` § Mechanisms from public bug reports: which deliveries one push makes,
/// and which identity makes them one envelope.
@Suite struct RealWorldScenarioTests {
    func workload(_ id: String, seed: UInt64 = 1) throws -> Workload {
        try #require(ScenarioCatalogue.scenario(named: id)).workload(seed: seed)
    }

    /// The deliveries (payloads and emits) of each push, in processing order, grouped by push.
    func deliveriesByPush(_ workload: Workload) -> [[WorkloadEvent]] {
        var groups = [[WorkloadEvent]](repeating: [], count: workload.pushes.count)
        for event in workload.events where !event.kind.isLifecycle && event.push != WorkloadEvent.noPush {
            groups[Int(event.push)].append(event)
        }
        return groups
    }

    func milliseconds(_ from: WorkloadEvent, _ to: WorkloadEvent) -> Double {
        Double(to.time.nanoseconds - from.time.nanoseconds) / 1e6
    }

    /// Every delivery of one push after the first: a payload with its own minted envelope
    /// (never an emit), the same route, `dup`. Under `minted` the consumed set therefore misses
    /// every one; under `push-id` (snapshot, unbounded) it catches every one and drops nothing wanted.
    func expectOnePushDeliveredAgain(_ workload: Workload, sources: [String], repeated: Int = EpisodeBuilder.episodeCount) {
        let pushes = deliveriesByPush(workload).filter { $0.count > 1 }
        #expect(pushes.count == repeated)
        for deliveries in pushes {
            #expect(deliveries.allSatisfy { $0.kind == .payload && $0.route == deliveries[0].route })
            #expect(Set(deliveries.map(\.envelope)).count == deliveries.count, "each delivery mints its own envelope")
            #expect(Set(deliveries.map { workload.key(of: $0, .pushID) }).count == 1, "push-id makes them one envelope")
            #expect(deliveries.map(\.truth) == [.new] + Array(repeating: .dup, count: deliveries.count - 1))
            #expect(deliveries.allSatisfy { sources.contains(workload.source(of: $0)) })
        }
        let duplicates = workload.count(.dup)
        #expect(workload.consumedSetOutcome(.minted, .afterEveryConsume).missed.count == duplicates)
        #expect(workload.consumedSetOutcome(.pushID, .afterEveryConsume).missed.isEmpty)
        #expect(workload.consumedSetOutcome(.pushID, .afterEveryConsume).falseDrops.isEmpty)
    }

    @Test func contentAvailablePushesAreDeliveredAgainWithinTwoSeconds() throws {
        let workload = try workload("content-available-double-callback")
        expectOnePushDeliveredAgain(workload, sources: ["content_available", "tap"])
        let pairs = deliveriesByPush(workload)
        #expect(pairs.allSatisfy { workload.source(of: $0[0]) == "content_available" && workload.source(of: $0[1]) == "tap" })
        #expect(pairs.allSatisfy { milliseconds($0[0], $0[1]) >= 0 && milliseconds($0[0], $0[1]) <= 2_000 })
        let sameSecond = pairs.filter { milliseconds($0[0], $0[1]) < 1_000 }.count
        #expect(sameSecond > pairs.count / 2 && sameSecond < pairs.count)
    }

    @Test func launchOptionsAndDidReceiveDeliverWithinTheLaunch() throws {
        let workload = try workload("launch-options-and-did-receive")
        expectOnePushDeliveredAgain(workload, sources: ["cold_launch", "tap"])
        #expect(deliveriesByPush(workload).allSatisfy { milliseconds($0[0], $0[1]) >= 1 && milliseconds($0[0], $0[1]) <= 1_000 })
    }

    @Test func aSecondListenerGetsEveryPushBackToBack() throws {
        let workload = try workload("listener-registered-twice")
        expectOnePushDeliveredAgain(workload, sources: ["tap", "second_listener"])
        let counts = deliveriesByPush(workload).map(\.count)
        #expect(counts.allSatisfy { $0 == 2 || $0 == 4 } && counts.contains(2) && counts.contains(4))
        #expect(deliveriesByPush(workload).allSatisfy { milliseconds($0[0], $0[$0.count - 1]) <= 6 })
    }

    /// One logical message sent to two tokens: the server's message id is the same (the push id),
    /// the transport id differs per send, so only push-id identity makes them one envelope.
    @Test func aSecondTokenDeliversTheSameMessageSecondsLater() throws {
        let workload = try workload("multi-token-duplicate-delivery")
        expectOnePushDeliveredAgain(workload, sources: ["tap", "second_token"])
        #expect(!workload.events.contains { $0.kind == .emit })
        for pair in deliveriesByPush(workload) {
            #expect(milliseconds(pair[0], pair[1]) >= 300 && milliseconds(pair[0], pair[1]) <= 20_000)
        }
    }

    @Test func pollRedeliveryComesSixToEightMinutesLaterAmidOtherPushes() throws {
        let workload = try workload("poll-redelivery")
        expectOnePushDeliveredAgain(workload, sources: ["tap", "second_channel"])
        let pairs = deliveriesByPush(workload).filter { $0.count == 2 }
        #expect(pairs.allSatisfy { milliseconds($0[0], $0[1]) >= 360_000 && milliseconds($0[0], $0[1]) <= 480_000 })
        // Distinct pushes between each message and its redelivery: sometimes more than 10, so 10
        // recent ids miss some redeliveries even under push-id identity.
        let between = pairs.map { pair in
            workload.events.filter { $0.kind == .payload && $0.time > pair[0].time && $0.time < pair[1].time }.count
        }
        #expect(between.contains { $0 > 10 } && between.contains { $0 <= 10 })
        #expect(workload.consumedSetOutcome(.pushID, .afterEveryConsume, capacity: 10).missed.count == between.filter { $0 >= 10 }.count)
    }

    @Test func aStaleInitialNotificationFollowsEveryKill() throws {
        let workload = try workload("stale-initial-notification")
        let events = workload.events
        let relaunches = events.indices.filter { events[$0].kind == .relaunch }
        var staleReturns = 0
        for index in relaunches {
            let next = events[index + 1]
            if workload.source(of: next) == "initial_notification" {
                staleReturns += 1
                let delay = milliseconds(events[index], next)
                #expect(next.kind == .payload && next.truth == .dup && delay >= 50 && delay <= 500)
            } else {
                // A new episode: the cold launch from its notification.
                #expect(workload.source(of: next) == "cold_launch" && next.time == events[index].time && next.truth == .new)
            }
        }
        #expect(staleReturns >= EpisodeBuilder.episodeCount && staleReturns <= 3 * EpisodeBuilder.episodeCount)
        #expect(relaunches.count == staleReturns + EpisodeBuilder.episodeCount - 1)
        // The stale return is the launch notification's push again, with a new minted envelope.
        for deliveries in deliveriesByPush(workload) where workload.source(of: deliveries[0]) == "cold_launch" {
            #expect(deliveries.dropFirst().allSatisfy { workload.source(of: $0) == "initial_notification" })
            #expect(Set(deliveries.map(\.envelope)).count == deliveries.count)
            #expect(deliveries.dropFirst().allSatisfy { milliseconds(deliveries[0], $0) >= 30_000 })
        }
    }

    /// Every kill follows a background, and in the stated share of the kills that return a stale
    /// notification, a push was handled after that background: `on-background` loses
    /// exactly those, `after-every-consume` none, `memory` every replay.
    @Test func aConsumeAfterTheLastBackgroundIsLostWithoutASnapshotPerConsume() throws {
        let workload = try workload("stale-initial-notification")
        let events = workload.events
        var sawBackground = false
        var consumedSinceBackground = false
        var killsWithLateConsume = 0
        var staleKills = 0
        for (index, event) in events.enumerated() {
            switch event.kind {
            case .background:
                sawBackground = true
                consumedSinceBackground = false
            case .relaunch:
                #expect(sawBackground, "relaunch \(index) without a background before it")
                if workload.source(of: events[index + 1]) == "initial_notification" { staleKills += 1 }
                if consumedSinceBackground { killsWithLateConsume += 1 }
                sawBackground = false
            case .payload, .emit:
                if sawBackground {
                    consumedSinceBackground = true
                    #expect(workload.source(of: event) == "content_available")
                }
            }
        }
        let share = Double(killsWithLateConsume) / Double(staleKills)
        #expect(abs(share - ScenarioCatalogue.consumeAfterBackgroundShare) < 0.06, "\(share)")
        let lost = workload.consumedSetOutcome(.pushID, .onBackground).missed
        #expect(lost.count == killsWithLateConsume)
        #expect(lost.allSatisfy { workload.source(of: events[$0]) == "tap" })
        #expect(workload.consumedSetOutcome(.pushID, .afterEveryConsume).missed.isEmpty)
        #expect(workload.consumedSetOutcome(.pushID, .memory).missed.count == workload.count(.dup))
        #expect(workload.consumedSetOutcome(.minted, .afterEveryConsume).missed.count == workload.count(.dup))
    }
}
