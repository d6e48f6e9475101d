import Foundation
import PushDedupe
import Testing

/// The thread-safe deduplicator under concurrent use: no decision lost or doubled.
///
/// The events are chosen so that every interleaving has one checkable outcome. The clock stands
/// still, so all payloads of one route fall in one window: exactly one of them passes layer 1.
/// Every envelope is also emitted at least once, and whichever of its events reaches layer 2
/// first consumes it: exactly one of its events navigates, in any order.
@Suite struct SharedDeduplicatorTests {
    struct Event: Sendable {
        var envelope: Int
        var route: Int?   // nil: an emit
    }

    static let routes = 64
    static let envelopesPerRoute = 8
    static let emitsPerEnvelope = 3
    static let tasks = 8

    static func events(seed: UInt64) -> [Event] {
        var events: [Event] = []
        for envelope in 0..<(routes * envelopesPerRoute) {
            events.append(Event(envelope: envelope, route: envelope % routes))
            for _ in 0..<emitsPerEnvelope { events.append(Event(envelope: envelope, route: nil)) }
        }
        var random = SplitMix64(seed: seed)
        events.shuffle(using: &random)
        return events
    }

    static func envelopeIDs() -> [UUID] {
        var random = SplitMix64(seed: 99)
        return (0..<(routes * envelopesPerRoute)).map { _ in UUID(EnvelopeID(high: random.next(), low: random.next())) }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func concurrentTasksNavigateEachEnvelopeExactlyOnce(seed: UInt64) async {
        let events = Self.events(seed: seed)
        let ids = Self.envelopeIDs()
        let dedupe = SharedDeduplicator<HashDequeWindow, FIFOSet>(clock: .manual(ManualClock()))
        let decisions = await withTaskGroup(of: [(Int, Event, RoutingDecision)].self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    stride(from: task, to: events.count, by: Self.tasks).map { index in
                        let event = events[index]
                        let decision = event.route.map { dedupe.receivePayload(route: "item:\($0)", envelope: ids[event.envelope]) }
                            ?? dedupe.receiveEmit(envelope: ids[event.envelope])
                        return (index, event, decision)
                    }
                }
            }
            var all: [(Int, Event, RoutingDecision)] = []
            for await part in group { all += part }
            return all
        }
        #expect(decisions.count == events.count)
        Self.checkOutcome(decisions.map { ($0.1, $0.2) })
        // The serial reference: the same events in one order through a bare pipeline.
        var bare = TwoLayerPipeline(window: HashDequeWindow(preset: .standard), consumed: FIFOSet(preset: .standard))
        let serial = events.map { event in
            (event, event.route.map { bare.receivePayload(RouteFingerprint(route: "item:\($0)"), envelope: EnvelopeID(uuid: ids[event.envelope]), at: .zero) }
                ?? bare.receiveEmit(envelope: EnvelopeID(uuid: ids[event.envelope]), at: .zero))
        }
        Self.checkOutcome(serial)
        for decision in RoutingDecision.allCases {
            #expect(decisions.filter { $0.2 == decision }.count == serial.filter { $0.1 == decision }.count, "\(decision)")
        }
        #expect(dedupe.pipeline.consumed.count == bare.consumed.count)
        #expect(dedupe.pipeline.window.count == bare.window.count)
        let counters = dedupe.counters
        #expect([counters.navigated, counters.suppressedByWindow, counters.suppressedByConsumedSet]
            == RoutingDecision.allCases.map { decision in decisions.filter { $0.2 == decision }.count })
    }

    @Test func theRecommendedPairIsSafeToShareToo() async {
        let dedupe = SharedDeduplicator.recommended(clock: .manual(ManualClock()))
        // No more ids than the recommended set holds, so none is forgotten whatever the interleaving.
        let ids = Array(Self.envelopeIDs().prefix(RecommendedPreset.v1.consumedSet.configuration.capacity))
        let navigated = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask { ids.filter { dedupe.receiveEmit(envelope: $0) == .navigated }.count }
            }
            return await group.reduce(0, +)
        }
        #expect(navigated == ids.count)
    }

    /// Per envelope exactly one navigation; per route exactly one payload past the window.
    static func checkOutcome(_ decisions: [(Event, RoutingDecision)]) {
        var navigations = [Int](repeating: 0, count: routes * envelopesPerRoute)
        var admittedPayloads = [Int](repeating: 0, count: routes)
        for (event, decision) in decisions {
            if decision == .navigated { navigations[event.envelope] += 1 }
            if let route = event.route, decision != .suppressedByWindow { admittedPayloads[route] += 1 }
            if event.route == nil { #expect(decision != .suppressedByWindow, "an emit reached layer 1") }
        }
        #expect(navigations.allSatisfy { $0 == 1 }, "envelopes navigated other than once: \(navigations.enumerated().filter { $0.1 != 1 }.prefix(5))")
        #expect(admittedPayloads.allSatisfy { $0 == 1 }, "routes admitted other than once")
    }

    /// The same events keyed on push ids, from concurrent tasks: still one navigation per push.
    @Test func concurrentPushIDsNavigateEachPushExactlyOnce() async {
        let events = Self.events(seed: 9)
        let dedupe = SharedDeduplicator<HashDequeWindow, FIFOSet>(clock: .manual(ManualClock()))
        let decisions = await withTaskGroup(of: [(Event, RoutingDecision)].self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    stride(from: task, to: events.count, by: Self.tasks).map { index in
                        let event = events[index]
                        let pushID = "msg-\(event.envelope)"
                        return (event, event.route.map { dedupe.receivePayload(route: "item:\($0)", pushID: pushID) }
                            ?? dedupe.receiveEmit(pushID: pushID))
                    }
                }
            }
            var all: [(Event, RoutingDecision)] = []
            for await part in group { all += part }
            return all
        }
        Self.checkOutcome(decisions)
        #expect(dedupe.counters.events == events.count)
    }

    @Test func theKillSwitchIsSharedToo() {
        let dedupe = SharedDeduplicator.recommended(clock: .manual(ManualClock()))
        #expect(dedupe.receivePayload(route: "cart", pushID: "a") == .navigated)
        dedupe.isWindowEnabled = false
        #expect(!dedupe.isWindowEnabled)
        #expect(dedupe.receivePayload(route: "cart", pushID: "b") == .navigated)
        #expect(dedupe.receivePayload(route: "cart", pushID: "a") == .suppressedByConsumedSet)
    }
}
