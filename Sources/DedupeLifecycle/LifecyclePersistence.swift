/// What of the router's state survives a `relaunch` (the process killed and started again): the
/// persistence under test, modelled in the simulator itself. The app's store holds two things,
/// the consumed set and the latest pending route, and saves them together.
///
/// The path, the in-flight task, layer 1's window and the route subject are always lost.
public enum LifecyclePersistence: String, Sendable, CaseIterable, Codable {
    /// Nothing is saved: the consumed set starts empty and no pending route replays (the
    /// articles' in-memory `Set`).
    case memory
    /// Saved after every change (each consume, each new pending route), so a kill loses nothing.
    case snapshot
    /// Saved only at `background` events (`didEnterBackground`, the last callback iOS
    /// guarantees): whatever changed after the last one is lost at the kill.
    case snapshotOnBackground = "snapshot-on-background"
}
