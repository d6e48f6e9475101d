/// What an overhead measurement (``FacadeOverhead``, ``RecorderOverhead``) found: the workload,
/// its events, the interleaved repetitions, the allocator, and one row per side. Each
/// measurement prints its own `text`, as its sides hold different figures.
package struct OverheadReport<Side: Sendable>: Sendable {
    package var workload: String
    package var events: Int
    package var repetitions: Int
    /// The allocator the allocation counts come from, or `nil` without jemalloc.
    package var allocator: String?
    package var sides: [Side]

    /// The allocator, as the header line names it.
    var allocatorText: String { allocator ?? "not jemalloc: allocations not counted" }

    /// `value` rounded to `decimals` places, printed as Swift prints a `Double`.
    func format(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return "\((value * scale).rounded() / scale)"
    }
}

extension String {
    /// Padded with spaces on the right to `width` characters, for a text table's first column.
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
    /// Padded with spaces on the left to `width` characters, for a right-aligned number column.
    func leftPadding(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
