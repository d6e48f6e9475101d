/// The lifecycle path an event reached the router through.
///
/// Generated workloads list every case in ``Workload/sources``, in declaration order, so an
/// event's ``WorkloadEvent/source`` is the case's position. Imported traces carry free labels
/// instead.
package enum PushSource: String, CaseIterable, Sendable {
    /// The user tapped the notification (`userNotificationCenter(_:didReceive:)`).
    case tap
    /// The payload found in the launch options when the tap started the app.
    case coldLaunch = "cold_launch"
    /// The router's latest pending route, replayed when a host view attaches.
    case pendingRoute = "pending_route"
    /// The envelope handed over again by a "ready" callback once the UI is up.
    case readyCallback = "ready_callback"
    /// An in-app button that pushes a screen.
    case button
    /// An asynchronous task that pushes a screen when it completes: in the generated workloads,
    /// the action a tap started (``ActionLog``), its fetch drawn from ``ActionTimingFacts``.
    case asyncCompletion = "async_completion"
    /// The user tapped the same notification, or another one for the same screen, again.
    case retap
    /// A second owner of the navigation path appended the same envelope.
    case secondPathOwner = "second_path_owner"
    /// A foreground delivery routed from `willPresent`, racing the tap path.
    case foreground
    /// A content-available push handled by the background callback.
    case contentAvailable = "content_available"
    /// A second registration of the same handler (re-initialisation, hot reload).
    case secondListener = "second_listener"
    /// The same content sent to a second device token (reinstall, token refresh).
    case secondToken = "second_token"
    /// The same message delivered again by a second channel (polling next to push).
    case secondChannel = "second_channel"
    /// The launch notification an SDK returns again after a relaunch (`getInitialNotification`).
    case initialNotification = "initial_notification"

    /// Every label, indexed by `rawValue` position: the ``Workload/sources`` of generated workloads.
    package static let labels: [String] = allCases.map(\.rawValue)

    /// The case's index in ``labels``.
    var index: UInt16 {
        switch self {
        case .tap: 0
        case .coldLaunch: 1
        case .pendingRoute: 2
        case .readyCallback: 3
        case .button: 4
        case .asyncCompletion: 5
        case .retap: 6
        case .secondPathOwner: 7
        case .foreground: 8
        case .contentAvailable: 9
        case .secondListener: 10
        case .secondToken: 11
        case .secondChannel: 12
        case .initialNotification: 13
        }
    }
}
