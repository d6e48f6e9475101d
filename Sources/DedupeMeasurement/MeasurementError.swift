/// A plan a measurement cannot run, or a stage it could not finish, with a message naming what
/// is wrong: the one error of the harness and the store lab.
package enum MeasurementError: Error, Equatable, CustomStringConvertible {
    case invalidPlan(String)
    /// A stage of the run could not finish (a child process that hung or failed); the message
    /// names it.
    case stageFailed(String)

    package var description: String {
        switch self {
        case .invalidPlan(let message), .stageFailed(let message): return message
        }
    }
}
