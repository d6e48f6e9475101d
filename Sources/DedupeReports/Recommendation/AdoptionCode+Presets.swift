import PushDedupe

extension AdoptionCode {
    /// Until the versioned presets land: no version matches.
    public static func matchingPreset(_ candidate: Candidate) -> String? { nil }
}
