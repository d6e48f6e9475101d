import DedupeWorkloads
import PushDedupe

extension LoadedWorkload {
    /// The workload's metadata for the results, with `windowMilliseconds` the run's window. Read
    /// from the columns (the events may have been released): an envelope's creation is kept per
    /// dense slot, 9 bytes each, not in a hash table.
    ///
    /// - Complexity: O(*n* log *n*) in the events.
    func info(windowMilliseconds: Double) -> WorkloadInfo {
        var isCreated = [Bool](repeating: false, count: columns.envelopeCount)
        var creation = [Int64](repeating: 0, count: columns.envelopeCount)
        var creations: [Int64] = []
        var replays = 0
        var within = 0
        var longest = 0.0
        for i in 0..<columns.count where !columns.isLifecycle(i) {
            let slot = Int(columns.envelopeSlot[i])
            let time = columns.times[i].nanoseconds
            if columns.isPayload(i) {
                if !isCreated[slot] {
                    isCreated[slot] = true
                    creation[slot] = time
                    creations.append(time)
                }
            } else if isCreated[slot] {
                replays += 1
                let delay = DeviceProfile.milliseconds(time, after: creation[slot])
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
