import PushDedupe
import Testing

/// Async work that waits until the test releases it, so the test decides every interleaving; it
/// notes whether each task had been cancelled when it was let go.
@MainActor
final class WorkGate {
    private var waiting: [(name: String, continuation: CheckedContinuation<Void, any Error>)] = []
    private(set) var cancelledAtRelease: [String] = []

    var pending: [String] { waiting.map(\.name) }

    func wait(_ name: String) async throws {
        try await withCheckedThrowingContinuation { waiting.append((name, $0)) }
        if Task.isCancelled { cancelledAtRelease.append(name) }
    }

    /// Lets the oldest waiting work named `name` go, or throw `error`.
    func release(_ name: String, throwing error: (any Error)? = nil) {
        guard let index = waiting.firstIndex(where: { $0.name == name }) else {
            Issue.record("no work named \(name) is waiting")
            return
        }
        let continuation = waiting.remove(at: index).continuation
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}

/// A ledger that reserves in memory and writes on commit, as the deduplicator will once it can.
@MainActor
final class ReservingLedger: RouteConsumeLedger {
    private(set) var reserved: Set<EnvelopeID> = []
    private(set) var committed: [EnvelopeID] = []

    func reservePayload(fingerprint: String, pushID: String) -> RoutingDecision {
        reserveEmit(pushID: pushID)
    }

    func reserveEmit(pushID: String) -> RoutingDecision {
        reserved.insert(EnvelopeID(token: pushID)).inserted ? .navigated : .suppressedByConsumedSet
    }

    func commit(_ envelope: EnvelopeID) {
        committed.append(envelope)
    }
}

struct CheckoutFailed: Error {}

/// The shell with real `Task`s: no sleeps, every wait is for a continuation the test resumes.
@MainActor @Suite struct NavigationRouterTests {
    /// Yields until `condition` holds; fails after a bound rather than hang.
    static func settle(_ condition: () -> Bool, _ comment: Comment = "") async {
        for _ in 0..<10_000 where !condition() { await Task.yield() }
        #expect(condition(), comment)
    }

    @Test func aDoubleTapDuringASlowActionPushesOnce() async {
        let gate = WorkGate()
        let router = NavigationRouter<String, _>(ledger: ReservingLedger())
        let checkout: @MainActor () async throws -> Void = {
            try await gate.wait("checkout")
            router.push("receipt:7")
        }
        let first = router.run(action: "checkout", operation: checkout)
        #expect(first != nil && router.isBusy("checkout"))
        await Self.settle { gate.pending == ["checkout"] }
        #expect(router.run(action: "checkout", operation: checkout) == nil, "the second tap runs nothing")
        gate.release("checkout")
        await first?.value
        #expect(router.path == ["receipt:7"])
        #expect(!router.isBusy("checkout"))
        #expect(router.ignored == [.inFlightAction: 1])
    }

    @Test func theLoadingGuardResetsOnAThrowAndOnACancellation() async {
        let gate = WorkGate()
        let router = NavigationRouter<String, _>(ledger: ReservingLedger())
        let failing = router.run(action: "checkout") { try await gate.wait("checkout") }
        await Self.settle { gate.pending == ["checkout"] }
        gate.release("checkout", throwing: CheckoutFailed())
        await failing?.value
        #expect(!router.isBusy("checkout"), "a throw ends the action")
        let cancelled = router.run(action: "checkout") { try await gate.wait("checkout") }
        await Self.settle { gate.pending == ["checkout"] }
        cancelled?.cancel()
        gate.release("checkout", throwing: CancellationError())
        await cancelled?.value
        #expect(!router.isBusy("checkout"), "a cancellation ends the action")
    }

    @Test func aPushDuringAFetchCancelsItAndShowsTheNewRouteOnce() async {
        let gate = WorkGate()
        let ledger = ReservingLedger()
        let router = NavigationRouter<String, _>(ledger: ledger) { route in try await gate.wait(route) }
        router.receivePayload("item:1", pushID: "msg-1")
        await Self.settle { gate.pending == ["item:1"] }
        router.receivePayload("item:2", pushID: "msg-2")
        await Self.settle { gate.pending == ["item:1", "item:2"] }
        #expect(ledger.committed == [EnvelopeID(token: "msg-1")], "the superseded envelope is committed")
        // The old fetch returns as if it had not seen the cancel: the router still drops it.
        gate.release("item:1")
        gate.release("item:2")
        // Both tasks resume in either order: wait for the cancelled one too, not only the path.
        await Self.settle { router.path == ["item:2"] && gate.cancelledAtRelease == ["item:1"] }
        #expect(gate.cancelledAtRelease == ["item:1"])
        #expect(ledger.committed == [EnvelopeID(token: "msg-1"), EnvelopeID(token: "msg-2")])
        #expect(router.path == ["item:2"])
    }

    @Test func aFailedFetchShowsNothingAndCommits() async {
        let gate = WorkGate()
        let ledger = ReservingLedger()
        let router = NavigationRouter<String, _>(ledger: ledger) { route in try await gate.wait(route) }
        router.receivePayload("item:1", pushID: "msg-1")
        await Self.settle { gate.pending == ["item:1"] }
        gate.release("item:1", throwing: CheckoutFailed())
        await Self.settle { ledger.committed == [EnvelopeID(token: "msg-1")] }
        #expect(router.path.isEmpty)
    }

    /// Through the real deduplicator: the pending route replays the envelope after it showed,
    /// and the cold-launch copy of the tap arrives 3 ms later, inside the window.
    @Test func aReplayedEnvelopeIsIgnored() async {
        let clock = ManualClock()
        let router = NavigationRouter<String, _>(ledger: MainActorDeduplicator.recommended(clock: .manual(clock)))
        router.receivePayload("item:1", pushID: "msg-1")
        clock.advance(by: .milliseconds(3))
        router.receivePayload("item:1", pushID: "msg-1")
        await Self.settle { router.path == ["item:1"] }
        clock.advance(by: .seconds(5))
        router.receiveEmit("item:1", pushID: "msg-1")
        #expect(router.ignored == [.windowDuplicate: 1, .consumedEnvelope: 1])
        #expect(router.path == ["item:1"])
    }

    @Test func aBackSwipeThenTheSameRouteIsAllowed() {
        let router = NavigationRouter<String, _>(ledger: ReservingLedger())
        router.push("profile")
        router.push("profile")
        #expect(router.path == ["profile"])
        router.userChangedPath(to: [])
        router.push("profile")
        #expect(router.path == ["profile"])
        #expect(router.ignored == [.duplicateOnTop: 1])
    }

    /// The deduplicator as a ledger reserves at receipt and writes at the commit: a launch that
    /// begins while the route's fetch runs (the first process killed mid-fetch) navigates the
    /// replay, so the tap is not lost; once the route is shown, the next launch drops it.
    @Test func theDeduplicatorLedgerWritesWhenTheRouteIsShown() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = DedupeStore.journal(directory.file("consumed-routes.pdcs"))
        let gate = WorkGate()
        let first = NavigationRouter<String, _>(ledger: MainActorDeduplicator.recommended(store: store)) { route in
            try await gate.wait(route)
        }
        first.receivePayload("item:1", pushID: "msg-1")
        await Self.settle { gate.pending == ["item:1"] }
        // A reserve decides without writing, so this probe leaves the store as the kill would.
        let relaunchedMidFetch = MainActorDeduplicator.recommended(store: store)
        #expect(relaunchedMidFetch.reserveEmit(pushID: "msg-1") == .navigated, "the tap whose screen never showed is not lost")
        gate.release("item:1")
        await Self.settle { first.path == ["item:1"] }
        let relaunched = NavigationRouter<String, _>(ledger: MainActorDeduplicator.recommended(store: store))
        relaunched.receiveEmit("item:1", pushID: "msg-1")
        #expect(relaunched.ignored == [.consumedEnvelope: 1], "shown, then committed: the replay is dropped")
    }
}
