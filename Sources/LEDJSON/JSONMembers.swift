/// An object's members in order, so a document is written back with its keys where they were and
/// a writer's caller decides the order of its output (replies and state files keep a fixed order).
/// Keys are unique when parsed; `set` replaces a member in place.
public struct JSONMembers: Equatable, Sendable {
    /// One member.
    public struct Member: Equatable, Sendable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSONValue

        /// `key: value`.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in order.
    public private(set) var pairs: [Member]

    /// No members.
    public init() { pairs = [] }

    /// Members from key/value pairs, in the order given (a later duplicate replaces the earlier value).
    public init(_ pairs: [(String, JSONValue)]) {
        var members: [Member] = []
        members.reserveCapacity(pairs.count)
        var positions: [String: Int] = [:]
        for (key, value) in pairs {
            if let i = positions[key] {
                members[i].value = value
            } else {
                positions[key] = members.count
                members.append(Member(key: key, value: value))
            }
        }
        self.pairs = members
    }

    init(unchecked members: [Member]) { pairs = members }

    /// The member called `key`; setting nil removes it, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in pairs where member.key == key { return member.value }
            return nil
        }
        set {
            if let i = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue { pairs[i].value = newValue } else { pairs.remove(at: i) }
            } else if let newValue {
                pairs.append(Member(key: key, value: newValue))
            }
        }
    }

    /// The keys in order.
    public var keys: [String] { pairs.map { $0.key } }

    /// How many members.
    public var count: Int { pairs.count }

    /// Whether there are none.
    public var isEmpty: Bool { pairs.isEmpty }

    /// Same keys with equal values, in any order (order is kept for writing, not meaning).
    public static func == (a: JSONMembers, b: JSONMembers) -> Bool {
        guard a.pairs.count == b.pairs.count else { return false }
        var values: [String: JSONValue] = [:]
        for member in b.pairs { values[member.key] = member.value }
        for member in a.pairs {
            guard let other = values[member.key], other == member.value else { return false }
        }
        return true
    }

    /// The members sorted by key (a linear pass for callers that visit every key, where looking
    /// each one up by name would be quadratic in a hostile document).
    public var sortedByKey: [Member] { pairs.sorted { $0.key < $1.key } }

    /// Whether `key` is a member.
    public func has(_ key: String) -> Bool { pairs.contains { $0.key == key } }
}
