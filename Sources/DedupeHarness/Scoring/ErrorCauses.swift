import PushDedupe
import DedupeWorkloads

/// The named causes a case's missed duplicates and false drops are attributed to, event by
/// event. Every counted error gets exactly one; `Guides/Harness.md` § Matched errors and causes defines them.
package enum ErrorCause {
    /// A dup from an async completion pushing another route than the first one: only a loading
    /// guard on the button, which no layer of the dedupe is, can stop it.
    package static let loadingGuardOnly = "only a loading guard"
    /// A dup from an async completion that the router's loading guard let run: its tap came
    /// after the action it repeated had finished, or it came again from an action that ran.
    package static let afterActionFinished = "tap after the action finished"
    /// A dup from an async completion in a workload that records no actions: the replay could
    /// not give its tap to the loading guard (`Guides/Harness.md` § Traces without action records).
    package static let noActionRecords = "no action records to replay"
    /// The same push delivered again under a new minted envelope: the case's `push-id` twin
    /// stops it.
    package static let pushIdentity = "caught with push-id identity"
    /// The envelope was consumed before a relaunch that lost the set: the case's persisting twin
    /// (`after-every-consume`) stops it.
    package static let persistence = "caught with persistence"
    /// Needs both: the same push delivered again after a relaunch.
    package static let pushIdentityAndPersistence = "caught with push-id identity and persistence"
    /// Layer 2 had consumed this envelope in the same process and no longer remembered it
    /// (evicted, aged out, overwritten).
    package static let forgotten = "forgotten by the consumed set"
    /// Consumed before a relaunch that lost the set, with no persisting twin to stop it.
    package static let lostAtRelaunch = "lost at a relaunch"
    /// A payload for a screen last admitted longer ago than the window: a longer window would
    /// stop it at the price of dropping wanted re-taps (`window-length` sweep).
    package static let windowLength = "window-length trade-off"
    /// A wanted payload for a screen admitted within the window: the window's stated trade-off.
    package static let windowDrop = "window drop within the window"
    /// A wanted payload the window dropped though its screen was not admitted within the window:
    /// no exact window does this.
    package static let windowDropOutside = "window drop of a screen not admitted within the window"
    /// A wanted event whose envelope the consumed set had never consumed in this process: a
    /// filter's false positive or a slot collision.
    package static let setFalsePositive = "consumed-set false positive"
    /// A wanted completion whose tap the router's loading guard ignored, while another action
    /// with its key still ran.
    package static let loadingGuardDrop = "loading guard drop while an action ran"
    /// A wanted event whose envelope layer 2 had consumed before: two intents sharing one id.
    package static let sharedEnvelope = "envelope shared with an earlier intent"

    /// `other: emit from pending_route`: an error none of the above explains, named by what it is.
    static func other(kind: String, source: String) -> String { "other: \(kind) from \(source)" }
}

/// Attributes the errors of one case on one workload; `guardsTaps` when the case ran the router's
/// loading guard (`two-layer-guarded`). `twins` are the decisions of the same
/// strategies at the other identities and persistences (by identity and persistence); a cause
/// that needs a twin the run does not have is not claimed, nor past the events a twin ran on (a
/// persisting twin may stop early: ``SnapshotResult/eventsRun``).
struct _ErrorAttribution {
    var missed: [String: Int] = [:]
    var dropped: [String: Int] = [:]

    init(
        decisions: [UInt8], columns: EventColumns, workload: Workload, windowMilliseconds: Double, usesConsumedSet: Bool,
        guardsTaps: Bool, identity: EnvelopeIdentity?, persistence: Persistence?,
        twin: (EnvelopeIdentity, Persistence) -> [UInt8]?
    ) {
        let navigated = CaseDecision.navigated.rawValue
        let asyncSource = workload.sources.firstIndex(of: PushSource.asyncCompletion.rawValue).map(UInt16.init)
        let pushTwin = identity == .minted ? twin(.pushID, persistence ?? .memory) : nil
        let persistingTwin = persistence != .afterEveryConsume ? twin(identity ?? .minted, .afterEveryConsume) : nil
        let bothTwin = identity == .minted && persistence != .afterEveryConsume ? twin(.pushID, .afterEveryConsume) : nil
        // Per envelope slot: the process life (relaunches so far) in which layer 2 last saw it,
        // or -1. Per fingerprint: when the window last admitted it.
        var seenInLife = [Int32](repeating: -1, count: max(1, columns.envelopeCount))
        var admitted: [RouteFingerprint: Int64] = [:]
        var life: Int32 = 0
        for i in decisions.indices {
            if columns.isRelaunch(i) { life += 1; continue }
            let decision = decisions[i]
            let slot = Int(columns.envelopeSlot[i])
            let isPayload = columns.isPayload(i)
            let previousLife = seenInLife[slot]
            if columns.truths[i] == .dup && decision == navigated {
                let cause: String
                if columns.sources[i] == asyncSource {
                    cause = !guardsTaps ? ErrorCause.loadingGuardOnly
                        : columns.actions.isEmpty ? ErrorCause.noActionRecords : ErrorCause.afterActionFinished
                } else if let pushTwin, i < pushTwin.count, pushTwin[i] != navigated {
                    cause = ErrorCause.pushIdentity
                } else if let persistingTwin, i < persistingTwin.count, persistingTwin[i] != navigated {
                    cause = ErrorCause.persistence
                } else if let bothTwin, i < bothTwin.count, bothTwin[i] != navigated {
                    cause = ErrorCause.pushIdentityAndPersistence
                } else if usesConsumedSet && previousLife == life {
                    cause = ErrorCause.forgotten
                } else if usesConsumedSet && previousLife >= 0 {
                    cause = ErrorCause.lostAtRelaunch
                } else if isPayload, let last = admitted[columns.fingerprints[i]],
                          DeviceProfile.milliseconds(columns.times[i].nanoseconds, after: last) > windowMilliseconds {
                    cause = ErrorCause.windowLength
                } else {
                    cause = ErrorCause.other(kind: "\(columns.kind(i))", source: Self.label(columns.sources[i], workload))
                }
                missed[cause, default: 0] += 1
            } else if columns.truths[i] == .new, decision == CaseDecision.suppressedByLoadingGuard.rawValue {
                dropped[ErrorCause.loadingGuardDrop, default: 0] += 1
            } else if columns.truths[i] == .new, decision == CaseDecision.suppressedByWindow.rawValue {
                // 1 µs of slack for the published window's `Double` seconds at the boundary.
                let within = admitted[columns.fingerprints[i]].map {
                    DeviceProfile.milliseconds(columns.times[i].nanoseconds, after: $0) <= windowMilliseconds + 0.001
                } ?? false
                dropped[within ? ErrorCause.windowDrop : ErrorCause.windowDropOutside, default: 0] += 1
            } else if columns.truths[i] == .new, decision == CaseDecision.suppressedByConsumedSet.rawValue {
                dropped[previousLife >= 0 ? ErrorCause.sharedEnvelope : ErrorCause.setFalsePositive, default: 0] += 1
            }
            if decision == navigated || decision == CaseDecision.suppressedByConsumedSet.rawValue { seenInLife[slot] = life }
            // Without a consumed set (`fingerprint-only`) an emit that navigated passed the window too.
            if isPayload ? decision != CaseDecision.suppressedByWindow.rawValue : !usesConsumedSet && decision == navigated {
                admitted[columns.fingerprints[i]] = columns.times[i].nanoseconds
            }
        }
    }

    private static func label(_ source: UInt16, _ workload: Workload) -> String {
        Int(source) < workload.sources.count ? workload.sources[Int(source)] : "an unlabelled source"
    }
}
