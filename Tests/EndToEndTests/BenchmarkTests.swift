import Foundation
import Testing

/// The benchmark runs and prints well-formed results; its timings are never asserted.
@Suite struct BenchmarkTests {
    @Test func quickJSONRunCoversEveryCaseAndSize() throws {
        let run = try LedringProcess.run(["--quick", "--json"], executable: LedringProcess.built("ledring-bench"))
        #expect(run.status == 0, "\(run.stderr)")
        let all = try LedringProcess.jsonLines(run.stdout)
        let daemon = all.filter { ($0["case"] as? String)?.hasPrefix("daemon-") == true }
        let lines = all.filter { ($0["case"] as? String)?.hasPrefix("daemon-") != true }
        let cases = Set(lines.compactMap { $0["case"] as? String })
        #expect(cases == ["render", "encode-ws2812", "encode-apa102", "whole-path"])
        // The daemon's cost is measured from its own accounting: CPU time, wake-ups, peak memory.
        let daemonCases = Set(daemon.compactMap { $0["case"] as? String })
        #expect(daemonCases == ["daemon-idle", "daemon-animating-60fps", "daemon-peak-rss", "daemon-peak-rss-three-rings"])
        for line in daemon where (line["case"] as? String)?.hasPrefix("daemon-peak-rss") != true {
            #expect((line["cpu_ms"] as? Double ?? -1) >= 0)
            #expect((line["wakeups"] as? Int ?? -1) >= 0)
        }
        #expect((daemon.first { $0["case"] as? String == "daemon-peak-rss" }?["kb"] as? Int ?? 0) > 0)
        let sizes = Set(lines.compactMap { $0["leds"] as? Int })
        #expect(sizes == [12, 24, 60, 112, 300, 1000])
        for line in lines {
            let perFrame = try #require(line["ns_per_frame"] as? Double)
            let perLED = try #require(line["ns_per_led"] as? Double)
            let leds = try #require(line["leds"] as? Int)
            #expect(perFrame > 0 && perLED > 0)
            #expect(abs(perLED * Double(leds) - perFrame) <= max(1, perFrame * 0.01))
            // 96 SPI bits per LED at 3.571 MHz: 26.9 µs per LED plus leading zeros and latch.
            #expect((line["wire_us"] as? Double ?? 0) > Double(leds) * 26.8)
        }
    }

    @Test func unknownOptionIsAUsageError() throws {
        let run = try LedringProcess.run(["--fast"], executable: LedringProcess.built("ledring-bench"))
        #expect(run.status == 64)
        #expect(run.stderr.contains("--fast"))
    }
}
