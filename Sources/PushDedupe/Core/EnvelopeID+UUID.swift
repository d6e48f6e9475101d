import struct Foundation.UUID

extension EnvelopeID {
    /// The id of an envelope created with `UUID()`, as the published router does.
    ///
    /// - Complexity: O(1).
    public init(uuid: UUID) {
        let b = uuid.uuid
        let high = [b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = [b.8, b.9, b.10, b.11, b.12, b.13, b.14, b.15].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(high: high, low: low)
    }
}
