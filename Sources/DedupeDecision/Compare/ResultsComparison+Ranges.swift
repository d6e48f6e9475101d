import DedupeWorkloads
import DedupeHarness

extension ResultsComparison {
    /// Fields whose value may be below zero: differences (`liveBytes`, bytes after the run minus
    /// before) and relative growth.
    static let signedFields: Set<String> = ["liveBytes", "liveBytesGrowthInLastTenth", "footprintGrowthInLastTenth"]

    /// The first number of `results` outside its schema's range, named by its path
    /// (`cases[3].timing.minNanosecondsPerEvent is -1.0 …`), or `nil`.
    ///
    /// The rule is one for the whole schema, so a field another change adds is checked too:
    /// every number is finite, and at or above zero unless its name is in ``signedFields``
    /// (counts, nanoseconds, milliseconds, bytes, rates and probabilities never are). Integer
    /// fields out of their type's range (a `seed` of −1) are refused by the decoder, by name.
    ///
    /// - Complexity: O(numbers in the file).
    static func rangeProblem(in results: RunResults) -> String? {
        rangeProblem(in: results, path: "", field: "")
    }

    private static func rangeProblem(in value: Any, path: String, field: String) -> String? {
        let signed = signedFields.contains(field)
        func check(_ number: Double, at path: String) -> String? {
            if !number.isFinite { return "\(path) is \(number) (expected a finite number)" }
            if number < 0 && !signed { return "\(path) is \(number) (expected a number at or above 0)" }
            return nil
        }
        switch value {
        case let number as Double: return check(number, at: path)
        case let number as Int: return number < 0 && !signed ? "\(path) is \(number) (expected a count at or above 0)" : nil
        case let number as Int64: return number < 0 && !signed ? "\(path) is \(number) (expected a number at or above 0)" : nil
        case let numbers as [Double]:
            return numbers.indices.lazy.compactMap { check(numbers[$0], at: "\(path)[\($0)]") }.first
        case let numbers as [Int]:
            guard !signed, let position = numbers.firstIndex(where: { $0 < 0 }) else { return nil }
            return "\(path)[\(position)] is \(numbers[position]) (expected a count at or above 0)"
        case is String, is Bool, is UInt64: return nil
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.flatMap { rangeProblem(in: $0.value, path: path, field: field) }
        case .collection, .set:
            for (position, child) in mirror.children.enumerated() {
                if let problem = rangeProblem(in: child.value, path: "\(path)[\(position)]", field: field) { return problem }
            }
        case .dictionary:
            for child in mirror.children {
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                guard pair.count == 2 else { continue }
                if let problem = rangeProblem(in: pair[1], path: "\(path)[\(MessageText.clipped("\(pair[0])"))]", field: field) { return problem }
            }
        default:
            for child in mirror.children {
                guard let label = child.label else { continue }
                if let problem = rangeProblem(in: child.value, path: path.isEmpty ? label : "\(path).\(label)", field: label) {
                    return problem
                }
            }
        }
        return nil
    }
}
