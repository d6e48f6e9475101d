import PushDedupe
import Testing

/// The documented slack of `EpochSetsWindow`, checked exhaustively over small integer windows,
/// every phase of the first admission within its epoch, and every age up to past the window.
@Suite struct EpochSetsWindowTests {
    private let a = RouteFingerprint(route: "item:a")
    private let b = RouteFingerprint(route: "item:b")

    /// Whether a repeat of `a` at `t0 + age` is suppressed, optionally with another route
    /// admitted at every nanosecond in between (so rotations happen on other admits too).
    private func suppresses(window: Int64, t0: Int64, age: Int64, busy: Bool) throws -> Bool {
        var subject = try EpochSetsWindow(configuration: WindowConfiguration(window: .nanoseconds(window), capacity: 4))
        #expect(admit(&subject, a, at: Timestamp(nanoseconds: t0)))
        if busy {
            for t in t0..<(t0 + age) { _ = subject.admit(b, at: Timestamp(nanoseconds: t)) }
        }
        return !subject.admit(a, at: Timestamp(nanoseconds: t0 + age))
    }

    @Test(arguments: Array(Int64(0)...13))
    func suppressionFollowsTheDocumentedBounds(window: Int64) throws {
        let configuration = WindowConfiguration(window: .nanoseconds(window), capacity: 4)
        let subject = try EpochSetsWindow(configuration: configuration)
        let halfWindow = (window + 1) / 2
        var alwaysSuppressed = Int64.max
        var neverSuppressed = Int64.min
        // Negative times exercise the floor division of the epoch number.
        for t0 in Int64(-23)...(-23 + 2 * max(1, halfWindow) + 1) {
            for age in Int64(0)...(window + 2) {
                let quiet = try suppresses(window: window, t0: t0, age: age, busy: false)
                let busy = try suppresses(window: window, t0: t0, age: age, busy: true)
                #expect(quiet == busy, "w=\(window) t0=\(t0) age=\(age): other traffic changed the answer")
                if age <= halfWindow && window > 0 || age == 0 {
                    #expect(quiet, "w=\(window) t0=\(t0) age=\(age): within ⌈w/2⌉ but admitted")
                }
                if age > window || (window > 0 && age >= 2 * halfWindow) {
                    #expect(!quiet, "w=\(window) t0=\(t0) age=\(age): suppressed past the slack bound")
                }
                if quiet { neverSuppressed = max(neverSuppressed, age + 1) } else { alwaysSuppressed = min(alwaysSuppressed, age - 1) }
            }
        }
        // The bounds the type reports are the tight ones observed over all phases.
        #expect(subject.alwaysSuppressedAge == .nanoseconds(alwaysSuppressed))
        #expect(subject.neverSuppressedAge == .nanoseconds(neverSuppressed))
    }

    @Test func halfSecondGenerationsForAOneSecondWindow() throws {
        var window = try EpochSetsWindow(configuration: WindowConfiguration(window: .seconds(1), capacity: 16))
        #expect(window.alwaysSuppressedAge == .milliseconds(500))
        #expect(window.neverSuppressedAge == .seconds(1))
        // Admitted at the very start of an epoch: remembered for the full two epochs.
        #expect(admit(&window, a, at: .milliseconds(1_000)))
        #expect(!admit(&window, a, at: .milliseconds(1_999.999)))
        #expect(admit(&window, a, at: .milliseconds(2_000)), "exactly the window: the documented boundary slack")
        // Admitted just before an epoch ends: remembered only just over half the window.
        #expect(admit(&window, b, at: .milliseconds(2_499.999)))
        #expect(!admit(&window, b, at: .milliseconds(2_999.999)))
        #expect(admit(&window, b, at: .milliseconds(3_000)), "500.001 ms after: a missed duplicate")
        #expect(window.evictions == 0)
    }

    /// Under a steady stream of distinct routes, memory follows the last two half windows'
    /// traffic and stops growing, however long the session.
    @Test func memoryIsBoundedByTwoGenerations() throws {
        var window = try EpochSetsWindow(configuration: WindowConfiguration(window: .nanoseconds(100), capacity: 8))
        var largest = 0
        var footprintAfterWarmUp = 0
        var suppressed = 0
        for n in 0..<200_000 {
            if !window.admit(RouteFingerprint(rawValue: UInt64(n)), at: Timestamp(nanoseconds: Int64(n))) { suppressed += 1 }
            largest = max(largest, window.count)
            if n == 1_000 { footprintAfterWarmUp = window.footprint }
        }
        #expect(suppressed == 0, "every route is new")
        #expect(largest == 100, "two 50 ns generations at one admission per ns")
        #expect(window.footprint == footprintAfterWarmUp)
    }
}
