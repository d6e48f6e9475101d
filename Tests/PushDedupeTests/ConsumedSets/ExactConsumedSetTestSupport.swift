import PushDedupe

/// The `n`th test envelope id, with the fixed UUIDv4 version and variant bits real envelopes carry.
func testEnvelope(_ n: Int) -> EnvelopeID {
    EnvelopeID(high: 0x0000_0000_0000_4000, low: 0x8000_0000_0000_0000 | UInt64(n))
}

/// `milliseconds` after an origin one second in.
func testInstant(_ milliseconds: Int64) -> Timestamp {
    Timestamp(nanoseconds: 1_000_000_000 + milliseconds * 1_000_000)
}

/// The exact consumed sets, for tests that run over each of them.
enum ExactConsumedSetKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case unbounded, leastRecentlyUsed, firstInFirstOut, rotating, directMapped

    var description: String { rawValue }

    /// Whether `capacity` bounds what the set retains (rather than only reserving room).
    var isCapacityBounded: Bool {
        switch self {
        case .leastRecentlyUsed, .firstInFirstOut, .directMapped: true
        case .unbounded, .rotating: false
        }
    }

    var type: any ConsumedSet.Type {
        switch self {
        case .unbounded: UnboundedSet.self
        case .leastRecentlyUsed: BoundedLRU.self
        case .firstInFirstOut: FIFOSet.self
        case .rotating: RotatingSets.self
        case .directMapped: DirectMappedSet.self
        }
    }

    func make(_ configuration: ConsumedSetConfiguration) throws -> any ConsumedSet {
        try type.init(configuration: configuration)
    }
}

extension ConsumedSet {
    /// Consumes `testEnvelope(n)` for each `n` in turn at `milliseconds`, and returns the answers, so
    /// that a test expects a whole sequence at once (`#expect` cannot wrap a mutating call).
    mutating func consume(_ ids: [Int], at milliseconds: Int64) -> [Bool] {
        ids.map { consume(testEnvelope($0), at: testInstant(milliseconds)) }
    }

    /// Consumes `testEnvelope(n)` for each `n` in `ids` at `milliseconds`; returns how many were accepted.
    mutating func acceptedCount(_ ids: Range<Int>, at milliseconds: Int64) -> Int {
        ids.reduce(0) { $0 + (consume(testEnvelope($1), at: testInstant(milliseconds)) ? 1 : 0) }
    }
}
