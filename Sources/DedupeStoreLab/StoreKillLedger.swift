/// The kill sweep's account of what must survive: every acknowledged index in consume order, and
/// after each killed child one slot for the consume it may have made without acknowledging it
/// (killed between the store's write and the acknowledgement).
///
/// A check walks back from the newest entry over `retained` slots, the most the set keeps: each
/// acknowledged index there must be known to the restored store. Older ones were forgotten by
/// design (the set keeps the newest `retained`), not lost.
struct StoreKillLedger: Sendable, Equatable {
    /// Ids the set retains.
    let retained: Int
    /// Acknowledged indices, oldest first, with `nil` for a slot an unacknowledged consume may
    /// hold; only the newest `retained` entries are kept.
    private(set) var history: [Int?] = []
    /// Indices checked at least once.
    private(set) var checked: Set<Int> = []
    /// Indices some check found missing.
    private(set) var lost: Set<Int> = []
    /// The index the next child starts from.
    private(set) var next = 0

    init(retained: Int) {
        self.retained = max(1, retained)
    }

    /// Records a child's acknowledged indices (consecutive from ``next``) and the slot of the
    /// consume after the last one, which a kill may have let through unacknowledged; the next
    /// child starts past it.
    mutating func record(acknowledged: [Int]) {
        history += acknowledged.map { Optional($0) }
        history.append(nil)
        next = (acknowledged.last ?? (next - 1)) + 2
        if history.count > 2 * retained { history.removeFirst(history.count - retained) }
    }

    /// Checks the newest `retained` slots against `isKnown`; returns the indices missing now.
    @discardableResult
    mutating func check(_ isKnown: (Int) -> Bool) -> [Int] {
        var missing: [Int] = []
        for entry in history.suffix(retained) {
            guard let index = entry else { continue }
            checked.insert(index)
            if !isKnown(index) {
                missing.append(index)
                lost.insert(index)
            }
        }
        return missing
    }
}
