import PushDedupe
import Testing
@testable import DedupeWorkloads

/// The device weeks against `Guides/Workloads.md` § Device weeks: rates, span, lifecycle, and
/// the sizing from ``PhoneTrafficFacts`` tested by their traffic.
@Suite struct DeviceWeekScenarioTests {
    static let weeks = ["typical-app-week", "messaging-app-week"]
    static let dayNanoseconds: Int64 = 86_400_000_000_000

    func workload(_ id: String, seed: UInt64) throws -> Workload {
        try #require(ScenarioCatalogue.scenario(named: id)).workload(seed: seed)
    }

    /// Mean pushes the server sent a day, over `seeds` weeks.
    func arrivalsPerDay(_ parameters: DeviceWeekModel.Parameters, seeds: ClosedRange<UInt64>) -> Double {
        let total = seeds.reduce(0) { sum, seed in
            var random = SplitMix64(seed: seed)
            return sum + DeviceWeekModel.Plan(parameters, using: &random).pushes.count
        }
        return Double(total) / Double(seeds.count * parameters.days)
    }

    @Test func pushesArriveAtTheFactsRatesInWakingHours() {
        let facts = PhoneTrafficFacts.stated
        let messaging = arrivalsPerDay(ScenarioCatalogue.messagingAppWeek, seeds: 1...3)
        #expect(abs(messaging / facts.heavyPushesPerDay - 1) < 0.15, "\(messaging) a day")
        let typical = arrivalsPerDay(ScenarioCatalogue.typicalAppWeek, seeds: 1...40)
        #expect(abs(typical / facts.typicalPushesPerDay - 1) < 0.2, "\(typical) a day")
        var random = SplitMix64(seed: 1)
        let plan = DeviceWeekModel.Plan(ScenarioCatalogue.messagingAppWeek, using: &random)
        // A burst may run a little past 23:00; nothing arrives in the small hours.
        let hours = plan.pushes.map { ($0.arrival.truncatingRemainder(dividingBy: DeviceWeekModel.day)) / DeviceWeekModel.hour }
        #expect(hours.allSatisfy { $0 >= 7 && $0 < 24 })
        #expect(Double(hours.filter { $0 < 23 }.count) / Double(hours.count) > 0.99)
    }

    @Test(arguments: weeks)
    func aWeekWithSeveralKillsEachAfterABackground(id: String) throws {
        for seed: UInt64 in 1...3 {
            let workload = try workload(id, seed: seed)
            let last = try #require(workload.events.last).time.nanoseconds
            #expect(last > 6 * Self.dayNanoseconds && last <= 7 * Self.dayNanoseconds)
            let relaunches = workload.events.filter { $0.kind == .relaunch }.count
            #expect(relaunches >= (id == "messaging-app-week" ? 14 : 4), "\(relaunches) relaunches")
            #expect(workload.events.count < 5_000)
            // Backgrounds before kills: each relaunch follows a background since the last launch.
            var backgroundSinceLaunch = false
            for event in workload.events {
                if event.kind == .background { backgroundSinceLaunch = true }
                if event.kind == .relaunch {
                    #expect(backgroundSinceLaunch)
                    backgroundSinceLaunch = false
                }
            }
        }
    }

    /// In a share of the kills, a push is handled in the background after the last background
    /// event; `on-background` loses what those pushes' later deliveries needed.
    @Test func someKillsFollowAConsumeAfterTheLastBackground() throws {
        var lost = 0
        for seed: UInt64 in 1...3 {
            let workload = try workload("messaging-app-week", seed: seed)
            var kills = 0
            var killsAfterLateConsume = 0
            var backgrounded = false
            var consumedSinceBackground = false
            for event in workload.events {
                switch event.kind {
                case .background:
                    backgrounded = true
                    consumedSinceBackground = false
                case .relaunch:
                    kills += 1
                    if consumedSinceBackground { killsAfterLateConsume += 1 }
                    backgrounded = false
                    consumedSinceBackground = false
                case .payload, .emit:
                    if backgrounded { consumedSinceBackground = true }
                }
            }
            let share = Double(killsAfterLateConsume) / Double(kills)
            #expect(share > 0.2 && share < 0.9, "\(share)")
            let onBackground = workload.consumedSetOutcome(.pushID, .onBackground).missed.count
            let everyConsume = workload.consumedSetOutcome(.pushID, .afterEveryConsume).missed.count
            #expect(onBackground >= everyConsume)
            lost += onBackground - everyConsume
            #expect(workload.consumedSetOutcome(.pushID, .memory).missed.count > onBackground)
        }
        #expect(lost > 0)
    }

    /// The sizing by traffic: a replay days after its push needs the horizon. Under push-id
    /// identity with a snapshot, a FIFO set of heavy rate × retention ids misses nothing an
    /// unbounded set catches, while one slot or 10 recent ids miss replays, and a 24-hour
    /// retention misses the ones more than a day later.
    @Test(arguments: weeks)
    func aSetSizedFromTheFactsCatchesEveryReplay(id: String) throws {
        let facts = PhoneTrafficFacts.stated
        let sized = Int(facts.heavyPushesWithinRetention)
        var missedBySmallSets = 0
        var missedByADay = 0
        var replaysAfterADay = 0
        for seed: UInt64 in 1...3 {
            let workload = try workload(id, seed: seed)
            let unbounded = workload.consumedSetOutcome(.pushID, .afterEveryConsume)
            #expect(unbounded.falseDrops.isEmpty)
            // What an unbounded set misses is in-app only: double taps, second completions.
            #expect(unbounded.missed.allSatisfy { workload.events[$0].push == WorkloadEvent.noPush })
            #expect(workload.consumedSetOutcome(.pushID, .afterEveryConsume, capacity: sized).missed == unbounded.missed)
            let retention = Int64(facts.retentionDays) * Self.dayNanoseconds
            #expect(workload.consumedSetOutcome(.pushID, .afterEveryConsume, retention: retention).missed == unbounded.missed)
            let tenRecent = workload.consumedSetOutcome(.pushID, .afterEveryConsume, capacity: 10).missed.count
            let lastID = workload.consumedSetOutcome(.pushID, .afterEveryConsume, capacity: 1).missed.count
            #expect(lastID >= tenRecent && tenRecent >= unbounded.missed.count)
            missedBySmallSets += lastID - unbounded.missed.count
            missedByADay += workload.consumedSetOutcome(.pushID, .afterEveryConsume, retention: Self.dayNanoseconds).missed.count
                - unbounded.missed.count
            replaysAfterADay += replaysLaterThan(Self.dayNanoseconds, in: workload)
            // Under minted identity the set catches only the router's emits.
            let minted = workload.consumedSetOutcome(.minted, .afterEveryConsume).missed.count
            let emits = workload.events.filter { $0.kind == .emit }.count
            #expect(minted == unbounded.missed.count + replaysOfPushes(in: workload) - emits)
        }
        #expect(missedBySmallSets > 0)
        #expect(replaysAfterADay > 0 && missedByADay > 0)
    }

    /// Deliveries of a push (payloads after its first, and emits) more than `span` after its first.
    func replaysLaterThan(_ span: Int64, in workload: Workload) -> Int {
        var first = [Int64?](repeating: nil, count: workload.pushes.count)
        var count = 0
        for event in workload.events where !event.kind.isLifecycle && event.push != WorkloadEvent.noPush {
            if let start = first[Int(event.push)] {
                if event.time.nanoseconds - start > span { count += 1 }
            } else {
                first[Int(event.push)] = event.time.nanoseconds
            }
        }
        return count
    }

    /// Deliveries of a push after its first (payloads and emits).
    func replaysOfPushes(in workload: Workload) -> Int {
        replaysLaterThan(-1, in: workload)
    }

    @Test func theStaleLaunchNotificationComesBackOnLaterLaunches() throws {
        for id in Self.weeks {
            var stale = 0
            for seed: UInt64 in 1...3 {
                let workload = try workload(id, seed: seed)
                let events = workload.events
                for (index, event) in events.enumerated() where !event.kind.isLifecycle
                    && workload.source(of: event) == "initial_notification" {
                    // Right after a relaunch, and a dup of a push that cold-launched the app.
                    #expect(events[..<index].last { $0.kind.isLifecycle }?.kind == .relaunch)
                    #expect(event.truth == .dup)
                    #expect(events[..<index].contains {
                        !$0.kind.isLifecycle && $0.push == event.push && workload.source(of: $0) == "cold_launch"
                    })
                    stale += 1
                }
            }
            #expect(stale > 0, "\(id)")
        }
    }

    @Test func identicalSeedsGiveIdenticalWeeks() throws {
        for id in Self.weeks {
            #expect(TraceWriter.encode(try workload(id, seed: 9)) == TraceWriter.encode(try workload(id, seed: 9)))
        }
    }
}
