import PushDedupe
import Testing

/// The guarantees of `DirectMappedWindow`: it never drops a route an exact window would admit,
/// and it misses a duplicate only after an overwrite it counted.
@Suite struct DirectMappedWindowTests {
    private func route(_ n: Int) -> RouteFingerprint { RouteFingerprint(route: "item:\(n)") }

    /// Finds, by observation, a route that shares route 0's slot in a table of `capacity`, and
    /// one that does not.
    private func collidingAndSeparateRoutes(capacity: Int) throws -> (colliding: Int, separate: Int) {
        var colliding: Int?
        var separate: Int?
        for n in 1..<1_000 where colliding == nil || separate == nil {
            var window = try DirectMappedWindow(configuration: WindowConfiguration(window: .seconds(1), capacity: capacity))
            _ = window.admit(route(0), at: .milliseconds(0))
            _ = window.admit(route(n), at: .milliseconds(0))
            if window.evictions == 1 { colliding = colliding ?? n } else { separate = separate ?? n }
        }
        return (try #require(colliding), try #require(separate))
    }

    @Test func missesADuplicateOnlyAfterAnOverwrite() throws {
        let configuration = WindowConfiguration(window: .milliseconds(500), capacity: 8)
        let (colliding, separate) = try collidingAndSeparateRoutes(capacity: 8)

        var window = try DirectMappedWindow(configuration: configuration)
        #expect(admit(&window, route(0), at: .milliseconds(0)))
        #expect(admit(&window, route(separate), at: .milliseconds(1)))
        #expect(!admit(&window, route(0), at: .milliseconds(2)), "different slots: still remembered")
        #expect(window.evictions == 0)
        #expect(window.count == 2)

        #expect(admit(&window, route(colliding), at: .milliseconds(3)))
        #expect(window.evictions == 1)
        #expect(admit(&window, route(0), at: .milliseconds(4)), "overwritten: the one kind of miss")
        #expect(window.evictions == 2)
        #expect(window.count == 2)
    }

    @Test func reusingAnExpiredSlotIsNotAnEviction() throws {
        let (colliding, _) = try collidingAndSeparateRoutes(capacity: 8)
        var window = try DirectMappedWindow(configuration: WindowConfiguration(window: .milliseconds(500), capacity: 8))
        #expect(admit(&window, route(0), at: .milliseconds(0)))
        #expect(admit(&window, route(colliding), at: .milliseconds(500.5)))
        #expect(window.evictions == 0)
        #expect(window.count == 1)
    }

    /// Many more routes than slots. Judged by the window's own admissions (a suppressed call
    /// does not refresh, so a re-admitted route starts a new window): every suppression has an
    /// admission inside the window behind it, every re-admission inside the window follows a
    /// counted eviction, and until the first eviction the answers equal the exact model's.
    @Test(arguments: [1, 8, 64, 4_096])
    func neverAFalseDropAndNoUncountedMiss(capacity: Int) throws {
        var random = SplitMix64(seed: 0xd1ec7 &+ UInt64(capacity))
        let windowNanoseconds = 64 * timeQuantum
        var window = try DirectMappedWindow(configuration: WindowConfiguration(
            window: .nanoseconds(windowNanoseconds), capacity: capacity))
        var model = ReferenceWindow(window: windowNanoseconds, capacity: nil)
        let routes = (0..<300).map(route)
        var lastAdmission = [Int64?](repeating: nil, count: routes.count)
        var evictionsAtLastAdmission = [Int](repeating: 0, count: routes.count)
        var time: Int64 = 0
        var misses = 0
        for step in 0..<5_000 {
            time += Int64.random(in: 0...2, using: &random) * timeQuantum
            let n = Int.random(in: 0..<routes.count, using: &random)
            let admitted = window.admit(routes[n], at: Timestamp(nanoseconds: time))
            let expected = model.admit(routes[n], at: Timestamp(nanoseconds: time))
            let isLive = lastAdmission[n].map { time - $0 <= windowNanoseconds } ?? false
            if !admitted && !isLive {
                Issue.record("capacity \(capacity) step \(step): a false drop")
                return
            }
            if admitted && isLive {
                misses += 1
                if window.evictions == evictionsAtLastAdmission[n] {
                    Issue.record("capacity \(capacity) step \(step): a miss with no eviction since")
                    return
                }
            }
            if window.evictions == 0 && admitted != expected {
                Issue.record("capacity \(capacity) step \(step): differs from the exact model with no eviction")
                return
            }
            if admitted {
                lastAdmission[n] = time
                evictionsAtLastAdmission[n] = window.evictions
            }
        }
        #expect(window.count <= window.capacity)
        // A table far smaller than the ~60 live routes misses; one far larger rarely does.
        if capacity <= 8 { #expect(misses > 100) }
        if capacity == 4_096 { #expect(misses < 50) }
        #expect(window.footprint == window.capacity * 24)
    }
}
