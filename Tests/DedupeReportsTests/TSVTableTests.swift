import Testing
import DedupeReports

@Suite struct TSVTableTests {
    @Test func fieldsCannotAddColumnsOrRows() {
        #expect(TSVTable.escaped("plain") == "plain")
        #expect(TSVTable.escaped("a\tb\nc\rd\\e\u{1B}f\u{85}") == "a\\tb\\nc\\rd\\\\e\\u{1B}f\\u{85}")
        let table = TSVTable(header: ["name", "value"], rows: [["two\nlines", "x\ty"], ["", "é"]])
        #expect(table.render() == "name\tvalue\ntwo\\nlines\tx\\ty\n\té\n")
    }
}
