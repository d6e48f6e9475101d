import PushDedupe

/// The plain model every exact consumed set is checked against.
struct ReferenceConsumedSet {
    enum Policy: Equatable {
        /// Never forgets.
        case unbounded
        /// Keeps `capacity` ids; a hit refreshes recency; evicts the least recently used.
        case leastRecentlyUsed(capacity: Int)
        /// Keeps `capacity` ids in insertion order; a hit changes nothing; evicts the oldest.
        case firstInFirstOut(capacity: Int)
    }

    let policy: Policy
    /// Ids in eviction order: the front goes first.
    private(set) var order: [EnvelopeID] = []
    private(set) var evictions = 0

    init(policy: Policy) {
        self.policy = policy
    }

    func contains(_ id: EnvelopeID) -> Bool {
        order.contains(id)
    }

    mutating func consume(_ id: EnvelopeID) -> Bool {
        if let index = order.firstIndex(of: id) {
            if case .leastRecentlyUsed = policy {
                order.remove(at: index)
                order.append(id)
            }
            return false
        }
        switch policy {
        case .unbounded:
            break
        case .leastRecentlyUsed(let capacity), .firstInFirstOut(let capacity):
            if capacity == 0 {
                evictions += 1
                return true
            }
            if order.count == capacity {
                order.removeFirst()
                evictions += 1
            }
        }
        order.append(id)
        return true
    }

    var count: Int { order.count }
}
