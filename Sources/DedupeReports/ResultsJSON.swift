import DedupeStoreLab
import DedupeWorkloads
import DedupeHarness
import Foundation
import PushDedupe

/// `results.json`: the source of truth every other report can be regenerated from.
package enum ResultsJSON {
    /// Compact, with sorted keys, so the same results give the same bytes (`jq .` pretty-prints
    /// it for reading or diffing).
    package static func encode(_ results: RunResults) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(results)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Reads a results file, refusing a schema version this build does not know.
    package static func decode(_ data: Data) throws(ResultsFileError) -> RunResults {
        let results: RunResults
        do {
            results = try JSONDecoder().decode(RunResults.self, from: data)
        } catch let error as UnsupportedSchemaVersion {
            throw .unsupportedSchema(error.version)
        } catch where Self.isNotResults(error, data) {
            throw .malformed("not a results file (\(Self.reason(error)))")
        } catch {
            // Foundation names no field for a number its type cannot hold (`"seed": -1`).
            throw .malformed(JSONFieldLocator.problem(decoding: RunResults.self, from: data) ?? Self.reason(error))
        }
        if let stores = results.stores, let problem = storesProblem(stores) { throw .malformed(problem) }
        return results
    }

    /// A store design or durability this build does not know, or a negative count, named by its
    /// path; `nil` when every row is one this build can report.
    static func storesProblem(_ stores: StoreResults) -> String? {
        let designs = Set(DedupeStore.Design.allCases.map(\.rawValue))
        let durabilities = Set(StoreDurability.allCases.map(\.rawValue))
        for (field, rows) in [("costs", stores.costs), ("sweep", stores.sweep)] {
            for (index, row) in rows.enumerated() {
                if !designs.contains(row.design) && row.design != StoreCost.structureDesign {
                    return "stores.\(field)[\(index)]: unknown design '\(MessageText.clipped(row.design))'"
                }
                if !durabilities.contains(row.durability) {
                    return "stores.\(field)[\(index)]: unknown durability '\(MessageText.clipped(row.durability))'"
                }
                if row.retained < 1 || row.consumes < 0 || row.compactions < 0 || row.folderBytes < 0 {
                    return "stores.\(field)[\(index)]: a size or count below zero"
                }
            }
        }
        let named = stores.kills.map { ("kills", $0.design, min($0.killPoints, $0.acknowledged, $0.lost, $0.repairs)) }
            + stores.twoWriters.map { ("twoWriters", $0.design, min($0.acknowledged, $0.lost)) }
            + stores.damage.map { ("damage", $0.design, min($0.trials, $0.lostMax, $0.lostTotal, $0.destroyed)) }
        for (field, design, smallest) in named {
            if !designs.contains(design) { return "stores.\(field): unknown design '\(MessageText.clipped(design))'" }
            if smallest < 0 { return "stores.\(field): a count below zero for '\(design)'" }
        }
        return nil
    }

    /// Whether `error` came before the schema version was read: `data` is not JSON, not an object,
    /// or has no integer `schemaVersion`. (Foundation reports a number a field's type cannot hold
    /// with no path either, so an error without a path means "not JSON" only when it is not.)
    private static func isNotResults(_ error: any Error, _ data: Data) -> Bool {
        let path: [any CodingKey]
        switch error {
        case DecodingError.keyNotFound(let key, let context): path = context.codingPath + [key]
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context): path = context.codingPath
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty: path = context.codingPath
        case DecodingError.dataCorrupted: return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil
        default: return false
        }
        return path.isEmpty || (path.count == 1 && path[0].stringValue == "schemaVersion")
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing key '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "wrong type at '\(path)'"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            // The description quotes the file's own strings (a case id, a strategy id): clipped,
            // so a huge or control-laden field cannot become the message.
            return "\(JSONFieldLocator.path(context.codingPath)): \(MessageText.clipped(context.debugDescription, limit: 400))"
        case DecodingError.dataCorrupted: return "invalid JSON"
        default: return "\(error)"
        }
    }
}

/// Why a results file could not be read.
package enum ResultsFileError: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    case unsupportedSchema(Int)

    package var description: String {
        switch self {
        case .malformed(let reason): return reason
        case .unsupportedSchema(let version) where version < RunResults.currentSchemaVersion:
            return "results schema \(version) comes from an older dedupe-bench and lacks what this build reports on "
                + "(the store layer, case ids, identity and persistence, error causes); this build reads schema \(RunResults.currentSchemaVersion) only: "
                + "re-run the benchmark to regenerate the file"
        case .unsupportedSchema(let version):
            return "schema version \(version) is not supported (this build reads \(RunResults.currentSchemaVersion))"
        }
    }
}
