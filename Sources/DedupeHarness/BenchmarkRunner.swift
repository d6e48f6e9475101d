import DedupeWorkloads

/// Runs a plan. (Skeleton: the harness issue implements it.)
public enum BenchmarkRunner {
    /// Runs every selected case and returns the results. Throws `HarnessError` for a bad plan.
    public static func run(_ plan: RunPlan, progress: (RunProgress) -> Void) throws -> RunResults {
        throw HarnessError.invalidPlan("the harness is not built yet")
    }

    /// Entry point of the memory-pass child process: `dedupe-bench __memory-pass ARGS…` lands
    /// here. Returns the exit code.
    public static func runMemoryPassChild(arguments: [String]) -> Int32 {
        2
    }
}

/// A plan or input the harness cannot run, with a message naming what is wrong.
public enum HarnessError: Error, Equatable, CustomStringConvertible {
    case invalidPlan(String)

    public var description: String {
        switch self {
        case .invalidPlan(let message): return message
        }
    }
}
