import DedupeWorkloads
import PushDedupe

extension LoadedWorkload {
    /// The workload's metadata for the results, with `windowMilliseconds` the run's window.
    ///
    /// - Complexity: O(*n* log *n*) in the events.
    func info(windowMilliseconds: Double) -> WorkloadInfo {
        var created: [EnvelopeID: Int64] = [:]
        var creations: [Int64] = []
        var replays = 0
        var within = 0
        var longest = 0.0
        for event in workload.events {
            if event.kind == .payload {
                if created[event.envelope] == nil {
                    created[event.envelope] = event.time.nanoseconds
                    creations.append(event.time.nanoseconds)
                }
            } else if event.kind == .emit, let creation = created[event.envelope] {
                replays += 1
                let delay = DeviceProfile.milliseconds(event.time.nanoseconds, after: creation)
                longest = max(longest, delay)
                if delay <= windowMilliseconds { within += 1 }
            }
        }
        return WorkloadInfo(
            id: id, description: workload.summary, category: category?.rawValue, tag: tag?.rawValue ?? Scenario.Tag.device.rawValue,
            events: columns.count, envelopes: columns.envelopeCount, replays: replays, replaysWithinWindow: within,
            longestReplayMilliseconds: longest,
            envelopesWithinLongestReplay: DeviceProfile.peakCount(creations, spanMilliseconds: longest))
    }
}
