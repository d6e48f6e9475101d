/// The first envelope token written for each envelope of a trace, found by the library's
/// deterministic slot index rather than a `Dictionary`, whose per-process seeded hashing cost
/// more per recorded event than writing the line.
struct _EnvelopeTokens {
    private var ids: [EnvelopeID] = []
    private var tokens: [_EnvelopeToken] = []
    private var index = _SlotIndex(slotCapacity: 1_024)

    init() {
        ids.reserveCapacity(index.slotCapacity)
        tokens.reserveCapacity(index.slotCapacity)
    }

    /// The envelopes known.
    var count: Int { ids.count }

    /// The token of `id`'s first payload line, or `nil` for an envelope no payload created.
    ///
    /// - Complexity: O(1) expected.
    func token(of id: EnvelopeID) -> _EnvelopeToken? {
        let slot = index.find(id, hash: _SlotHash(id), keys: ids)
        return slot < 0 ? nil : tokens[slot]
    }

    /// Records `token` for `id` unless `id` has one; returns whether it was recorded.
    ///
    /// - Complexity: O(1) expected, amortized over the doublings.
    @discardableResult
    mutating func insertIfAbsent(_ id: EnvelopeID, _ token: _EnvelopeToken) -> Bool {
        let hash = _SlotHash(id)
        guard index.find(id, hash: hash, keys: ids) < 0 else { return false }
        if ids.count == index.slotCapacity { grow() }
        index.insert(slot: ids.count, hash: hash)
        ids.append(id)
        tokens.append(token)
        return true
    }

    /// Doubles the index and re-indexes every id.
    private mutating func grow() {
        let reservation = Swift.min(_SlotIndex.maximumSlotCapacity, 2 * index.slotCapacity)
        precondition(reservation > ids.count, "a trace cannot hold more than 2^30 envelopes")
        index = _SlotIndex(slotCapacity: reservation)
        for (slot, id) in ids.enumerated() { index.insert(slot: slot, hash: _SlotHash(id)) }
    }
}
