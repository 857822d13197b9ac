import Foundation
import Testing

/// The README and docs/ link to each other by relative paths and heading anchors; every one must
/// resolve, so a page renamed or a heading reworded cannot leave a dead link.
@Suite struct DocsLinkTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// The lines of `text` outside fenced code blocks.
    static func prose(_ text: String) -> [String] {
        var out: [String] = [], fenced = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
            if !fenced { out.append(line) }
        }
        return out
    }

    /// The anchor GitHub gives a heading: lower case, letters, digits, `-` and `_` kept, spaces
    /// made `-`, everything else dropped (so "Klipper / Moonraker" is `klipper--moonraker`).
    static func slug(_ heading: String) -> String {
        var text = heading
        // [text](url) → text; `code` → code.
        while let open = text.range(of: "]("), let close = text[open.upperBound...].firstIndex(of: ")") {
            text.removeSubrange(open.lowerBound..<text.index(after: close))
            if let bracket = text[..<open.lowerBound].lastIndex(of: "[") { text.remove(at: bracket) }
        }
        var out = ""
        for c in text.lowercased() {
            if c == " " { out.append("-") } else if c.isLetter || c.isNumber || c == "-" || c == "_" { out.append(c) }
        }
        return out
    }

    static func anchors(_ page: String) throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        var out = Set<String>()
        for line in prose(text) where line.hasPrefix("#") {
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            out.insert(slug(heading))
        }
        return out
    }

    /// Every `](target)` outside code in every page: `(page, line, target)`.
    static func links() throws -> [(page: String, line: Int, target: String)] {
        var out: [(String, Int, String)] = []
        for page in try pages() {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            var fenced = false
            for (n, line) in text.components(separatedBy: "\n").enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
                guard !fenced else { continue }
                // Inline code is not a link: drop `…` spans first.
                let parts = line.split(separator: "`", omittingEmptySubsequences: false)
                let plain = parts.enumerated().filter { $0.offset % 2 == 0 }.map { String($0.element) }.joined(separator: " ")
                var rest = plain[...]
                while let open = rest.range(of: "](") {
                    guard let close = rest[open.upperBound...].firstIndex(of: ")") else { break }
                    out.append((page, n + 1, String(rest[open.upperBound..<close])))
                    rest = rest[close...]
                }
            }
        }
        return out
    }

    @Test func everyRelativeLinkResolves() throws {
        let links = try Self.links()
        #expect(links.count > 40, "found \(links.count) links")
        for (page, line, target) in links where !target.hasPrefix("http://") && !target.hasPrefix("https://") && !target.hasPrefix("mailto:") {
            let pieces = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let base = URL(fileURLWithPath: page, relativeTo: Self.root).deletingLastPathComponent()
            let file = pieces[0].isEmpty ? page : URL(fileURLWithPath: pieces[0], relativeTo: base).absoluteURL.standardized.path
                .replacingOccurrences(of: Self.root.standardized.path + "/", with: "")
            let exists = FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path)
            #expect(exists, "\(page):\(line): \(target) — \(file) does not exist")
            if exists, pieces.count == 2 {
                let known = file.hasSuffix(".md") ? try Self.anchors(file) : []
                let found = known.contains(pieces[1])
                #expect(found, "\(page):\(line): \(target) — \(file) has no heading with the anchor #\(pieces[1])")
            }
        }
    }

    /// Every page of docs/ is reachable from the README.
    @Test func everyPageIsLinkedFromTheReadme() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        for page in try Self.pages().dropFirst() {
            let linked = readme.contains("](\(page))") || readme.contains("](\(page)#")
            #expect(linked, "README.md does not link \(page)")
        }
    }

    @Test func slugsAreGitHubs() {
        #expect(Self.slug("Klipper / Moonraker") == "klipper--moonraker")
        #expect(Self.slug("GPIO: APA102 on any two pins, a supply switch, a button and a knob") == "gpio-apa102-on-any-two-pins-a-supply-switch-a-button-and-a-knob")
        #expect(Self.slug("The service: `ledring run`") == "the-service-ledring-run")
    }
}
