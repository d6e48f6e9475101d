/// The `dedupe-bench` command. (Skeleton: the CLI issue fills this in.)
public enum DedupeCommand {
    /// Runs the command and returns the process exit code.
    public static func main(arguments: [String]) -> Int32 {
        print("dedupe-bench: skeleton")
        return 0
    }
}
