/// A 64-bit digest of the screen a push payload targets, computed once when the payload is
/// normalized to a route.
///
/// The digest of a route string such as `item:42` is FNV-1a 64 over its UTF-8 bytes followed by
/// the SplitMix64 finalizer (see ``DeterministicHashing``). It is the same on every machine and in
/// every run; it never uses Swift's per-process seeded `Hasher`.
///
/// Two different routes collide with probability about 2⁻⁶⁴ per pair, so among *n* distinct
/// routes the chance of any collision is about n² / 2⁶⁵ (below 10⁻⁹ for n = 190,000). A collision
/// makes the window treat the two routes as one screen for the window's length: the second would
/// be dropped if it arrived within the window.
///
/// ```swift
/// let fingerprint = RouteFingerprint(route: "item:42")
/// ```
public struct RouteFingerprint: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// The digest. Its low bits are well mixed and may index a power-of-two table directly.
    public var rawValue: UInt64

    /// Wraps an existing digest, e.g. one read back from a results file.
    @inlinable
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Digests a normalized route string.
    ///
    /// - Complexity: O(*n*) in the route's UTF-8 length.
    @inlinable
    public init(route: some StringProtocol) {
        self.rawValue = DeterministicHashing.fnv1a64(route.utf8)
    }

    public var description: String {
        let hex = String(rawValue, radix: 16)
        return "fp:" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
