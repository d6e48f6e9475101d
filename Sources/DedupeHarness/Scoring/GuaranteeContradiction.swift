import PushDedupe

/// A false drop that a strategy's declared guarantee rules out: what flags a type whose results
/// contradict its declaration, by name, and keeps it from being recommended.
///
/// A class that cannot drop a wanted navigation (every class but `may-drop`) may still drop a
/// payload for a screen admitted within the window (every window's stated trade-off). It may not
/// drop a payload for a screen it has not admitted within the window, nor an envelope it never
/// consumed. A whole pipeline's one guarantee covers both.
package enum GuaranteeContradiction {
    /// The causes each layer's guarantee rules out.
    static let windowCauses = [ErrorCause.windowDropOutside]
    static let consumedCauses = [ErrorCause.setFalsePositive]

    /// `declared exact, yet dropped 12 wanted navigation(s): window drop of a screen not admitted
    /// within the window 12`, or `nil` when the drops fit the declarations.
    ///
    /// - Parameters:
    ///   - window: the window's (or the whole pipeline's) declared guarantee.
    ///   - consumed: the consumed set's; `nil` for a whole pipeline, whose window record covers it.
    package static func reason(
        window: GuaranteeRecord?, consumed: GuaranteeRecord?, wholePipeline: Bool, droppedByCause: [String: Int]
    ) -> String? {
        var ruledOut: [(GuaranteeRecord, String)] = []
        if let window, !window.guaranteeClass.canDropWanted {
            ruledOut += windowCauses.map { (window, $0) }
            if wholePipeline { ruledOut += consumedCauses.map { (window, $0) } }
        }
        if let consumed, !consumed.guaranteeClass.canDropWanted {
            ruledOut += consumedCauses.map { (consumed, $0) }
        }
        let found = ruledOut.compactMap { record, cause in
            droppedByCause[cause].flatMap { $0 > 0 ? (record, cause, $0) : nil }
        }
        guard !found.isEmpty else { return nil }
        let declared = Set(found.map(\.0.guaranteeClass.rawValue)).sorted().joined(separator: " and ")
        let total = found.reduce(0) { $0 + $1.2 }
        return "declared \(declared), yet dropped \(total) wanted navigation(s): "
            + found.map { "\($0.1) \($0.2)" }.joined(separator: ", ")
    }
}

extension CaseResult {
    /// Why this case's false drops contradict its strategies' declared guarantees, or `nil`.
    package var guaranteeContradiction: String? {
        guard let dropped = correctness?.droppedByCause else { return nil }
        return GuaranteeContradiction.reason(
            window: windowGuarantee, consumed: consumedGuarantee,
            wholePipeline: mode.usesConsumedSet && consumed == nil, droppedByCause: dropped)
    }
}
