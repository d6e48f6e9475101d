import PushDedupe

/// The plain model every exact window is checked against: the published algorithm over a list
/// in admission order, plus an optional capacity that drops the oldest entry.
struct ReferenceWindow {
    let window: Int64
    /// `nil`: unbounded.
    let capacity: Int?
    private(set) var entries: [(fingerprint: RouteFingerprint, seenAt: Int64)] = []
    private(set) var evictions = 0
    private var latest = Int64.min

    init(window: Int64, capacity: Int?) {
        self.window = window
        self.capacity = capacity
    }

    mutating func admit(_ fingerprint: RouteFingerprint, at time: Timestamp) -> Bool {
        latest = max(latest, time.nanoseconds)
        let now = latest
        entries.removeAll { now - $0.seenAt > window }
        if entries.contains(where: { $0.fingerprint == fingerprint }) { return false }
        if let capacity {
            if capacity == 0 {
                evictions += 1
                return true
            }
            if entries.count == capacity {
                entries.removeFirst()
                evictions += 1
            }
        }
        entries.append((fingerprint, now))
        return true
    }

    var count: Int { entries.count }
}
