import DedupeHarness

extension CaseResult {
    /// `hash-deque+set`, `ring-buffer`, or `set`: the strategies this case ran.
    public var strategyLabel: String {
        switch (window, consumed) {
        case let (window?, consumed?): return "\(window)+\(consumed)"
        case let (window?, nil): return window
        case let (nil, consumed?): return consumed
        case (nil, nil): return "none"
        }
    }

    /// Identifies a case across two result files, for `compare`.
    public var key: CaseKey {
        CaseKey(workload: workload, mode: mode, window: window, consumed: consumed, parameters: parameters)
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

    public var description: String {
        let strategies = [window, consumed].compactMap { $0 }.joined(separator: "+")
        return "\(workload) \(mode) \(strategies.isEmpty ? "none" : strategies)"
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
