import struct Foundation.UUID

extension EnvelopeID {
    /// The id of an envelope created with `UUID()`, as the published router does: bytes 0–7 of
    /// the UUID, big-endian, are `high`, bytes 8–15 are `low`.
    ///
    /// Reads the 16 bytes in place, without a temporary array.
    ///
    /// - Complexity: O(1).
    @inlinable
    public init(uuid: UUID) {
        let (high, low) = withUnsafeBytes(of: uuid.uuid) { bytes in
            (UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
        self.init(high: high, low: low)
    }

    /// The `UUID` with these 128 bits: `EnvelopeID(uuid: id.uuid) == id` for every id, and
    /// `EnvelopeID(uuid: uuid).uuid == uuid` for every `UUID`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var uuid: UUID {
        UUID(self)
    }
}

extension UUID {
    /// The `UUID` whose bytes are `envelope`'s two halves, big-endian.
    ///
    /// - Complexity: O(1).
    @inlinable
    public init(_ envelope: EnvelopeID) {
        let halves = (envelope.high.bigEndian, envelope.low.bigEndian)
        self.init(uuid: withUnsafeBytes(of: halves) { $0.loadUnaligned(as: _UUIDBytes.self) })
    }
}

/// `UUID.uuid`'s type, spelled out so the module needs no platform `uuid_t`.
@usableFromInline
typealias _UUIDBytes = (
    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
)
