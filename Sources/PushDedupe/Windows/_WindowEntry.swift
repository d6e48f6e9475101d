/// One admission: a fingerprint's digest and the time it was admitted. Shared by the windows that
/// keep admissions in order (`ArrayScanWindow`'s array, `HashDequeWindow`'s FIFO ring) and by
/// `DirectMappedWindow`'s slots.
@usableFromInline
struct _WindowEntry: Sendable, BitwiseCopyable {
    @usableFromInline var fingerprint: UInt64
    @usableFromInline var seenAt: Int64

    @inlinable
    init(fingerprint: UInt64, seenAt: Int64) {
        self.fingerprint = fingerprint
        self.seenAt = seenAt
    }
}

extension _WindowEntry: _LaneKeyed {
    /// A lane table over a queue of entries files them by fingerprint.
    @inlinable var laneKey: UInt64 { fingerprint }
}
