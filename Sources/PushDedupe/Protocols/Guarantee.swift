/// What a strategy promises by construction, whatever the traffic: which errors it can make, and
/// when it starts to forget.
///
/// Every conformer of ``ConsumedSet`` and ``FingerprintWindow`` declares one as
/// ``ConsumedSet/guarantee`` (one line; there is no default), so reports and the recommendation
/// never guess it from an id or from a finite run. A lost navigation (a false drop) is worse
/// than a duplicate screen (a missed duplicate), so the classes are ordered from strongest to
/// weakest.
///
/// ```swift
/// public static let guarantee = Guarantee.exactForgetsOldest
/// ```
public struct Guarantee: Sendable, Hashable, CustomStringConvertible {
    /// The kind of errors a strategy can make.
    public enum Class: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
        /// Never errs: every answer is the exact one, for the strategy's whole life.
        case exact = "exact"
        /// Exact until `capacity` newer entries have been recorded; after that it may let a
        /// repeat through. Never a false drop.
        case exactForgetsOldest = "exact-forgets-oldest"
        /// Exact for a time horizon (a fraction of `retention`, or of the window length for a
        /// window); after that it may let a repeat through. Never a false drop.
        case exactForgetsAfterRetention = "exact-forgets-after-retention"
        /// May let a duplicate through at any time (a slot can be overwritten by the next entry),
        /// but never drops a wanted navigation.
        case missesOnly = "misses-only"
        /// Probabilistic: can answer "seen" for an id never seen, dropping a wanted navigation
        /// that nobody can reproduce afterwards.
        case mayDrop = "may-drop"

        /// Whether the class allows a false drop.
        public var canDropWanted: Bool { self == .mayDrop }

        public static func < (lhs: Class, rhs: Class) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// When a recorded entry may be forgotten, so that its repeat gets through.
    public enum Forgetting: Sendable, Hashable {
        /// Never: entries are kept for the strategy's life.
        case never
        /// After `capacity` newer entries (`capacity` is the strategy's configuration value).
        case afterCapacity
        /// After `fraction` × the time parameter (`retention` for a set, the window length for a
        /// window); exact before that.
        case afterTime(fraction: Double)
        /// At any moment: there is no horizon by construction.
        case anyTime
    }

    public var guaranteeClass: Class
    public var forgetting: Forgetting

    public init(_ guaranteeClass: Class, forgetting: Forgetting) {
        self.guaranteeClass = guaranteeClass
        self.forgetting = forgetting
    }

    /// Never errs and never forgets.
    public static let exact = Guarantee(.exact, forgetting: .never)
    /// Exact until `capacity` newer entries.
    public static let exactForgetsOldest = Guarantee(.exactForgetsOldest, forgetting: .afterCapacity)
    /// Exact for the whole time parameter (`retention`, or the window).
    public static let exactForgetsAfterRetention = Guarantee(.exactForgetsAfterRetention, forgetting: .afterTime(fraction: 1))
    /// Exact for `fraction` of the time parameter only (a window with boundary slack).
    public static func exactForgetsAfterRetention(fraction: Double) -> Guarantee {
        Guarantee(.exactForgetsAfterRetention, forgetting: .afterTime(fraction: fraction))
    }
    /// Misses at any time, never drops.
    public static let missesOnly = Guarantee(.missesOnly, forgetting: .anyTime)
    /// Probabilistic false drops, forgetting as `forgetting` says.
    public static func mayDrop(forgetting: Forgetting) -> Guarantee {
        Guarantee(.mayDrop, forgetting: forgetting)
    }

    /// `exact-forgets-after-retention (0.5 × time)`, or just the class name.
    public var description: String {
        if case let .afterTime(fraction) = forgetting, fraction != 1 {
            return "\(guaranteeClass.rawValue) (\(fraction) × time)"
        }
        return guaranteeClass.rawValue
    }
}
