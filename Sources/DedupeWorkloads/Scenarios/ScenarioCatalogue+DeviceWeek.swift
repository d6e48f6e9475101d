import PushDedupe

extension ScenarioCatalogue {
    /// A week of one phone at the typical and the heavy push rate of ``PhoneTrafficFacts``, with
    /// the app backgrounded and killed several times a day and every mechanism at the rates of
    /// `Guides/Workloads.md` § Device weeks. A replay days after its push needs a consumed set that
    /// holds what a sizing from the facts holds: these test the sizing by traffic.
    static let deviceWeeks: [Scenario] = [
        deviceWeek(
            id: "typical-app-week",
            summary: "A week of an app at the typical 1.7 pushes a day (51 a month, Localytics), opened 1.5 times a day "
                + "and killed after most visits; stale launch notifications days later: a push-id consumed set "
                + "restored from a snapshot catches them, a last-id slot not always",
            parameters: typicalAppWeek),
        deviceWeek(
            id: "messaging-app-week",
            summary: "A week of a messaging app at the heavy 250 pushes a day in conversation bursts, opened 25 times "
                + "a day and killed 3–4 times; stale launch notifications hours or days later: a push-id set of "
                + "heavy rate × 7 days catches them, 10 recent ids do not",
            parameters: messagingAppWeek),
    ]

    /// A commerce-style app at the typical rate: single pushes for item screens, a few taps, a
    /// process killed soon after the user leaves.
    static let typicalAppWeek = DeviceWeekModel.Parameters(
        pushesPerDay: PhoneTrafficFacts.stated.typicalPushesPerDay, meanBurstSize: 1.2, meanBurstSpacing: 60_000,
        pushKind: .item, screens: 2_000, zipfExponent: 0.9, contentAvailableShare: 0.2,
        tapProbability: 0.3, tapMedian: 20 * 60_000, appOpensPerDay: 1.5, sessionMedian: 3 * 60_000,
        killsPerDay: 3, navigationsPerMinute: 1)

    /// A messaging app at the heavy rate: conversation bursts, half the pushes content-available
    /// (the app syncs the message), few notification taps: the user mostly opens the app itself.
    static let messagingAppWeek = DeviceWeekModel.Parameters(
        pushesPerDay: PhoneTrafficFacts.stated.heavyPushesPerDay, meanBurstSize: 5, meanBurstSpacing: 20_000,
        pushKind: .content, screens: 40, zipfExponent: 1, contentAvailableShare: 0.5,
        tapProbability: 0.03, tapMedian: 2 * 60_000, appOpensPerDay: 25, openFromNotificationProbability: 0.2,
        sessionMedian: 2 * 60_000,
        killsPerDay: 6, navigationsPerMinute: 0.5)

    /// A week of `parameters`, named and summarized as the scenario is.
    private static func deviceWeek(id: String, summary: String, parameters: DeviceWeekModel.Parameters) -> Scenario {
        Scenario(id: id, summary: summary, category: .realWorld, tag: .device, timedGenerate: { seed, facts in
            DeviceWeekModel(parameters: parameters).workload(name: id, summary: summary, seed: seed, actionTiming: facts)
        })
    }
}
