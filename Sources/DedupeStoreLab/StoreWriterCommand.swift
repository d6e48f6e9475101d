/// How to start a store-writer child: an executable that runs ``StoreWriterChild`` when started
/// with `arguments`. The harness's executables do, behind their hidden child verb.
package struct StoreWriterCommand: Sendable {
    package var executable: String
    package var arguments: [String]

    package init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }
}
