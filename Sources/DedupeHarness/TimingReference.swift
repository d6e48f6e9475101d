import DedupeMeasurement

/// What each timed case's ratios are against (`--reference`): the case of the same mode on the
/// same workload that runs the reference strategies, at `minted` identity and `memory`
/// persistence, timed in the same fork and repetition. Timing only: correctness, matched errors
/// and error causes are always against the published code (``CaseResult/isReference``).
///
/// ```swift
/// plan.timingReference = .strategies(window: "hash-deque", consumed: nil)  // hash-deque / set
/// plan.timingReference = .none                                             // no ratios
/// ```
package enum TimingReference: Sendable, Equatable {
    /// The published code: `published-literal` for windows, `set` for consumed sets.
    case published
    /// Other exact strategies, by catalogue id; a layer given no id keeps the published one.
    case strategies(window: String?, consumed: String?)
    /// No timing reference: no ratios, and the published strategies are timed only if selected.
    case none

    /// The reference of `text`: `published`, `none`, or `window=ID`, `consumed=ID` or both,
    /// comma-separated, an ID spelled as catalogue ids are (lowercase letters, digits, `-`); `nil`
    /// for anything else, so a mistyped separator is a syntax error, not an unknown strategy.
    package init?(text: String) {
        switch text {
        case "published": self = .published
        case "none": self = .none
        default:
            var window: String?
            var consumed: String?
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2, !pair[1].isEmpty,
                      pair[1].allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else { return nil }
                switch pair[0] {
                case "window" where window == nil: window = String(pair[1])
                case "consumed" where consumed == nil: consumed = String(pair[1])
                default: return nil
                }
            }
            self = .strategies(window: window, consumed: consumed)
        }
    }

    /// The text form (``init(text:)``), as `RunSettings.timingReference` records it: `nil` for
    /// the published code, so runs before `--reference` read the same.
    package var text: String? {
        switch self {
        case .published: return nil
        case .none: return "none"
        case let .strategies(window, consumed):
            return [window.map { "window=\($0)" }, consumed.map { "consumed=\($0)" }].compactMap { $0 }.joined(separator: ",")
        }
    }

    /// The reference strategies of `mode` (only the layers it uses), or `nil` for ``none``.
    package func ids(_ mode: CaseMode) -> (window: String?, consumed: String?)? {
        let (window, consumed): (String?, String?)
        switch self {
        case .none: return nil
        case .published: (window, consumed) = (nil, nil)
        case let .strategies(chosenWindow, chosenConsumed): (window, consumed) = (chosenWindow, chosenConsumed)
        }
        return (mode.usesWindow ? window ?? StrategyCatalogue.referenceWindowID : nil,
                mode.usesConsumedSet ? consumed ?? StrategyCatalogue.referenceConsumedSetID : nil)
    }

    /// Which strategies the ratios of a report are against, for a sentence: "the published code
    /// (`published-literal` / `set`)", "`hash-deque` / `set`", or "no reference".
    package var phrase: String {
        switch self {
        case .published: return "the published code (`published-literal` / `set`)"
        case .none: return "no reference (`--reference none`)"
        case .strategies:
            let ids = ids(.twoLayer)!
            return "`\(ids.window!)` / `\(ids.consumed!)` (`--reference`)"
        }
    }

    /// Checks that every id names an exact strategy of `catalogue`.
    ///
    /// - Throws: `MeasurementError.invalidPlan` naming an unknown id or one whose guarantee is not
    ///   exact (its ratios would compare against a strategy that errs).
    package func validate(in catalogue: StrategyCatalogue) throws(MeasurementError) {
        guard case let .strategies(window, consumed) = self else { return }
        if let window {
            guard let entry = catalogue.window(window) else { throw .invalidPlan("the timing reference names no window '\(window)'") }
            guard entry.guarantee.guaranteeClass == .exact else {
                throw .invalidPlan("the timing reference must be exact; window '\(window)' is \(entry.guarantee)")
            }
        }
        if let consumed {
            guard let entry = catalogue.consumedSet(consumed) else {
                throw .invalidPlan("the timing reference names no consumed set '\(consumed)'")
            }
            guard entry.guarantee.guaranteeClass == .exact else {
                throw .invalidPlan("the timing reference must be exact; consumed set '\(consumed)' is \(entry.guarantee)")
            }
        }
    }
}

extension RunSettings {
    /// The timing reference the run recorded (`timingReference`); the published code when absent.
    package var reference: TimingReference {
        timingReference.flatMap(TimingReference.init(text:)) ?? .published
    }
}

extension CaseResult {
    /// Whether the case is its mode's timing reference under `reference`: the reference
    /// strategies at the published code's identity and persistence.
    package func isTimingReference(_ reference: TimingReference) -> Bool {
        guard let ids = reference.ids(mode) else { return false }
        return window == ids.window && consumed == ids.consumed && choice.isBase
    }
}
