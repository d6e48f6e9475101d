import PushDedupe

/// Every window in this module, as a `Sendable` test argument.
enum WindowKind: CaseIterable, Sendable, CustomStringConvertible {
    case seedLiteral, arrayScan, hashDeque, ringBuffer, epochSets, directMapped

    /// The windows whose answers equal an unbounded exact model, whatever their capacity.
    static let unboundedExact: [WindowKind] = [.seedLiteral, .arrayScan, .hashDeque]

    var type: any FingerprintWindow.Type {
        switch self {
        case .seedLiteral: SeedLiteralWindow.self
        case .arrayScan: ArrayScanWindow.self
        case .hashDeque: HashDequeWindow.self
        case .ringBuffer: RingBufferWindow.self
        case .epochSets: EpochSetsWindow.self
        case .directMapped: DirectMappedWindow.self
        }
    }

    var description: String { type.strategyID }
}

/// `window.admit(fingerprint, at: time)` as a free function, because `#expect` cannot expand a
/// mutating method call.
func admit<W: FingerprintWindow>(_ window: inout W, _ fingerprint: RouteFingerprint, at time: Timestamp) -> Bool {
    window.admit(fingerprint, at: time)
}
