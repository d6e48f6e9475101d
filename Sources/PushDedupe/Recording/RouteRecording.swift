/// How a ``TraceRecorder`` writes the route of a payload.
public enum RouteRecording: Hashable, Sendable {
    /// The route string as the app normalized it (`item:42`), so a trace reads like the app's
    /// traffic. Use it for traces that stay on a developer's machine.
    case verbatim
    /// A digest token instead of the route (`item:42` → `fp:45dadbf3065e6d59`), so no user or
    /// item identifier leaves the device. The token is `fp:` and 16 hex digits of FNV-1a 64 over
    /// the route's UTF-8 seeded with `salt`, then the SplitMix64 finalizer
    /// (``DeterministicHashing/fnv1a64(_:seed:)``): the same route gives the same token in every
    /// run, process and device, and distinct routes collide with probability about 2⁻⁶⁴ per pair,
    /// so a replay makes the same decisions. With `salt` 0 the token is
    /// `RouteFingerprint(route:).description`.
    ///
    /// The digest is not cryptographic. Routes drawn from a small space (`item:1` … `item:10⁶`)
    /// can be recovered by hashing every candidate, unless the salt is a secret that stays on the
    /// device.
    case hashed(salt: UInt64 = 0)
}
