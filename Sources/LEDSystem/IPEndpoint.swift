import Glibc

/// An IPv4 or IPv6 address and a port: what a TCP or UDP socket binds or connects to.
///
/// The address is kept as its bytes in network order (4 or 16), so the value is the same in the
/// kernel seam, its fake and the tests; `init(numeric:port:)` reads the text forms `inet_pton(3)`
/// takes (`192.168.1.10`, `::1`, and `[::1]` as in a URL).
public struct IPEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The address's bytes in network order: 4 for IPv4, 16 for IPv6.
    public let address: [UInt8]
    /// The port (0 when binding asks the kernel for any free one).
    public let port: UInt16

    /// An endpoint from an address's bytes; nil unless there are 4 or 16.
    public init?(address: [UInt8], port: UInt16) {
        guard address.count == 4 || address.count == 16 else { return nil }
        self.address = address
        self.port = port
    }

    /// An endpoint from a numeric address; nil for anything else (a host name needs a lookup).
    public init?(numeric text: String, port: UInt16) {
        var text = text
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(address: withUnsafeBytes(of: &v4) { Array($0) }, port: port)
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self.init(address: withUnsafeBytes(of: &v6) { Array($0) }, port: port)
            return
        }
        return nil
    }

    /// IPv4's loopback, 127.0.0.1.
    public static func loopback(port: UInt16) -> IPEndpoint { IPEndpoint(address: [127, 0, 0, 1], port: port)! }

    /// True for an IPv6 address.
    public var isIPv6: Bool { address.count == 16 }

    /// `AF_INET` or `AF_INET6`.
    public var family: Int32 { isIPv6 ? AF_INET6 : AF_INET }

    /// True for the address that means every interface (0.0.0.0 or ::).
    public var isWildcard: Bool { address.allSatisfy { $0 == 0 } }

    /// The address as `inet_ntop(3)` writes it (`192.168.1.10`, `::1`).
    public var host: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = address.withUnsafeBytes { bytes in
            inet_ntop(family, bytes.baseAddress, &text, socklen_t(text.count))
        }
        guard written != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `192.168.1.10:1883`, or `[::1]:1883` for IPv6.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Calls `body` with the endpoint as a `sockaddr_in` or `sockaddr_in6`.
    public func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        if isIPv6 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { $0.copyBytes(from: address) }
            return withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port.bigEndian
        withUnsafeMutableBytes(of: &socketAddress.sin_addr) { $0.copyBytes(from: address) }
        return withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// The endpoint in a `sockaddr_storage` the kernel filled (`getsockname`, `getpeername`);
    /// nil for a family other than IPv4 and IPv6.
    public init?(_ storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let socketAddress = withUnsafeBytes(of: &storage) { $0.loadUnaligned(as: sockaddr_in.self) }
            var bytes = socketAddress.sin_addr
            self.init(address: withUnsafeBytes(of: &bytes) { Array($0) }, port: UInt16(bigEndian: socketAddress.sin_port))
        case AF_INET6:
            let socketAddress = withUnsafeBytes(of: &storage) { $0.loadUnaligned(as: sockaddr_in6.self) }
            var bytes = socketAddress.sin6_addr
            self.init(address: withUnsafeBytes(of: &bytes) { Array($0) }, port: UInt16(bigEndian: socketAddress.sin6_port))
        default:
            return nil
        }
    }
}

/// The two kinds of IP socket ledring opens.
public enum IPSocketKind: Hashable, Sendable {
    /// TCP (`SOCK_STREAM`): MQTT to the broker, the HTTP API.
    case stream
    /// UDP (`SOCK_DGRAM`): name lookups.
    case datagram
}

/// The socket options ledring sets, each an `int` that is on or off.
public enum SocketOption: Hashable, Sendable {
    /// `SO_REUSEADDR`: a restarted daemon can listen again while old connections linger in
    /// TIME_WAIT (socket(7)).
    case reuseAddress
    /// `TCP_NODELAY`: small MQTT and HTTP writes go out at once instead of waiting for Nagle's
    /// algorithm (tcp(7)).
    case noDelay
    /// `IPV6_V6ONLY`: an IPv6 listener takes only IPv6 (ipv6(7)).
    case ipv6Only
}
