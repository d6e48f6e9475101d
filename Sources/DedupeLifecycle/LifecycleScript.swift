import PushDedupe

/// What the app and the user do, in simulated time: the input of ``LifecycleSimulator``.
///
/// A script is built from a generated workload or trace (``init(_:)``), by a lifecycle scenario,
/// from a script file (``init(text:fileName:)``), or by `verify` from an episode shape. Every
/// input names the intent (one navigation the user wants) it serves, so truth is judged per
/// intent, not per event, and the mechanism it came through (its source label), so every
/// failure names what produced it.
package struct LifecycleScript: Sendable {
    /// Whether a route's screen can be shown: the route handler's first two early returns.
    package enum TabState: String, Sendable, CaseIterable {
        /// The route's target tab exists and is enabled.
        case enabled
        /// The target tab exists but is disabled.
        case disabled
        /// The route has no target tab.
        case noTab = "no-tab"
    }

    /// Where task ends and the user's going back come from.
    package enum Scheduling: String, Sendable {
        /// Drawn by the simulator: fetch and checkout latencies and outcomes, dwell times, the
        /// host attaching after a relaunch (``LifecycleConfiguration``).
        case drawn
        /// Given by the script: tasks end only at `taskEnd` inputs, the user goes back only at
        /// `back` inputs, and the host attaches after a relaunch only at a `hostAttach`. What
        /// `verify` enumerates and its counterexamples replay.
        case scripted
    }

    /// One thing that happens at a point of simulated time.
    package struct Input: Sendable, Hashable {
        package enum Kind: UInt8, Sendable, CaseIterable {
            /// A push payload normalized to `route`: layer 1, then (if admitted) the envelope
            /// `envelope` is emitted on the router's subject and becomes the latest pending route.
            case payload
            /// The already-created `envelope` handed to the handler again on another lifecycle
            /// path (pending route, ready callback).
            case emit
            /// The host view attaches; the latest pending route is replayed to it.
            case hostAttach
            /// The host view goes away (scene in background, view torn down).
            case hostDetach
            /// The user taps a button that pushes `route`.
            case tap
            /// A second owner of the path appends `route` for the same action.
            case childAppend
            /// The user taps an async button (checkout) whose completion pushes a receipt.
            case checkoutTap
            /// The app entered the background: `on-background` saves here.
            case background
            /// The process is killed and started again (a cold launch).
            case relaunch
            /// Scripted scheduling: task number `task` (in start order, from 0) ends, succeeding
            /// or failing as `succeeds` says.
            case taskEnd
            /// Scripted scheduling: task number `task` is asked to cancel (the user cancelled
            /// it); it ends cancelled at its `taskEnd`, pushing nothing.
            case taskCancel
            /// Scripted scheduling: the user goes back from the top screen.
            case back
        }

        /// Nanoseconds of simulated time.
        package var time: Int64
        package var kind: Kind
        /// Index into ``LifecycleScript/routes`` for payloads, emits, taps and child appends.
        package var route: UInt32 = .max
        /// Index into ``LifecycleScript/envelopes`` for payloads and emits, else -1.
        package var envelope: Int32 = -1
        /// The intent served, or -1 for host, lifecycle and scheduling inputs.
        package var intent: Int32 = -1
        /// Index into ``LifecycleScript/sources``: the mechanism the input came through.
        package var source: UInt16 = 0
        /// For `taskEnd` and `taskCancel`: the task, in start order from 0; else -1.
        package var task: Int32 = -1
        /// For `taskEnd`: whether the task succeeds.
        package var succeeds = true
    }

    /// What the conversion from a workload left out, by source label.
    package struct LeftOut: Sendable, Hashable, Codable {
        package var source: String
        package var count: Int
        /// Why, in a phrase.
        package var reason: String
    }

    package var name: String
    package var summary: String
    /// Route strings, for reading a script; the simulator uses their fingerprints and tabs.
    package var routes: [String]
    package var fingerprints: [RouteFingerprint]
    package var tabs: [TabState]
    /// Envelope ids by index.
    package var envelopes: [EnvelopeID]
    /// The route each envelope carries.
    package var envelopeRoutes: [UInt32]
    /// The intent each envelope was created for (an input may name another: one push id
    /// delivered for two intents).
    package var envelopeIntents: [Int32]
    /// The screen each intent wants; `UInt32.max` for a checkout, whose receipt is only known
    /// when the task completes.
    package var intentRoutes: [UInt32]
    /// Mechanism labels, indexed by ``Input/source``.
    package var sources: [String]
    /// The inputs in time order (ties keep their recording order).
    package var inputs: [Input]
    /// Whether the host view is attached when the script starts (`false`: a cold launch).
    package var hostAttachedAtStart: Bool
    package var scheduling: Scheduling
    /// Deliveries the conversion from a workload could not place in the lifecycle model.
    package var leftOut: [LeftOut]

    package var intentCount: Int { intentRoutes.count }

    /// Whether any input kills the process.
    package var hasRelaunch: Bool { inputs.contains { $0.kind == .relaunch } }
}
