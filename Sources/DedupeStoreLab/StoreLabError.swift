/// A measurement of the stores that could not finish, with a message naming what went wrong.
package enum StoreLabError: Error, Equatable, CustomStringConvertible {
    /// A request the lab cannot serve (a store writer asked for something unknown).
    case invalidPlan(String)
    /// A stage could not finish (a child process that failed, a store that would not restore).
    case stageFailed(String)

    package var description: String {
        switch self {
        case .invalidPlan(let message), .stageFailed(let message): return message
        }
    }
}
