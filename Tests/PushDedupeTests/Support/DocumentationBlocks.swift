import Foundation

/// Reads code that documentation shows and tests compile, so the two cannot drift apart.
enum DocumentationBlocks {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// The lines of the first fenced code block after `marker` in `document`, or `nil`.
    static func fencedBlock(after marker: String, in document: String) -> [String]? {
        guard let markerRange = document.range(of: marker) else { return nil }
        let lines = document[markerRange.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        guard let open = lines.firstIndex(where: { $0.hasPrefix("```") }),
              let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else { return nil }
        return lines[(open + 1)..<close].map(String.init)
    }

    /// The lines strictly between the lines containing `begin` and `end` in `source`, with the
    /// indentation they share removed, or `nil`.
    static func region(from begin: String, to end: String, in source: String) -> [String]? {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.contains(begin) }),
              let stop = lines[(start + 1)...].firstIndex(where: { $0.contains(end) })
        else { return nil }
        let body = Array(lines[(start + 1)..<stop])
        let indent = body.filter { !$0.allSatisfy(\.isWhitespace) }
            .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        return body.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }
    }
}
