import DedupeHarness

/// The ids and modes the reports treat specially, as the harness defines them.
package enum ReferenceStrategies {
    /// The published article's window.
    package static let window = StrategyCatalogue.referenceWindowID
    /// The published article's consumed set.
    package static let consumed = StrategyCatalogue.referenceConsumedSetID
    /// The published design's mode.
    package static let mode = CaseMode.twoLayer
    /// A layer measured on its own.
    package static let windowAloneMode = CaseMode.windowAlone
    package static let consumedAloneMode = CaseMode.consumedAlone
}

extension StrategyParameter {
    /// `window 500 ms, capacity 64`: the values of `reads` in `parameters`, in declaration order.
    package static func summary(_ reads: [StrategyParameter], _ parameters: CaseParameters) -> String {
        reads.map { $0.text(parameters) }.joined(separator: ", ")
    }
}

extension GuaranteeRecord {
    /// `exact + exact-forgets-oldest`: the guarantee of each layer that has one.
    package static func summary(_ window: GuaranteeRecord?, _ consumed: GuaranteeRecord?) -> String {
        [window, consumed].compactMap { $0?.text }.joined(separator: " + ")
    }
}

extension Candidate {
    /// The parameters this candidate's strategies read.
    package var parameterText: String {
        StrategyParameter.summary(
            (window != nil ? windowReads ?? [] : []) + (consumed != nil ? consumedReads ?? [] : []), parameters)
    }

    /// The layers' declared guarantees, `exact + exact-forgets-oldest`.
    package var guaranteeText: String { GuaranteeRecord.summary(windowGuarantee, consumedGuarantee) }
}
