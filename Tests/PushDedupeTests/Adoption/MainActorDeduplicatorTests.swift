import Foundation
import PushDedupe
import Testing

/// The facade must decide exactly as the bare pipeline does on the same events and times.
@Suite struct MainActorDeduplicatorTests {
    @MainActor @Test func theArticlesFourSituationsGiveTheArticlesDecisions() {
        let clock = ManualClock()
        let dedupe = MainActorDeduplicator.recommended(clock: .manual(clock))
        let tap = UUID(), coldLaunch = UUID()
        #expect(dedupe.receivePayload(route: "item:42", envelope: tap, source: "tap") == .navigated)
        clock.advance(by: .milliseconds(3))
        #expect(dedupe.receivePayload(route: "item:42", envelope: coldLaunch) == .suppressedByWindow)
        clock.advance(by: .milliseconds(40))
        #expect(dedupe.receiveEmit(envelope: tap, source: "pending_route") == .suppressedByConsumedSet)
        clock.set(to: .milliseconds(500))
        #expect(dedupe.receivePayload(route: "item:42", envelope: UUID()) == .suppressedByWindow)
        clock.set(to: .milliseconds(2_501))
        #expect(dedupe.receivePayload(RouteFingerprint(route: "item:42"), envelope: UUID()) == .navigated)
    }

    /// Seeded random events through the facade (manual clock) and through a bare pipeline given
    /// the same times: every decision equal.
    @MainActor @Test(arguments: [1, 2, 3] as [UInt64])
    func decisionsEqualTheBarePipelines(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let clock = ManualClock()
        let dedupe = MainActorDeduplicator<HashDequeWindow, FIFOSet>(consumed: .compact, clock: .manual(clock))
        var bare = TwoLayerPipeline(window: HashDequeWindow(preset: .standard), consumed: FIFOSet(preset: .compact))
        var envelopes: [UUID] = []
        var expectedCounts = [0, 0, 0]
        func count(_ decision: RoutingDecision) -> RoutingDecision {
            expectedCounts[Int(decision.rawValue)] += 1
            return decision
        }
        for _ in 0..<2_000 {
            clock.advance(by: .milliseconds(Int.random(in: 0...120, using: &random)))
            if envelopes.isEmpty || Bool.random(using: &random) {
                let envelope = UUID(EnvelopeID(high: random.next(), low: random.next()))
                envelopes.append(envelope)
                let route = "item:\(Int.random(in: 0..<20, using: &random))"
                let expected = count(bare.receivePayload(RouteFingerprint(route: route), envelope: EnvelopeID(uuid: envelope), at: clock.now))
                #expect(dedupe.receivePayload(route: route, envelope: envelope) == expected)
            } else {
                let envelope = envelopes[Int.random(in: 0..<envelopes.count, using: &random)]
                let expected = count(bare.receiveEmit(envelope: EnvelopeID(uuid: envelope), at: clock.now))
                #expect(dedupe.receiveEmit(envelope: envelope) == expected)
            }
        }
        #expect(dedupe.pipeline.consumed.count == bare.consumed.count)
        #expect(dedupe.counters.navigated == expectedCounts[0] && dedupe.counters.suppressedByWindow == expectedCounts[1]
            && dedupe.counters.suppressedByConsumedSet == expectedCounts[2])
    }

    @MainActor @Test func theContinuousClockMovesForwardFromItsOrigin() {
        let origin = ContinuousClock.now
        let clock = DedupeClock.continuous(origin: origin)
        let first = clock.now()
        let second = clock.now()
        #expect(first >= .zero && second >= first)
        #expect(DedupeClock.continuous(origin: origin + .seconds(3_600)).now() < .zero)
    }

    /// The push-id calls are the `UUID` calls on `EnvelopeID(token: pushID)`: seeded deliveries
    /// of a few push ids through both, same decisions.
    @MainActor @Test func pushIDsAreEnvelopesOfTheirTokens() {
        var random = SplitMix64(seed: 7)
        let clock = ManualClock()
        let byPushID = MainActorDeduplicator.recommended(clock: .manual(clock))
        let byUUID = MainActorDeduplicator.recommended(clock: .manual(clock))
        let pushIDs = (0..<30).map { "push-\($0)" } + ["1B4E28BA-2FA1-41D2-883F-0016D3CCA427", "gcm:0:17%x"]
        for _ in 0..<1_000 {
            clock.advance(by: .milliseconds(Int.random(in: 0...400, using: &random)))
            let pushID = pushIDs[Int.random(in: 0..<pushIDs.count, using: &random)]
            let uuid = UUID(EnvelopeID(token: pushID))
            if Bool.random(using: &random) {
                let route = "item:\(Int.random(in: 0..<5, using: &random))"
                #expect(byPushID.receivePayload(route: route, pushID: pushID) == byUUID.receivePayload(route: route, envelope: uuid))
            } else {
                #expect(byPushID.receiveEmit(pushID: pushID) == byUUID.receiveEmit(envelope: uuid))
            }
        }
        #expect(byPushID.counters == byUUID.counters && byPushID.counters.events == 1_000)
        #expect(EnvelopeID(token: "1B4E28BA-2FA1-41D2-883F-0016D3CCA427") == EnvelopeID(uuid: UUID(uuidString: "1B4E28BA-2FA1-41D2-883F-0016D3CCA427")!))
    }

    /// The counters on the inlined path (continuous clock, nothing attached) and on the
    /// out-of-line one (manual clock) for one known sequence: the article's situations, keyed on
    /// push ids.
    @MainActor @Test(arguments: [false, true])
    func theCountersMatchAKnownSequence(manual: Bool) {
        let dedupe = MainActorDeduplicator.recommended(clock: manual ? .manual(ManualClock()) : .continuous())
        #expect(dedupe.receivePayload(route: "item:42", pushID: "a") == .navigated)
        #expect(dedupe.receivePayload(route: "item:42", pushID: "a") == .suppressedByWindow)
        #expect(dedupe.receivePayload(RouteFingerprint(route: "item:42"), pushID: "b") == .suppressedByWindow)
        #expect(dedupe.receiveEmit(pushID: "a") == .suppressedByConsumedSet)
        #expect(dedupe.receiveEmit(pushID: "b") == .navigated)
        #expect(dedupe.receiveEmit(envelope: UUID(EnvelopeID(token: "b"))) == .suppressedByConsumedSet)
        #expect(dedupe.receivePayload(route: "item:7", envelope: UUID()) == .navigated)
        var expected = DedupeCounters()
        expected.navigated = 3
        expected.suppressedByWindow = 2
        expected.suppressedByConsumedSet = 2
        #expect(dedupe.counters == expected)
    }

    /// With layer 1 off, a re-tap inside the window reaches layer 2 and navigates, as a window
    /// that false-drops it would not let it; everything layer 2 consumed before stays consumed,
    /// and turning the window back on restores its drops.
    @MainActor @Test(arguments: [false, true])
    func theKillSwitchAdmitsWhatTheWindowWouldDropAndKeepsLayerTwo(manual: Bool) {
        let clock = ManualClock()
        let dedupe = MainActorDeduplicator.recommended(clock: manual ? .manual(clock) : .continuous())
        #expect(dedupe.isWindowEnabled)
        #expect(dedupe.receivePayload(route: "cart", envelope: UUID()) == .navigated)
        #expect(dedupe.receivePayload(route: "cart", envelope: UUID()) == .suppressedByWindow, "the window drops a re-tap")
        #expect(dedupe.receivePayload(route: "item:1", pushID: "p") == .navigated)
        dedupe.isWindowEnabled = false
        #expect(dedupe.receivePayload(route: "cart", envelope: UUID()) == .navigated, "off, the re-tap navigates")
        #expect(dedupe.receivePayload(route: "item:1", pushID: "p") == .suppressedByConsumedSet, "layer 2 kept p")
        #expect(dedupe.pipeline.consumed.count == 3)
        dedupe.isWindowEnabled = true
        #expect(dedupe.receivePayload(route: "cart", envelope: UUID()) == .suppressedByWindow)
        #expect(dedupe.counters.suppressedByWindow == 2 && dedupe.counters.navigated == 3)
    }
}
