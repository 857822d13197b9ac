/// A boot configuration file read as the firmware reads it: `key=value` lines, each with the
/// conditional filters (`[pi4]`, `[all]`, `[none]`, `[gpio4=1]`, …) in force over it, and
/// `include` lines followed inline.
///
/// The rules come from raspberrypi/documentation
/// `documentation/asciidoc/computers/config_txt/conditional.adoc`: `[all]` resets every filter;
/// `[none]` stops the lines after it applying anywhere; filters of the same type replace each
/// other (`[pi2]` replaces `[pi1]`) and filters of different types are ANDed (`[EDID=…]` then
/// `[pi2]`). Which model filters match a board comes from its board file (`configFilters`), not
/// from this type. Filters the doctor cannot evaluate (EDID, HDMI port, GPIO level, serial
/// number, tryboot, board-type, unknown ones) make the lines under them "maybe".
///
/// Files without sections (Armbian's armbianEnv.txt, uEnv.txt) are read flat: every line applies.
public struct BootConfig: Sendable {
    /// One `key=value` line, where it is, and the filters in force over it.
    public struct Line: Hashable, Sendable {
        /// The key, whitespace removed, e.g. `core_freq`.
        public var key: String
        /// The value, whitespace removed, e.g. `500`.
        public var value: String
        /// The file the line is in (the board file's path, or an included file next to it).
        public var file: String
        /// The 1-based line number in `file`.
        public var number: Int
        /// The filters in force over the line.
        public var filters: Filters

        /// "core_freq=500 (/boot/firmware/config.txt line 3 under [cm4])".
        public var located: String {
            "\(key)=\(value) (\(file) line \(number)\(filters.isEmpty ? "" : " under " + filters.text))"
        }
    }

    /// The conditional filters in force at one point of the file.
    public struct Filters: Hashable, Sendable {
        /// The model filter (`pi4`, `cm4`, `board-type=0x11`), nil when none is in force.
        public var model: String?
        /// Filters the doctor cannot evaluate, one per type, as written (`[gpio4=1]`).
        public var unevaluable: [Unevaluable] = []
        /// Whether `[none]` is in force.
        public var none: NoneState = .off

        /// A filter the doctor cannot evaluate and its type (a new one of the same type replaces it).
        public struct Unevaluable: Hashable, Sendable {
            /// `EDID`, `HDMI`, `gpio`, `serial`, `tryboot`, or the whole text of an unknown filter.
            public var type: String
            /// The section as written, `[gpio4=1]`.
            public var text: String
        }

        /// `[none]` and what came after it.
        public enum NoneState: Hashable, Sendable {
            /// No `[none]` since the last `[all]`.
            case off
            /// `[none]` is the last filter: nothing applies.
            case on
            /// `[none]` was followed by another filter without `[all]` between; the doc does not
            /// say whether that ends `[none]`.
            case followed
        }

        /// Whether no filter is in force (as after `[all]`).
        public var isEmpty: Bool { model == nil && unevaluable.isEmpty && none == .off }

        /// The sections in force, `[none][pi4][gpio4=1]`, empty when none.
        public var text: String {
            var parts: [String] = []
            if none != .off { parts.append("[none]") }
            if let model { parts.append("[\(model)]") }
            parts += unevaluable.map { $0.text }
            return parts.joined()
        }

        /// Applies one section header (the text between the brackets).
        mutating func apply(section: String) {
            if section == "all" {
                self = Filters()
                return
            }
            if section == "none" {
                none = .on
                return
            }
            if none == .on { none = .followed }
            if BootConfig.modelFilters.contains(section) || section.hasPrefix("board-type=") {
                model = section
                return
            }
            let type: String
            if section == "tryboot" {
                type = "tryboot"
            } else if section.hasPrefix("EDID=") {
                type = "EDID"
            } else if section.hasPrefix("HDMI:") {
                type = "HDMI"
            } else if section.hasPrefix("gpio"), section.contains("=") {
                type = "gpio"
            } else if section.hasPrefix("0x") {
                type = "serial"
            } else {
                type = section
            }
            unevaluable.removeAll { $0.type == type }
            unevaluable.append(Unevaluable(type: type, text: "[\(section)]"))
        }
    }

    /// Which model filters match the board the doctor runs on.
    public struct Model: Hashable, Sendable {
        /// A name for messages, e.g. "Raspberry Pi 4 Model B".
        public var name: String
        /// The model filters that match (without brackets), e.g. `["pi4", "pi400"]`.
        public var filters: [String]
        /// Model filters that match some boards this board file covers but not others
        /// (the rpi3b file covers the 3B, which `[pi3+]` misses, and the 3B+, which it matches).
        public var maybe: [String]

        /// Creates a model.
        public init(name: String, filters: [String], maybe: [String] = []) {
            self.name = name
            self.filters = filters
            self.maybe = maybe
        }
    }

    /// Whether a line applies on a model.
    public enum Applies: Hashable, Sendable {
        /// The firmware applies it.
        case yes
        /// The firmware may or may not apply it; the text says why (a sentence fragment).
        case maybe(String)
        /// The firmware ignores it on this model; the text says why.
        case no(String)
    }

    /// What the file says about one key on one model.
    public struct Setting: Hashable, Sendable {
        /// The last line that certainly applies, nil when none does.
        public var definite: Line?
        /// Lines after `definite` that may apply and would change the value, with why they may.
        public var maybe: [Doubt]
        /// Lines for the key that do not apply on this model, with why.
        public var ignored: [Doubt]

        /// The value of `definite`.
        public var value: String? { definite?.value }
    }

    /// A line whose application is uncertain or ruled out, and why.
    public struct Doubt: Hashable, Sendable {
        /// The line.
        public var line: Line
        /// Why, e.g. "which the doctor cannot evaluate".
        public var reason: String

        /// "core_freq=250 (/boot/firmware/config.txt line 4 under [gpio4=1]), which the doctor cannot evaluate".
        public var text: String { "\(line.located), \(reason)" }
    }

    /// The model filters of conditional.adoc's table: `pi1` … `cm4s`, `pi0`, `pi0w`, `pi02` in the
    /// stored doc, plus `pi5`, `pi500`, `cm0`, `cm1`, `cm3`, `cm3+`, `cm5` of its current revision.
    /// Board files may only name these (`Board+Validation`).
    public static let modelFilters: [String] = [
        "pi1", "pi2", "pi3", "pi3+", "pi4", "pi400", "pi5", "pi500",
        "cm0", "cm1", "cm3", "cm3+", "cm4", "cm4s", "cm5", "pi0", "pi0w", "pi02",
    ]

    /// How deep `include` lines are followed (an include of an include of … stops there).
    public static let includeDepthLimit = 8

    /// The file that was read first, e.g. `/boot/firmware/config.txt`.
    public var path: String
    /// The `key=value` lines in file order, included files inline.
    public var lines: [Line]
    /// Whether sections were evaluated (false for flat files).
    public var sectioned: Bool
    /// Includes that could not be followed, as sentences.
    public var notes: [String]

    /// Parses `text` as the file `path`; `read` returns an included file's text (nil when absent).
    /// With `sectioned` false every line applies and `[…]` and `include` lines are ignored.
    public init(path: String, text: String, sectioned: Bool, read: (String) -> String? = { _ in nil }) {
        self.path = path
        self.sectioned = sectioned
        self.lines = []
        self.notes = []
        var filters = Filters()
        parse(file: path, text: text, depth: 0, filters: &filters, read: read)
    }

    private mutating func parse(file: String, text: String, depth: Int, filters: inout Filters, read: (String) -> String?) {
        var number = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }) {
            number += 1
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = line.drop { $0.isWhitespace }
            if sectioned, trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") {
                filters.apply(section: String(trimmed[trimmed.index(after: trimmed.startIndex)..<close]))
                continue
            }
            if let equals = line.firstIndex(of: "=") {
                let key = String(line[..<equals].filter { !$0.isWhitespace })
                let value = String(line[line.index(after: equals)...].filter { !$0.isWhitespace })
                if !key.isEmpty { lines.append(Line(key: key, value: value, file: file, number: number, filters: filters)) }
                continue
            }
            if sectioned, trimmed.hasPrefix("include"), trimmed.dropFirst(7).first?.isWhitespace == true {
                let name = String(trimmed.dropFirst(7).filter { !$0.isWhitespace })
                guard !name.isEmpty else { continue }
                let included = name.hasPrefix("/") ? name : Self.directory(of: file) + name
                if depth + 1 > Self.includeDepthLimit {
                    notes.append("`include \(name)` (\(file) line \(number)) is more than \(Self.includeDepthLimit) includes deep; not followed")
                } else if let text = read(included) {
                    parse(file: included, text: text, depth: depth + 1, filters: &filters, read: read)
                } else {
                    notes.append("`include \(name)` (\(file) line \(number)) names \(included), which is missing")
                }
            }
        }
    }

    /// "/boot/firmware/config.txt" → "/boot/firmware/".
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// Whether `filters` apply on `model` (nil: a flat file, where everything applies).
    public static func applies(_ filters: Filters, on model: Model?) -> Applies {
        guard let model else { return .yes }
        if filters.none == .on { return .no("which applies nowhere") }
        var doubts: [String] = []
        if let filter = filters.model {
            if model.filters.contains(filter) {
                // matches
            } else if model.maybe.contains(filter) {
                doubts.append("[\(filter)] matches some of the boards called \(model.name) and not others")
            } else if filter.hasPrefix("board-type=") {
                doubts.append("[\(filter)] needs the board's revision code, which the doctor does not read")
            } else {
                return .no("which does not match \(model.name)")
            }
        }
        if !filters.unevaluable.isEmpty {
            doubts.append(filters.unevaluable.map { $0.text }.joined(separator: " and ") + " cannot be evaluated by the doctor")
        }
        if filters.none == .followed {
            doubts.append("[none] came before without [all], and the doc does not say whether a later filter ends it")
        }
        return doubts.isEmpty ? .yes : .maybe(doubts.joined(separator: "; "))
    }

    /// Every line for `key` with whether it applies on `model`, in file order (for keys such as
    /// `dtoverlay` that may appear many times).
    public func all(_ key: String, on model: Model?) -> [(line: Line, applies: Applies)] {
        lines.filter { $0.key == key }.map { ($0, Self.applies($0.filters, on: model)) }
    }

    /// What the file sets `key` to on `model`: the last line that certainly applies (later lines
    /// win), later lines that may apply with another value, and lines that do not apply.
    public func setting(_ key: String, on model: Model?) -> Setting {
        var setting = Setting(definite: nil, maybe: [], ignored: [])
        for (line, applies) in all(key, on: model) {
            switch applies {
            case .yes:
                setting.definite = line
                setting.maybe.removeAll()
            case .maybe(let why):
                if line.value != setting.definite?.value {
                    setting.maybe.append(Doubt(line: line, reason: "which may or may not apply: " + why))
                }
            case .no(let why):
                setting.ignored.append(Doubt(line: line, reason: why))
            }
        }
        return setting
    }
}
