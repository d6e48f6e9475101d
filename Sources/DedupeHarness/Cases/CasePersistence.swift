/// What happens to a case's consumed set at a `relaunch` event. Windows and the navigation
/// state are always lost. See `Guides/Harness.md` § Relaunches.
public enum CasePersistence: String, Sendable, CaseIterable, Codable {
    /// All state lives in memory and dies with the process: the set restarts empty.
    case memory
    /// The set is saved after every consume that changed it and restored at the relaunch, as an
    /// app that writes its store on every navigation does: nothing is lost at a kill.
    case snapshot
    /// The set is saved only when the app enters the background (`didEnterBackground`, the last
    /// callback iOS guarantees) and restored at the relaunch from the last save: a consume after
    /// the last background is lost at the kill.
    case snapshotOnBackground = "snapshot-on-background"
}
