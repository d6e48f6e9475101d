import PushDedupe
import Testing

/// A window and a set with no memory, so the pipeline's own routing is all that is tested.
private struct AdmitAllWindow: FingerprintWindow {
    static let strategyID = "admit-all"
    static let guarantee: Guarantee = .missesOnly
    let window: Duration
    init(configuration: WindowConfiguration) { window = configuration.window }
    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool { true }
    var count: Int { 0 }
    var footprint: Int { 0 }
    var evictions: Int { 0 }
}

private struct RejectAllSet: ConsumedSet {
    static let strategyID = "reject-all"
    static let guarantee: Guarantee = .mayDrop(forgetting: .never)
    init(configuration: ConsumedSetConfiguration) {}
    mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool { false }
    func contains(_ id: EnvelopeID) -> Bool { true }
    var count: Int { 0 }
    var footprint: Int { 0 }
    var evictions: Int { 0 }
}

/// A real window that also counts the calls it gets, so a test can see which layers an event
/// reached.
private struct CountingWindow<Base: FingerprintWindow>: FingerprintWindow {
    static var strategyID: String { Base.strategyID }
    static var guarantee: Guarantee { Base.guarantee }
    var base: Base
    var admitCalls = 0
    init(configuration: WindowConfiguration) throws(ConfigurationError) {
        base = try Base(configuration: configuration)
    }
    var window: Duration { base.window }
    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool {
        admitCalls += 1
        return base.admit(fingerprint, at: now)
    }
    var count: Int { base.count }
    var footprint: Int { base.footprint }
    var evictions: Int { base.evictions }
}

@Suite struct PipelineRoutingTests {
    @Test func payloadThatPassesLayerOneIsStoppedByLayerTwo() {
        var pipeline = TwoLayerPipeline(
            window: AdmitAllWindow(configuration: .init()), consumed: RejectAllSet(configuration: .init()))
        let decision = pipeline.receivePayload(
            RouteFingerprint(route: "item:1"), envelope: EnvelopeID(high: 0, low: 1), at: .milliseconds(0))
        #expect(decision == .suppressedByConsumedSet)
        let emitted = pipeline.receiveEmit(envelope: EnvelopeID(high: 0, low: 1), at: .milliseconds(1))
        #expect(emitted == .suppressedByConsumedSet)
    }
}

/// One event reaching the router, as the article's lifecycle paths produce them.
private enum RouterEvent {
    /// A payload normalized to `route` at `milliseconds`; if admitted, it becomes `envelope`.
    case payload(String, envelope: Int, milliseconds: Int64)
    /// An existing envelope emitted again (pending route, ready callback).
    case emit(envelope: Int, milliseconds: Int64)
}

/// What a replay did: each event's decision, and what each layer holds afterwards.
private struct Replay {
    var decisions: [RoutingDecision]
    var windowAdmitCalls: Int
    var windowCount: Int
    var consumedCount: Int
}

/// Replays `events` through a pipeline of a 500 ms window `W` and a consumed set `S` (generic, as
/// an app adopts it: no `any` on the per-event path).
private func replay<W: FingerprintWindow, S: ConsumedSet>(
    _ events: [RouterEvent], window: W.Type, consumed: S.Type
) throws -> Replay {
    var pipeline = TwoLayerPipeline(
        window: try CountingWindow<W>(configuration: .init(window: .milliseconds(500), capacity: 64)),
        consumed: try S(configuration: .init(capacity: 64, retention: .seconds(30))))
    let decisions = events.map { event in
        switch event {
        case .payload(let route, let id, let milliseconds):
            pipeline.receivePayload(
                RouteFingerprint(route: route), envelope: testEnvelope(id), at: testInstant(milliseconds))
        case .emit(let id, let milliseconds):
            pipeline.receiveEmit(envelope: testEnvelope(id), at: testInstant(milliseconds))
        }
    }
    return Replay(
        decisions: decisions, windowAdmitCalls: pipeline.window.admitCalls, windowCount: pipeline.window.count,
        consumedCount: pipeline.consumed.count)
}

/// The exact windows (the published port, the O(1) hash deque, the ring) against every exact
/// consumed set.
private let strategyPairs: [(WindowKind, ExactConsumedSetKind)] =
    [WindowKind.publishedLiteral, .hashDeque, .ringBuffer].flatMap { window in
        ExactConsumedSetKind.allCases.map { (window, $0) }
    }

private func replay(_ events: [RouterEvent], through pair: (WindowKind, ExactConsumedSetKind)) throws -> Replay {
    try replay(events, window: pair.0.type, consumed: pair.1.type)
}

/// The article's four situations (its table of which layer catches what), replayed through the
/// pipeline with each exact 500 ms window as layer 1 and each exact consumed set as layer 2.
@Suite struct PipelineSituationTests {
    /// Notification tap and cold-launch payload a few milliseconds apart: the app built two
    /// envelopes, so only layer 1 can stop the second.
    @Test(arguments: strategyPairs)
    func samePayloadTwiceWithinMillisecondsIsStoppedByLayerOne(pair: (WindowKind, ExactConsumedSetKind)) throws {
        let result = try replay([
            .payload("item:42", envelope: 1, milliseconds: 0),
            .payload("item:42", envelope: 2, milliseconds: 3),
        ], through: pair)
        #expect(result.decisions == [.navigated, .suppressedByWindow])
        #expect(result.consumedCount == 1)
    }

    /// The subject and the pending route emit the same envelope: layer 2 stops the replay.
    @Test(arguments: strategyPairs)
    func sameEnvelopeEmittedTwiceIsStoppedByLayerTwo(pair: (WindowKind, ExactConsumedSetKind)) throws {
        let result = try replay([
            .payload("item:42", envelope: 1, milliseconds: 0),
            .emit(envelope: 1, milliseconds: 40),
        ], through: pair)
        #expect(result.decisions == [.navigated, .suppressedByConsumedSet])
    }

    /// A different push for the same screen tapped seconds later: outside the window and a new
    /// envelope, so it navigates again. Dedupe must not eat a wanted navigation.
    @Test(arguments: strategyPairs)
    func reTapOfTheSameScreenAfterTheWindowNavigates(pair: (WindowKind, ExactConsumedSetKind)) throws {
        let result = try replay([
            .payload("item:42", envelope: 1, milliseconds: 0),
            .payload("item:42", envelope: 2, milliseconds: 500),  // the boundary is inclusive
            .payload("item:42", envelope: 3, milliseconds: 2_501),
        ], through: pair)
        #expect(result.decisions == [.navigated, .suppressedByWindow, .navigated])
    }

    /// The ready callback and the latest pending route handle one envelope 10 s apart, far
    /// outside the window: layer 1 cannot help, layer 2 still stops it.
    @Test(arguments: strategyPairs)
    func readyCallbackAndPendingRouteFarApartAreStoppedByLayerTwo(pair: (WindowKind, ExactConsumedSetKind)) throws {
        let result = try replay([
            .payload("item:42", envelope: 1, milliseconds: 0),
            .payload("content:7", envelope: 2, milliseconds: 5_000),
            .emit(envelope: 1, milliseconds: 10_000),
        ], through: pair)
        #expect(result.decisions == [.navigated, .navigated, .suppressedByConsumedSet])
    }

    /// An emit never reaches layer 1: it neither consults nor records the window, so a fresh
    /// envelope navigates even while its screen is inside the window, and the next payload for
    /// that screen is judged by the first payload alone.
    @Test(arguments: strategyPairs)
    func emitGoesToLayerTwoOnly(pair: (WindowKind, ExactConsumedSetKind)) throws {
        let result = try replay([
            .payload("item:42", envelope: 1, milliseconds: 0),
            .emit(envelope: 2, milliseconds: 100),
            .payload("item:42", envelope: 3, milliseconds: 550),
        ], through: pair)
        #expect(result.decisions == [.navigated, .navigated, .navigated])
        #expect(result.windowAdmitCalls == 2 && result.windowCount == 1)
        #expect(result.consumedCount == 3)
    }
}
