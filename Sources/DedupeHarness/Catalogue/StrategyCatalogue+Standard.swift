@_spi(Bench) import PushDedupe

extension StrategyCatalogue {
    /// Every strategy of the `PushDedupe` library, in report order, references first: the
    /// library's ``StrategyRegistry``, each window paired with every set in pre-specialized
    /// pipelines. Nothing is registered here; a new strategy is one line in the registry.
    package static let standard: StrategyCatalogue = {
        var windows = _StandardWindows()
        StrategyRegistry.visitWindows(&windows)
        return StrategyCatalogue(windows: windows.entries, consumedSets: _StandardConsumedSets.entries)
    }()
}

extension StrategyCatalogue {
    /// The strategies this executable runs: what its `main` registered at
    /// ``HarnessChild/runIfRequested(_:catalogue:)`` (the library's and a team's own), else
    /// ``standard``. Plans, `list` and the children resolve ids in it.
    package static var linked: StrategyCatalogue { HarnessChild.registeredCatalogue ?? .standard }
}

/// Collects the library's windows, each with its pipelines with every library set specialized.
struct _StandardWindows: WindowRegistryVisitor {
    var entries: [WindowEntry] = []

    mutating func visit<W: FingerprintWindow>(_ type: W.Type, reads: [ConfigurationParameter], summary: String) {
        entries.append(WindowEntry(type, reads: reads, summary: summary, pairedWith: _StandardConsumedSets.self))
    }
}

/// The library's consumed sets, as the registry lists them.
enum _StandardConsumedSets: _ConsumedSetList {
    static func visit<V: ConsumedSetRegistryVisitor>(_ visitor: inout V) {
        StrategyRegistry.visitConsumedSets(&visitor)
    }

    static var entries: [ConsumedSetEntry] {
        var collector = _EntryCollector()
        visit(&collector)
        return collector.entries
    }
}
