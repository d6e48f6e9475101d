import DedupeWorkloads
import Foundation

/// Finds the field a failed decode stumbled on. Foundation's `JSONDecoder` on Linux reports a
/// number outside its field's type (`"seed": -1` for a `UInt64`) as "not valid JSON", with no
/// path; this decoder reads the tree `JSONSerialization` makes of the same bytes with the same
/// types and names the field: `environment.seed is -1 (expected an integer from 0 to …)`.
///
/// Used only after `JSONDecoder` has failed, so the common path keeps Foundation's speed.
enum JSONFieldLocator {
    /// The first field of `data` that `type` cannot take, as `path is value (expected …)` or
    /// `missing key 'path'`, or `nil` when `data` is not JSON at all or decodes without error.
    static func problem<T: Decodable>(decoding type: T.Type, from data: Data) -> String? {
        guard let tree = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        do {
            _ = try T(from: TreeDecoder(value: tree, codingPath: []))
            return nil
        } catch let error as DecodingError {
            return describe(error)
        } catch {
            return "\(error)"
        }
    }

    /// `cases[3].timing.forks`: keys joined by dots, indices in brackets.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + MessageText.clipped(key.stringValue)
            }
        }
        return text
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\(path(context.codingPath + [key]))'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)) \(MessageText.clipped(context.debugDescription, limit: 400))"
        @unknown default:
            return "\(error)"
        }
    }

    // MARK: The decoder

    private struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue!)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    private static func mismatch(_ value: Any, expected: String, _ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: path, debugDescription: "is \(shown(value)) (expected \(expected))"))
    }

    /// A JSON value as it appears in a message, cut when long.
    private static func shown(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let text as String: return "'\(MessageText.clipped(text))'"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return MessageText.clipped("\(value)")
        }
    }

    /// `JSONSerialization` makes `true` and `false` `NSNumber`s of type `c`; a 0 or 1 also casts
    /// to `Bool`, so the type code tells them apart.
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func number(_ value: Any) -> NSNumber? {
        guard let number = value as? NSNumber, !isBoolean(value) else { return nil }
        return number
    }

    private static func integer<I: FixedWidthInteger>(_ value: Any, _ type: I.Type, _ path: [any CodingKey]) throws -> I {
        let expected = "an integer from \(I.min) to \(I.max)"
        guard let number = number(value) else { throw mismatch(value, expected: expected, path) }
        if let exact = I(number.description) ?? I(exactly: number.doubleValue) { return exact }
        throw mismatch(value, expected: expected, path)
    }

    private static func floating(_ value: Any, _ path: [any CodingKey]) throws -> Double {
        guard let number = number(value) else { throw mismatch(value, expected: "a number", path) }
        return number.doubleValue
    }

    private static func single<T: Decodable>(_ type: T.Type, _ value: Any, _ path: [any CodingKey]) throws -> T {
        switch type {
        case is Bool.Type:
            guard isBoolean(value), let flag = value as? NSNumber else { throw mismatch(value, expected: "true or false", path) }
            return flag.boolValue as! T
        case is String.Type:
            guard let text = value as? String else { throw mismatch(value, expected: "a string", path) }
            return text as! T
        case is Double.Type: return try floating(value, path) as! T
        case is Float.Type: return Float(try floating(value, path)) as! T
        case is Int.Type: return try integer(value, Int.self, path) as! T
        case is Int8.Type: return try integer(value, Int8.self, path) as! T
        case is Int16.Type: return try integer(value, Int16.self, path) as! T
        case is Int32.Type: return try integer(value, Int32.self, path) as! T
        case is Int64.Type: return try integer(value, Int64.self, path) as! T
        case is UInt.Type: return try integer(value, UInt.self, path) as! T
        case is UInt8.Type: return try integer(value, UInt8.self, path) as! T
        case is UInt16.Type: return try integer(value, UInt16.self, path) as! T
        case is UInt32.Type: return try integer(value, UInt32.self, path) as! T
        case is UInt64.Type: return try integer(value, UInt64.self, path) as! T
        default: return try T(from: TreeDecoder(value: value, codingPath: path))
        }
    }

    private struct TreeDecoder: Decoder {
        var value: Any
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard let object = value as? [String: Any] else { throw mismatch(value, expected: "an object", codingPath) }
            return KeyedDecodingContainer(Keyed<Key>(object: object, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard let array = value as? [Any] else { throw mismatch(value, expected: "an array", codingPath) }
            return Unkeyed(array: array, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        var object: [String: Any]
        var codingPath: [any CodingKey]
        var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

        func child(_ key: Key) throws -> Any {
            guard let value = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
            }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool { try child(key) is NSNull }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let value = try child(key)
            if value is NSNull { throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "is null")) }
            return try single(type, value, codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try TreeDecoder(value: child(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try TreeDecoder(value: child(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { TreeDecoder(value: object, codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { TreeDecoder(value: try child(key), codingPath: codingPath + [key]) }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        var array: [Any]
        var codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { array.count }
        var isAtEnd: Bool { currentIndex >= array.count }

        init(array: [Any], codingPath: [any CodingKey]) {
            self.array = array
            self.codingPath = codingPath
        }

        mutating func next() throws -> (Any, [any CodingKey]) {
            let path = codingPath + [IndexKey(currentIndex)]
            guard !isAtEnd else { throw DecodingError.valueNotFound(Any.self, .init(codingPath: path, debugDescription: "is missing")) }
            defer { currentIndex += 1 }
            return (array[currentIndex], path)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, array[currentIndex] is NSNull else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (value, path) = try next()
            if value is NSNull { throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "is null")) }
            return try single(type, value, path)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let (value, path) = try next()
            return try TreeDecoder(value: value, codingPath: path).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (value, path) = try next()
            return try TreeDecoder(value: value, codingPath: path).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            let (value, path) = try next()
            return TreeDecoder(value: value, codingPath: path)
        }
    }

    private struct Single: SingleValueDecodingContainer {
        var value: Any
        var codingPath: [any CodingKey]

        func decodeNil() -> Bool { value is NSNull }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if value is NSNull { throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "is null")) }
            return try single(type, value, codingPath)
        }
    }
}
