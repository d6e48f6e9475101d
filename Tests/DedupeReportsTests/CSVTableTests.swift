import Testing
@testable import DedupeReports

@Suite struct CSVTableTests {
    @Test(arguments: [
        ("plain", "plain"), ("", ""), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""), ("cr\r", "\"cr\r\""), ("crlf\r\nline", "\"crlf\r\nline\""),
        ("trailing space ", "trailing space "),
    ])
    func quotesOnlyWhenRFC4180Requires(_ field: String, _ expected: String) {
        #expect(CSVTable.quote(field) == expected)
    }

    @Test func rendersOneHeaderAndCRLFRows() {
        let table = CSVTable(header: ["a", "b"], rows: [["1", "x,y"], ["2", ""]])
        #expect(table.render() == "a,b\r\n1,\"x,y\"\r\n2,\r\n")
    }

    @Test func everyRowHasTheHeaderWidth() {
        let results = Fixtures.results()
        for table in [CSVReport.throughput(results), CSVReport.memory(results), CSVReport.correctness(results), CSVReport.sweeps(results)] {
            #expect(!table.rows.isEmpty)
            #expect(table.rows.allSatisfy { $0.count == table.header.count })
            #expect(Set(table.header).count == table.header.count)
        }
    }

    @Test func numbersRoundTripExactly() {
        for value in [0.1, 1.0 / 3, 12_345.678, 1e-9, 42] {
            #expect(Double(NumberText.exact(value)) == value)
        }
        #expect(NumberText.exact(42.0) == "42")
        #expect(NumberText.exact(Double?.none) == "")
    }
}
