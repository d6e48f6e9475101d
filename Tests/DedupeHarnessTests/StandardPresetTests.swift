import DedupeHarness
import PushDedupe
import Testing

/// The library's `standard` presets claim to be what `dedupe-bench` runs every strategy with.
@Suite struct StandardPresetTests {
    @Test func theStandardWindowPresetIsTheBenchmarksWindowConfiguration() {
        let preset = WindowPreset.standard.configuration
        #expect(preset.window == .milliseconds(RunPlan(source: .catalogue).windowMilliseconds))
        for entry in StrategyCatalogue.standard.windows {
            #expect(entry.defaultCapacity == preset.capacity, "\(entry.id)")
        }
    }

    @Test func theStandardConsumedSetPresetIsTheBenchmarksConfiguration() {
        for entry in StrategyCatalogue.standard.consumedSets {
            #expect(entry.defaultConfiguration == ConsumedSetPreset.standard.configuration, "\(entry.id)")
        }
    }
}
