import DedupeWorkloads
import Testing
import DedupeReports

@Suite struct MessageTextTests {
    @Test func longStringsAreCutWithACount() {
        #expect(MessageText.clipped("short") == "short")
        let exact = String(repeating: "x", count: MessageText.limit)
        #expect(MessageText.clipped(exact) == exact)
        let long = String(repeating: "é", count: 100_000)
        #expect(MessageText.clipped(long) == String(repeating: "é", count: 200) + "…(99800 more)")
        #expect(MessageText.clipped("abcdef", limit: 2) == "ab…(4 more)")
        // Scalars, not characters: e + U+0301 counts two.
        #expect(MessageText.clipped("e\u{301}e\u{301}", limit: 1) == "e…(3 more)")
    }

    @Test func controlCharactersAreEscaped() {
        #expect(MessageText.controlsEscaped("a\nb\rc\td\u{1B}e\u{7F}f\u{9F}") == "a\\nb\\rc\\td\\u{1B}e\\u{7F}f\\u{9F}")
        #expect(MessageText.controlsEscaped("x|y", special: ["|"]) == "x\\|y")
        #expect(MessageText.quoted(String(repeating: "\n", count: 300)) == String(repeating: "\\n", count: 200) + "…(100 more)")
    }
}
