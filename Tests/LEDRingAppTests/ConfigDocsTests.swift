import Foundation
import LEDRingNet
import Testing
@testable import LEDRingApp

/// The config's reference pages and the config reader cannot drift: every key the reader takes is
/// named on the page that documents its section, and every key a page's key tables list is one the
/// reader takes (a key renamed in one place and not the other fails here).
@Suite struct ConfigDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each page with the key tables of the reader that it documents.
    static let pages: [(page: String, keys: [(section: String, keys: [String])])] = [
        ("docs/config.md", [("top level", DaemonConfig.keys), ("rings[]", RingConfig.keys), ("spinner", RingConfig.spinnerKeys),
                            ("gradient stop", RingConfig.stopKeys), ("output", OutputConfig.keys), ("gpio", GPIOConfig.keys),
                            ("gpio.power", GPIOConfig.powerKeys), ("gpio.button", GPIOConfig.buttonKeys),
                            ("gpio.encoder", GPIOConfig.encoderKeys), ("socket", SocketConfig.keys)]),
        ("docs/looks.md", [("looks.NAME", DaemonConfig.lookKeys), ("zones[]", RingConfig.zoneKeys)]),
        ("docs/sources.md", [("sources[]", SourceConfig.keys), ("http.webhooks", WebhookSettings.keys),
                             ("webhooks.github", WebhookSettings.GitHub.keys), ("webhooks.alertmanager", WebhookSettings.Alertmanager.keys)]),
        ("docs/http.md", [("http", HTTPSettings.keys)]),
        ("docs/mqtt.md", [("mqtt", MQTTSettings.keys), ("mqtt.tls", MQTTSettings.TLS.keys)]),
    ]

    static func text(_ page: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
    }

    /// Whether `text` names `key` in code: `key`, `parent.key`, or `key` first in a list (`a`, `b`).
    static func names(_ text: String, _ key: String) -> Bool {
        text.contains("`\(key)`") || text.contains(".\(key)`") || text.contains("`\(key) ") || text.contains("\"\(key)\":")
    }

    @Test func everyKeyTheReaderTakesIsOnItsPage() throws {
        for (page, sections) in Self.pages {
            let text = try Self.text(page)
            for (section, keys) in sections {
                for key in keys {
                    let named = Self.names(text, key)
                    #expect(named, "\(page) does not name \(section) key \"\(key)\", which the config reader takes")
                }
            }
        }
    }

    /// The first column of every table headed `| key |`: each name in it is a key the reader takes
    /// for that page (`github.secret` counts as `secret` of `github`).
    @Test func everyKeyAPageListsIsOneTheReaderTakes() throws {
        var tables = 0
        for (page, sections) in Self.pages {
            let known = Set(sections.flatMap { $0.keys })
            var inTable = false
            for line in try Self.text(page).components(separatedBy: "\n") {
                if line.hasPrefix("| key |") { inTable = true; tables += 1; continue }
                guard inTable, line.hasPrefix("|") else { inTable = false; continue }
                let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                guard cells.count > 1, !cells[1].contains("---") else { continue }
                // The names in backticks of the first cell: `host`, `port` or `github.secret` / `github.secretFile`.
                let parts = cells[1].split(separator: "`", omittingEmptySubsequences: false)
                for (i, part) in parts.enumerated() where i % 2 == 1 {
                    let name = String(part.split(separator: ".").last ?? part)
                    let takes = known.contains(name)
                    #expect(takes, "\(page): the key table lists `\(part)`, which the config reader does not take")
                }
            }
        }
        #expect(tables >= 5, "found \(tables) key tables")
    }

    /// The service's page names every option of the two settings tables with its config key, so
    /// a setting added to a table and left out of the page fails here.
    @Test func theServicePageNamesEverySettingOfTheTablesWithItsKey() throws {
        let text = try Self.text("docs/service.md")
        let settings: [(option: String, key: String?)] = ColorSetting.allCases.map { ($0.option.name, $0.key) }
            + OutputSetting.allCases.map { (($0.option ?? OutputSetting.runFormat).name, $0.fileKey) }
        for (option, key) in settings {
            #expect(text.contains("`\(option)"), "docs/service.md does not name \(option)")
            if let key { #expect(Self.names(text, key), "docs/service.md does not name the key \(key) of \(option)") }
        }
    }
}
