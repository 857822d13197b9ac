import Foundation
import LEDWire
import RingModel
import Testing

/// End-to-end: `ledring --driver leds-pio --device FILE` writes every frame at offset 0, as the
/// Pi 5 driver needs, so FILE ends up holding exactly the last frame, like the kernel's buffer.
@Suite struct LedsPIOCommandTests {
    @Test func manyFramesLeaveTheFileHoldingOnlyTheLastFrame() throws {
        let path = NSTemporaryDirectory() + "ledring-leds-\(UUID().uuidString.prefix(8)).bin"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Stale bytes longer than a frame, as if an earlier run had appended frames.
        try Data(repeating: 0xAA, count: 4096).write(to: URL(fileURLWithPath: path))
        let common = ["--frames", "20", "--fps", "1000"]
        let run = try LedringProcess.run(["--driver", "leds-pio", "--device", path] + common)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")

        let simulated = try LedringProcess.run(["--simulate", "--format", "json"] + common)
        let last = try #require(try LedringProcess.jsonLines(simulated.stdout).last)
        let rings = try #require(last["rings"] as? [[String: Any]])
        let pixels: [RGB8] = rings.flatMap { ($0["leds"] as? [String]) ?? [] }.compactMap { hex in
            guard let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
            return RGB8(r: UInt8(value >> 16), g: UInt8((value >> 8) & 0xFF), b: UInt8(value & 0xFF))
        }
        let expected = try LedsPioEncoder().encode(pixels)
        let contents = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(contents.count == expected.count)
        #expect(contents == expected)
    }
}
