/// The files a name lookup reads, parsed as glibc reads them: `/etc/hosts` (hosts(5)) and
/// `/etc/resolv.conf` (resolv.conf(5)). The text comes in; nothing here opens a file.
public enum HostsFile {
    /// The addresses (as text, in file order) of `name` in a hosts file: the first field of
    /// every line whose host name or aliases include it, case-insensitively; `#` starts a comment.
    public static func addresses(of name: String, in text: String) -> [String] {
        let wanted = DNSMessage.canonical(name)
        var found: [String] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2 else { continue }
            if fields.dropFirst().contains(where: { DNSMessage.canonical(String($0)) == wanted }) {
                found.append(String(fields[0]))
            }
        }
        return found
    }
}

/// What `/etc/resolv.conf` says (resolv.conf(5)), with glibc's defaults for what it leaves out.
public struct ResolverConfiguration: Equatable, Sendable {
    /// The name servers' addresses as text, at most three (MAXNS in resolv.h), in file order;
    /// none given means the local host's (127.0.0.1), as glibc does.
    public var nameservers: [String] = []
    /// The search list (`search`, or the one `domain`; the last of the two wins).
    public var search: [String] = []
    /// `options ndots:N`: a name with fewer dots is tried with the search list first (default 1).
    public var ndots = 1
    /// `options timeout:N`: seconds to wait for one server (default 5, at most 30).
    public var timeout = 5
    /// `options attempts:N`: rounds over all servers (default 2, at most 5).
    public var attempts = 2
    /// The name servers' port: 53, which resolv.conf cannot change (a test's server uses another).
    public var port: UInt16 = 53

    /// glibc's defaults.
    public init() {}

    /// Reads the file's text; lines it does not know are skipped, as glibc skips them.
    public init(parsing text: String) {
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let keyword = fields.first, !keyword.hasPrefix("#"), !keyword.hasPrefix(";") else { continue }
            let values = fields.dropFirst().map { String($0) }
            switch keyword {
            case "nameserver":
                if let address = values.first, nameservers.count < 3 { nameservers.append(address) }
            case "search":
                search = values
            case "domain":
                search = values.prefix(1).map { $0 }
            case "options":
                for option in values {
                    let parts = option.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, let number = Int(parts[1]), number >= 0 else { continue }
                    switch parts[0] {
                    case "ndots": ndots = min(number, 15)
                    case "timeout": timeout = max(1, min(number, 30))
                    case "attempts": attempts = max(1, min(number, 5))
                    default: break
                    }
                }
            default:
                continue
            }
        }
        if nameservers.isEmpty { nameservers = ["127.0.0.1"] }
    }

    /// The names to ask for `name`, in order: a name with at least `ndots` dots first as it is,
    /// then with each search domain; a shorter one the other way round (res_search in glibc).
    /// A name ending in a dot is only itself.
    public func candidates(for name: String) -> [String] {
        if name.hasSuffix(".") { return [String(name.dropLast())] }
        let searched = search.map { name + "." + $0 }
        let dots = name.utf8.filter { $0 == UInt8(ascii: ".") }.count
        return dots >= ndots ? [name] + searched : searched + [name]
    }
}
