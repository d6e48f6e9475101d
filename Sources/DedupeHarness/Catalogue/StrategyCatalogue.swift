import DedupeWorkloads
@_spi(Bench) import PushDedupe

/// The strategies a run can select, by stable id.
///
/// ``standard`` registers the `PushDedupe` library; tests build their own catalogue of toy
/// conformers and pass it in ``RunPlan/strategies``. The real types are registered in
/// `StrategyCatalogue+Standard.swift`, one line per type.
package struct StrategyCatalogue: Sendable {
    package var windows: [WindowEntry]
    package var consumedSets: [ConsumedSetEntry]
    /// Whole pipelines a team registered (``DedupePipeline``), run in the two-layer modes.
    package var pipelines: [PipelineEntry]

    /// A catalogue of `windows`, `consumedSets` and whole `pipelines`. Window × set pairs are
    /// assembled from the erased types when a run starts; ``standard`` also pre-builds
    /// specialized ones.
    package init(windows: [WindowEntry], consumedSets: [ConsumedSetEntry], pipelines: [PipelineEntry] = []) {
        self.windows = windows
        self.consumedSets = consumedSets
        self.pipelines = pipelines
    }

    /// The reference window every window row is compared with (the published code).
    package static let referenceWindowID = PublishedLiteralWindow.strategyID
    /// The reference consumed set every consumed-set row is compared with (the published code).
    package static let referenceConsumedSetID = UnboundedSet.strategyID
    /// The window every consumed set is paired with outside the cross product and in the
    /// consumed-set sweeps: the exact window with O(1) admits.
    package static let companionWindowID = HashDequeWindow.strategyID

    /// The window registered as `id`, or `nil`.
    package func window(_ id: String) -> WindowEntry? { windows.first { $0.id == id } }

    /// The consumed set registered as `id`, or `nil`.
    package func consumedSet(_ id: String) -> ConsumedSetEntry? { consumedSets.first { $0.id == id } }

    /// The case running `window` and `consumed` in `mode` with `parameters`, its consumed set
    /// persisting across relaunches as `persistence` says. It is named by the entries' ids.
    func makeCase(
        window: WindowEntry?, consumed: ConsumedSetEntry?, mode: CaseMode, parameters: CaseParameters,
        persistence: Persistence = .memory
    ) -> _AnyCase {
        // A layer the mode does not use is the no-op stand-in, whatever the caller passed: the
        // specialized loops of a mode exist only for that pairing (`_ConcreteCase.builds`).
        var made: _AnyCase
        switch (mode.usesWindow ? window : nil, mode.usesConsumedSet ? consumed : nil) {
        case let (window?, consumed?):
            if let specialized = window._specializedPairs[consumed.strategyID] {
                made = specialized(mode, parameters, persistence)
            } else {
                made = window._pair(consumed.type, mode, parameters, persistence)
            }
        case let (window?, nil):
            made = window._alone(mode, parameters)
        case let (nil, consumed?):
            made = consumed._alone(mode, parameters, persistence)
        case (nil, nil):
            made = _AnyCase(_NoOpWindow.self, _NoOpConsumedSet.self, mode: mode, parameters: parameters)
        }
        if mode.usesWindow { made.windowID = window?.id }
        if mode.usesConsumedSet { made.consumedID = consumed?.id }
        return made
    }
}

/// A registered layer-1 strategy: its id, a one-line summary, its type, the parameters it reads,
/// its guarantee and default parameters.
package struct WindowEntry: Sendable {
    package var id: String
    package var summary: String
    package var type: any FingerprintWindow.Type
    /// The configuration values the window reads, declared at registration.
    package var reads: [StrategyParameter]
    /// What the window promises by construction (its type's declaration).
    package var guarantee: Guarantee
    /// A live-entry capacity pinned by the registration; `nil` (the standard catalogue) sizes it
    /// from the device profile. The window length comes from the plan.
    package var defaultCapacity: Int?
    let _pair: @Sendable (any ConsumedSet.Type, CaseMode, CaseParameters, Persistence) -> _AnyCase
    /// The window on its own, built where `W` is concrete so its loop is specialized (opening
    /// `_NoOpConsumedSet` through `_pair` would not be).
    let _alone: @Sendable (CaseMode, CaseParameters) -> _AnyCase
    var _specializedPairs: [String: @Sendable (CaseMode, CaseParameters, Persistence) -> _AnyCase] = [:]

    package init<W: FingerprintWindow>(_ type: W.Type, reads: [StrategyParameter], summary: String, defaultCapacity: Int? = nil) {
        self.id = W.strategyID
        self.summary = summary
        self.type = type
        self.reads = reads
        self.guarantee = W.guarantee
        self.defaultCapacity = defaultCapacity
        _pair = { consumedType, mode, parameters, persistence in
            func open<C: ConsumedSet>(_: C.Type) -> _AnyCase {
                _AnyCase(W.self, C.self, mode: mode, parameters: parameters, persistence: persistence)
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
package struct ConsumedSetEntry: Sendable {
    /// The entry's id: the type's `strategyID`, or, for a type registered at several pinned
    /// configurations, the id with its constant (`recent-ids-10`), so every entry has its own.
    package var id: String
    /// The type's `strategyID` (what its snapshots name).
    package var strategyID: String
    package var summary: String
    package var type: any ConsumedSet.Type
    /// The configuration values the set reads, declared at registration.
    package var reads: [StrategyParameter]
    /// What the set promises by construction (its type's declaration).
    package var guarantee: Guarantee
    /// A configuration pinned by the registration; `nil` (the standard catalogue) sizes the set
    /// from the device profile.
    package var defaultConfiguration: ConsumedSetConfiguration?
    /// Whether the type answers false positives (conforms to `ProbabilisticConsumedSet`).
    package var isProbabilistic: Bool
    /// Whether the sweeps may vary its capacity; `false` for a set registered at the constants an
    /// SDK ships (`recent-ids` at 10 and 100), whose rows mean those constants.
    package var isSwept: Bool = true
    /// Whether the type can snapshot and restore (conforms to `SnapshottableConsumedSet`), so it
    /// gets `after-every-consume` persistence rows on workloads with relaunches.
    package var isSnapshottable: Bool
    let _alone: @Sendable (CaseMode, CaseParameters, Persistence) -> _AnyCase

    package init<C: ConsumedSet>(
        _ type: C.Type, id: String? = nil, reads: [StrategyParameter], summary: String,
        defaultConfiguration: ConsumedSetConfiguration? = nil
    ) {
        self.id = id ?? C.strategyID
        self.strategyID = C.strategyID
        self.summary = summary
        self.type = type
        self.reads = reads
        self.guarantee = C.guarantee
        self.defaultConfiguration = defaultConfiguration
        self.isProbabilistic = type is any ProbabilisticConsumedSet.Type
        self.isSnapshottable = type is any SnapshottableConsumedSet.Type
        _alone = { mode, parameters, persistence in
            _AnyCase(_NoOpWindow.self, C.self, mode: mode, parameters: parameters, persistence: persistence)
        }
    }
}

/// A static list of consumed-set types, walked with a visitor so that generic code sees each
/// type concretely (the library's ``StrategyRegistry`` for the standard catalogue).
protocol _ConsumedSetList {
    static func visit<V: ConsumedSetRegistryVisitor>(_ visitor: inout V)
}

/// Collects the entries of a `_ConsumedSetList`. A set pinned at an SDK's constants is not swept.
struct _EntryCollector: ConsumedSetRegistryVisitor {
    var entries: [ConsumedSetEntry] = []

    mutating func visit<C: ConsumedSet>(
        _ type: C.Type, id: String?, reads: [ConfigurationParameter], summary: String, pinned: ConsumedSetConfiguration?
    ) {
        var entry = ConsumedSetEntry(type, id: id, reads: reads, summary: summary, defaultConfiguration: pinned)
        entry.isSwept = pinned == nil
        entries.append(entry)
    }
}

/// Builds specialized pipeline cases of window `W` with every set of a `_ConsumedSetList`.
struct _PairCollector<W: FingerprintWindow>: ConsumedSetRegistryVisitor {
    var pairs: [String: @Sendable (CaseMode, CaseParameters, Persistence) -> _AnyCase] = [:]

    mutating func visit<C: ConsumedSet>(
        _ type: C.Type, id: String?, reads: [ConfigurationParameter], summary: String, pinned: ConsumedSetConfiguration?
    ) {
        pairs[C.strategyID] = { mode, parameters, persistence in
            _AnyCase(W.self, C.self, mode: mode, parameters: parameters, persistence: persistence)
        }
    }
}

extension StrategyCatalogue {
    /// Strategy ids older results files spell for a strategy since renamed; read as the current
    /// id, never written.
    package static let formerIDs = ["seed-literal": "published-literal"]

    /// `id` with every former strategy id among its strategies spelled as the current one.
    package static func currentCaseID(_ id: String) -> String {
        var parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for index in parts.indices {
            for (former, current) in formerIDs {
                let text = parts[index]
                if text == former || text.hasPrefix(former + "(") || text.hasPrefix(former + "+") || text.contains("+" + former) {
                    parts[index] = text.replacingOccurrences(of: former, with: current)
                }
            }
        }
        return parts.joined(separator: "/")
    }
}
