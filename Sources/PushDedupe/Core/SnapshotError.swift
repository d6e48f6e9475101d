/// Why a snapshot could not be restored. See `Guides/Snapshots.md` for the format.
public struct SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class of problem, for callers and tests that branch on it.
    public enum Kind: String, Sendable, CaseIterable {
        /// Shorter than its header and checksum, or a field runs past the end.
        case truncated
        /// The checksum does not match the bytes: corrupted in storage.
        case checksumMismatch
        /// Not a consumed-set snapshot (wrong magic bytes).
        case notASnapshot
        /// A format version this library does not read, older or newer.
        case unsupportedVersion
        /// Written by another strategy, restored with `init(snapshot:configuration:)`, which
        /// never migrates.
        case wrongStrategy
        /// Written by another strategy that cannot migrate into the requested one: one of the two
        /// is a filter, which holds bits rather than ids (`init(migrating:configuration:)`).
        case incompatibleStrategy
        /// Well framed, but a field is out of range or inconsistent, or bytes are left over.
        case malformed
        /// Valid, but a set of the given configuration cannot hold it (a filter of another size),
        /// or the configuration itself is invalid.
        case incompatibleConfiguration
    }

    public var kind: Kind
    /// What is wrong, in words.
    public var reason: String
    /// The strategy that wrote the snapshot, for `wrongStrategy` and `incompatibleStrategy`.
    public var storedStrategy: String?
    /// The strategy asked to restore it, for `wrongStrategy` and `incompatibleStrategy`.
    public var requestedStrategy: String?

    public init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// A snapshot of `stored` that `requested` cannot take: both strategies are named.
    public static func incompatibleStrategy(stored: String, requested: String) -> SnapshotError {
        var error = SnapshotError(
            kind: .incompatibleStrategy,
            reason: "written by '\(stored)', which cannot migrate into '\(requested)': only sets that hold their ids migrate")
        error.storedStrategy = stored
        error.requestedStrategy = requested
        return error
    }

    public var description: String { "snapshot \(kind.rawValue): \(reason)" }
}
