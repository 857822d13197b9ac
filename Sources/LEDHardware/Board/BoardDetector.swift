/// Recognises the board from the device tree under a root directory (`/`, or a fake root).
public struct BoardDetector: Sendable {
    /// What the device tree says about the machine.
    public struct Identity: Hashable, Sendable {
        /// `/proc/device-tree/compatible` entries, most specific first.
        public var compatible: [String]
        /// `/proc/device-tree/model`, without the trailing NUL.
        public var model: String?

        /// Creates an identity, e.g. to detect from strings a user pasted.
        public init(compatible: [String], model: String?) {
            self.compatible = compatible
            self.model = model
        }
    }

    /// A detected board and why it was chosen.
    public struct Detection: Hashable, Sendable {
        /// The board.
        public var board: Board
        /// The compatible string or model text that matched.
        public var evidence: String
    }

    /// The boards to choose from.
    public let catalog: BoardCatalog
    /// The root directory the device tree is read under.
    public let root: String
    private let system: RetryingSystemCalls

    /// Creates a detector reading under `root`.
    public init(catalog: BoardCatalog, root: String = "/", system: any SystemCalls = LinuxSystemCalls()) {
        self.catalog = catalog
        self.root = root
        self.system = RetryingSystemCalls(system)
    }

    /// Reads the device-tree identity; missing files (x86 desktops) give an empty identity.
    public func identity() -> Identity {
        func strings(_ path: String) -> [String] {
            guard let bytes = try? system.readFile(RootPath.join(root, path)) else { return [] }
            // Device-tree strings are NUL-terminated and, for lists, NUL-separated.
            return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                .map { $0.trimmingSuffixWhitespace() }.filter { !$0.isEmpty }
        }
        return Identity(compatible: strings("proc/device-tree/compatible"), model: strings("proc/device-tree/model").first)
    }

    /// The board the machine is, or nil: compatible strings first (most specific first), then
    /// the longest matching model prefix, then a generic file for the SoC (`Board.isGeneric`).
    public func detect() -> Detection? {
        detect(identity())
    }

    /// Matches an identity against the catalog.
    public func detect(_ identity: Identity) -> Detection? {
        for entry in identity.compatible {
            if let board = catalog.boards.first(where: { $0.match.compatible.contains(entry) }) {
                return Detection(board: board, evidence: "compatible \"\(entry)\"")
            }
        }
        if let model = identity.model {
            var best: (board: Board, prefix: String)?
            for board in catalog.boards {
                for prefix in board.match.modelPrefixes where model.hasPrefix(prefix) {
                    if prefix.count > (best?.prefix.count ?? -1) { best = (board, prefix) }
                }
            }
            if let best { return Detection(board: best.board, evidence: "model \"\(model)\"") }
        }
        // No board file: the SoC-wide strings (listed after the board's own) still name the SPI controller.
        for entry in identity.compatible {
            if let board = catalog.boards.first(where: { $0.match.soc.contains(entry) }) {
                return Detection(board: board, evidence: "SoC compatible \"\(entry)\"")
            }
        }
        return nil
    }
}

extension String {
    /// Drops trailing whitespace and newlines (some fake roots are written with `echo`).
    func trimmingSuffixWhitespace() -> String {
        var copy = self
        while let last = copy.last, last.isWhitespace { copy.removeLast() }
        return copy
    }
}
