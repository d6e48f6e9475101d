import DedupeWorkloads

extension RunPlan {
    /// The device profile this plan sizes its cases from: its horizon facts, and the traffic
    /// measured on every `device`-tagged scenario of the catalogue at the plan's seed (whatever
    /// the workload filter, so a filtered run is sized like the full one), or on the replayed
    /// trace, which is one device's traffic.
    func deviceProfile(loaded: [LoadedWorkload], sizing: RunSizing) -> DeviceProfile {
        let workloads: [Workload]
        switch source {
        case let .trace(workload, _):
            workloads = [workload]
        case .catalogue:
            workloads = ScenarioCatalogue.all.filter { $0.tag == .device }.map { scenario in
                loaded.first { $0.id == scenario.id }?.workload
                    ?? WorkloadSource.scenarioWorkload(scenario, seed: seed, scale: sizing.workloadScale)
            }
        }
        let isTrace: Bool
        if case .trace = source { isTrace = true } else { isTrace = false }
        return DeviceProfile.derive(
            from: workloads, windowMilliseconds: windowMilliseconds, facts: horizonFacts, safetyFactor: safetyFactor, trace: isTrace)
    }
}
