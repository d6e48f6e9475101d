import DedupeWorkloads
import PushDedupe
import Testing
@testable import DedupeHarness

/// Digests pinned in the source, so a change in any process, on any machine, of the generated
/// workloads or of what the strategies decide fails here: per-process hash seeding (Swift's
/// `Hasher`), `Set`/`Dictionary` order or libm drift cannot hide in a comparison within one
/// process. The digest is the library's own FNV-1a + finalizer (`DeterministicHashing`).
///
/// A deliberate change to the traffic model or to a strategy changes these values: update them
/// in the same commit and say why.
@Suite struct PinnedDigestTests {
    static func digest(_ bytes: some Sequence<UInt8>) -> String {
        let value = DeterministicHashing.fnv1a64(bytes)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func workload(_ id: String, scale: Double) throws -> Workload {
        let scenario = try #require(ScenarioCatalogue.scenario(named: id))
        return scenario.workload(seed: 42, scale: scale)
    }

    /// The trace export of three scenarios for seed 42: the published situation of the article
    /// and two stress presets at a tenth of their size. Changed with the push-id column: every
    /// delivery now names its push, the first six columns are byte-identical to before.
    static let exports: [(id: String, scale: Double, digest: String)] = [
        ("same-payload-twice", 1, "a4332b28158fe5a4"),
        ("marketing-burst", 0.1, "a1ed02a86fae8493"),
        ("chat-storm", 0.1, "70b3981c32dd282a"),
    ]

    @Test(arguments: exports.indices)
    func scenarioExportsArePinned(_ index: Int) throws {
        let pinned = Self.exports[index]
        let bytes = TraceWriter.encode(try Self.workload(pinned.id, scale: pinned.scale))
        // The label inside the compared text names the scenario in a failure.
        #expect("\(pinned.id) \(Self.digest(bytes))" == "\(pinned.id) \(pinned.digest)")
    }

    /// The decision of every event, plus the evictions and the measured and theoretical
    /// false-positive rates (the latter from the library's own `DeterministicMath`), of
    /// five cases whose strategies hash: Bloom, aging Bloom, cuckoo and stable Bloom filters and
    /// the direct-mapped structures, on `marketing-burst` (seed 42, a tenth).
    static let decisions: [(window: String, consumed: String, mode: CaseMode, digest: String)] = [
        ("hash-deque", "aging-bloom", .twoLayer, "f8d096e48695cc31"),
        ("ring-buffer", "cuckoo", .twoLayerGuarded, "87b1d247967adcf2"),
        ("epoch-sets", "stable-bloom", .twoLayer, "c5331608870e8c4a"),
        ("direct-mapped-window", "bloom", .twoLayer, "3dcce928a4a66595"),
        ("array-scan", "direct-mapped", .envelopeOnly, "6b99910c1c74af60"),
    ]

    @Test(arguments: decisions.indices)
    func caseDecisionsArePinned(_ index: Int) throws {
        let pinned = Self.decisions[index]
        let catalogue = StrategyCatalogue.standard
        let window = try #require(catalogue.window(pinned.window))
        let consumed = try #require(catalogue.consumedSet(pinned.consumed))
        // Small capacities, so the structures evict and the filters answer falsely: what they then
        // decide depends on every hash.
        let defaults = ConsumedSetConfiguration()
        var parameters = CaseParameters(
            windowMilliseconds: 500, windowCapacity: 64, consumedCapacity: 256, falsePositiveRate: 0.2,
            retentionMilliseconds: Double(defaults.retention.wholeNanoseconds) / 1e6)
        parameters.expectedRatePerSecond = defaults.expectedRatePerSecond
        let anyCase = catalogue.makeCase(window: window, consumed: consumed, mode: pinned.mode, parameters: parameters)
        let columns = EventColumns(try Self.workload("marketing-burst", scale: 0.1).events)
        let run = try anyCase._correctness(columns, 2_000, 42, _RelaunchState.defaultSavedBytesBound)
        var bytes = run.decisions
        for value in [UInt64(run.windowEvictions), UInt64(run.consumedEvictions), (run.measuredFalsePositiveRate ?? -1).bitPattern,
                      (run.theoreticalFalsePositiveRate ?? -1).bitPattern] {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        let label = "\(pinned.window)+\(pinned.consumed) \(pinned.mode.rawValue)"
        #expect("\(label) \(Self.digest(bytes))" == "\(label) \(pinned.digest)")
    }
}
