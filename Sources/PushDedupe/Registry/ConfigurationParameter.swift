/// A configuration value a strategy reads, declared at its registration
/// (``StrategyRegistry``), so reports and case ids show exactly the parameters that shape it,
/// never guessed from its id.
public enum ConfigurationParameter: String, Sendable, Hashable, CaseIterable, Codable {
    /// `WindowConfiguration.window`.
    case windowLength = "window-length"
    /// `WindowConfiguration.capacity` as a bound: the most live entries kept.
    case windowCapacity = "window-capacity"
    /// `WindowConfiguration.capacity` as an initial reservation only; the window grows past it.
    case windowReservation = "window-reservation"
    /// `ConsumedSetConfiguration.capacity` as a bound, or a filter's expected count.
    case capacity = "capacity"
    /// `ConsumedSetConfiguration.capacity` as an initial reservation only; the set grows past it.
    case reservation = "reservation"
    /// `ConsumedSetConfiguration.falsePositiveRate`.
    case falsePositiveRate = "false-positive-rate"
    /// `ConsumedSetConfiguration.retention`.
    case retention = "retention"
    /// `ConsumedSetConfiguration.expectedRatePerSecond`.
    case expectedRate = "expected-rate"
}
