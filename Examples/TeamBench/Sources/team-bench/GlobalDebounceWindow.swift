import DedupeBench
import Foundation

/// A mistake teams make, kept here on purpose: a debounce of every push, whatever its screen,
/// declared `exact`. A second push for another screen within the window is dropped, a wanted
/// navigation lost, so the bench flags it by name and never recommends it.
struct GlobalDebounceWindow: FingerprintWindow {
    static let strategyID = "global-debounce"
    static let guarantee = Guarantee.exact

    let window: Duration
    private var lastAdmitted: Timestamp?
    private var latest = Timestamp(nanoseconds: .min)

    init(configuration: WindowConfiguration) throws(ConfigurationError) {
        window = configuration.window
    }

    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool {
        latest = max(latest, now)
        if let lastAdmitted, latest.nanoseconds - lastAdmitted.nanoseconds <= window.wholeNanoseconds { return false }
        lastAdmitted = latest
        return true
    }

    var count: Int { lastAdmitted == nil ? 0 : 1 }
    var footprint: Int { MemoryLayout<Timestamp?>.size }
    var evictions: Int { 0 }
}
