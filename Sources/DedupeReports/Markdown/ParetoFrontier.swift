import DedupeDecision

/// The non-dominated candidates under objectives that are all minimized.
enum ParetoFrontier {
    /// The candidates no other candidate beats or equals on every objective while beating on
    /// one. Candidates missing an objective are left out.
    ///
    /// - Complexity: O(n² × objectives).
    static func frontier(_ candidates: [Candidate], objectives: [(Candidate) -> Double?]) -> [Candidate] {
        let scored: [(Candidate, [Double])] = candidates.compactMap { candidate in
            let values = objectives.compactMap { $0(candidate) }
            return values.count == objectives.count ? (candidate, values) : nil
        }
        return scored.filter { candidate in
            !scored.contains { other in
                zip(other.1, candidate.1).allSatisfy { $0 <= $1 } && zip(other.1, candidate.1).contains { $0 < $1 }
            }
        }.map(\.0)
    }
}
