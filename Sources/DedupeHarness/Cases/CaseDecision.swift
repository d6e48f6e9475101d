/// What a case did with one event, as written by the measured loops (one byte per event).
package enum CaseDecision: UInt8, Sendable, CaseIterable {
    /// Reached navigation (pushed on the path).
    case navigated = 0
    /// Layer 1 dropped it.
    case suppressedByWindow = 1
    /// Layer 2 dropped it.
    case suppressedByConsumedSet = 2
    /// The `path.last != route` guard dropped it.
    case suppressedByGuard = 3
    /// An emit of an envelope that was never created, because the strategy under test suppressed
    /// its payload.
    case skippedEmit = 4
    /// Not an input of the mode (an emit in `window-alone`).
    case notApplicable = 5
    /// The loading guard ignored the tap behind an async completion, so it never came.
    case suppressedByLoadingGuard = 6
}

extension CaseDecision {
    /// Whether the decision loses a wanted event: the window, the set and the loading guard
    /// drop it. The top-of-stack guard drops only a screen the user already has, and a skipped
    /// emit's payload was scored already, so neither loses anything.
    package var dropsTheEvent: Bool {
        self == .suppressedByWindow || self == .suppressedByConsumedSet || self == .suppressedByLoadingGuard
    }

    /// The `decision` column of a decisions file: `navigated`, `window`, `consumed`, `guard`,
    /// `loading-guard` or `skipped`; `nil` for an event the mode does not take as input.
    package var label: String? {
        switch self {
        case .navigated: return "navigated"
        case .suppressedByWindow: return "window"
        case .suppressedByConsumedSet: return "consumed"
        case .suppressedByGuard: return "guard"
        case .suppressedByLoadingGuard: return "loading-guard"
        case .skippedEmit: return "skipped"
        case .notApplicable: return nil
        }
    }
}
