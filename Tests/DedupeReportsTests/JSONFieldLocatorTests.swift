@testable import DedupeHarness
import Foundation
import Testing
@testable import DedupeReports

/// A number its field's type cannot hold is named by its path, not reported as invalid JSON.
@Suite struct JSONFieldLocatorTests {
    static func edited(_ edit: (inout [String: Any]) -> Void) throws -> Data {
        var tree = try #require(JSONSerialization.jsonObject(with: ResultsJSON.encode(Fixtures.results())) as? [String: Any])
        edit(&tree)
        return try JSONSerialization.data(withJSONObject: tree)
    }

    static func message(_ data: Data) -> String? {
        do {
            _ = try ResultsJSON.decode(data)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func outOfRangeNumbersNameTheirField() throws {
        let seed = try Self.edited { tree in
            var environment = tree["environment"] as! [String: Any]
            environment["seed"] = -1
            tree["environment"] = environment
        }
        #expect(Self.message(seed) == "environment.seed is -1 (expected an integer from 0 to 18446744073709551615)")
        let count = try Self.edited { tree in
            var cases = tree["cases"] as! [Any]
            var first = cases[1] as! [String: Any]
            var parameters = first["parameters"] as! [String: Any]
            parameters["windowCapacity"] = 1.5
            first["parameters"] = parameters
            cases[1] = first
            tree["cases"] = cases
        }
        #expect(Self.message(count) == "cases[1].parameters.windowCapacity is 1.5 (expected an integer from -9223372036854775808 to 9223372036854775807)")
    }

    @Test func typesAndMissingKeysNameTheirField() throws {
        let text = try Self.edited { tree in
            var settings = tree["settings"] as! [String: Any]
            settings["quick"] = 1
            tree["settings"] = settings
        }
        #expect(Self.message(text)?.contains("quick") == true)
        #expect(JSONFieldLocator.problem(decoding: RunResults.self, from: Data(#"{"schemaVersion": \#(RunResults.currentSchemaVersion)}"#.utf8)) == "missing key 'environment'")
        #expect(JSONFieldLocator.problem(decoding: RunResults.self, from: Data("not json".utf8)) == nil)
        #expect(JSONFieldLocator.problem(decoding: RunResults.self, from: try ResultsJSON.encode(Fixtures.results())) == nil)
    }
}
