/// The three kinds of screen a push opens, after the published fingerprint function
/// (`item:<id>`, `content:<id>`, `document:<id>`).
package enum RouteKind: String, CaseIterable, Sendable {
    case item
    case content
    case document

    /// The normalized route string, e.g. `item:42`.
    ///
    /// - Complexity: O(1).
    package func route(_ id: Int) -> String {
        rawValue + ":" + String(id)
    }
}
