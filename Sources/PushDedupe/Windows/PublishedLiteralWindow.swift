/// The published layer-1 window, ported line for line: the reference row of every report.
///
/// The article keeps an array of `(fingerprint: String, at: Date)` and, on every payload,
/// removes the expired entries, scans for the fingerprint, and appends it:
///
/// ```swift
/// recentRouteFingerprints.removeAll { now.timeIntervalSince($0.at) > dedupeWindow }
/// if recentRouteFingerprints.contains(where: { $0.fingerprint == fingerprint }) { return }
/// recentRouteFingerprints.append(RecentRouteFingerprint(fingerprint: fingerprint, at: now))
/// ```
///
/// This port keeps that shape and its costs. The fingerprint is a `String`: the protocol hands
/// over a ``RouteFingerprint``, so each call renders it with `description`, as the published
/// code builds `"item:\(itemID)"` on every payload. That allocation, and comparing strings
/// instead of integers, are part of what the faster windows are measured against, so they stay.
/// Times are `Double` seconds (`Date` is a `Double` of seconds), computed as
/// `Double(nanoseconds) / 1_000_000_000`. On times that are multiples of 2⁻⁹ s the boundary
/// matches the integer windows bit for bit; elsewhere the subtraction rounds, so a repeat exactly
/// `window` later can be admitted (e.g. 623,685,183 ns then 1,123,685,183 ns under 500 ms), as in
/// the published code.
///
/// One deviation from the literal code: a time earlier than the latest one given is treated as
/// the latest, as the protocol requires. The article reads `Date()`, which can step backwards
/// with the wall clock; the port cannot, so every window is compared on the same rule.
///
/// - Guarantees: exact up to the `Double` rounding of the boundary above; never a false drop. Unbounded: `capacity`
///   only reserves storage, and `evictions` is always 0.
/// - Memory: 24 bytes per array slot plus each fingerprint's heap string (19 UTF-8 bytes, too
///   long for Swift's 15-byte inline form), for every entry admitted within the window.
/// - Complexity: O(*n*) per admit in the entries held, plus a string allocation.
public struct PublishedLiteralWindow: FingerprintWindow, Sendable {
    public static let strategyID = "published-literal"
    public static let guarantee: Guarantee = .exact

    @usableFromInline
    struct _RecentRouteFingerprint: Sendable {
        @usableFromInline let fingerprint: String
        @usableFromInline let at: Double

        @inlinable
        init(fingerprint: String, at: Double) {
            self.fingerprint = fingerprint
            self.at = at
        }
    }

    /// Heap bytes of one rendered fingerprint string: the native string object's 32-byte header
    /// (isa, reference count, capacity and count words) and 19 UTF-8 bytes plus a terminator.
    @usableFromInline static var _fingerprintStringBytes: Int { 32 + 20 }

    @usableFromInline var _recentRouteFingerprints: [_RecentRouteFingerprint]
    @usableFromInline let _dedupeWindow: Double
    @usableFromInline var _latest: Int64

    public let window: Duration

    /// Builds the window; `capacity` reserves array storage and bounds nothing.
    ///
    /// - Throws: ``ConfigurationError`` for a negative window or capacity.
    public init(configuration: WindowConfiguration) throws(ConfigurationError) {
        let clock = try _WindowClock(validating: configuration, for: Self.strategyID)
        let capacity = configuration.capacity
        window = clock.duration
        _dedupeWindow = Double(clock.window) / 1_000_000_000
        _latest = .min
        _recentRouteFingerprints = []
        _recentRouteFingerprints.reserveCapacity(capacity)
    }

    /// - Complexity: O(*n*) in the entries held, plus rendering the fingerprint to a `String`.
    @inlinable @inline(__always)
    public mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool {
        _latest = max(_latest, now.nanoseconds)
        let now = Double(_latest) / 1_000_000_000
        let fingerprint = fingerprint.description
        let dedupeWindow = _dedupeWindow

        _recentRouteFingerprints.removeAll {
            now - $0.at > dedupeWindow
        }

        if _recentRouteFingerprints.contains(where: { $0.fingerprint == fingerprint }) {
            return false
        }

        _recentRouteFingerprints.append(
            _RecentRouteFingerprint(fingerprint: fingerprint, at: now)
        )
        return true
    }

    /// - Complexity: O(1).
    @inlinable public var count: Int { _recentRouteFingerprints.count }

    /// The array's capacity plus the heap strings of the entries held.
    ///
    /// - Complexity: O(1).
    @inlinable public var footprint: Int {
        _recentRouteFingerprints.capacity * MemoryLayout<_RecentRouteFingerprint>.stride
            + _recentRouteFingerprints.count * Self._fingerprintStringBytes
    }

    /// Always 0: the published window never drops a live entry.
    ///
    /// - Complexity: O(1).
    @inlinable public var evictions: Int { 0 }
}
