import PushDedupe

/// What one phone's traffic is, from published figures: how many pushes an app sends a day and
/// how long a deduplicator must remember one. The sizing of a consumed set (capacity = heavy rate
/// × retention × safety factor) and the `device-week` scenarios both start from this value, so a
/// sizing is tested by traffic at the rate it was computed for. Sources and reasoning:
/// `Guides/Workloads.md` § A phone's traffic.
///
/// ```swift
/// let facts = PhoneTrafficFacts.stated                         // 1.7 and 250 a day, 7 days
/// let heavier = try PhoneTrafficFacts(heavyPushesPerDay: 400)     // --pushes-per-day 400
/// let ids = facts.heavyPushesWithinRetention                      // 1,750
/// ```
package struct PhoneTrafficFacts: Hashable, Sendable {
    /// Pushes one app sends one user a day, typically: about 51 a month (Localytics, Q1 2015,
    /// quoted by Business of Apps), 51 / 30 = 1.7 a day.
    package let typicalPushesPerDay: Double
    /// Pushes one app sends one user a day at the heavy end: a messaging app. Heavy users report
    /// 200–237 pushes a day across all their apps, mostly messaging and social, and a messaging
    /// app alone can reach hundreds a day. 250 is above the heaviest all-app figure, so one app
    /// at this rate bounds what a heavy user's busiest app sends.
    package let heavyPushesPerDay: Double
    /// How long a push must be remembered, in days. The SDKs that persist dedupe state keep it 4
    /// to 7 days (CleverTap Android's `PushNotificationDAOImpl`: payload TTL or 4 days; OneSignal
    /// Android: 604,800 s), and replays across relaunches come hours or days later (a stale initial
    /// notification is returned on every launch: react-native-firebase #2618, expo #30649). 7 days,
    /// the longest an SDK keeps, covers both.
    package let retentionDays: Double

    /// The figures above: 51 / 30, 250 and 7.
    package static let stated = PhoneTrafficFacts(
        checkedTypical: 51.0 / 30, heavy: 250, retention: 7)

    /// Facts with other rates, e.g. from `--pushes-per-day` and `--retention-days`.
    ///
    /// - Throws: ``ConfigurationError`` unless each rate is finite and in (0, 100,000] a day, the
    ///   typical rate at most the heavy one, and the retention finite and in (0, 365] days.
    /// - Complexity: O(1).
    package init(
        typicalPushesPerDay: Double = PhoneTrafficFacts.stated.typicalPushesPerDay,
        heavyPushesPerDay: Double = PhoneTrafficFacts.stated.heavyPushesPerDay,
        retentionDays: Double = PhoneTrafficFacts.stated.retentionDays
    ) throws(ConfigurationError) {
        func fail(_ parameter: String, _ reason: String) -> ConfigurationError {
            ConfigurationError(strategy: "phone-traffic", parameter: parameter, reason: reason)
        }
        for (name, rate) in [("typicalPushesPerDay", typicalPushesPerDay), ("heavyPushesPerDay", heavyPushesPerDay)]
        where !(rate > 0 && rate <= 100_000) {
            throw fail(name, "must be in (0, 100000] pushes a day, got \(rate)")
        }
        guard typicalPushesPerDay <= heavyPushesPerDay else {
            throw fail("typicalPushesPerDay", "must not exceed heavyPushesPerDay (\(heavyPushesPerDay)), got \(typicalPushesPerDay)")
        }
        guard retentionDays > 0 && retentionDays <= 365 else {
            throw fail("retentionDays", "must be in (0, 365] days, got \(retentionDays)")
        }
        self.init(checkedTypical: typicalPushesPerDay, heavy: heavyPushesPerDay, retention: retentionDays)
    }

    private init(checkedTypical typical: Double, heavy: Double, retention: Double) {
        typicalPushesPerDay = typical
        heavyPushesPerDay = heavy
        retentionDays = retention
    }

    /// Pushes the heavy app sends within the retention: the ids a consumed set must hold before
    /// any safety factor (1,750 for the published figures).
    package var heavyPushesWithinRetention: Double { heavyPushesPerDay * retentionDays }

    /// The retention as a duration.
    package var retention: Duration { .nanoseconds(Int64((retentionDays * 86_400e9).rounded())) }
}
