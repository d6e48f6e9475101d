@testable import DedupeBench
@testable import DedupeHarness
import PushDedupe
import Testing

/// A team's window, registered beside the library's.
struct TeamWindow: FingerprintWindow {
    static let strategyID = "team-window"
    static let guarantee = Guarantee.exact
    let window: Duration
    var last: [UInt64: Int64] = [:]
    init(configuration: WindowConfiguration) throws(ConfigurationError) { window = configuration.window }
    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool {
        if let seen = last[fingerprint.rawValue], now.nanoseconds - seen <= window.wholeNanoseconds { return false }
        last[fingerprint.rawValue] = now.nanoseconds
        return true
    }
    var count: Int { last.count }
    var footprint: Int { 0 }
    var evictions: Int { 0 }
}

/// A team's type that took an id the library has.
struct HashDequeImpostor: FingerprintWindow {
    static let strategyID = HashDequeWindow.strategyID
    static let guarantee = Guarantee.exact
    let window: Duration
    init(configuration: WindowConfiguration) throws(ConfigurationError) { window = configuration.window }
    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool { true }
    var count: Int { 0 }
    var footprint: Int { 0 }
    var evictions: Int { 0 }
}

@Suite struct BenchRegistrationTests {
    @Test func aTeamsStrategiesFollowTheLibrarysInTheirOwnLists() throws {
        let catalogue = try StrategyCatalogue.standard(adding: [
            .window(TeamWindow.self, reads: [.windowLength], summary: "the team's window"),
        ])
        #expect(catalogue.windows.map(\.id) == StrategyCatalogue.standard.windows.map(\.id) + ["team-window"])
        #expect(catalogue.consumedSets.map(\.id) == StrategyCatalogue.standard.consumedSets.map(\.id))
        let entry = try #require(catalogue.window("team-window"))
        #expect(entry.reads == [.windowLength] && entry.guarantee == .exact)
    }

    @Test func anIDTakenOrUnfitForACaseIDIsRefused() {
        #expect(throws: BenchRegistrationError.self) {
            try StrategyCatalogue.standard(adding: [.window(HashDequeImpostor.self, reads: [], summary: "")])
        }
        #expect(throws: BenchRegistrationError.self) {
            try StrategyCatalogue.standard(adding: [
                .window(TeamWindow.self, reads: [], summary: ""), .window(TeamWindow.self, reads: [], summary: ""),
            ])
        }
        // Refused before anything runs, with exit code 2.
        #expect(DedupeBench.runInProcess(["list"], adding: [.window(HashDequeImpostor.self, reads: [], summary: "")]) == 2)
    }
}
