import DedupeHarness

extension CaseResult {
    /// `hash-deque+set`, `ring-buffer`, `recent-ids (N = 10)`, or `set`: the strategies this case
    /// ran, an SDK set with the constant it ran at, and `[snapshot]` when its state was restored
    /// at each relaunch.
    public var strategyLabel: String {
        let consumed = consumed.map { SDKConstants.label($0, parameters) }
        let label: String
        switch (window, consumed) {
        case let (window?, consumed?): label = "\(window)+\(consumed)"
        case let (window?, nil): label = window
        case let (nil, consumed?): label = consumed
        case (nil, nil): label = "none"
        }
        return isSnapshotPersistence ? label + " [snapshot]" : label
    }

    /// Whether the consumed set was restored from a snapshot at each relaunch (otherwise its
    /// state was lost, or there was no relaunch).
    public var isSnapshotPersistence: Bool { persistence == CasePersistence.snapshot.rawValue }

    /// Identifies a case across two result files, for `compare`.
    public var key: CaseKey {
        CaseKey(workload: workload, mode: mode, window: window, consumed: consumed, parameters: parameters,
                persistence: isSnapshotPersistence ? CasePersistence.snapshot.rawValue : nil)
    }

    /// The parameters the strategies of this case read, as they declared them at registration:
    /// `window 500 ms, capacity 64`.
    var parameterSummary: String {
        let reads = (window != nil ? windowReads ?? [] : []) + (consumed != nil ? consumedReads ?? [] : [])
        return reads.map { $0.text(parameters) }.joined(separator: ", ")
    }

    /// `exact + exact-forgets-oldest`: the declared guarantee of each layer the case uses.
    var guaranteeSummary: String {
        [windowGuarantee, consumedGuarantee].compactMap { $0?.text }.joined(separator: " + ")
    }
}

/// The identity of a case: everything but its measurements.
public struct CaseKey: Hashable, Sendable, CustomStringConvertible {
    public var workload: String
    public var mode: String
    public var window: String?
    public var consumed: String?
    public var parameters: CaseParameters
    /// `snapshot` for a case restored at relaunches; `nil` otherwise.
    public var persistence: String? = nil

    /// `marketing-burst two-layer hash-deque+recent-ids (N = 10)`: an SDK set with its constant,
    /// so its two rows read apart.
    public var description: String {
        let strategies = [window, consumed.map { SDKConstants.label($0, parameters) }].compactMap { $0 }.joined(separator: "+")
        return "\(workload) \(mode) \(strategies.isEmpty ? "none" : strategies)" + (persistence.map { " [\($0)]" } ?? "")
    }
}

/// The constants the SDK-style consumed sets were registered at, which are their rows'
/// identity: `recent-ids` runs at N = 10 and at N = 100.
enum SDKConstants {
    /// `N = 10`, `T = 5 s`, `one slot`, or `nil` for a set that is not an SDK pattern.
    static func constant(_ consumed: String, _ parameters: CaseParameters) -> String? {
        switch consumed {
        case "last-id": "one slot"
        case "recent-ids": "N = \(parameters.consumedCapacity)"
        case "id-time-map": "T = \(NumberText.significant(parameters.retentionMilliseconds / 1000)) s"
        default: nil
        }
    }

    /// `recent-ids (N = 10)`, or the id unchanged.
    static func label(_ consumed: String, _ parameters: CaseParameters) -> String {
        constant(consumed, parameters).map { "\(consumed) (\($0))" } ?? consumed
    }
}

/// The ids the reports treat specially.
public enum ReferenceStrategies {
    /// The published article's window.
    public static let window = "seed-literal"
    /// The published article's consumed set.
    public static let consumed = "set"
    /// The published design's mode.
    public static let mode = "two-layer"
    /// A layer measured on its own.
    public static let windowAloneMode = "window-alone"
    public static let consumedAloneMode = "consumed-alone"
}
