import PushDedupe

/// The strategies a run can select, by stable id.
///
/// ``standard`` registers the `PushDedupe` library; tests build their own catalogue of toy
/// conformers and pass it in ``RunPlan/strategies``. The real types are registered in
/// `StrategyCatalogue+Standard.swift`, one line per type.
public struct StrategyCatalogue: Sendable {
    public var windows: [WindowEntry]
    public var consumedSets: [ConsumedSetEntry]

    /// A catalogue of `windows` and `consumedSets`. Their pipelines are assembled from the
    /// erased types when a run starts; ``standard`` also pre-builds specialized ones.
    public init(windows: [WindowEntry], consumedSets: [ConsumedSetEntry]) {
        self.windows = windows
        self.consumedSets = consumedSets
    }

    /// The reference window every window row is compared with (the published code).
    public static let referenceWindowID = "seed-literal"
    /// The reference consumed set every consumed-set row is compared with (the published code).
    public static let referenceConsumedSetID = "set"

    /// The window registered as `id`, or `nil`.
    public func window(_ id: String) -> WindowEntry? { windows.first { $0.id == id } }

    /// The consumed set registered as `id`, or `nil`.
    public func consumedSet(_ id: String) -> ConsumedSetEntry? { consumedSets.first { $0.id == id } }

    /// The case running `window` and `consumed` in `mode` with `parameters`.
    func makeCase(window: WindowEntry?, consumed: ConsumedSetEntry?, mode: CaseMode, parameters: CaseParameters) -> _AnyCase {
        switch (window, consumed) {
        case let (window?, consumed?):
            if let specialized = window._specializedPairs[consumed.id] {
                return specialized(mode, parameters)
            }
            return window._pair(consumed.type, mode, parameters)
        case let (window?, nil):
            return window._alone(mode, parameters)
        case let (nil, consumed?):
            return consumed._alone(mode, parameters)
        case (nil, nil):
            return _AnyCase(_NoOpWindow.self, _NoOpConsumedSet.self, mode: mode, parameters: parameters)
        }
    }
}

/// A registered layer-1 strategy: its id, a one-line summary, its type, the parameters it reads,
/// its guarantee and default parameters.
public struct WindowEntry: Sendable {
    public var id: String
    public var summary: String
    public var type: any FingerprintWindow.Type
    /// The configuration values the window reads, declared at registration.
    public var reads: [StrategyParameter]
    /// What the window promises by construction (its type's declaration).
    public var guarantee: Guarantee
    /// A live-entry capacity pinned by the registration; `nil` (the standard catalogue) sizes it
    /// from the device profile. The window length comes from the plan.
    public var defaultCapacity: Int?
    let _pair: @Sendable (any ConsumedSet.Type, CaseMode, CaseParameters) -> _AnyCase
    /// The window on its own, built where `W` is concrete so its loop is specialized (opening
    /// `_NoOpConsumedSet` through `_pair` would not be).
    let _alone: @Sendable (CaseMode, CaseParameters) -> _AnyCase
    var _specializedPairs: [String: @Sendable (CaseMode, CaseParameters) -> _AnyCase] = [:]

    public init<W: FingerprintWindow>(_ type: W.Type, reads: [StrategyParameter], summary: String, defaultCapacity: Int? = nil) {
        self.id = W.strategyID
        self.summary = summary
        self.type = type
        self.reads = reads
        self.guarantee = W.guarantee
        self.defaultCapacity = defaultCapacity
        _pair = { consumedType, mode, parameters in
            func open<C: ConsumedSet>(_: C.Type) -> _AnyCase {
                _AnyCase(W.self, C.self, mode: mode, parameters: parameters)
            }
            return open(consumedType)
        }
        _alone = { mode, parameters in _AnyCase(W.self, _NoOpConsumedSet.self, mode: mode, parameters: parameters) }
    }

    /// Like `init(_:reads:summary:defaultCapacity:)`, and pre-builds the pipelines with every set
    /// of `list` from a context where both types are concrete, so they are fully specialized.
    init<W: FingerprintWindow, L: _ConsumedSetList>(
        _ type: W.Type, reads: [StrategyParameter], summary: String, defaultCapacity: Int? = nil, pairedWith _: L.Type
    ) {
        self.init(type, reads: reads, summary: summary, defaultCapacity: defaultCapacity)
        var collector = _PairCollector<W>()
        L.visit(&collector)
        _specializedPairs = collector.pairs
    }
}

/// A registered layer-2 strategy: its id, a one-line summary, its type, the parameters it reads,
/// its guarantee and default parameters.
public struct ConsumedSetEntry: Sendable {
    public var id: String
    public var summary: String
    public var type: any ConsumedSet.Type
    /// The configuration values the set reads, declared at registration.
    public var reads: [StrategyParameter]
    /// What the set promises by construction (its type's declaration).
    public var guarantee: Guarantee
    /// A configuration pinned by the registration; `nil` (the standard catalogue) sizes the set
    /// from the device profile.
    public var defaultConfiguration: ConsumedSetConfiguration?
    /// Whether the type answers false positives (conforms to `ProbabilisticConsumedSet`).
    public var isProbabilistic: Bool
    let _alone: @Sendable (CaseMode, CaseParameters) -> _AnyCase

    public init<C: ConsumedSet>(
        _ type: C.Type, reads: [StrategyParameter], summary: String,
        defaultConfiguration: ConsumedSetConfiguration? = nil
    ) {
        self.id = C.strategyID
        self.summary = summary
        self.type = type
        self.reads = reads
        self.guarantee = C.guarantee
        self.defaultConfiguration = defaultConfiguration
        self.isProbabilistic = type is any ProbabilisticConsumedSet.Type
        _alone = { mode, parameters in _AnyCase(_NoOpWindow.self, C.self, mode: mode, parameters: parameters) }
    }
}

/// A static list of consumed-set types, walked with a visitor so that generic code sees each
/// type concretely.
protocol _ConsumedSetList {
    static func visit<V: _ConsumedSetVisitor>(_ visitor: inout V)
}

protocol _ConsumedSetVisitor {
    mutating func visit<C: ConsumedSet>(
        _ type: C.Type, reads: [StrategyParameter], summary: String)
}

/// Collects the entries of a `_ConsumedSetList`.
struct _EntryCollector: _ConsumedSetVisitor {
    var entries: [ConsumedSetEntry] = []

    mutating func visit<C: ConsumedSet>(
        _ type: C.Type, reads: [StrategyParameter], summary: String
    ) {
        entries.append(ConsumedSetEntry(type, reads: reads, summary: summary))
    }
}

/// Builds specialized pipeline cases of window `W` with every set of a `_ConsumedSetList`.
struct _PairCollector<W: FingerprintWindow>: _ConsumedSetVisitor {
    var pairs: [String: @Sendable (CaseMode, CaseParameters) -> _AnyCase] = [:]

    mutating func visit<C: ConsumedSet>(
        _ type: C.Type, reads: [StrategyParameter], summary: String
    ) {
        pairs[C.strategyID] = { mode, parameters in _AnyCase(W.self, C.self, mode: mode, parameters: parameters) }
    }
}
