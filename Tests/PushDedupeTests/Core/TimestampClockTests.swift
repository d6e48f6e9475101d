import PushDedupe
import Testing

@Suite struct TimestampClockTests {
    @Test func instantsConvertToNanosecondsSinceTheOrigin() {
        let origin = ContinuousClock.now
        #expect(Timestamp(origin, since: origin) == .zero)
        #expect(Timestamp(origin + .milliseconds(1_500), since: origin) == .milliseconds(1_500))
        #expect(Timestamp(origin - .nanoseconds(7), since: origin) == Timestamp(nanoseconds: -7))
        // Sub-nanosecond parts are truncated, not rounded.
        #expect(Timestamp(origin + .nanoseconds(3) + .init(secondsComponent: 0, attosecondsComponent: 999_999_999), since: origin)
                == Timestamp(nanoseconds: 3))
    }

    @Test func instantsSaturateBeyondInt64Nanoseconds() {
        let origin = ContinuousClock.now
        let far = Duration.seconds(Int64.max / 1_000)
        #expect(Timestamp(origin + far, since: origin).nanoseconds == .max)
        #expect(Timestamp(origin - far, since: origin).nanoseconds == .min)
    }

    @Test func timestampsMapBackToTheirInstants() {
        let origin = ContinuousClock.now
        for nanoseconds: Int64 in [0, 1, -1, 1_500_000_000, -86_400_000_000_000] {
            let timestamp = Timestamp(nanoseconds: nanoseconds)
            #expect(timestamp.durationSinceOrigin == .nanoseconds(nanoseconds))
            #expect(Timestamp(timestamp.instant(since: origin), since: origin) == timestamp)
        }
    }

    @Test func addingADurationSaturatesAtTheEdges() {
        let max = Timestamp(nanoseconds: .max), min = Timestamp(nanoseconds: .min)
        #expect(Timestamp.zero + .milliseconds(5) == .milliseconds(5))
        #expect(Timestamp.milliseconds(5) - .milliseconds(7) == .milliseconds(-2))
        #expect(max + .nanoseconds(1) == max)
        #expect(max - .nanoseconds(1) == Timestamp(nanoseconds: .max - 1))
        #expect(min - .nanoseconds(1) == min)
        #expect(min + .nanoseconds(-1) == min)
        #expect(max + .seconds(Int64.max) == max)
        #expect(min - .seconds(Int64.max) == min)
        #expect(min + .seconds(Int64.max) == max)
        // Exact before saturating: far beyond Int64 in Duration, back in range in the sum.
        #expect(min + (.nanoseconds(Int64.max) + .nanoseconds(11)) == Timestamp(nanoseconds: 10))
        var moving = Timestamp(nanoseconds: .max - 10)
        moving += .nanoseconds(4)
        #expect(moving == Timestamp(nanoseconds: .max - 6))
        moving += .nanoseconds(100)
        #expect(moving == max)
    }

    @Test func differencesAreExactDurations() {
        let max = Timestamp(nanoseconds: .max), min = Timestamp(nanoseconds: .min)
        #expect(Timestamp.milliseconds(7) - Timestamp.milliseconds(2) == .milliseconds(5))
        #expect(max - min == .nanoseconds(Int64.max) * 2 + .nanoseconds(1))
        #expect(min - max == .zero - (.nanoseconds(Int64.max) * 2 + .nanoseconds(1)))
    }

    @Test func wholeNanosecondsSaturatesAndKeepsTheSign() {
        #expect(Duration.nanoseconds(-1_500_000_000).wholeNanoseconds == -1_500_000_000)
        #expect(Duration.seconds(Int64.max).wholeNanoseconds == .max)
        #expect(Duration.seconds(Int64.min).wholeNanoseconds == .min)
        #expect(Duration.nanoseconds(Int64.min).wholeNanoseconds == .min)
    }
}
