import Foundation

/// The Markdown `MarkdownReport` writes, as HTML: headings, paragraphs, lists, block quotes,
/// fenced code, tables, and inline code, emphasis and links. `report.html` is rendered from the
/// same text as `report.md`, so every table of the one is a table of the other, including tables
/// added later.
///
/// Only that subset is read; anything else shows as text. Every character of the source is
/// HTML-escaped, and markup comes only from the Markdown syntax, so no name from the data can
/// become a tag.
struct MarkdownHTML {
    /// The HTML of an image line (`![alt](file.svg)`), or `nil` to show it as a link.
    var image: (_ alt: String, _ source: String) -> String?

    /// The HTML of `markdown`, and its second-level headings (title and fragment id) in order.
    ///
    /// - Complexity: O(*n*) in the length of `markdown`.
    func render(_ markdown: String) -> (html: String, sections: [(title: String, id: String)]) {
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var state = State()
        render(lines[...], into: &state)
        return (state.html, state.sections)
    }

    private struct State {
        var html = ""
        var sections: [(title: String, id: String)] = []
        var usedIDs: Set<String> = []
    }

    private func render(_ lines: ArraySlice<String>, into state: inout State) {
        var index = lines.startIndex
        var paragraph: [String] = []
        func flushParagraph() {
            guard !paragraph.isEmpty else { return }
            state.html += "<p>" + Self.inline(paragraph.joined(separator: "\n")) + "</p>\n"
            paragraph = []
        }
        while index < lines.endIndex {
            let line = lines[index]
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                flushParagraph()
                index += 1
            } else if line.hasPrefix("```") {
                flushParagraph()
                let language = String(line.dropFirst(3))
                var end = index + 1
                while end < lines.endIndex, !lines[end].hasPrefix("```") { end += 1 }
                let code = lines[(index + 1)..<end].joined(separator: "\n")
                let kind = language.isEmpty ? "" : " class=\"language-\(HTMLText.escaped(language))\""
                state.html += "<pre><code\(kind)>" + HTMLText.escaped(code) + "</code></pre>\n"
                index = min(end + 1, lines.endIndex)
            } else if let level = Self.headingLevel(line) {
                flushParagraph()
                let text = String(line.dropFirst(level + 1))
                var id = HTMLText.slug(Self.plain(text))
                while state.usedIDs.contains(id) { id += "-2" }
                state.usedIDs.insert(id)
                if level == 2 { state.sections.append((Self.plain(text), id)) }
                state.html += "<h\(level) id=\"\(id)\">" + Self.inline(text) + "</h\(level)>\n"
                index += 1
            } else if line.hasPrefix(">") {
                flushParagraph()
                var end = index
                var inner: [String] = []
                while end < lines.endIndex, lines[end].hasPrefix(">") {
                    inner.append(String(lines[end].dropFirst(lines[end].hasPrefix("> ") ? 2 : 1)))
                    end += 1
                }
                var kind = ""
                if let first = inner.first, first.hasPrefix("[!"), first.hasSuffix("]") {
                    kind = " class=\"callout \(HTMLText.slug(String(first.dropFirst(2).dropLast())))\""
                    inner.removeFirst()
                }
                state.html += "<blockquote\(kind)>\n"
                render(inner[...], into: &state)
                state.html += "</blockquote>\n"
                index = end
            } else if line.hasPrefix("|"), index + 1 < lines.endIndex, Self.isDelimiterRow(lines[index + 1]) {
                flushParagraph()
                var end = index + 2
                while end < lines.endIndex, lines[end].hasPrefix("|") { end += 1 }
                state.html += Self.table(header: line, delimiter: lines[index + 1], rows: Array(lines[(index + 2)..<end]))
                index = end
            } else if let (alt, source) = Self.imageLine(line) {
                flushParagraph()
                state.html += image(alt, source) ?? "<p>" + Self.inline(line.dropFirst().description) + "</p>\n"
                index += 1
            } else if let marker = Self.listMarker(line) {
                flushParagraph()
                let ordered = marker != "-"
                var items: [String] = []
                var end = index
                while end < lines.endIndex {
                    if let next = Self.listMarker(lines[end]), (next != "-") == ordered {
                        items.append(String(lines[end].dropFirst(next.count + 1)))
                    } else if lines[end].hasPrefix("  "), !items.isEmpty {
                        items[items.count - 1] += "\n" + lines[end].trimmingCharacters(in: .whitespaces)
                    } else {
                        break
                    }
                    end += 1
                }
                let tag = ordered ? "ol" : "ul"
                state.html += "<\(tag)>\n" + items.map { "<li>" + Self.inline($0) + "</li>\n" }.joined() + "</\(tag)>\n"
                index = end
            } else {
                paragraph.append(line)
                index += 1
            }
        }
        flushParagraph()
    }

    // MARK: Blocks

    static func headingLevel(_ line: String) -> Int? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes), line.dropFirst(hashes).hasPrefix(" ") else { return nil }
        return hashes
    }

    /// `-` for a bullet, `N.` for a numbered item.
    static func listMarker(_ line: String) -> String? {
        if line.hasPrefix("- ") { return "-" }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, line.dropFirst(digits.count).hasPrefix(". ") else { return nil }
        return digits + "."
    }

    static func imageLine(_ line: String) -> (String, String)? {
        guard line.hasPrefix("!["), line.hasSuffix(")"), let middle = line.range(of: "](") else { return nil }
        let alt = String(line[line.index(line.startIndex, offsetBy: 2)..<middle.lowerBound])
        let source = String(line[middle.upperBound..<line.index(before: line.endIndex)])
        return source.contains(" ") ? nil : (alt, source)
    }

    static func isDelimiterRow(_ line: String) -> Bool {
        let cells = tableCells(line)
        return !cells.isEmpty && cells.allSatisfy { cell in
            let core = cell.trimmingCharacters(in: CharacterSet(charactersIn: ":"))
            return !core.isEmpty && core.allSatisfy { $0 == "-" }
        }
    }

    /// A row's cells: split at every `|` that no backslash escapes, then `\|` read as `|`.
    static func tableCells(_ line: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for character in line {
            if escaped {
                cell += character == "|" ? "|" : "\\" + String(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(cell)
                cell = ""
            } else {
                cell.append(character)
            }
        }
        if escaped { cell += "\\" }
        cells.append(cell)
        if line.hasPrefix("|") { cells.removeFirst() }
        if line.hasSuffix("|"), !line.hasSuffix("\\|") { cells.removeLast() }
        return cells.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A data table: the sorting and filtering script finds it by its class, and numbers are
    /// marked by the Markdown's right alignment.
    static func table(header: String, delimiter: String, rows: [String]) -> String {
        let numeric = tableCells(delimiter).map { $0.hasSuffix(":") }
        func cells(_ line: String, tag: String) -> String {
            tableCells(line).enumerated().map { index, cell in
                let kind = index < numeric.count && numeric[index] ? " class=\"num\"" : ""
                return "<\(tag)\(kind)>" + inline(cell) + "</\(tag)>"
            }.joined()
        }
        var html = "<div class=\"table-wrap\"><table class=\"data\">\n<thead><tr>" + cells(header, tag: "th") + "</tr></thead>\n<tbody>\n"
        for row in rows { html += "<tr>" + cells(row, tag: "td") + "</tr>\n" }
        return html + "</tbody>\n</table></div>\n"
    }

    // MARK: Inline

    /// `text` without its Markdown: code spans' content, escapes undone, emphasis dropped.
    static func plain(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\\", text.index(after: index) < text.endIndex {
                index = text.index(after: index)
                result.append(text[index])
            } else if character != "`" && character != "*" {
                result.append(character)
            }
            index = text.index(after: index)
        }
        return result
    }

    /// Inline Markdown as HTML: backslash escapes, code spans (any fence length), `**strong**`,
    /// `*em*` and `_em_`, and `[text](target)` links to files beside the report. A link to
    /// anything else shows as its text, so the page never points off the machine.
    static func inline(_ text: String) -> String {
        let characters = Array(text)
        var html = ""
        var open: [String] = []
        var index = 0
        func toggle(_ tag: String) {
            if open.last == tag {
                open.removeLast()
                html += "</\(tag)>"
            } else {
                open.append(tag)
                html += "<\(tag)>"
            }
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\" where index + 1 < characters.count && characters[index + 1].isASCII && characters[index + 1].isPunctuationOrSymbol:
                html += HTMLText.escaped(String(characters[index + 1]))
                index += 2
            case "`":
                var fence = 0
                while index + fence < characters.count, characters[index + fence] == "`" { fence += 1 }
                if let close = closingFence(characters, from: index + fence, length: fence) {
                    var code = String(characters[(index + fence)..<close])
                    if code.count >= 2, code.hasPrefix(" "), code.hasSuffix(" ") { code = String(code.dropFirst().dropLast()) }
                    html += "<code>" + HTMLText.breakableCode(code) + "</code>"
                    index = close + fence
                } else {
                    html += String(repeating: "`", count: fence)
                    index += fence
                }
            case "*" where index + 1 < characters.count && characters[index + 1] == "*":
                toggle("strong")
                index += 2
            case "*":
                toggle("em")
                index += 1
            case "_" where open.last == "em" ? !isWordCharacter(characters, index + 1) : !isWordCharacter(characters, index - 1):
                toggle("em")
                index += 1
            case "[":
                if let (label, target, end) = link(characters, at: index) {
                    let body = inline(label)
                    html += isLocal(target) ? "<a href=\"\(HTMLText.escaped(target))\">" + body + "</a>" : body
                    index = end
                } else {
                    html += "["
                    index += 1
                }
            default:
                html += HTMLText.escaped(String(character))
                index += 1
            }
        }
        for tag in open.reversed() { html += "</\(tag)>" }
        return html
    }

    private static func isWordCharacter(_ characters: [Character], _ index: Int) -> Bool {
        index >= 0 && index < characters.count && (characters[index].isLetter || characters[index].isNumber)
    }

    private static func closingFence(_ characters: [Character], from start: Int, length: Int) -> Int? {
        var index = start
        while index < characters.count {
            guard characters[index] == "`" else {
                index += 1
                continue
            }
            var run = 0
            while index + run < characters.count, characters[index + run] == "`" { run += 1 }
            if run == length { return index }
            index += run
        }
        return nil
    }

    /// `[label](target)` at `start`: the label, the target and the index after the link.
    private static func link(_ characters: [Character], at start: Int) -> (String, String, Int)? {
        var depth = 0
        var index = start
        var inCode = false
        while index < characters.count {
            switch characters[index] {
            case "`": inCode.toggle()
            case "\\": index += 1
            case "[" where !inCode: depth += 1
            case "]" where !inCode:
                depth -= 1
                if depth == 0 {
                    guard index + 1 < characters.count, characters[index + 1] == "(",
                          let close = characters[(index + 2)...].firstIndex(of: ")")
                    else { return nil }
                    return (String(characters[(start + 1)..<index]), String(characters[(index + 2)..<close]), close + 1)
                }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// A target beside the report or in it (`results.json`, `#charts`): no scheme, no host.
    static func isLocal(_ target: String) -> Bool {
        !target.isEmpty && !target.contains(":") && !target.hasPrefix("//") && !target.contains(" ")
    }
}

private extension Character {
    var isPunctuationOrSymbol: Bool { isPunctuation || isSymbol }
}
