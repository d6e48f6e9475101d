/// What the pipeline did with one event.
public enum RoutingDecision: UInt8, Hashable, Sendable, CaseIterable {
    /// The route was handed to navigation.
    case navigated
    /// Layer 1 dropped the payload: the same screen was admitted within the window.
    case suppressedByWindow
    /// Layer 2 dropped the envelope: it was already consumed.
    case suppressedByConsumedSet

    /// Whether the event reached navigation.
    @inlinable
    public var navigated: Bool { self == .navigated }
}
