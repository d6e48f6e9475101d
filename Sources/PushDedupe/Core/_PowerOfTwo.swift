/// The smallest power of two that is at least `value` (1 for 0), for `value <= 2⁶²`.
@inlinable
func _powerOfTwo(atLeast value: Int) -> Int {
    value <= 1 ? 1 : 1 << (Int.bitWidth - (value - 1).leadingZeroBitCount)
}
