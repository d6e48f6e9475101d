/// The one allocation of an `_AgeRing` owner (`fifo-set`, `hash-deque`): its ring of keys, then
/// its lane table, copied on write.
///
/// One object rather than two arrays, so a write checks uniqueness once (two arrays cost two
/// runtime calls per accepting event, and the registers they clobber), and a read checks
/// nothing. Owners keep it in a `var` and open it with ``withBuffers(of:_:)`` to read, and with
/// ``withUniqueBuffers(_:of:_:)`` to write, always with the element type it was built with.
///
/// Not generic over the element: with a generic class here, the optimizer stopped inlining and
/// even devirtualizing `admit` and `consume` into the harness's specialized loops (each became
/// a call through the witness table). The elements are `BitwiseCopyable`, so that a copy is a
/// `memcpy` and nothing needs deinitializing (a marker protocol: no witness table, nothing to
/// specialize away), and aligned to at most 16 bytes, which the initializer checks. The object keeps four words, so it stays in jemalloc's 48-byte size class.
/// (`fifo-set`'s memory figures are unchanged from when it had a storage class of its own.)
@usableFromInline
final class _RingStorage {
    @usableFromInline let ring: UnsafeMutableRawPointer
    @usableFromInline let lanes: UnsafeMutablePointer<UInt32>
    @usableFromInline let capacity: Int
    @usableFromInline let laneCount: Int

    /// `capacity` ring slots holding `element`, then `laneCount` lanes holding `vacantLane`.
    @usableFromInline
    init<Element: BitwiseCopyable>(capacity: Int, laneCount: Int, element: Element, vacantLane: UInt32) {
        precondition(MemoryLayout<Element>.alignment <= Self.alignment, "ring elements aligned beyond 16 bytes")
        precondition(MemoryLayout<Element>.stride % MemoryLayout<UInt32>.alignment == 0, "lanes would be misaligned")
        ring = UnsafeMutableRawPointer.allocate(
            byteCount: capacity * MemoryLayout<Element>.stride + laneCount * MemoryLayout<UInt32>.stride,
            alignment: Self.alignment)
        ring.bindMemory(to: Element.self, capacity: capacity).initialize(repeating: element, count: capacity)
        lanes = (ring + capacity * MemoryLayout<Element>.stride).bindMemory(to: UInt32.self, capacity: laneCount)
        lanes.initialize(repeating: vacantLane, count: laneCount)
        self.capacity = capacity
        self.laneCount = laneCount
    }

    @usableFromInline
    init(copying other: _RingStorage) {
        ring = UnsafeMutableRawPointer.allocate(byteCount: other.byteCount, alignment: Self.alignment)
        ring.copyMemory(from: other.ring, byteCount: other.byteCount)
        lanes = (ring + other.ringBytes).assumingMemoryBound(to: UInt32.self)
        capacity = other.capacity
        laneCount = other.laneCount
    }

    deinit { ring.deallocate() }

    /// What every allocation is aligned to: malloc's own on 64-bit platforms, so the alignment
    /// costs nothing.
    static var alignment: Int { 16 }

    /// Bytes of the ring: the lanes start there.
    var ringBytes: Int { UnsafeMutableRawPointer(lanes) - ring }

    /// Bytes allocated: the ring, then the lanes.
    @usableFromInline
    var byteCount: Int { ringBytes + laneCount * MemoryLayout<UInt32>.stride }

    /// The lanes and the ring, to read.
    @inlinable @inline(__always)
    func withBuffers<Element, R>(
        of _: Element.Type, _ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<Element>) -> R
    ) -> R {
        withExtendedLifetime(self) {
            body(
                UnsafeBufferPointer(start: lanes, count: laneCount),
                UnsafeBufferPointer(start: ring.assumingMemoryBound(to: Element.self), count: capacity))
        }
    }

    /// The lanes and the ring of `storage`, to write: copied first unless no other owner shares
    /// them.
    @inlinable @inline(__always)
    static func withUniqueBuffers<Element, R>(
        _ storage: inout _RingStorage, of _: Element.Type,
        _ body: (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<Element>) -> R
    ) -> R {
        if !isKnownUniquelyReferenced(&storage) { storage = _RingStorage(copying: storage) }
        let unique = storage
        return withExtendedLifetime(unique) {
            body(
                UnsafeMutableBufferPointer(start: unique.lanes, count: unique.laneCount),
                UnsafeMutableBufferPointer(start: unique.ring.assumingMemoryBound(to: Element.self), count: unique.capacity))
        }
    }
}
