import DedupeHarness
@testable import DedupeReports
import Testing

/// Rows of one SDK set registered at two constants must read apart wherever a case is named.
@Suite struct CaseLabelTests {
    static func result(_ consumed: String, capacity: Int) -> CaseResult {
        var parameters = Fixtures.parameters
        parameters.consumedCapacity = capacity
        return CaseResult(
            workload: "w", mode: "two-layer", window: "hash-deque", consumed: consumed, parameters: parameters,
            timing: nil, memory: nil, correctness: nil)
    }

    @Test func sdkSetsAreNamedWithTheirConstant() {
        let small = Self.result("recent-ids", capacity: 10)
        let large = Self.result("recent-ids", capacity: 100)
        #expect(small.strategyLabel == "hash-deque+recent-ids (N = 10)")
        #expect(small.key.description == "w two-layer hash-deque+recent-ids (N = 10)")
        #expect(large.key.description == "w two-layer hash-deque+recent-ids (N = 100)")
        #expect(Self.result("fifo-set", capacity: 448).key.description == "w two-layer hash-deque+fifo-set")
    }
}

/// Every name the reports print comes from `CaseLabel.text`: a case, its key, a candidate.
@Suite struct OneLabelFunctionTests {
    @Test(arguments: [("recent-ids", 10), ("recent-ids", 100), ("last-id", 1), ("fifo-set", 448), ("set", 448)])
    func everyNameAgreesWithTheFunction(consumed: String, capacity: Int) {
        let result = CaseLabelTests.result(consumed, capacity: capacity)
        let strategies = CaseLabel.text(window: "hash-deque", consumed: consumed, parameters: result.parameters)
        #expect(result.strategyLabel == strategies)
        #expect(result.key.description == "w two-layer \(strategies)")
        let candidate = Candidate.aggregate([result])[0]
        #expect(candidate.label == strategies.replacingOccurrences(of: "+", with: " + "))
    }
}
