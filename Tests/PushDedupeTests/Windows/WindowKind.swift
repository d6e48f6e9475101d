@_spi(Bench) import PushDedupe

/// A registered window, as a `Sendable` test argument. `allCases` reads `StrategyRegistry`, so a
/// new window runs in every suite over all windows without an edit here; the named ones are for
/// edge cases that hold only for some.
struct WindowKind: Sendable, Equatable, CustomStringConvertible {
    let type: any FingerprintWindow.Type

    static var allCases: [WindowKind] {
        struct Collect: WindowRegistryVisitor {
            var kinds: [WindowKind] = []
            mutating func visit<W: FingerprintWindow>(_ type: W.Type, reads: [ConfigurationParameter], summary: String) {
                kinds.append(WindowKind(type: type))
            }
        }
        var collect = Collect()
        StrategyRegistry.visitWindows(&collect)
        return collect.kinds
    }

    /// The windows whose answers equal an unbounded exact model, whatever their capacity: those
    /// that declare the `exact` guarantee.
    static var unboundedExact: [WindowKind] { allCases.filter { $0.type.guarantee == .exact } }

    static let publishedLiteral = WindowKind(type: PublishedLiteralWindow.self)
    static let hashDeque = WindowKind(type: HashDequeWindow.self)
    static let ringBuffer = WindowKind(type: RingBufferWindow.self)
    static let epochSets = WindowKind(type: EpochSetsWindow.self)
    static let directMapped = WindowKind(type: DirectMappedWindow.self)

    static func == (lhs: WindowKind, rhs: WindowKind) -> Bool { lhs.type.strategyID == rhs.type.strategyID }

    var description: String { type.strategyID }
}

/// A window's contract, declared beside its own conformance test (`extension MyWindow:
/// ModelledWindow`), never in a shared list. `WindowConformanceTests` checks every registered
/// window against the contract it declares, and fails naming a window that declares none.
protocol ModelledWindow: FingerprintWindow {
    static func contract(_ configuration: WindowConfiguration) -> WindowContract
}

/// `window.admit(fingerprint, at: time)` as a free function, because `#expect` cannot expand a
/// mutating method call.
func admit<W: FingerprintWindow>(_ window: inout W, _ fingerprint: RouteFingerprint, at time: Timestamp) -> Bool {
    window.admit(fingerprint, at: time)
}
