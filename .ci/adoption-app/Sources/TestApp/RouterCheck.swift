// `TestApp router`: NavigationRouter adopted as README § "Adopt it" prints it,
// driven through the three races it exists for. Every slow call waits at a `Gate` the check opens
// itself, so each race happens in the order written here, whatever the machine's speed.
import Foundation
import PushDedupe

enum AppRoute: Hashable, Sendable, CustomStringConvertible {
    case item(Int)
    case receipt(order: Int)

    /// Also the router's fingerprint, the screen layer 1 compares.
    var description: String {
        switch self {
        case let .item(id): "item:\(id)"
        case let .receipt(order): "receipt:\(order)"
        }
    }
}

/// A suspension point the check opens itself, once: a task that passes waits until the check
/// opens or fails it, and passes at once afterwards, so a call the router should not have made
/// cannot hang the check. Cancelling a waiting task ends its wait with `CancellationError`, as
/// `URLSession` does, so a cancel is seen only if someone sends one.
@MainActor final class Gate {
    private var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var nextWaiter = 0
    private var outcome: Result<Void, any Error>?

    var waiters: Int { waiting.count }

    func pass() async throws {
        if let outcome { return try outcome.get() }
        let waiter = nextWaiter
        nextWaiter += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { waiting[waiter] = $0 }
        } onCancel: {
            // Runs on the canceller's thread: hop to the main actor, which owns the waiters.
            Task { @MainActor in self.waiting.removeValue(forKey: waiter)?.resume(throwing: CancellationError()) }
        }
    }

    func open() {
        end(.success(()))
    }

    func fail(_ error: any Error) {
        end(.failure(error))
    }

    private func end(_ outcome: Result<Void, any Error>) {
        self.outcome = outcome
        let ended = waiting
        waiting = [:]
        for continuation in ended.values { continuation.resume(with: outcome) }
    }
}

/// The app's detail fetch (`details.load` in the README): each route's load waits at its gate.
@MainActor final class SlowDetails {
    enum Ending { case returned, cancelled, failed }

    private var gates: [AppRoute: Gate] = [:]
    private(set) var loads: [AppRoute] = []
    private(set) var endings: [AppRoute: Ending] = [:]

    func load(_ route: AppRoute) async throws {
        loads.append(route)
        do {
            try await gate(route).pass()
            endings[route] = .returned
        } catch {
            endings[route] = error is CancellationError ? .cancelled : .failed
            throw error
        }
    }

    func isLoading(_ route: AppRoute) -> Bool { gate(route).waiters > 0 }

    func finish(_ route: AppRoute) { gate(route).open() }

    func loadCount(_ route: AppRoute) -> Int { loads.filter { $0 == route }.count }

    private func gate(_ route: AppRoute) -> Gate {
        if let gate = gates[route] { return gate }
        let gate = Gate()
        gates[route] = gate
        return gate
    }
}

/// The app's checkout (`checkout()` in the README), waiting at the gate the check last set.
@MainActor final class SlowPayments {
    struct Declined: Error {}

    var gate = Gate()
    private(set) var checkouts = 0

    func checkout() async throws -> Int {
        checkouts += 1
        let order = checkouts
        try await gate.pass()
        return order
    }
}

/// Lets the router's tasks run until `condition` holds. It yields and never sleeps: the tasks it
/// waits for are already resumed, so a bound on the yields is a bound on the check's steps, and
/// `false` means the awaited event never happens.
@MainActor func settle(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1_000 where !condition() { await Task.yield() }
    return condition()
}

@MainActor func checkRouter() async throws -> Bool {
    let applicationSupport = FileManager.default.temporaryDirectory.appendingPathComponent("router-check-\(getpid())")
    try FileManager.default.createDirectory(at: applicationSupport, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: applicationSupport) }
    let storeURL = applicationSupport.appendingPathComponent("consumed-routes.pdcs")
    var failures = 0
    func expect(_ holds: Bool, _ failure: String) {
        guard !holds else { return }
        failures += 1
        print("router check failed: \(failure)")
    }
    var failuresBefore = 0
    /// Prints what a part showed, if it failed nothing.
    func passed(_ summary: String) {
        if failures == failuresBefore { print(summary) }
        failuresBefore = failures
    }
    let details = SlowDetails()
    let payments = SlowPayments()

    // Launch 1, with the README's two lines.
    do {
        let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: storeURL)
        let router = NavigationRouter<AppRoute, _>(ledger: dedupe) { route in try await details.load(route) }
        // The pay button's action, as the README runs it.
        func tapPay() -> Task<Void, Never>? {
            router.run(action: "checkout") {
                router.push(.receipt(order: try await payments.checkout()))
            }
        }

        // 1. A double tap during a slow checkout, then a checkout that throws and one cancelled.
        let first = tapPay()
        expect(await settle { payments.gate.waiters > 0 }, "the first tap's checkout never started")
        expect(router.isBusy("checkout"), "isBusy(\"checkout\") is false while the checkout runs")
        let second = tapPay()
        expect(second == nil && router.ignored[.inFlightAction] == 1,
               "the second tap during the checkout was not ignored: run(action:) started it")
        payments.gate.open()
        await first?.value
        await second?.value  // a second checkout a missing guard started: the open gate lets it end
        expect(!router.isBusy("checkout"), "isBusy(\"checkout\") is still true after the checkout returned")
        payments.gate = Gate()
        let declined = tapPay()
        expect(await settle { payments.gate.waiters > 0 } && router.isBusy("checkout"),
               "a checkout after the first did not start, or is not busy")
        payments.gate.fail(SlowPayments.Declined())
        await declined?.value
        expect(!router.isBusy("checkout"), "isBusy(\"checkout\") is still true after the checkout threw")
        payments.gate = Gate()
        let abandoned = tapPay()
        expect(await settle { payments.gate.waiters > 0 } && router.isBusy("checkout"),
               "a checkout after the declined one did not start, or is not busy")
        abandoned?.cancel()
        await abandoned?.value
        expect(!router.isBusy("checkout"), "isBusy(\"checkout\") is still true after the checkout was cancelled")
        expect(payments.checkouts == 3 && router.path == [.receipt(order: 1)],
               "4 taps, 1 during a checkout: \(payments.checkouts) checkouts ran (not 3), path \(router.path)")
        passed("double tap during a slow checkout: 1 checkout ran; busy while it ran, free after a return, a throw and a cancel")

        // 2. A push arrives while the previous push's detail fetch is in flight.
        let before = router.path
        router.receivePayload(.item(1), pushID: "msg-1")
        expect(await settle { details.isLoading(.item(1)) }, "the detail fetch of item 1 never started")
        router.receivePayload(.item(2), pushID: "msg-2")
        expect(await settle { details.isLoading(.item(2)) }, "the detail fetch of item 2 never started")
        expect(await settle { details.endings[.item(1)] == .cancelled },
               "the push of item 2 did not cancel item 1's fetch in flight")
        details.finish(.item(2))
        // Item 1's fetch returns late, had it not been cancelled; it must not push over item 2.
        details.finish(.item(1))
        expect(await settle { details.endings[.item(1)] != nil && details.endings[.item(2)] == .returned },
               "the detail fetches of items 1 and 2 never ended")
        expect(router.path == before + [.item(2)],
               "after item 2's push superseded item 1's fetch, the path ends \(router.path.dropFirst(before.count)), not [item:2]")
        passed("a push during a fetch: the older fetch was cancelled; path \(router.path)")

        // 3. The same envelope again: its pending route during the fetch, then a ready callback
        // and the payload itself once the screen shows.
        router.receivePayload(.item(3), pushID: "msg-3")
        expect(await settle { details.isLoading(.item(3)) }, "the detail fetch of item 3 never started")
        router.receiveEmit(.item(3), pushID: "msg-3")
        expect(router.ignored[.consumedEnvelope] == 1, "msg-3's pending route during the fetch was not dropped as consumed")
        details.finish(.item(3))
        expect(await settle { router.path.last == .item(3) }, "item 3 never showed")
        let ignoredBefore = router.ignored.values.reduce(0, +)
        router.receiveEmit(.item(3), pushID: "msg-3")
        router.receivePayload(.item(3), pushID: "msg-3")
        expect(router.ignored.values.reduce(0, +) == ignoredBefore + 2, "a replay of msg-3 after its screen showed was routed")
        expect(router.ignored[.consumedEnvelope] == 2, "msg-3's ready callback was not dropped as consumed")
        passed("a replayed envelope: ignored \(router.ignored.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", "))")
    }

    // Launch 2, after iOS killed the app: the same store file, a new router and an empty path.
    do {
        let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: storeURL)
        let router = NavigationRouter<AppRoute, _>(ledger: dedupe) { route in try await details.load(route) }
        router.receivePayload(.item(3), pushID: "msg-3")  // the initial notification, handed back
        router.receiveEmit(.item(3), pushID: "msg-3")     // its pending route
        expect(router.ignored[.consumedEnvelope] == 2, "after the relaunch (\(dedupe.restoreOutcome)), msg-3 was routed again")
        // A new push still shows; by the time it does, any fetch a replay started has begun.
        router.receivePayload(.item(4), pushID: "msg-4")
        expect(await settle { details.isLoading(.item(4)) }, "after the relaunch, the detail fetch of item 4 never started")
        details.finish(.item(4))
        expect(await settle { router.path == [.item(4)] } && details.loadCount(.item(3)) == 1,
               "after the relaunch, the path is \(router.path) and item 3 was fetched \(details.loadCount(.item(3))) times, not once")
        passed("the replay after a relaunch (\(dedupe.restoreOutcome)): dropped; path \(router.path)")
    }
    return failures == 0
}
