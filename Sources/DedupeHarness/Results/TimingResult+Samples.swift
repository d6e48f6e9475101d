import DedupeMeasurement

extension TimingResult {
    /// Summarizes per-repetition ns/event `samples`, per-batch ns/event `batches` (all timed
    /// repetitions pooled) and per-repetition `ratios` to the reference row.
    init(samples: [Double], batches: [Double], ratios: [Double], timedEvents: Int, reference: String?) {
        let sortedBatches = batches.sorted()
        let median = SampleStatistics.median(samples) ?? 0
        self.init(
            samplesNanosecondsPerEvent: samples, medianNanosecondsPerEvent: median,
            minNanosecondsPerEvent: samples.min() ?? 0, spreadNanosecondsPerEvent: SampleStatistics.spread(samples),
            eventsPerSecond: median > 0 ? 1e9 / median : 0,
            latencyP50Nanoseconds: SampleStatistics.stored(SampleStatistics.quantile(sortedBatches, 0.5)),
            latencyP90Nanoseconds: SampleStatistics.stored(SampleStatistics.quantile(sortedBatches, 0.9)),
            latencyP99Nanoseconds: SampleStatistics.stored(SampleStatistics.quantile(sortedBatches, 0.99)),
            latencyP999Nanoseconds: SampleStatistics.stored(SampleStatistics.quantile(sortedBatches, 0.999)),
            ratiosToReference: ratios)
        self.timedEvents = timedEvents
        if !ratios.isEmpty {
            ratioToReferenceMedian = SampleStatistics.median(ratios)
            ratioToReferenceSpread = SampleStatistics.spread(ratios)
            self.reference = reference
        }
    }
}
