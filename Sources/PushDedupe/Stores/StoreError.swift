/// Why a store could not read or write its file. The set in memory is never changed by one.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The file exists but could not be read now: permissions, I/O, too many open files, or
        /// Data Protection while the phone is locked. Transient: the store is left alone and the
        /// restore is retried.
        case unreadable(errno: Int32)
        /// A write, flush, rename, lock or map failed (a full disk); what the store held is
        /// unchanged.
        case unwritable(errno: Int32)
        /// The file was written by a newer format version; it is left untouched and not written.
        case newerVersion(found: Int, supported: Int)
        /// The file is not a store of this design, nor a snapshot it can migrate.
        case corrupt
        /// Something other than a regular file is at the store's path (a symbolic link, a
        /// directory, a fifo): it is left untouched and never written.
        case notARegularFile
        /// Another store (the other process on the file, or another instance in this one)
        /// changed the file between this store's read and its write, which was not made: the
        /// file is read again and merged, never overwritten.
        case changedSinceRead
        /// SQLite reported this result code.
        case database(code: Int32)
    }

    /// The store's file.
    public var path: String
    /// What went wrong.
    public var kind: Kind
    /// The operation and what the system said, for a log line.
    public var reason: String

    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// Whether retrying later may succeed without anything changing the file.
    public var isTransient: Bool {
        if case .unreadable = kind { return true }
        return false
    }

    public var description: String { "\(path): \(reason)" }
}
