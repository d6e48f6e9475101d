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
        /// A format version this library does not read.
        case unsupportedVersion
        /// Written by another strategy.
        case wrongStrategy
        /// Well framed, but a field is out of range or inconsistent, or bytes are left over.
        case malformed
        /// Valid, but a set of the given configuration cannot hold it (a filter of another size),
        /// or the configuration itself is invalid.
        case incompatibleConfiguration
    }

    public var kind: Kind
    /// What is wrong, in words.
    public var reason: String

    public init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { "snapshot \(kind.rawValue): \(reason)" }
}
