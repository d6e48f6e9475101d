/// Adjusted p-values for testing many hypotheses at once.
package enum MultipleComparisons: String, Sendable, CaseIterable {
    /// Holm's step-down method: controls the family-wise error rate (the chance of any false
    /// alarm) at α, with no assumption on how the tests depend on each other.
    case holm
    /// Benjamini–Hochberg: controls the false discovery rate (the expected share of false alarms
    /// among the flagged) at α, for independent or positively dependent tests.
    case benjaminiHochberg = "bh"

    /// The adjusted p-values, in the order of `pValues`. A hypothesis is rejected at level α
    /// when its adjusted p is below α.
    ///
    /// - Holm: with p₍₁₎ ≤ … ≤ p₍ₖ₎, p̃₍ᵢ₎ = min(1, maxⱼ≤ᵢ (k − j + 1) p₍ⱼ₎).
    /// - BH: p̃₍ᵢ₎ = minⱼ≥ᵢ min(1, k p₍ⱼ₎ / j).
    ///
    /// - Complexity: O(k log k).
    package func adjusted(_ pValues: [Double]) -> [Double] {
        let k = pValues.count
        // Ties broken by position, so the result does not depend on the sort's stability.
        let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
        var adjusted = [Double](repeating: 1, count: k)
        switch self {
        case .holm:
            var running = 0.0
            for (rank, index) in order.enumerated() {
                running = max(running, min(1, Double(k - rank) * pValues[index]))
                adjusted[index] = running
            }
        case .benjaminiHochberg:
            var running = 1.0
            for (rank, index) in order.enumerated().reversed() {
                running = min(running, min(1, Double(k) * pValues[index] / Double(rank + 1)))
                adjusted[index] = running
            }
        }
        return adjusted
    }

    /// `Holm` or `Benjamini–Hochberg`.
    package var name: String {
        switch self {
        case .holm: "Holm"
        case .benjaminiHochberg: "Benjamini–Hochberg"
        }
    }
}
