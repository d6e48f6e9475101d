import PushDedupe

/// Every named scenario. (Skeleton: the workload issue fills this in.)
public enum ScenarioCatalogue {
    public static let all: [Scenario] = [
        Scenario(
            id: "same-payload-twice",
            summary: "The same payload arrives on two paths within milliseconds",
            category: .publishedSituation
        ) { _ in
            let route = "item:42"
            let fingerprint = RouteFingerprint(route: route)
            return Workload(
                name: "same-payload-twice",
                summary: "The same payload arrives on two paths within milliseconds",
                routes: [route], sources: ["tap", "cold_launch"],
                events: [
                    WorkloadEvent(time: .milliseconds(0), kind: .payload, envelope: EnvelopeID(high: 0, low: 1),
                                  fingerprint: fingerprint, route: 0, source: 0, truth: .new),
                    WorkloadEvent(time: .milliseconds(5), kind: .payload, envelope: EnvelopeID(high: 0, low: 2),
                                  fingerprint: fingerprint, route: 0, source: 1, truth: .dup),
                ])
        },
    ]

    /// The scenario with `id`, or `nil`.
    public static func scenario(named id: String) -> Scenario? {
        all.first { $0.id == id }
    }
}
