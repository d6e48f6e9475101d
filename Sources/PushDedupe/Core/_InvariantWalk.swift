#if PUSHDEDUPE_INTERNAL_CHECKS
/// When a debug build runs a structure's full invariant walk, which costs O(size) per change:
/// after every change at sizes up to `everyChangeUpTo`, after every ⌈size / `everyChangeUpTo`⌉th
/// change up to `largestWalked` (so a walk costs about what walking `everyChangeUpTo` entries
/// after every change would), and never above. The cheap O(1) checks run after every change.
///
/// Every run of `period(size:)` consecutive changes contains a walk, so a corruption that
/// outlives that many changes is caught; one that heals sooner is left to the model-based tests,
/// which compare every answer.
enum _InvariantWalk {
    static let everyChangeUpTo = 16
    static let largestWalked = 256

    /// Changes between two walks at `size`; `nil` when `size` is never walked.
    static func period(size: Int) -> UInt32? {
        guard size <= largestWalked else { return nil }
        return UInt32(max(1, (size + everyChangeUpTo - 1) / everyChangeUpTo))
    }

    /// Whether the walk runs after the change numbered `change` at `size`.
    static func isDue(size: Int, change: UInt32) -> Bool {
        guard let period = period(size: size) else { return false }
        return change % period == 0
    }
}
#endif
