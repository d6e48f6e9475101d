/// Why a trace file could not be read or written, and where.
///
/// ```
/// file.csv:12: time_ms decreases (4.5 after 7)
/// ```
package struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class of problem, for callers and tests that branch on it.
    package enum Kind: String, Sendable, CaseIterable {
        case emptyFile
        case badHeader
        case wrongColumnCount
        case badNumber
        case decreasingTime
        case unknownKind
        case invalidField
        case overlongField
        case unknownEnvelope
        case duplicateEnvelope
        case envelopeTokenCollision
        case fingerprintMismatch
        /// An emit's push_id differs from its creating payload's.
        case pushMismatch
        /// An action line or a payload names an action no earlier `action_start` started, or
        /// one that already ended.
        case unknownAction
        /// An `action_start` reuses an action an earlier one started.
        case duplicateAction
        case tooManyLabels
        case io
    }

    /// The file's name (last path component).
    package var fileName: String
    /// The 1-based line number, or 0 for a problem with the whole file.
    package var line: Int
    package var kind: Kind
    /// What is wrong, in words.
    package var reason: String

    package init(fileName: String, line: Int, kind: Kind, reason: String) {
        self.fileName = fileName
        self.line = line
        self.kind = kind
        self.reason = reason
    }

    package var description: String {
        line > 0 ? "\(fileName):\(line): \(reason)" : "\(fileName): \(reason)"
    }
}
