import Foundation

/// The whole consumed set's snapshot (`Guides/Snapshots.md`) in one file, rewritten at every
/// save: the design the first presets shipped, and the baseline the other stores are measured
/// against.
///
/// A save writes the snapshot to a temporary file beside the store and renames it over the file,
/// so a kill leaves the previous snapshot or the new one, whole; ``StoreDurability/powerLoss``
/// also flushes the file and its directory. Each save costs O(size of the set), and two
/// processes on one file lose ids: each writes its own whole set, and the last writer wins.
public final class SnapshotStore: ConsumedStore, @unchecked Sendable {
    public static let designID = "snapshot"
    public let path: String
    public let durability: StoreDurability
    public var writesWholeState: Bool { true }
    public private(set) var bytesWritten = 0
    public var compactions: Int { 0 }

    let fileSystem: _StoreFileSystem
    private var newerVersion: Int?
    /// What the last ``load()`` read: what ``moveAside(reason:)`` may move.
    private var read: _StoreRead = .unread

    public init(
        url: URL, durability: StoreDurability = .processKill,
        protection: StoreFileProtection = .completeUntilFirstUserAuthentication, faults: StoreFaults? = nil
    ) {
        path = url.path
        self.durability = durability
        fileSystem = _StoreFileSystem(faults: faults, protection: protection)
    }

    public func load() throws(StoreError) -> StoreLoad {
        try fileSystem.load(path, locked: false) { contents throws(StoreError) in
            guard let (bytes, version) = contents else {
                read = .absent
                return StoreLoad(.nothing)
            }
            read = .present(version)
            // A newer version is read off a checksum that holds: a damaged version byte reads as
            // damage, never as a newer version.
            if let newer = _SnapshotFormat.newerVersion(bytes) {
                newerVersion = Int(newer)
                throw newerVersionError(Int(newer))
            }
            do throws(SnapshotError) {
                _ = try _SnapshotReader(framing: bytes)
            } catch {
                return StoreLoad(.nothing, repairs: [try moveAside(reason: bytes.isEmpty ? "the file is empty" : "\(error)")])
            }
            return StoreLoad(.snapshot(bytes))
        }
    }

    public func append(_ ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        try replace(with: ids, snapshot: snapshot)
    }

    public func replace(with ids: [EnvelopeID], snapshot: () -> [UInt8]) throws(StoreError) {
        if let newerVersion { throw newerVersionError(newerVersion) }
        let bytes = snapshot()
        try fileSystem.overwrite(path, with: bytes, durability: durability)
        bytesWritten += bytes.count
    }

    public func moveAside(reason: String) throws(StoreError) -> StoreRepair {
        let movedTo = try fileSystem.moveAside(path, expecting: try read.existing(path))
        read = .unread
        return .movedAside(movedTo: movedTo, reason: reason)
    }

    private func newerVersionError(_ version: Int) -> StoreError {
        StoreError(
            path: path, kind: .newerVersion(found: version, supported: Int(_SnapshotFormat.version)),
            reason: "snapshot format version \(version) is newer than \(_SnapshotFormat.version); the file is left untouched")
    }
}
