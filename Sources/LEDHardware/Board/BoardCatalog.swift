import LEDJSON

/// The known boards: loaded from a `boards/` directory, or the copy compiled into the binary
/// so an installed `ledring` works without the folder.
public struct BoardCatalog: Sendable {
    /// The boards, sorted by id.
    public let boards: [Board]

    /// Creates a catalog from already decoded boards.
    public init(boards: [Board]) {
        self.boards = boards.sorted { $0.id < $1.id }
    }

    /// The board with `id`, if known.
    public func board(id: String) -> Board? {
        boards.first { $0.id == id }
    }

    /// Decodes and validates one board file's contents.
    public static func decodeBoard(_ json: [UInt8], fileName: String) throws(HardwareError) -> Board {
        func invalid(_ problems: String) -> HardwareError {
            HardwareError(kind: .invalidConfiguration, message: "board file \(fileName) is not a valid board description: \(problems)",
                          fix: "compare it with boards/README.md and an existing board file")
        }
        let document: JSONValue
        do throws(JSONSyntaxError) {
            document = try JSONValue.parse(json)
        } catch {
            throw invalid("not valid JSON: \(error)")
        }
        var reader = JSONReader()
        guard let board = Board.read(document, into: &reader) else {
            throw invalid(reader.problems.map { $0.description }.joined(separator: "; "))
        }
        let problems = board.validationProblems(fileName: fileName)
        guard problems.isEmpty else {
            throw HardwareError(
                kind: .invalidConfiguration,
                message: "board file \(fileName) is invalid: \(problems.joined(separator: "; "))",
                fix: "fix the file as boards/README.md describes")
        }
        return board
    }

    /// Loads every `*.json` file in `directory`.
    public static func load(directory: String, system: any SystemCalls = LinuxSystemCalls()) throws(HardwareError) -> BoardCatalog {
        let system = RetryingSystemCalls(system)
        let names: [String]
        do {
            names = try system.listDirectory(directory).filter { $0.hasSuffix(".json") }
        } catch {
            throw HardwareError(
                kind: error == .noSuchFileOrDirectory ? .notFound : .io,
                message: "cannot list board directory \(directory): \(error)",
                fix: "pass the path of the boards/ folder, or leave it out to use the built-in boards",
                errno: error)
        }
        var boards: [Board] = []
        for name in names {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            let bytes: [UInt8]
            do {
                bytes = try system.readFile(path)
            } catch {
                throw HardwareError.io(error, path: path, operation: "reading board file")
            }
            boards.append(try decodeBoard(bytes, fileName: name))
        }
        return try checkedUnique(BoardCatalog(boards: boards), origin: directory)
    }

    /// The boards compiled into the binary (generated from `boards/` by `boards/embed-boards.py`).
    public static func builtIn() throws(HardwareError) -> BoardCatalog {
        var boards: [Board] = []
        for (name, json) in builtInFiles.sorted(by: { $0.key < $1.key }) {
            boards.append(try decodeBoard(Array(json.utf8), fileName: name))
        }
        return try checkedUnique(BoardCatalog(boards: boards), origin: "the built-in boards")
    }

    /// Two files claiming one id, one compatible string or one SoC string would make detection ambiguous.
    private static func checkedUnique(_ catalog: BoardCatalog, origin: String) throws(HardwareError) -> BoardCatalog {
        var owners: [String: String] = [:]
        for board in catalog.boards {
            for key in ["id:" + board.id] + board.match.compatible.map({ "compatible:" + $0 }) + board.match.soc.map({ "soc:" + $0 }) {
                if let other = owners[key] {
                    throw HardwareError(
                        kind: .invalidConfiguration,
                        message: "\(origin): boards \(other) and \(board.id) both claim \(key)",
                        fix: "keep each id, compatible string and SoC string in exactly one board file")
                }
                owners[key] = board.id
            }
        }
        return catalog
    }
}
