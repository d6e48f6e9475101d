import DedupeCommandLine
import DedupeHarness

extension SharedOptions {
    static let allowProbabilistic = OptionSpec(
        "allow-probabilistic", help: "Let may-drop strategies (filters that can lose a wanted navigation) compete.")
    static let memoryBudget = OptionSpec(
        "memory-budget", value: "SIZE", help: "The pair's memory budget: bytes, or with KiB/MiB (default 64KiB); all under it tie.")
    static let dropWeight = OptionSpec(
        "drop-weight", value: "W", help: "Missed duplicates one false drop costs when choosing the window length (default 1).")
    static let safetyFactor = OptionSpec(
        "safety-factor", value: "F",
        help: "Factor every parameter sized from the device profile carries, 1 to 1000 (default \(NumberText.significant(DeviceProfile.defaultSafetyFactor))).")
    static let pushesPerDay = OptionSpec(
        "pushes-per-day", value: "N",
        help: "Pushes a day the consumed set is sized for, above 0 to 100000 (default \(NumberText.significant(HorizonFacts.defaultPushesPerDay))).")
    static let retentionDays = OptionSpec(
        "retention-days", value: "D",
        help: "Days the consumed set must remember an id, above 0 to 365 (default \(NumberText.significant(HorizonFacts.defaultRetentionDays))).")

    /// The options of the recommendation rule and the sizing, for `run` and `replay`.
    static let ruleOptions = [allowProbabilistic, memoryBudget, dropWeight, safetyFactor, pushesPerDay, retentionDays]

    /// Reads the rule and sizing options into `plan`.
    static func applyRuleOptions(_ arguments: ParsedArguments, to plan: inout RunPlan) throws(CommandLineError) {
        plan.recommendation.allowProbabilistic = arguments.has(allowProbabilistic)
        plan.recommendation.memoryBudgetBytes = try arguments.value(
            memoryBudget, default: RecommendationSettings.defaultMemoryBudgetBytes,
            expecting: "a size from 1 B to 1 GiB, e.g. 65536, 64KiB or 1MiB", parseBytes)
        plan.recommendation.dropWeight = try arguments.value(dropWeight, default: 1, expecting: "a number from 0 to 1000000") {
            Double($0).flatMap { $0.isFinite && $0 >= 0 && $0 <= 1_000_000 ? $0 : nil }
        }
        plan.safetyFactor = try arguments.value(
            safetyFactor, default: DeviceProfile.defaultSafetyFactor, expecting: "a number from 1 to 1000"
        ) {
            CommonOptions.decimal($0).flatMap { $0 >= 1 && $0 <= 1_000 ? $0 : nil }
        }
        plan.horizonFacts.pushesPerDay = try arguments.value(
            pushesPerDay, default: HorizonFacts.defaultPushesPerDay, expecting: "a number above 0 and at most 100000"
        ) {
            CommonOptions.decimal($0).flatMap { $0 > 0 && $0 <= 100_000 ? $0 : nil }
        }
        plan.horizonFacts.retentionDays = try arguments.value(
            retentionDays, default: HorizonFacts.defaultRetentionDays, expecting: "a number above 0 and at most 365"
        ) {
            CommonOptions.decimal($0).flatMap { $0 > 0 && $0 <= 365 ? $0 : nil }
        }
    }

    /// `65536`, `64KiB`, `1MiB`, `512B` → bytes; `nil` outside 1 B…1 GiB or for any other text.
    static func parseBytes(_ text: String) -> Int? {
        let units: [(String, Int)] = [("KiB", 1_024), ("MiB", 1_048_576), ("B", 1)]
        var number = Substring(text)
        var multiplier = 1
        for (suffix, value) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            multiplier = value
            break
        }
        guard let value = Double(number), value.isFinite, value > 0 else { return nil }
        let bytes = value * Double(multiplier)
        guard bytes >= 1, bytes <= 1_073_741_824, bytes == bytes.rounded() else { return nil }
        return Int(bytes)
    }
}
