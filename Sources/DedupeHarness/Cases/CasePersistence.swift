/// What happens to a case's consumed set at a `relaunch` event. Windows and the navigation
/// state are always lost. See `Guides/Harness.md` § Relaunches.
public enum CasePersistence: String, Sendable, CaseIterable, Codable {
    /// All state lives in memory and dies with the process: the set restarts empty.
    case memory
    /// The set is snapshotted at the relaunch and restored from those bytes, as an app that
    /// saves it when it may be killed does.
    case snapshot
}
