/// DNS messages as RFC 1035 §4 lays them out: the queries ledring sends to find its MQTT broker
/// (A and AAAA, to a name server or as a one-shot multicast DNS query, RFC 6762 §5.1) and the
/// addresses in the answers. Pure bytes in and out, so the static Embedded build resolves names
/// without glibc's NSS (which a static binary can only load from the glibc it was built with).
public enum DNSMessage {
    /// The record types asked for.
    public enum RecordType: UInt16, Sendable {
        /// An IPv4 address (RFC 1035 §3.4.1).
        case a = 1
        /// An alias (RFC 1035 §3.3.1).
        case cname = 5
        /// An IPv6 address (RFC 3596 §2.1).
        case aaaa = 28
    }

    /// Why bytes are not an answer to the query.
    public enum Failure: Error, Equatable, Sendable {
        /// Too short, a name that runs past the end or loops, a count that lies.
        case malformed(String)
        /// A name that cannot be asked for: empty label, a label over 63 bytes, over 255 in all.
        case badName(String)
    }

    /// What an answer says.
    public struct Answer: Equatable, Sendable {
        /// The query's id, echoed.
        public var id: UInt16
        /// The response code (RFC 1035 §4.1.1): 0 no error, 2 server failure, 3 no such name.
        public var responseCode: UInt8
        /// TC: the answer did not fit a datagram.
        public var truncated: Bool
        /// The addresses for the name asked about, after any CNAME chain, in answer order:
        /// 4 bytes each for A, 16 for AAAA.
        public var addresses: [[UInt8]]
    }

    /// The encoded name (RFC 1035 §3.1: length-prefixed labels, a zero length at the end).
    public static func encodeName(_ name: String) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        let trimmed = name.hasSuffix(".") ? String(name.dropLast()) : name
        for label in trimmed.split(separator: ".", omittingEmptySubsequences: false) {
            let utf8 = Array(label.utf8)
            guard !utf8.isEmpty, utf8.count <= 63 else { throw .badName(name) }
            bytes.append(UInt8(utf8.count))
            bytes += utf8
        }
        bytes.append(0)
        guard bytes.count <= 255 else { throw .badName(name) }
        return bytes
    }

    /// A query for one record type. `recursion` sets RD (a name server's query); a multicast
    /// DNS query leaves it clear, and `unicastResponse` sets the top bit of QCLASS (the QU bit,
    /// RFC 6762 §5.4).
    public static func query(id: UInt16, name: String, type: RecordType, recursion: Bool = true,
                             unicastResponse: Bool = false) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xFF), recursion ? 0x01 : 0x00, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
        bytes += try encodeName(name)
        let qclass: UInt16 = unicastResponse ? 0x8001 : 0x0001
        bytes += [UInt8(type.rawValue >> 8), UInt8(type.rawValue & 0xFF), UInt8(qclass >> 8), UInt8(qclass & 0xFF)]
        return bytes
    }

    /// Reads a (possibly compressed, RFC 1035 §4.1.4) name at `offset`: the name in lower case
    /// and the offset after it where it was written.
    static func readName(_ bytes: [UInt8], at offset: Int) throws(Failure) -> (name: String, next: Int) {
        var labels: [String] = []
        var position = offset
        var next: Int?
        var jumps = 0
        var length = 0
        while true {
            guard position < bytes.count else { throw .malformed("a name runs past the end") }
            let count = Int(bytes[position])
            if count & 0xC0 == 0xC0 {
                guard position + 1 < bytes.count else { throw .malformed("a name runs past the end") }
                jumps += 1
                guard jumps <= 64 else { throw .malformed("a name's pointers loop") }
                if next == nil { next = position + 2 }
                position = (count & 0x3F) << 8 | Int(bytes[position + 1])
                continue
            }
            guard count & 0xC0 == 0 else { throw .malformed("a label type RFC 1035 does not have") }
            if count == 0 {
                return (labels.joined(separator: "."), next ?? position + 1)
            }
            guard position + 1 + count <= bytes.count else { throw .malformed("a name runs past the end") }
            length += count + 1
            guard length <= 255 else { throw .malformed("a name longer than 255 bytes") }
            labels.append(String(decoding: bytes[(position + 1)...(position + count)].map(lowercased), as: UTF8.self))
            position += 1 + count
        }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    /// The name as `readName` gives it back (lower case, no final dot), for comparing.
    public static func canonical(_ name: String) -> String {
        let trimmed = name.hasSuffix(".") ? String(name.dropLast()) : name
        return String(decoding: trimmed.utf8.map(lowercased), as: UTF8.self)
    }

    static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 { UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]) }

    /// The addresses of `type` for `name` in a response, following CNAMEs inside it (RFC 1034
    /// §3.6.2). Records for other names are ignored: an answer cannot add addresses for a name
    /// nobody asked about. A multicast DNS answer's cache-flush bit in the class is ignored.
    public static func answer(_ bytes: [UInt8], name: String, type: RecordType) throws(Failure) -> Answer {
        guard bytes.count >= 12 else { throw .malformed("shorter than a header") }
        guard bytes[2] & 0x80 != 0 else { throw .malformed("a query, not a response") }
        let id = uint16(bytes, 0)
        let questions = Int(uint16(bytes, 4))
        let answers = Int(uint16(bytes, 6))
        var offset = 12
        for _ in 0..<questions {
            offset = try readName(bytes, at: offset).next + 4
            guard offset <= bytes.count else { throw .malformed("a question runs past the end") }
        }
        var aliases: [String: String] = [:]
        var found: [(owner: String, address: [UInt8])] = []
        for _ in 0..<answers {
            let (owner, next) = try readName(bytes, at: offset)
            guard next + 10 <= bytes.count else { throw .malformed("a record runs past the end") }
            let recordType = uint16(bytes, next)
            let recordClass = uint16(bytes, next + 2) & 0x7FFF
            let length = Int(uint16(bytes, next + 8))
            let data = next + 10
            guard data + length <= bytes.count else { throw .malformed("a record's data runs past the end") }
            if recordClass == 1 {
                if recordType == RecordType.cname.rawValue {
                    aliases[owner] = try readName(bytes, at: data).name
                } else if recordType == type.rawValue, length == (type == .a ? 4 : 16) {
                    found.append((owner, Array(bytes[data..<(data + length)])))
                }
            }
            offset = data + length
        }
        var wanted = canonical(name)
        var seen: Set<String> = [wanted]
        while let alias = aliases[wanted], seen.insert(alias).inserted { wanted = alias }
        return Answer(id: id, responseCode: bytes[3] & 0x0F, truncated: bytes[2] & 0x02 != 0,
                      addresses: found.filter { $0.owner == wanted }.map { $0.address })
    }
}
