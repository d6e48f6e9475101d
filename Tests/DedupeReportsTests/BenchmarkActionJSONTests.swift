@testable import DedupeDecision
@testable import DedupeHarness
import Foundation
import Testing
@testable import DedupeReports

/// `benchmark-action.json` is github-action-benchmark's `customSmallerIsBetter` input: a JSON
/// array of objects with a string `name` and `unit`, a number `value`, and optional string
/// `range` and `extra`, nothing else; one entry per headline row and figure, names unique.
@Suite struct BenchmarkActionJSONTests {
    typealias F = Fixtures

    /// A JSON value by its kind, as the action's reader tells them apart.
    enum Value: Decodable, Equatable {
        case string(String), number(Double), bool(Bool), other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else {
                self = .other
            }
        }
    }

    /// Checks a document against the action's format; the problems, or none.
    static func violations(_ data: Data) -> [String] {
        guard let entries = try? JSONDecoder().decode([[String: Value]].self, from: data) else {
            return ["the document is not an array of objects"]
        }
        var problems: [String] = []
        for (index, object) in entries.enumerated() {
            let unknown = Set(object.keys).subtracting(["name", "unit", "value", "range", "extra"])
            if !unknown.isEmpty { problems.append("[\(index)] has unknown keys \(unknown.sorted())") }
            for key in ["name", "unit"] {
                guard case .string = object[key] else {
                    problems.append("[\(index)].\(key) is not a string")
                    continue
                }
            }
            if case .number(let value) = object["value"] {
                if !value.isFinite { problems.append("[\(index)].value is not finite") }
            } else {
                problems.append("[\(index)].value is not a number")
            }
            for key in ["range", "extra"] {
                if let value = object[key], case .string = value { continue }
                if object[key] != nil { problems.append("[\(index)].\(key) is not a string") }
            }
        }
        let names = entries.compactMap { object -> String? in
            if case .string(let name) = object["name"] { return name }
            return nil
        }
        if Set(names).count != names.count { problems.append("names repeat") }
        return problems
    }

    @Test func theExportValidatesAgainstTheFormat() throws {
        let recommendation = Recommendation.make(from: F.results())
        let data = try BenchmarkActionJSON.render(recommendation)
        #expect(Self.violations(data).isEmpty, "\(Self.violations(data))")
        let entries = try JSONDecoder().decode([BenchmarkActionJSON.Entry].self, from: data)
        let rows = recommendation.assessments.count + (recommendation.published().map { published in
            recommendation.assessments.contains { $0.candidate.choice == published.choice } ? 0 : 1 } ?? 0)
        #expect(entries.count == 2 * rows, "a cost per push and an ns/event per row")
        #expect(entries.allSatisfy { $0.unit == "ns" && $0.value > 0 })
    }

    /// The validator itself rejects what the action would: a test of the test.
    @Test func theValidatorRejectsMalformedDocuments() throws {
        func check(_ json: String) throws -> [String] { Self.violations(Data(json.utf8)) }
        #expect(try check(#"{"name": "a"}"#) == ["the document is not an array of objects"])
        #expect(try !check(#"[{"name": "a", "unit": "ns", "value": "1"}]"#).isEmpty)
        #expect(try !check(#"[{"name": "a", "unit": "ns", "value": true}]"#).isEmpty)
        #expect(try !check(#"[{"name": "a", "unit": "ns", "value": 1, "colour": "red"}]"#).isEmpty)
        #expect(try !check(#"[{"name": "a", "unit": "ns", "value": 1}, {"name": "a", "unit": "ns", "value": 2}]"#).isEmpty)
        #expect(try check(#"[{"name": "a", "unit": "ns", "value": 1, "range": "± 1"}]"#).isEmpty)
    }
}
