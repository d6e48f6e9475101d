/// What a store's write has survived when the consume that made it returns.
///
/// iOS ends suspended apps with SIGKILL far more often than a phone loses power, and a process
/// kill leaves everything written to the kernel (the page cache) in place: no flush is needed to
/// survive it. A power cut loses what the disk had not been told to keep, so that durability
/// costs a flush per consume (`fdatasync`, `F_FULLFSYNC` on Apple platforms, `msync`, or SQLite's
/// `synchronous=FULL`): hundreds of microseconds to milliseconds.
public enum StoreDurability: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Survives a kill of the process at any moment; a power cut may lose the newest consumes.
    case processKill = "kill"
    /// Also survives a power cut: every write is flushed to the disk before the call returns.
    case powerLoss = "power-loss"

    public var description: String { rawValue }
}

/// The Data Protection class a store creates its files with (Apple platforms; other platforms
/// have no such classes and ignore it).
///
/// A push can launch an app in the background before the user first unlocks the phone after a
/// reboot, and a locked phone keeps `.complete` files unreadable. Apple's *Encrypting Your App's
/// Files* and the `NSFileProtectionCompleteUntilFirstUserAuthentication` reference: that class
/// makes the file readable from the first unlock until the next reboot, which covers a push
/// handled in the background while locked.
public enum StoreFileProtection: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `completeUntilFirstUserAuthentication`: readable after the first unlock since boot. The
    /// default, and what every store here needs to work while the phone is locked.
    case completeUntilFirstUserAuthentication
    /// `complete`: unreadable while locked. A mapped store cannot take it
    /// (``MappedFileProtection``): its pages would fault while the phone is locked.
    case complete
    /// `completeUnlessOpen`: a file open before the lock stays writable.
    case completeUnlessOpen
    /// `none`: readable before the first unlock, as Firebase opens its SQLite store.
    case none

    public var description: String { rawValue }
}

/// The protection classes a memory-mapped store can use: every class but `complete`, whose mapped
/// pages fault while the phone is locked and end the process. A type of its own, so that the
/// refusal happens when the code is compiled, not when the app runs.
public enum MappedFileProtection: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case completeUntilFirstUserAuthentication
    case completeUnlessOpen
    case none

    /// The same class, as every store names it.
    public var fileProtection: StoreFileProtection {
        switch self {
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        case .completeUnlessOpen: .completeUnlessOpen
        case .none: .none
        }
    }

    public var description: String { rawValue }
}
