import PushDedupe
import Testing
@testable import DedupeHarness

/// `CaseLabel.text` is the one function that names a case; every other name is built with it.
@Suite struct CaseLabelFunctionTests {
    /// The parameters an entry's cases run with: its pinned configuration over a common sizing.
    static func parameters(_ entry: ConsumedSetEntry?) -> CaseParameters {
        let pinned = entry?.defaultConfiguration
        return CaseParameters(
            windowMilliseconds: 500, windowCapacity: 8, consumedCapacity: pinned?.capacity ?? 448,
            falsePositiveRate: 0.01,
            retentionMilliseconds: pinned.map { Double($0.retention.wholeNanoseconds) / 1e6 } ?? 6_271_000)
    }

    /// Every pair of the standard catalogue, in every mode: the window id, the set's id (with its
    /// constant for an SDK set), joined as the mode uses them.
    @Test func everyCatalogueEntryIsNamedByItsIDs() {
        let catalogue = StrategyCatalogue.standard
        let sdk = ["last-id": "last-id (one slot)", "id-time-map": "id-time-map (T = 5.00 s)"]
        for window in catalogue.windows {
            for consumed in catalogue.consumedSets {
                let parameters = Self.parameters(consumed)
                let consumedName = sdk[consumed.id]
                    ?? (consumed.id == "recent-ids" ? "recent-ids (N = \(parameters.consumedCapacity))" : consumed.id)
                for mode in CaseMode.allCases {
                    let anyCase = catalogue.makeCase(window: window, consumed: consumed, mode: mode, parameters: parameters)
                    let strategies = [mode.usesWindow ? window.id : nil, mode.usesConsumedSet ? consumedName : nil]
                        .compactMap { $0 }.joined(separator: "+")
                    #expect(anyCase.referenceLabel == "\(mode.rawValue) \(strategies)")
                    #expect(CaseLabel.text(
                        workload: "w", mode: mode.rawValue, window: anyCase.windowID, consumed: anyCase.consumedID,
                        parameters: parameters, snapshot: true) == "w \(mode.rawValue) \(strategies) [snapshot]")
                }
            }
        }
    }

    /// The SDK sets carry the constant they were registered at, so the two `recent-ids` rows,
    /// and every consumed set's row, read apart.
    @Test func sdkSetsAreNamedWithTheirRegisteredConstant() {
        let names = StrategyCatalogue.standard.consumedSets.map {
            CaseLabel.text(window: nil, consumed: $0.id, parameters: Self.parameters($0))
        }
        #expect(Set(names).count == names.count)
        for name in ["last-id (one slot)", "recent-ids (N = 10)", "recent-ids (N = 100)", "id-time-map (T = 5.00 s)", "set", "fifo-set"] {
            #expect(names.contains(name), "\(name)")
        }
    }

    @Test func partsAreLeftOutWhenAbsent() {
        let parameters = Self.parameters(nil)
        #expect(CaseLabel.text(window: nil, consumed: nil, parameters: parameters) == "none")
        #expect(CaseLabel.text(window: "ring-buffer", consumed: nil, parameters: parameters) == "ring-buffer")
        #expect(CaseLabel.text(window: "hash-deque", consumed: "set", parameters: parameters, separator: " + ") == "hash-deque + set")
        #expect(CaseLabel.text(mode: "two-layer", window: "seed-literal", consumed: "set", parameters: parameters)
            == "two-layer seed-literal+set")
    }

    /// A case result's names are the function's, persistence included.
    @Test func aCaseResultIsNamedByTheFunction() {
        var result = CaseResult(
            workload: "my trace.csv", mode: "two-layer", window: "hash-deque", consumed: "recent-ids",
            parameters: Self.parameters(StrategyCatalogue.standard.consumedSets.first { $0.id == "recent-ids" }),
            timing: nil, memory: nil, correctness: nil)
        #expect(result.strategyLabel == "hash-deque+recent-ids (N = 10)")
        #expect(result.label == "my trace.csv two-layer hash-deque+recent-ids (N = 10)")
        result.persistence = CasePersistence.snapshot.rawValue
        #expect(result.label == "my trace.csv two-layer hash-deque+recent-ids (N = 10) [snapshot]")
    }
}
