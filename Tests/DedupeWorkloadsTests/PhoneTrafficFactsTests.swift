import PushDedupe
import Testing
@testable import DedupeWorkloads

@Suite struct PhoneTrafficFactsTests {
    @Test func thePublishedFigures() throws {
        let facts = PhoneTrafficFacts.stated
        #expect(abs(facts.typicalPushesPerDay - 1.7) < 1e-12)
        #expect(facts.heavyPushesPerDay == 250 && facts.retentionDays == 7)
        #expect(facts.heavyPushesWithinRetention == 1_750)
        #expect(facts.retention == .seconds(7 * 86_400))
        #expect(try PhoneTrafficFacts() == facts)
    }

    @Test func otherRatesAreValidated() throws {
        let heavier = try PhoneTrafficFacts(heavyPushesPerDay: 400, retentionDays: 4)
        #expect(heavier.heavyPushesWithinRetention == 1_600 && heavier.typicalPushesPerDay == PhoneTrafficFacts.stated.typicalPushesPerDay)
        for (heavy, typical, days) in [(0.0, 1.0, 7.0), (.nan, 1, 7), (250, 300, 7), (250, 1.7, 0), (250, 1.7, 366), (.infinity, 1, 7)] {
            #expect(throws: ConfigurationError.self) {
                try PhoneTrafficFacts(typicalPushesPerDay: typical, heavyPushesPerDay: heavy, retentionDays: days)
            }
        }
    }
}
