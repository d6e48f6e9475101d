#if canImport(Glibc) && canImport(CoreFoundation)
// CoreFoundation's headers include <malloc.h>, which Glibc's module leaves out; only the type
// `struct mallinfo2` is used from it.
import CoreFoundation
import Glibc

/// glibc malloc's statistics from `mallinfo2()`: the fallback when jemalloc is not loaded.
///
/// Allocated bytes are `uordblks + hblkhd`: bytes in use in the heap arenas plus bytes in
/// blocks served by `mmap`. The figures are process-wide (every thread's allocations) and count
/// chunks parked in glibc's per-thread cache as in use. glibc keeps no allocation count, so it is
/// `nil`, and no per-thread byte totals, so the memory pass takes the peak from its slice readings.
package struct MallinfoStatistics: AllocatorStatistics {
    typealias Function = @convention(c) () -> mallinfo2

    let mallinfo: Function

    /// Binds to glibc's `mallinfo2`; `nil` before glibc 2.33, which lacks it.
    ///
    /// It is resolved at run time so the binary still loads on an older glibc.
    package init?() {
        guard let symbol = dlsym(nil, "mallinfo2") else { return nil }
        mallinfo = unsafeBitCast(symbol, to: Function.self)
    }

    package var source: String { "glibc-mallinfo2" }

    /// - Complexity: O(arenas + free chunks): glibc walks every arena's bins.
    package mutating func allocatedBytes() -> Int? {
        let info = mallinfo()
        return Int(info.uordblks + info.hblkhd)
    }

    package mutating func allocationCount() -> Int? { nil }
}
#endif
