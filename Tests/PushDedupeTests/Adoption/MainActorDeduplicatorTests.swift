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
        for _ in 0..<2_000 {
            clock.advance(by: .milliseconds(Int.random(in: 0...120, using: &random)))
            if envelopes.isEmpty || Bool.random(using: &random) {
                let envelope = UUID(EnvelopeID(high: random.next(), low: random.next()))
                envelopes.append(envelope)
                let route = "item:\(Int.random(in: 0..<20, using: &random))"
                let expected = bare.receivePayload(RouteFingerprint(route: route), envelope: EnvelopeID(uuid: envelope), at: clock.now)
                #expect(dedupe.receivePayload(route: route, envelope: envelope) == expected)
            } else {
                let envelope = envelopes[Int.random(in: 0..<envelopes.count, using: &random)]
                let expected = bare.receiveEmit(envelope: EnvelopeID(uuid: envelope), at: clock.now)
                #expect(dedupe.receiveEmit(envelope: envelope) == expected)
            }
        }
        #expect(dedupe.pipeline.consumed.count == bare.consumed.count)
    }

    @MainActor @Test func theContinuousClockMovesForwardFromItsOrigin() {
        let origin = ContinuousClock.now
        let clock = DedupeClock.continuous(origin: origin)
        let first = clock.now()
        let second = clock.now()
        #expect(first >= .zero && second >= first)
        #expect(DedupeClock.continuous(origin: origin + .seconds(3_600)).now() < .zero)
    }
}
