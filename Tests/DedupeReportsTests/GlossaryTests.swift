@testable import DedupeStoreLab
import Foundation
import Testing
@testable import DedupeHarness
import DedupeLifecycle
import DedupeReports
import DedupeWorkloads
import PushDedupe

/// `Guides/Glossary.md` names every term the code spells out and every column header the
/// committed reports print, so a new mode, cause, persistence or column cannot ship undefined.
@Suite struct GlossaryTests {
    /// The package root: this file is `Tests/DedupeReportsTests/GlossaryTests.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func source(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The reports whose table headers the glossary must define.
    static let reports = ["Reports/report.md", "Reports/policies.md", "Reports/headline.md"]

    /// Every closed vocabulary the reports, the CLI and the results file spell, by its values.
    static var vocabularies: [(name: String, values: [String])] {
        [
            ("mode (CaseMode)", CaseMode.allCases.map(\.rawValue)),
            ("identity (EnvelopeIdentity)", EnvelopeIdentity.allCases.map(\.rawValue)),
            ("persistence (Persistence)", Persistence.allCases.map(\.rawValue)),
            ("former persistence name (Persistence.formerNames)", Persistence.formerNames.keys.sorted()),
            ("saving policy (DedupeStore.SavingPolicy)", DedupeStore.SavingPolicy.allCases.map(\.rawValue)),
            ("guarantee class (Guarantee.Class)", Guarantee.Class.allCases.map(\.rawValue)),
            ("parameter (ConfigurationParameter)", ConfigurationParameter.allCases.map(\.rawValue)),
            ("error cause (ErrorCause)", [
                ErrorCause.loadingGuardOnly, ErrorCause.afterActionFinished, ErrorCause.noActionRecords, ErrorCause.pushIdentity,
                ErrorCause.persistence, ErrorCause.pushIdentityAndPersistence, ErrorCause.forgotten,
                ErrorCause.lostAtRelaunch, ErrorCause.windowLength, ErrorCause.windowDrop, ErrorCause.windowDropOutside,
                ErrorCause.setFalsePositive, ErrorCause.loadingGuardDrop, ErrorCause.sharedEnvelope,
                ErrorCause.other(kind: "KIND", source: "SOURCE"),
            ]),
            ("decision (CaseDecision.label)", CaseDecision.allCases.compactMap(\.label)),
            ("truth (Truth)", Truth.allCases.map { "\($0)" }),
            ("event kind (EventKind)", EventKind.allCases.map { "\($0)" }),
            ("scenario category (Scenario.Category)", Scenario.Category.allCases.map(\.rawValue)),
            ("scenario tag (Scenario.Tag)", Scenario.Tag.allCases.map(\.rawValue)),
            ("store design (DedupeStore.Design)", DedupeStore.Design.allCases.map(\.rawValue)),
            ("durability (StoreDurability)", StoreDurability.allCases.map(\.rawValue)),
            ("damage kind (StoreDamageResult.Kind)", StoreDamageResult.Kind.allCases.map(\.rawValue)),
            ("sweep dimension (SweepDimension)", SweepDimension.allCases.map(\.rawValue)),
            ("consume timing (ConsumeTiming)", ConsumeTiming.allCases.map(\.rawValue)),
            ("policy variant (PolicyVariant)", PolicyVariant.allCases.map(\.rawValue)),
            ("lifecycle failure (LifecycleFailure)", LifecycleFailure.allCases.map(\.rawValue)),
            ("verify property (LifecycleFailure.property)", LifecycleFailure.allCases.map(\.property)),
            ("failure rule (FailureRule)", FailureRule.allCases.map(\.rawValue)),
            ("failure rule category (FailureRule.Category)", FailureRule.allCases.map(\.category.rawValue)),
        ]
    }

    /// Workload and scenario ids, which a header may name without backticks and which the
    /// glossary does not list one by one.
    static var workloadIDs: Set<String> {
        Set(ScenarioCatalogue.all.map(\.id) + LifecycleScenarioCatalogue.all.map(\.id))
    }

    @Test func everyVocabularyValueIsInTheGlossary() throws {
        let glossary = Glossary(try Self.source("Guides/Glossary.md"))
        for (name, values) in Self.vocabularies {
            #expect(!values.isEmpty, "the \(name) vocabulary is empty")
            for value in values {
                let defined = glossary.defines(value)
                #expect(defined, "Guides/Glossary.md does not define the \(name) '\(value)'")
            }
        }
    }

    @Test func everyReportColumnHeaderIsInTheGlossary() throws {
        let glossary = Glossary(try Self.source("Guides/Glossary.md"))
        let workloads = Self.workloadIDs
        for report in Self.reports {
            let headers = HeaderTerms.headerCells(in: try Self.source(report))
            #expect(!headers.isEmpty, "\(report) has no Markdown table")
            for cell in headers {
                for term in HeaderTerms.terms(of: cell, workloadIDs: workloads) {
                    let defined = glossary.containsPhrase(term)
                    #expect(
                        defined, "Guides/Glossary.md does not define the column header '\(term)' of \(report) (cell '\(cell)')")
                }
            }
        }
    }

    /// The header check reads what the report prints: the committed report's known headers are
    /// found, and ids, numbers and workloads are left out.
    @Test func headerCellsAreReadAsPrinted() throws {
        let report = try Self.source("Reports/report.md")
        let cells = Set(HeaderTerms.headerCells(in: report))
        for header in ["Missed dups", "× reference", "Newly dropped", "Killed: lost/acked", "Weighted cost"] {
            #expect(cells.contains(header), "no '\(header)' header found in Reports/report.md")
        }
        let workloads: Set<String> = ["marketing-burst"]
        #expect(HeaderTerms.terms(of: "`marketing-burst`", workloadIDs: workloads).isEmpty)
        #expect(HeaderTerms.terms(of: "marketing-burst", workloadIDs: workloads).isEmpty)
        #expect(HeaderTerms.terms(of: "500", workloadIDs: workloads).isEmpty)
        #expect(HeaderTerms.terms(of: "published, `minted`, `memory`", workloadIDs: workloads) == ["published"])
        #expect(HeaderTerms.terms(of: "`published` duplicates", workloadIDs: workloads) == ["duplicates"])
        #expect(HeaderTerms.terms(of: "Where (scenario: mechanism count)", workloadIDs: workloads)
            == ["Where (scenario: mechanism count)"])
        let table = "text\n\n| A b | `id` | 42 |\n| --- | ---: | --- |\n| x | y | z |\n\n| not a header |\n"
        #expect(HeaderTerms.headerCells(in: table) == ["A b", "`id`", "42"])
    }

    /// The checks fail on a glossary that lacks a term, and do not take a part of a word for it.
    @Test func aMissingTermIsFound() {
        let glossary = Glossary(
            "| `after-every-consume` | persistence |\n| Missed dups | Cases |\n| `SavingPolicy.onBackground` |\n")
        #expect(glossary.defines("after-every-consume"))
        #expect(glossary.defines("onBackground"))
        #expect(!glossary.defines("on-background"))
        #expect(!glossary.defines("after-every"))
        #expect(glossary.containsPhrase("Missed dups"))
        #expect(!glossary.containsPhrase("Miss"))
        #expect(!glossary.containsPhrase("Case"))
        #expect(!glossary.containsPhrase("dups and drops"))
        // A multi-word value may be written plainly; a one-word value must be code.
        #expect(!glossary.defines("persistence"))
        #expect(Glossary("| only a loading guard | … |").defines("only a loading guard"))
    }

    /// The published code has one name: the retired names appear only where the glossary retires them.
    @Test func retiredNamesAreOnlyRetired() throws {
        let text = try Self.source("Guides/Glossary.md")
        for line in text.split(separator: "\n") {
            for retired in ["seed code", "articles' code", "reference code"] where line.contains(retired) {
                #expect(line.contains("retired"), "Guides/Glossary.md uses '\(retired)' for the published code: \(line)")
            }
            #expect(line.count <= 400, "Guides/Glossary.md has a line of \(line.count) characters: \(line.prefix(60))…")
        }
    }
}

/// The glossary's text, read as the tests need it.
struct Glossary {
    let text: String
    /// The contents of its code spans (`` `value` ``).
    let codeSpans: Set<String>

    init(_ text: String) {
        self.text = text
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        codeSpans = Set(parts.indices.filter { $0 % 2 == 1 }.map { String(parts[$0]) })
    }

    /// Whether `value` is defined: in a code span of its own (`value`, `.value` or `Type.value`),
    /// or, for a multi-word phrase such as a cause, also as plain text.
    func defines(_ value: String) -> Bool {
        if codeSpans.contains(value) || codeSpans.contains(where: { $0.hasSuffix(".\(value)") }) { return true }
        return value.contains(" ") && containsPhrase(value)
    }

    /// Whether `phrase` occurs as written (case included), not as part of a longer word or id.
    func containsPhrase(_ phrase: String) -> Bool {
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "-" || character == "_"
        }
        var searchStart = text.startIndex
        while let range = text.range(of: phrase, range: searchStart..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !(before.map(isWordCharacter) ?? false) && !(after.map(isWordCharacter) ?? false) { return true }
            searchStart = text.index(after: range.lowerBound)
        }
        return false
    }
}

/// The column headers of a Markdown file's tables, and the terms each one asks the glossary for.
enum HeaderTerms {
    /// The cells of every line that starts with `| ` and is followed by a `| ---` separator line.
    static func headerCells(in markdown: String) -> [String] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var cells: [String] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("| ") && index + 1 < lines.count {
            guard lines[index + 1].hasPrefix("| ---") || lines[index + 1].hasPrefix("|---") else { continue }
            cells += line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return cells
    }

    /// What the glossary must hold for one header cell: the cell as printed; for a cell that
    /// mixes code and words (`published, `minted`, `memory``), the words between its code spans.
    /// A cell that is only code (an id), a number or a workload id asks for nothing.
    static func terms(of cell: String, workloadIDs: Set<String>) -> [String] {
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
        let pieces: [String]
        if parts.count > 1 {
            let plain = parts.indices.filter { $0 % 2 == 0 }.map { String(parts[$0]) }.joined(separator: ",")
            pieces = plain.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters)) }
        } else {
            pieces = [cell]
        }
        return pieces.filter { piece in
            !piece.isEmpty && Double(piece) == nil && !workloadIDs.contains(piece)
        }
    }
}
