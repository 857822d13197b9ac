import LEDJSON

/// A table of settings (`ColorSetting`, `OutputSetting`): each entry names its config key and its
/// command-line option and reads its value into a layer (`ColorOptions`, `OutputConfig`) with its
/// one check. The command line and the config file both read through here, so they take the
/// same settings with the same words and say the same thing of a bad value, each in its own form.
protocol SettingTable: CaseIterable, Sendable {
    /// The settings one layer (the file, the command line) gives; all unset at first.
    associatedtype Layer
    /// The key in the config file (its section), if the file has the setting.
    var fileKey: String? { get }
    /// The command-line option, if the command line has the setting.
    var optionName: String? { get }
    /// Whether the option is given alone (a switch), not with a value.
    var isSwitch: Bool { get }
    /// What the command line adds to a refused value: how to choose one.
    var hint: String? { get }
    /// Reads `input` into its place in `layer`: the one check of this setting's value.
    func read(_ input: SettingInput, into layer: inout Layer) throws(SettingProblem)
}

extension SettingTable {
    /// Reads the command-line option `name` into `layer`, taking its value from `value` unless
    /// it is a switch; nil when the option is not this table's.
    static func parse(option name: String, value: () throws(CommandError) -> String,
                      into layer: inout Layer) throws(CommandError) -> Self? {
        guard let setting = allCases.first(where: { $0.optionName == name }) else { return nil }
        let text: String? = setting.isSwitch ? nil : try value()
        do throws(SettingProblem) {
            try setting.read(text.map(SettingInput.word) ?? .given, into: &layer)
        } catch {
            throw error.commandLine(option: name, text: text ?? "", hint: setting.hint)
        }
        return setting
    }

    /// Reads this table's keys from `members` (the object at `path`) into `layer`, reporting
    /// each bad value with its key's path.
    static func read(_ members: JSONMembers, at path: String, into layer: inout Layer, reader: inout JSONReader) {
        for setting in allCases {
            guard let key = setting.fileKey, let value = members[key] else { continue }
            do throws(SettingProblem) {
                try setting.read(.json(value), into: &layer)
            } catch {
                reader.report(JSONReader.join(path, key), error.config(got: value))
            }
        }
    }

    /// The config keys, in the table's order.
    static var fileKeys: [String] { allCases.compactMap { $0.fileKey } }
}
