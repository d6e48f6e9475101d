import PushDedupe

/// What the app and the user do, in simulated time: the input of ``LifecycleSimulator``.
///
/// A script is built from a generated workload or trace (``init(_:)``) or by a lifecycle
/// scenario. Every input names the intent (one navigation the user wants) it serves, so truth is
/// judged per intent, not per event.
public struct LifecycleScript: Sendable {
    /// Whether a route's screen can be shown: the route handler's first two early returns.
    public enum TabState: UInt8, Sendable {
        /// The route's target tab exists and is enabled.
        case enabled
        /// The target tab exists but is disabled.
        case disabled
        /// The route has no target tab.
        case noTab
    }

    /// One thing that happens at a point of simulated time.
    public struct Input: Sendable, Hashable {
        public enum Kind: UInt8, Sendable {
            /// A push payload normalized to `route`: layer 1, then (if admitted) the envelope
            /// `envelope` is emitted on the router's subject and becomes the latest pending route.
            case payload
            /// The already-created `envelope` emitted again on another lifecycle path (pending
            /// route, ready callback).
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
        }

        /// Nanoseconds of simulated time.
        public var time: Int64
        public var kind: Kind
        /// Index into ``LifecycleScript/routes``; unused for host events and checkout taps.
        public var route: UInt32
        /// Index into ``LifecycleScript/envelopes`` for payloads and emits, else -1.
        public var envelope: Int32
        /// The intent served, or -1 for host events.
        public var intent: Int32

        public init(time: Int64, kind: Kind, route: UInt32 = .max, envelope: Int32 = -1, intent: Int32 = -1) {
            self.time = time
            self.kind = kind
            self.route = route
            self.envelope = envelope
            self.intent = intent
        }
    }

    public var name: String
    public var summary: String
    /// Route strings, for reading a script; the simulator uses their fingerprints and tabs.
    public var routes: [String]
    public var fingerprints: [RouteFingerprint]
    public var tabs: [TabState]
    /// Envelope ids by index.
    public var envelopes: [EnvelopeID]
    /// The route each envelope carries.
    public var envelopeRoutes: [UInt32]
    /// The intent each envelope serves.
    public var envelopeIntents: [Int32]
    /// The screen each intent wants; `UInt32.max` for a checkout, whose receipt is only known
    /// when the task completes.
    public var intentRoutes: [UInt32]
    /// The inputs in time order (ties keep their recording order).
    public var inputs: [Input]
    /// Whether the host view is attached when the script starts (`false`: a cold launch).
    public var hostAttachedAtStart: Bool

    public var intentCount: Int { intentRoutes.count }
}
