import DedupeWorkloads
import PushDedupe
import Testing

@testable import DedupeHarness

/// `CaseID` is the one name of a case: its text holds the whole identity and nothing else.
@Suite struct CaseIDTests {
    /// The parameters an entry's cases run with: its pinned configuration over a common sizing.
    static func parameters(_ entry: ConsumedSetEntry?) -> CaseParameters {
        let pinned = entry?.defaultConfiguration
        var parameters = CaseParameters(
            windowMilliseconds: 500, windowCapacity: 8, consumedCapacity: pinned?.capacity ?? 1_750,
            falsePositiveRate: 0.01,
            retentionMilliseconds: pinned.map { Double($0.retention.wholeNanoseconds) / 1e6 } ?? 756_000_000)
        parameters.expectedRatePerSecond = 0.25
        return parameters
    }

    static func result(_ window: WindowEntry?, _ consumed: ConsumedSetEntry?, _ mode: CaseMode, parameters: CaseParameters,
                       identity: EnvelopeIdentity = .minted, persistence: Persistence = .memory) -> CaseResult {
        let anyCase = StrategyCatalogue.standard.makeCase(window: window, consumed: consumed, mode: mode, parameters: parameters)
        var result = CaseResult(
            workload: "w", mode: mode, window: anyCase.windowID, consumed: anyCase.consumedID, parameters: parameters,
            timing: nil, memory: nil, correctness: nil, identity: identity, persistence: persistence)
        if mode.usesWindow { result.windowReads = window?.reads }
        if mode.usesConsumedSet { result.consumedReads = consumed?.reads }
        return result
    }

    /// Every pair of the standard catalogue in every mode, at every identity and persistence,
    /// has its own id; the id names the entries, and the layers and dimensions the mode uses only.
    @Test func everyCaseOfTheCatalogueHasItsOwnID() {
        let catalogue = StrategyCatalogue.standard
        var seen: [String: String] = [:]
        for window in catalogue.windows {
            for consumed in catalogue.consumedSets {
                let parameters = Self.parameters(consumed)
                for mode in CaseMode.allCases {
                    for identity in EnvelopeIdentity.allCases {
                        for persistence in Persistence.allCases {
                            let id = Self.result(window, consumed, mode, parameters: parameters, identity: identity, persistence: persistence).id
                            let text = id.text
                            let parts = text.split(separator: "/").map(String.init)
                            #expect(parts[0] == "w" && parts[1] == mode.rawValue)
                            #expect(parts.count == (mode.usesConsumedSet ? 5 : 3), "\(text)")
                            #expect(id.choice.window?.id == (mode.usesWindow ? window.id : nil), "\(text)")
                            #expect(id.choice.consumed?.id == (mode.usesConsumedSet ? consumed.id : nil), "\(text)")
                            #expect(parts[2] == [id.choice.window?.text, id.choice.consumed?.text].compactMap { $0 }.joined(separator: "+"))
                            let key = "\(mode.usesWindow ? window.id : "")|\(mode.usesConsumedSet ? consumed.id : "")|\(mode)"
                                + (mode.usesConsumedSet ? "|\(identity)|\(persistence)" : "")
                            if let other = seen[text] { #expect(other == key, "\(text) names two cases: \(other), \(key)") }
                            seen[text] = key
                        }
                    }
                }
            }
        }
        // The two pinned `recent-ids` entries read apart.
        let ids = catalogue.consumedSets.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.contains("recent-ids-10") && ids.contains("recent-ids-100"))
    }

    /// A parameter the strategy does not read is not part of its id: a window alone keeps its id
    /// when the consumed capacity changes, and a set keeps its id when the window length does.
    @Test func onlyParametersAStrategyReadsAreInItsID() throws {
        let catalogue = StrategyCatalogue.standard
        let ring = try #require(catalogue.window("ring-buffer"))
        let fifo = try #require(catalogue.consumedSet("fifo-set"))
        let a = Self.parameters(nil)
        var b = a
        b.consumedCapacity = 64
        #expect(Self.result(ring, fifo, .windowAlone, parameters: a).id == Self.result(ring, fifo, .windowAlone, parameters: b).id)
        #expect(Self.result(ring, fifo, .twoLayer, parameters: a).id != Self.result(ring, fifo, .twoLayer, parameters: b).id)
        var c = a
        c.windowMilliseconds = 250
        #expect(Self.result(ring, fifo, .consumedAlone, parameters: a).id == Self.result(ring, fifo, .consumedAlone, parameters: c).id)
        #expect(Self.result(ring, fifo, .windowAlone, parameters: a).id != Self.result(ring, fifo, .windowAlone, parameters: c).id)
        #expect(Self.result(ring, fifo, .twoLayer, parameters: Self.parameters(nil)).id.text
            == "w/two-layer/ring-buffer(window=500ms;capacity=8)+fifo-set(capacity=1750)/minted/memory")
    }

    /// Values are exact and canonical: the largest whole unit for durations, the shortest exact
    /// decimal for numbers, and no comma anywhere.
    @Test func parameterTokensAreExact() {
        var p = Self.parameters(nil)
        #expect(StrategyParameter.retention.token(p) == "retention=210h")
        p.retentionMilliseconds = 604_800_000
        #expect(StrategyParameter.retention.token(p) == "retention=7d")
        p.windowMilliseconds = 1.5
        #expect(StrategyParameter.windowLength.token(p) == "window=1.5ms")
        p.windowMilliseconds = 60_000
        #expect(StrategyParameter.windowLength.token(p) == "window=1min")
        #expect(StrategyParameter.falsePositiveRate.token(p) == "fp=0.01")
        #expect(StrategyParameter.expectedRate.token(p) == "rate=0.25Hz")
        for parameter in StrategyParameter.allCases { #expect(!parameter.token(p).contains("/")) }
        for parameter in StrategyParameter.allCases { #expect(!parameter.token(p).contains(",")) }
    }

    /// The base of a twin is the published code's identity and persistence; a window-only mode
    /// has neither.
    @Test func twinsShareTheirBase() throws {
        let catalogue = StrategyCatalogue.standard
        let window = try #require(catalogue.window("hash-deque"))
        let consumed = try #require(catalogue.consumedSet("fifo-set"))
        let twin = Self.result(window, consumed, .twoLayer, parameters: Self.parameters(nil), identity: .pushID, persistence: .afterEveryConsume)
        #expect(!twin.choice.isBase)
        #expect(twin.choice.base == Self.result(window, consumed, .twoLayer, parameters: Self.parameters(nil)).choice)
        #expect(twin.id.text.hasSuffix("/push-id/after-every-consume"))
        let alone = Self.result(window, consumed, .windowAlone, parameters: Self.parameters(nil), identity: .pushID, persistence: .afterEveryConsume)
        #expect(alone.choice.isBase && alone.identity == nil && alone.persistence == nil)
    }
}
