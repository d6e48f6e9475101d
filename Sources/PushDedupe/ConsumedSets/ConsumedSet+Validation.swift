extension ConsumedSet {
    /// `configuration.capacity`, checked for an exact set that indexes its ids: at most
    /// ``_CapacityValidation/maximum``, spelled as consumed sets always have.
    static func _indexedCapacity(_ configuration: ConsumedSetConfiguration) throws(ConfigurationError) -> Int {
        try _CapacityValidation.validated(configuration.capacity, strategy: strategyID, bounded: .powerOfTwo)
    }

    /// `configuration.retention` in whole nanoseconds, checked for an exact set that forgets by
    /// time (`id-time-map`, `rotating-sets`): it must be positive.
    static func _positiveRetention(_ configuration: ConsumedSetConfiguration) throws(ConfigurationError) -> Int64 {
        let retention = configuration.retention.wholeNanoseconds
        guard retention > 0 else {
            throw ConfigurationError(
                strategy: strategyID, parameter: "retention", reason: "must be positive, got \(configuration.retention)")
        }
        return retention
    }
}
