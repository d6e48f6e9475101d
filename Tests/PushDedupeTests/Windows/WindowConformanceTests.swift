import PushDedupe
import Testing

/// Every fingerprint window through the shared conformance checker, each with the contract its
/// doc comment promises.
@Suite struct WindowConformanceTests {
    @Test func seedLiteralIsExactAndUnbounded() {
        checkWindowConformance(SeedLiteralWindow.self, contract: { _ in .exact(capacity: nil) })
    }

    @Test func arrayScanIsExactAndUnbounded() {
        checkWindowConformance(ArrayScanWindow.self, contract: { _ in .exact(capacity: nil) })
    }

    @Test func hashDequeIsExactAndUnbounded() {
        checkWindowConformance(HashDequeWindow.self, contract: { _ in .exact(capacity: nil) })
    }

    @Test func ringBufferIsExactForItsCapacity() {
        checkWindowConformance(RingBufferWindow.self, contract: { .exact(capacity: $0.capacity) })
    }

    /// Suppression never reaches past the window; admissions of a live repeat happen only past
    /// ⌈window / 2⌉ (the half the documented slack allows).
    @Test func epochSetsStayWithinTheirSlack() {
        checkWindowConformance(EpochSetsWindow.self, contract: { configuration in
            .approximate(suppressionSlack: 0, admissionSlack: configuration.window.wholeNanoseconds / 2)
        })
    }

    /// Never a false drop, and a live repeat is admitted only after a counted eviction.
    @Test func directMappedNeverFalseDropsAndCountsEveryMiss() {
        checkWindowConformance(DirectMappedWindow.self, contract: { _ in
            .approximate(suppressionSlack: 0, admissionSlack: 0)
        })
    }
}
