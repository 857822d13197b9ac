import Glibc
@testable import LEDRingNet
import LEDRingNetTesting
import Testing

/// SHA-256 and HMAC-SHA256 against the published vectors (FIPS 180-4's examples, RFC 4231) and
/// against `openssl dgst` on random inputs, and the constant-time comparison webhooks use.
@Suite struct SHA256Tests {
    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    static func sha(_ text: String) -> String { SHA256.hex(SHA256.hash(Array(text.utf8))) }

    @Test func fipsVectors() {
        #expect(Self.sha("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.sha("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.sha("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        #expect(SHA256.hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding boundaries (55, 56, 63, 64 bytes), fed whole and in pieces.
    @Test func paddingBoundariesAndPieces() {
        for n in [55, 56, 57, 63, 64, 65, 119, 120, 128] {
            let message = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            var pieces = SHA256()
            pieces.update(message.prefix(n / 3))
            pieces.update(message.dropFirst(n / 3))
            #expect(pieces.finalize() == SHA256.hash(message), "\(n) bytes")
        }
    }

    /// RFC 4231 §4.2–4.8, test cases 1–7 (case 5's output is truncated to 128 bits there).
    @Test(arguments: [
        ("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        ("4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", String(repeating: "dd", count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        ("0102030405060708090a0b0c0d0e0f10111213141516171819", String(repeating: "cd", count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ("0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c", "546573742057697468205472756e636174696f6e",
         "a3b6167473100ee06e0c796c2955552b"),
        (String(repeating: "aa", count: 131),
         "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (String(repeating: "aa", count: 131),
         "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ])
    func rfc4231(key: String, data: String, expected: String) {
        let mac = SHA256.hex(SHA256.hmac(key: Self.bytes(hex: key), message: Self.bytes(hex: data)))
        #expect(mac.hasPrefix(expected), "\(mac)")
    }

    /// Random keys (up to two blocks, so some are hashed first) and messages (up to a few
    /// blocks), checked against OpenSSL.
    @Test func agreesWithOpenSSL() throws {
        let directory = "/tmp/ledring-sha256-\(getpid())"
        mkdir(directory, 0o700)
        defer { _ = try? ChildProcess.run("/bin/rm", ["-rf", directory]) }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<12 {
            let key = (0..<Int.random(in: 1...140, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let message = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let path = "\(directory)/message\(round)"
            let file = try #require(fopen(path, "wb"))
            _ = message.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
            let hmac = try ChildProcess.run("/usr/bin/openssl", ["dgst", "-sha256", "-mac", "HMAC", "-macopt", "hexkey:" + SHA256.hex(key), "-r", path],
                                            timeout: 30)
            let hash = try ChildProcess.run("/usr/bin/openssl", ["dgst", "-sha256", "-r", path], timeout: 30)
            #expect(hmac.status == 0 && hash.status == 0, "\(hmac.stderr) \(hash.stderr)")
            #expect(hmac.stdout.split(separator: " ").first.map(String.init) == SHA256.hex(SHA256.hmac(key: key, message: message)),
                    "key \(SHA256.hex(key)) message \(SHA256.hex(message))")
            #expect(hash.stdout.split(separator: " ").first.map(String.init) == SHA256.hex(SHA256.hash(message)))
        }
    }

    @Test func constantTimeEqualLooksAtEveryByte() {
        let a = Array("sha256=0123456789abcdef".utf8)
        #expect(SHA256.constantTimeEqual(a, a))
        #expect(!SHA256.constantTimeEqual(a, Array("sha256=0123456789abcdeF".utf8)), "the last byte differs")
        #expect(!SHA256.constantTimeEqual(a, Array("Sha256=0123456789abcdef".utf8)), "the first byte differs")
        #expect(!SHA256.constantTimeEqual(a, Array(a.dropLast())), "a prefix is not equal")
        #expect(!SHA256.constantTimeEqual(Array(a.dropLast()), a))
        #expect(!SHA256.constantTimeEqual([], a) && SHA256.constantTimeEqual([], []))
        // However early the first difference, every byte of the longer is looked at.
        for other in [Array("Xha256=0123456789abcdef".utf8), Array("s".utf8), [], a + [0x30]] {
            var visited = 0
            #expect(!SHA256.constantTimeEqual(a, other, visited: &visited))
            #expect(visited == max(a.count, other.count), "\(visited) of \(max(a.count, other.count)) bytes")
        }
    }
}
