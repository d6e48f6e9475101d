import PushDedupe

extension AdoptionCode {
    /// The shipped preset version with `candidate`'s types and the parameters they read, if any:
    /// the newest whose store design is `storeDesign` (a `DedupeStore.Design` raw value), else
    /// the newest with that pair and parameters.
    package static func matchingPreset(_ candidate: Candidate, storeDesign: String? = nil) -> (any DeduplicatorPresetVersion)? {
        let matching = RecommendedPreset.versions.filter { version in
            String(describing: version.windowType) == candidate.windowType
                && String(describing: version.consumedSetType) == candidate.consumedType
                && window(candidate) == version.window.configuration
                && consumed(candidate) == version.consumedSet.configuration
        }
        return matching.last { $0.storeDesign.rawValue == storeDesign } ?? matching.last
    }
}
