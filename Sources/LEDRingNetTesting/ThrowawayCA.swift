import Foundation

/// A certificate authority made at test time with the `openssl` command line (EC P-256 keys, so it
/// takes milliseconds), in its own temporary directory that goes with it. Keys never leave that
/// directory and are never committed.
public final class ThrowawayCA {
    /// A PEM certificate and its unencrypted PEM key.
    public struct Pair: Sendable {
        public let certificate: String
        public let key: String
    }

    /// The directory holding every file, removed when the CA goes.
    public let directory: URL
    /// The CA's own certificate (what a client or broker is told to trust).
    public let certificate: String
    private let key: String
    private var serial = 1

    /// Where `openssl` is, or an error naming the package to install.
    public static func openssl() throws -> String {
        try MosquittoBroker.program("openssl", package: "openssl")
    }

    /// A new self-signed CA called `name`.
    public init(name: String = "ledring test CA") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledring-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificate = directory.appendingPathComponent("ca.pem").path
        key = directory.appendingPathComponent("ca.key").path
        try Self.run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                      "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=\(name)",
                      "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A server certificate for `localhost` and 127.0.0.1, signed by this CA.
    public func server() throws -> Pair {
        try issue("server", commonName: "localhost",
                  extensions: ["subjectAltName=DNS:localhost,IP:127.0.0.1", "extendedKeyUsage=serverAuth"])
    }

    /// A client certificate called `name`, signed by this CA.
    public func client(_ name: String = "ledring test client") throws -> Pair {
        try issue("client", commonName: name, extensions: ["extendedKeyUsage=clientAuth"])
    }

    private func issue(_ stem: String, commonName: String, extensions: [String]) throws -> Pair {
        defer { serial += 1 }
        let base = directory.appendingPathComponent("\(stem)-\(serial)").path
        let pair = Pair(certificate: base + ".pem", key: base + ".key")
        try Self.run(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                      "-keyout", pair.key, "-out", base + ".csr", "-subj", "/CN=\(commonName)"])
        let extensionFile = base + ".ext"
        try (["basicConstraints=CA:FALSE", "keyUsage=critical,digitalSignature"] + extensions)
            .joined(separator: "\n").appending("\n").write(toFile: extensionFile, atomically: true, encoding: .utf8)
        try Self.run(["x509", "-req", "-in", base + ".csr", "-CA", certificate, "-CAkey", key, "-set_serial", "\(serial)",
                      "-days", "2", "-out", pair.certificate, "-extfile", extensionFile])
        return pair
    }

    /// Runs `openssl` with `arguments`; throws with its output when it fails.
    private static func run(_ arguments: [String]) throws {
        let result = try ChildProcess.run(try openssl(), arguments, timeout: 60)
        let output = result.stdout + result.stderr
        guard result.status == 0 else {
            throw LoopbackError(description: "openssl \(arguments.prefix(2).joined(separator: " ")) failed with \(result.status): \(output)")
        }
    }
}
