import DedupeHarness

extension CaseResult {
    /// Identifies a case across two result files, for `compare`.
    public var key: CaseKey {
        CaseKey(workload: workload, mode: mode, window: window, consumed: consumed, parameters: parameters,
                persistence: isSnapshotPersistence ? CasePersistence.snapshot.rawValue : nil)
    }

    /// The parameters the strategies of this case read, as they declared them at registration:
    /// `window 500 ms, capacity 64`.
    var parameterSummary: String {
        StrategyParameter.summary(
            (window != nil ? windowReads ?? [] : []) + (consumed != nil ? consumedReads ?? [] : []), parameters)
    }

    /// `exact + exact-forgets-oldest`: the declared guarantee of each layer the case uses.
    var guaranteeSummary: String { GuaranteeRecord.summary(windowGuarantee, consumedGuarantee) }
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
        CaseLabel.text(
            workload: workload, mode: mode, window: window, consumed: consumed, parameters: parameters,
            snapshot: persistence == CasePersistence.snapshot.rawValue)
    }
}

/// The ids and modes the reports treat specially, as the harness defines them.
public enum ReferenceStrategies {
    /// The published article's window.
    public static let window = StrategyCatalogue.referenceWindowID
    /// The published article's consumed set.
    public static let consumed = StrategyCatalogue.referenceConsumedSetID
    /// The published design's mode.
    public static let mode = CaseMode.twoLayer.rawValue
    /// A layer measured on its own.
    public static let windowAloneMode = CaseMode.windowAlone.rawValue
    public static let consumedAloneMode = CaseMode.consumedAlone.rawValue
}

extension StrategyParameter {
    /// `window 500 ms, capacity 64`: the values of `reads` in `parameters`, in declaration order.
    static func summary(_ reads: [StrategyParameter], _ parameters: CaseParameters) -> String {
        reads.map { $0.text(parameters) }.joined(separator: ", ")
    }
}

extension GuaranteeRecord {
    /// `exact + exact-forgets-oldest`: the guarantee of each layer that has one.
    static func summary(_ window: GuaranteeRecord?, _ consumed: GuaranteeRecord?) -> String {
        [window, consumed].compactMap { $0?.text }.joined(separator: " + ")
    }
}
