/// A strategy that keeps its entry count in `_count` and its evictions in `_evictions`: its
/// `count` and `evictions` are written once, here.
@usableFromInline
protocol _CountedEntries {
    var _count: Int { get }
    var _evictions: Int { get }
}

extension _CountedEntries {
    /// - Complexity: O(1).
    @inlinable public var count: Int { _count }

    /// - Complexity: O(1).
    @inlinable public var evictions: Int { _evictions }
}
