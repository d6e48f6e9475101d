/// How a case feeds a workload's events to its strategies. See `Guides/Harness.md` § Modes.
package enum CaseMode: String, Sendable, CaseIterable, Codable {
    /// Layer 1 on its own: every payload is admitted or suppressed by the window; emits are not
    /// layer 1's input: they are left out of timing, so timing is ns per admit.
    case windowAlone = "window-alone"
    /// Layer 2 on its own: every event's envelope is consumed. Timing is ns per consume.
    case consumedAlone = "consumed-alone"
    /// Every event, payload or emit, is checked by the window under its route's fingerprint.
    case fingerprintOnly = "fingerprint-only"
    /// Every payload gets a fresh envelope, and every event is checked by the consumed set.
    case envelopeOnly = "envelope-only"
    /// The published design: payloads go through the window, then (if admitted) the set; emits
    /// go through the set only.
    case twoLayer = "two-layer"
    /// `two-layer` behind the shipped router: its loading guard before the layers for an async
    /// completion's tap, its top-of-stack guard `path.last != route` before appending.
    case twoLayerGuarded = "two-layer-guarded"

    /// The mode whose reference case a case's errors are matched with, when it ran on the same
    /// workload: the router's cases with the published code as it ships (`two-layer`), so that
    /// their matched errors say what adopting the router changes; every other mode with its own.
    package var matchedWith: CaseMode { self == .twoLayerGuarded ? .twoLayer : self }

    /// Whether the mode uses a window.
    package var usesWindow: Bool {
        self != .consumedAlone && self != .envelopeOnly
    }

    /// Whether the mode uses a consumed set.
    package var usesConsumedSet: Bool {
        self != .windowAlone && self != .fingerprintOnly
    }
}
