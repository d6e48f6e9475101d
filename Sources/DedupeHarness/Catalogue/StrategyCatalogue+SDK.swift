import PushDedupe

/// The consumed sets push SDKs ship, registered at their shipped constants rather than at the
/// suite's common capacity (`Guides/ConsumedSets.md` § SDK sets): `recent-ids` twice, as entries
/// `recent-ids-10` (firebase-android-sdk, Airship Android) and `recent-ids-100`
/// (react-native-firebase Android), and
/// `id-time-map` at CleverTap's T = 5 s for clicks. The sweeps leave them out: their rows stand
/// for those constants, and a linear scan at the sweeps' 10⁷ ids would take hours.
enum _SDKConsumedSets {
    static func visit<V: _ConsumedSetVisitor>(_ visitor: inout V) {
        visitor.visit(
            LastIDSet.self, id: nil, reads: [], summary: "SDK pattern: one last-id slot (OneSignal iOS, Iterable, Leanplum, Expo)",
            configuration: ConsumedSetConfiguration(capacity: 1), isSwept: false)
        for capacity in [10, 100] {
            visitor.visit(
                RecentIDs.self, id: "\(RecentIDs.strategyID)-\(capacity)", reads: [.capacity],
                summary: "SDK pattern: FIFO array of the last \(capacity) ids, scanned (Firebase Android and Airship 10, RN Firebase 100)",
                configuration: ConsumedSetConfiguration(capacity: capacity), isSwept: false)
        }
        // A `HashMap`'s default 16 buckets, as CleverTap creates it; the map grows from there.
        visitor.visit(
            IDTimeMap.self, id: nil, reads: [.retention, .reservation], summary: "SDK pattern: id → last seen, a repeat within 5 s is a dup, never evicted (CleverTap)",
            configuration: ConsumedSetConfiguration(capacity: 16, retention: .seconds(5)), isSwept: false)
    }
}
