import Testing
import DedupeReports

@Suite struct CSVTableTabSeparatedTests {
    @Test func fieldsCannotAddColumnsOrRows() {
        #expect(CSVTable.tabSeparatedField("plain") == "plain")
        #expect(CSVTable.tabSeparatedField("a\tb\nc\rd\\e\u{1B}f\u{85}") == "a\\tb\\nc\\rd\\\\e\\u{1B}f\\u{85}")
        let table = CSVTable(header: ["name", "value"], rows: [["two\nlines", "x\ty"], ["", "é"]])
        #expect(table.renderTabSeparated() == "name\tvalue\ntwo\\nlines\tx\\ty\n\té\n")
    }
}
