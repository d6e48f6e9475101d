import PushDedupe
import Testing

/// A window and a set with no memory, so the pipeline's own routing is all that is tested.
private struct AdmitAllWindow: FingerprintWindow {
    static let strategyID = "admit-all"
    let window: Duration
    init(configuration: WindowConfiguration) { window = configuration.window }
    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool { true }
    var count: Int { 0 }
    var footprint: Int { 0 }
    var evictions: Int { 0 }
}

private struct RejectAllSet: ConsumedSet {
    static let strategyID = "reject-all"
    init(configuration: ConsumedSetConfiguration) {}
    mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool { false }
    func contains(_ id: EnvelopeID) -> Bool { true }
    var count: Int { 0 }
    var footprint: Int { 0 }
    var evictions: Int { 0 }
}

@Suite struct PipelineRoutingTests {
    @Test func payloadThatPassesLayerOneIsStoppedByLayerTwo() {
        var pipeline = TwoLayerPipeline(
            window: AdmitAllWindow(configuration: .init()), consumed: RejectAllSet(configuration: .init()))
        let decision = pipeline.receivePayload(
            RouteFingerprint(route: "item:1"), envelope: EnvelopeID(high: 0, low: 1), at: .milliseconds(0))
        #expect(decision == .suppressedByConsumedSet)
        #expect(pipeline.receiveEmit(envelope: EnvelopeID(high: 0, low: 1), at: .milliseconds(1)) == .suppressedByConsumedSet)
    }
}
