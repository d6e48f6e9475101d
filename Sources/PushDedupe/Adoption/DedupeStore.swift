import struct Foundation.URL

/// Where a deduplicator keeps its consumed set across launches: nowhere (``none``), or a file.
///
/// ```swift
/// let support = try FileManager.default.url(
///     for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
/// let dedupe = MainActorDeduplicator.recommended(store: .file(support.appendingPathComponent("consumed-routes.pdcs")))
/// ```
///
/// iOS kills a suspended app without notice, so the set is saved while the app runs: by default
/// after every consume that changed it, with an atomic replace, so the file holds the previous
/// snapshot or the new one, never a mix. At init the deduplicator restores the file and reports
/// what it found in `restoreOutcome`; anything it cannot trust starts an empty set.
///
/// **Where the file lives.** In the app's Application Support directory (created on first use, not
/// purged like Caches, backed up with the app), or, when a Notification Service Extension must
/// see the same set, in the App Group container both targets share
/// (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`).
///
/// **Two processes.** The app and its extension may each hold a deduplicator on one file. Each
/// restores once, at its init, and then saves its own whole state over the file: the last writer
/// wins, and what the other process consumed since this one restored is lost from the file
/// (every save is still whole, never torn). There is no cross-process lock: a process sees the
/// other's consumes only at its next launch.
public struct DedupeStore: Sendable {
    /// When a file store writes the set. The harness's persistence rows name the same choices:
    /// `snapshot` is ``afterEveryConsume``, `snapshot-on-background` is ``onBackground``, and
    /// `memory` is the ``DedupeStore/none`` store.
    public enum SavingPolicy: String, Sendable, Hashable, CaseIterable {
        /// After every consume that changed the set (a navigated event), before the call returns:
        /// nothing navigated is ever lost at a kill. About one save per push opened.
        case afterEveryConsume
        /// Only at `didEnterBackground()` (and `save()`): fewer writes, but whatever navigated
        /// after the last background is lost when the app is killed without going there.
        case onBackground
        /// Only when the app calls `save()`, for apps that batch.
        case manual
    }

    enum _Location: Sendable {
        case none
        case file(URL, any _StoreFileSystem)
    }

    let _location: _Location
    /// When the set is written.
    public let saving: SavingPolicy

    /// Nothing is restored or saved: the set lives and dies with the process.
    public static let none = DedupeStore(_location: .none, saving: .manual)

    /// A snapshot file at `url`, written as `saving` says.
    ///
    /// The directory must exist; the file need not.
    public static func file(_ url: URL, saving: SavingPolicy = .afterEveryConsume) -> DedupeStore {
        DedupeStore(_location: .file(url, _FoundationFileSystem()), saving: saving)
    }

    /// A file store whose file operations are `fileSystem`, for tests that inject failures.
    static func _file(_ url: URL, saving: SavingPolicy = .afterEveryConsume, fileSystem: any _StoreFileSystem) -> DedupeStore {
        DedupeStore(_location: .file(url, fileSystem), saving: saving)
    }

    /// The snapshot file, or `nil` for ``none``.
    public var url: URL? {
        if case .file(let url, _) = _location { return url }
        return nil
    }

    /// Why a save failed. The in-memory set is untouched; the file still holds the previous
    /// snapshot.
    public struct SaveError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The snapshot file.
        public var url: URL
        /// What the file system said.
        public var reason: String

        public var description: String { "cannot save \(url.path): \(reason)" }
    }
}
