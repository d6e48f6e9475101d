/// A structure with a debug-only `_checkInvariants()`, run after every change through
/// `_checkAfterConsume()`: one definition of the flag check, rather than one per set.
@usableFromInline
protocol _InvariantChecked {
    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Traps on a broken invariant; exists only in builds with internal checks.
    func _checkInvariants()
    #endif
}

extension _InvariantChecked {
    /// Runs `_checkInvariants()` in builds with internal checks; compiles to nothing otherwise.
    @inlinable @inline(__always)
    func _checkAfterConsume() {
        #if PUSHDEDUPE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
    }
}
