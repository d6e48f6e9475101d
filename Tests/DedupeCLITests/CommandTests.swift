import Testing
@testable import DedupeCLI

@Suite struct CommandTests {
    @Test func skeletonExitsCleanly() {
        #expect(DedupeCommand.main(arguments: []) == 0)
    }
}
