import DedupeWorkloads
import PushDedupe

extension LoadedWorkload {
    /// The workload's metadata for the results, with `windowMilliseconds` the run's window.
    ///
    /// - Complexity: O(*n* log *n*) in the events.
    func info(windowMilliseconds: Double, safetyFactor: Double) -> WorkloadInfo {
        let window = Int64((windowMilliseconds * 1e6).rounded())
        var created: [EnvelopeID: Int64] = [:]
        var replays = 0
        var within = 0
        for event in workload.events {
            if event.kind == .payload {
                if created[event.envelope] == nil { created[event.envelope] = event.time.nanoseconds }
            } else if event.kind == .emit, let creation = created[event.envelope] {
                replays += 1
                if event.time.nanoseconds - creation <= window { within += 1 }
            }
        }
        return WorkloadInfo(
            id: id, description: workload.summary, category: category?.rawValue, tag: tag?.rawValue ?? Scenario.Tag.device.rawValue,
            events: columns.count, envelopes: columns.envelopeCount, replays: replays, replaysWithinWindow: within,
            profile: DeviceProfile.derive(from: [workload], windowMilliseconds: windowMilliseconds, safetyFactor: safetyFactor))
    }
}
