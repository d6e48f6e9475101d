import PushDedupe

extension AdoptionCode {
    /// The shipped preset version with `candidate`'s types and the parameters they read, if any.
    public static func matchingPreset(_ candidate: Candidate) -> (any DeduplicatorPresetVersion)? {
        RecommendedPreset.versions.first { version in
            String(describing: version.windowType) == candidate.windowType
                && String(describing: version.consumedSetType) == candidate.consumedType
                && window(candidate) == version.window.configuration
                && consumed(candidate) == version.consumedSet.configuration
        }
    }
}
