extension CuckooFilter {
    /// The fingerprint width f and the bucket count for `configuration`: the smallest f of 8, 12
    /// or 16 with f ≥ log₂(2·4/p), and the power of two that keeps `capacity` ids under 95% load.
    ///
    /// - Throws: ``ConfigurationError`` as ``init(configuration:)`` documents.
    static func _geometry(
        for configuration: ConsumedSetConfiguration
    ) throws(ConfigurationError) -> (fingerprintBits: Int, bucketCount: Int) {
        let strategy = Self.strategyID
        try _CapacityValidation.validated(configuration.capacity, strategy: strategy)
        let rate = configuration.falsePositiveRate
        try _FilterValidation.falsePositiveRate(rate, strategy: strategy)
        let needed = DeterministicMath.log(2 * Double(Self.slotsPerBucket) / rate) / DeterministicMath.ln2
        guard let bits = [8, 12, 16].first(where: { Double($0) >= needed }) else {
            throw ConfigurationError(
                strategy: strategy, parameter: "falsePositiveRate",
                reason: "needs \(needed) fingerprint bits; at most 16 are supported, so the rate must be ≥ 8/2^16 ≈ 1.2e-4, got \(rate)")
        }
        let slots = (Double(configuration.capacity) / Self.maximumLoad).rounded(.up)
        // The table, rounded up to a power of two (at most 2 × slots), plus the expiry ring, whose
        // entries also carry a bucket number of at most log₂(slots) bits.
        let ringEntryBits = Double(bits) + (DeterministicMath.log(max(slots, 1)) / DeterministicMath.ln2).rounded(.up)
        try _FilterValidation.size(
            2 * slots * Double(bits) + Double(configuration.capacity) * ringEntryBits,
            parameter: "capacity", strategy: strategy)
        let minimumBuckets = max(1, Int((slots / Double(Self.slotsPerBucket)).rounded(.up)))
        var buckets = 1
        while buckets < minimumBuckets { buckets <<= 1 }
        return (bits, buckets)
    }
}
