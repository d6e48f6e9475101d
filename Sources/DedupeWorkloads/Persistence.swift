/// What of the dedupe state survives a relaunch (the process killed and started again): the
/// persistence under test, one vocabulary for the harness and the policy simulator. The harness
/// applies it to a case's consumed set (`Guides/Harness.md` § Identity and persistence); the simulator to the
/// app's store, which holds the consumed set and the latest pending route and saves them together.
/// Windows, the path, the in-flight task and the route subject are always lost.
///
/// The saved cases are named after the library's `DedupeStore.SavingPolicy`, so "snapshot" names
/// only the store design and its file format.
package enum Persistence: String, Sendable, Codable, ClosedVocabulary {
    /// All state lives in memory and dies with the process: the set restarts empty and no
    /// pending route replays (the articles' in-memory `Set`; `DedupeStore.none`).
    case memory
    /// Saved after every change (each consume, each new pending route) and restored at the
    /// relaunch, as an app that writes its store on every navigation does: a kill loses nothing
    /// (`SavingPolicy.afterEveryConsume`).
    case afterEveryConsume = "after-every-consume"
    /// Saved only when the app enters the background (`didEnterBackground`, the last callback
    /// iOS guarantees) and restored from the last save: whatever changed after it is lost
    /// (`SavingPolicy.onBackground`).
    case onBackground = "on-background"

    package static let vocabularyName = "persistence"

    /// The names results files and lifecycle scripts written before the rename spell.
    package static let formerNames: [String: Persistence] = [
        "snapshot": .afterEveryConsume,
        "snapshot-on-background": .onBackground,
    ]
}
