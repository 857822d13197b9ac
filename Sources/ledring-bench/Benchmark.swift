import Glibc
import LEDHardware
import LEDWire
import LEDRingControl
import RingModel
import RingRender

/// Times the render and encode paths: best of several repetitions, each long enough that the
/// clock's resolution does not matter.
struct Benchmark {
    var repetitions: Int
    var secondsPerRepetition: Double

    /// The clock the Pi really makes for WS2812 (3.6 MHz requested, 25/7 MHz delivered).
    static let ws2812Clock = 25_000_000.0 / 7

    /// Best nanoseconds per call of `body`.
    func time(_ body: (Int) -> Void) -> Double {
        // Calibrate: how many calls fill one repetition.
        var calls = 1
        while true {
            let start = Double(MonotonicClock.nanoseconds())
            for i in 0..<calls { body(i) }
            let elapsed = Double(MonotonicClock.nanoseconds()) - start
            if elapsed > secondsPerRepetition * 1e9 / 4 || calls > 1 << 26 {
                calls = max(1, Int(Double(calls) * secondsPerRepetition * 1e9 / max(elapsed, 1)))
                break
            }
            calls *= 4
        }
        var best = Double.infinity
        var offset = 0
        for _ in 0..<repetitions {
            let start = Double(MonotonicClock.nanoseconds())
            for i in 0..<calls { body(offset + i) }
            best = min(best, (Double(MonotonicClock.nanoseconds()) - start) / Double(calls))
            offset += calls
        }
        return best
    }

    /// A chain of `leds` LEDs: a ring with a gradient and a head that moves every frame (past
    /// 100 %, so laps and the shadow are drawn) and a spinner on the rest, set up by the requests
    /// the service would get and drawn by its frame builder (`Renderer.render(_:at:)`).
    static func scene(leds: Int) throws -> (Renderer, Controller) {
        let first = max(1, leds / 2 + leds % 2), second = leds - first
        var rings = [RingSpec(name: "fill", segments: [Segment(ledCount: first)],
                              appearance: RingAppearance(gradient: Palette.move, highlight: 0.3))]
        if second > 0 {
            rings.append(RingSpec(name: "spin", segments: [Segment(ledCount: second)],
                                  appearance: RingAppearance(gradient: Palette.stand)))
        }
        let layout = try RingLayout(rings: rings)
        var controller = Controller(layout: layout, brightness: 1)
        var requests: [Request] = [.set(["fill": 1.7], duration: Request.maxDuration, curve: .linear)]
        if second > 0 { requests.append(.spin(rings: ["spin"])) }
        for request in requests {
            _ = try controller.perform(request, at: 0, status: { Benchmark.status })
        }
        return (Renderer(layout: layout), controller)
    }

    /// Frame i's time: i / 60 s, round again before the hour-long transition ends, so the head
    /// moves on every frame however many a measurement takes.
    static func time(ofFrame i: Int) -> Double {
        Double(i % (60 * 3000)) / 60
    }

    /// What a `status` request would report (the scene's requests never ask).
    static let status = StatusReport.withoutOutput("bench")

    func frameCosts(leds: Int) throws -> [Measurement] {
        var (renderer, controller) = try Benchmark.scene(leds: leds)
        let ws2812 = try SPISymbolEncoder(chip: .ws2812b, clockHz: Benchmark.ws2812Clock)
        let apa102 = try APA102Encoder()
        let wire = ws2812.wireTimeMicroseconds(ledCount: leds)
        // Frame i shows t = i / 60 s, so the head and spinner move on every frame.
        let render = time { i in renderer.render(controller.scene(at: Benchmark.time(ofFrame: i))) }
        let frame = renderer.frame
        var bytes = [UInt8](repeating: 0, count: ws2812.encodedLength(ledCount: leds))
        var apaBytes = [UInt8](repeating: 0, count: apa102.encodedLength(ledCount: leds))
        let encodeWS = time { _ in try? ws2812.encode(frame, into: &bytes) }
        let encodeAPA = time { _ in try? apa102.encode(frame, into: &apaBytes) }
        let driver = LEDDriver(encoder: .symbols(ws2812), transport: DiscardTransport(), ledCount: leds)
        let whole = time { i in
            renderer.render(controller.scene(at: Benchmark.time(ofFrame: i)))
            try? driver.show(renderer.frame)
        }
        return [
            Measurement(name: "render", leds: leds, nsPerFrame: render, wireMicroseconds: wire),
            Measurement(name: "encode-ws2812", leds: leds, nsPerFrame: encodeWS, wireMicroseconds: wire),
            Measurement(name: "encode-apa102", leds: leds, nsPerFrame: encodeAPA, wireMicroseconds: wire),
            Measurement(name: "whole-path", leds: leds, nsPerFrame: whole, wireMicroseconds: wire),
        ]
    }

    /// Renders and encodes `frames` frames of the scene, untimed.
    static func profileWholePath(leds: Int, frames: Int) throws {
        var (renderer, controller) = try scene(leds: leds)
        let driver = LEDDriver(encoder: .symbols(try SPISymbolEncoder(chip: .ws2812b, clockHz: ws2812Clock)),
                               transport: DiscardTransport(), ledCount: leds)
        for i in 0..<frames {
            renderer.render(controller.scene(at: Benchmark.time(ofFrame: i)))
            try driver.show(renderer.frame)
        }
    }
}
