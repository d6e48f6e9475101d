import PushDedupe

extension StrategyCatalogue {
    /// Every strategy of the `PushDedupe` library, in report order, references first. A window is
    /// one line below; a consumed set is one line in `_StandardConsumedSets`.
    public static let standard = StrategyCatalogue(
        windows: [
        ],
        consumedSets: _StandardConsumedSets.entries)
}

/// The library's consumed sets, one line each.
enum _StandardConsumedSets: _ConsumedSetList {
    static func visit<V: _ConsumedSetVisitor>(_ visitor: inout V) {
    }

    static var entries: [ConsumedSetEntry] {
        var collector = _EntryCollector()
        visit(&collector)
        return collector.entries
    }
}
