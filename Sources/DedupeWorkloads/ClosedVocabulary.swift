/// A closed set of names a file spells out (a results file's sweep dimensions, layers, policy
/// variants): a name this build does not know is refused with its path and the known names, not
/// misread or left out of every table.
package protocol ClosedVocabulary: RawRepresentable<String>, CaseIterable, Decodable {
    /// What one name is, in a message: `dimension`, `policy variant`.
    static var vocabularyName: String { get }
    /// Names older files spell for a case since renamed; read as that case, never written.
    static var formerNames: [String: Self] { get }
}

extension ClosedVocabulary {
    package static var formerNames: [String: Self] { [:] }

    /// The case `name` spells, current or former.
    package init?(reading name: String) {
        guard let value = Self(rawValue: name) ?? Self.formerNames[name] else { return nil }
        self = value
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(reading: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "is '\(text)', an unknown \(Self.vocabularyName) (expected \(Self.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = value
    }
}
