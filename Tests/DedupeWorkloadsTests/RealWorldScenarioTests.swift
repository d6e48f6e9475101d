import PushDedupe
import Testing
@testable import DedupeWorkloads

/// The mechanisms from public bug reports, each checked against its definition in
/// `Guides/Workloads.md` § Mechanisms from public bug reports.
@Suite struct RealWorldScenarioTests {
    func workload(_ id: String, seed: UInt64 = 1) throws -> Workload {
        try #require(ScenarioCatalogue.scenario(named: id)).workload(seed: seed)
    }

    /// Each emit with the payload that created its envelope and the milliseconds between them.
    func emitsWithTheirPayloads(_ workload: Workload) -> [(payload: WorkloadEvent, emit: WorkloadEvent, milliseconds: Double)] {
        // Looked up only, never iterated.
        var payloads: [EnvelopeID: WorkloadEvent] = [:]
        var pairs: [(WorkloadEvent, WorkloadEvent, Double)] = []
        for event in workload.events {
            switch event.kind {
            case .payload: payloads[event.envelope] = event
            case .emit:
                if let payload = payloads[event.envelope] {
                    pairs.append((payload, event, Double(event.time.nanoseconds - payload.time.nanoseconds) / 1e6))
                }
            case .relaunch, .background: break
            }
        }
        return pairs
    }

    @Test func contentAvailablePushesAreHandledAgainWithinTwoSeconds() throws {
        let workload = try workload("content-available-double-callback")
        let pairs = emitsWithTheirPayloads(workload)
        #expect(pairs.count == EpisodeBuilder.episodeCount)
        #expect(pairs.allSatisfy { $0.milliseconds >= 0 && $0.milliseconds <= 2_000 && $0.emit.truth == .dup })
        #expect(pairs.allSatisfy { workload.source(of: $0.payload) == "content_available" && workload.source(of: $0.emit) == "tap" })
        let sameSecond = pairs.filter { $0.milliseconds < 1_000 }.count
        #expect(sameSecond > pairs.count / 2 && sameSecond < pairs.count)
    }

    @Test func launchOptionsAndDidReceiveDeliverWithinTheLaunch() throws {
        let pairs = emitsWithTheirPayloads(try workload("launch-options-and-did-receive"))
        #expect(pairs.count == EpisodeBuilder.episodeCount)
        #expect(pairs.allSatisfy { $0.milliseconds >= 1 && $0.milliseconds <= 1_000 })
    }

    @Test func aSecondListenerGetsEveryPushBackToBack() throws {
        let workload = try workload("listener-registered-twice")
        let pairs = emitsWithTheirPayloads(workload)
        let perPush = Dictionary(grouping: pairs, by: { $0.payload.envelope }).mapValues(\.count)
        #expect(perPush.count == EpisodeBuilder.episodeCount)
        #expect(perPush.values.allSatisfy { $0 == 1 || $0 == 3 })
        #expect(perPush.values.contains(3) && perPush.values.contains(1))
        #expect(pairs.allSatisfy { $0.milliseconds <= 6 && workload.source(of: $0.emit) == "second_listener" })
    }

    @Test func aSecondTokenSendsTheSameScreenSecondsLater() throws {
        let workload = try workload("multi-token-duplicate-delivery")
        let payloads = workload.events.filter { $0.kind == .payload }
        #expect(payloads.count == 2 * EpisodeBuilder.episodeCount)
        #expect(!workload.events.contains { $0.kind == .emit })
        for pair in stride(from: 0, to: payloads.count, by: 2) {
            let first = payloads[pair], second = payloads[pair + 1]
            let delay = Double(second.time.nanoseconds - first.time.nanoseconds) / 1e6
            #expect(first.route == second.route && first.envelope != second.envelope)
            #expect(delay >= 300 && delay <= 20_000 && second.truth == .dup && first.truth == .new)
        }
    }

    @Test func pollRedeliveryComesSixToEightMinutesLaterAmidOtherPushes() throws {
        let workload = try workload("poll-redelivery")
        let pairs = emitsWithTheirPayloads(workload)
        #expect(pairs.count == EpisodeBuilder.episodeCount)
        #expect(pairs.allSatisfy { $0.milliseconds >= 360_000 && $0.milliseconds <= 480_000 })
        // Distinct pushes between each message and its redelivery: sometimes more than 10.
        let between = pairs.map { pair in
            workload.events.filter {
                $0.kind == .payload && $0.time > pair.payload.time && $0.time < pair.emit.time
            }.count
        }
        #expect(between.contains { $0 > 10 } && between.contains { $0 <= 10 })
    }

    @Test func aStaleInitialNotificationFollowsEveryRelaunch() throws {
        let workload = try workload("stale-initial-notification")
        let events = workload.events
        let relaunches = events.indices.filter { events[$0].kind == .relaunch }
        #expect(relaunches.count >= EpisodeBuilder.episodeCount && relaunches.count <= 3 * EpisodeBuilder.episodeCount)
        for index in relaunches {
            let emit = events[index + 1]
            let delay = Double(emit.time.nanoseconds - events[index].time.nanoseconds) / 1e6
            #expect(emit.kind == .emit && emit.truth == .dup && delay >= 50 && delay <= 500)
            #expect(workload.source(of: emit) == "initial_notification")
        }
        #expect(emitsWithTheirPayloads(workload).allSatisfy { $0.milliseconds >= 30_000 })
    }
}
