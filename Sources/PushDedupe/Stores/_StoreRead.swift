import Foundation

/// What a store's last ``ConsumedStore/load()`` read: what a later replace or move aside may
/// change, as the compare of its compare-and-swap (``_StoreFileSystem/withBinding(_:expecting:_:)``).
enum _StoreRead: Equatable {
    /// Nothing read since the store's last replace: a replace must read first.
    case unread
    /// No file was at the path.
    case absent
    /// This file, with these contents.
    case present(_FileVersion)

    /// Reads a load retries when another store changed the file under it, before it reports the
    /// file as unreadable for now.
    static let attempts = 16

    /// The file a replace expects at the path: `nil` for none.
    func expected(_ path: String) throws(StoreError) -> _FileVersion? {
        switch self {
        case .unread: throw Self.unread(path)
        case .absent: return nil
        case .present(let version): return version
        }
    }

    /// The file a move aside expects at the path.
    func existing(_ path: String) throws(StoreError) -> _FileVersion {
        guard let version = try expected(path) else { throw _StoreFileSystem.changedSinceRead(path) }
        return version
    }

    private static func unread(_ path: String) -> StoreError {
        StoreError(
            path: path, kind: .changedSinceRead,
            reason: "the store has not read the file since its last write; it is read before it is replaced")
    }

    static func keptChanging(_ path: String) -> StoreError {
        StoreError(
            path: path, kind: .unreadable(errno: EAGAIN),
            reason: "other stores changed the file \(attempts) times while it was read; read again later")
    }
}
