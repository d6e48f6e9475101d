#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// jemalloc's `mallctl`, bound at run time so the package never links jemalloc.
///
/// Values are read and written through their C types (`size_t`, `uint64_t`, `const char *`,
/// pointers), which the caller names with `as:`. Names are `Mallctl.Name`s, converted to C
/// strings once, so that a read allocates nothing and cannot disturb the counts it reads.
struct Mallctl {
    /// A control name as a NUL-terminated C string.
    struct Name: Sendable {
        let cString: ContiguousArray<CChar>

        init(_ name: String) {
            cString = ContiguousArray(name.utf8CString)
        }
    }

    /// `int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)`.
    typealias Function = @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
    ) -> Int32

    let function: Function

    init(_ function: Function) {
        self.function = function
    }

    /// The `mallctl` the process's symbol lookup finds, i.e. the one of a preloaded or linked
    /// jemalloc; `nil` when no loaded object defines it.
    static func lookUpInProcess() -> Mallctl? {
        lookUpSymbol("mallctl").map { Mallctl(unsafeBitCast($0, to: Function.self)) }
    }

    /// The address the process's symbol lookup (`RTLD_DEFAULT`) finds for `name`.
    static func lookUpSymbol(_ name: String) -> UnsafeMutableRawPointer? {
        #if canImport(Glibc) || canImport(Darwin)
        return dlsym(defaultSymbolScope, name)
        #else
        return nil
        #endif
    }

    #if canImport(Darwin)
    private static var defaultSymbolScope: UnsafeMutableRawPointer? { RTLD_DEFAULT }
    #else
    // glibc's RTLD_DEFAULT is `((void *) 0)`, a macro Swift does not import.
    private static var defaultSymbolScope: UnsafeMutableRawPointer? { nil }
    #endif

    /// Reads the value `name` as a `T`; `nil` when jemalloc rejects the name or the size.
    func read<T>(_ name: Name, as type: T.Type) -> T? {
        withUnsafeTemporaryAllocation(of: type, capacity: 1) { buffer -> T? in
            var length = MemoryLayout<T>.size
            let status = name.cString.withUnsafeBufferPointer { cName in
                function(cName.baseAddress, buffer.baseAddress, &length, nil, 0)
            }
            guard status == 0, length == MemoryLayout<T>.size else { return nil }
            return buffer.baseAddress!.move()
        }
    }

    /// Writes `value` to `name`; `false` when jemalloc rejects it.
    func write<T>(_ name: Name, _ value: T) -> Bool {
        var value = value
        return withUnsafeMutableBytes(of: &value) { bytes in
            name.cString.withUnsafeBufferPointer { cName in
                function(cName.baseAddress, nil, nil, bytes.baseAddress, bytes.count) == 0
            }
        }
    }

    /// Triggers a `void` control such as `thread.tcache.flush`; `false` when rejected.
    func perform(_ name: Name) -> Bool {
        name.cString.withUnsafeBufferPointer { cName in
            function(cName.baseAddress, nil, nil, nil, 0) == 0
        }
    }
}

extension Mallctl.Name {
    static let version = Self("version")
    static let epoch = Self("epoch")
    static let threadAllocatedPointer = Self("thread.allocatedp")
    static let threadDeallocatedPointer = Self("thread.deallocatedp")
    static let threadCacheFlush = Self("thread.tcache.flush")
    static let allocated = Self("stats.allocated")
    // 4096 is MALLCTL_ARENAS_ALL: the sum over all arenas.
    static let smallRequests = Self("stats.arenas.4096.small.nrequests")
    static let largeRequests = Self("stats.arenas.4096.large.nrequests")
}
