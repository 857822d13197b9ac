import Foundation
import Testing
import LEDRingNetTesting

/// The README's pictures are what ledring draws today: tools/make-pictures.sh, run with the
/// built binary, writes exactly the SVGs committed in docs/pictures.
@Suite struct PicturesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func committedPicturesMatchWhatTheScriptDraws() throws {
        let out = NSTemporaryDirectory() + "ledring-pictures-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try ChildProcess.run("/bin/bash", [PicturesTests.root.appendingPathComponent("tools/make-pictures.sh").path,
                                                         "--binary", LedringProcess.executable.path, "--out", out], timeout: 300)
        #expect(result.status == 0, "make-pictures.sh: \(result.stderr)")
        let committed = PicturesTests.root.appendingPathComponent("docs/pictures").path
        let names = try FileManager.default.contentsOfDirectory(atPath: committed).filter { $0.hasSuffix(".svg") }.sorted()
        #expect(names.count >= 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == names)
        for name in names {
            let want = try String(contentsOfFile: committed + "/" + name, encoding: .utf8)
            let got = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
            #expect(got == want, "docs/pictures/\(name) is out of date: run tools/make-pictures.sh and look at it")
        }
    }
}
