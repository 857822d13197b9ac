import RingRender

/// A rough LED current for `status`: about 20 mA per channel at full level plus 1 mA idle per
/// LED (WS2812 datasheet figures). The real limiter belongs to the colour pipeline.
enum PowerEstimate {
    /// mA for one channel at full level.
    static let channelMilliamps = 20.0
    /// mA an LED draws when dark.
    static let idleMilliamps = 1.0

    /// The estimated current of `frame`, mA.
    static func milliamps(_ frame: [RGB8]) -> Double {
        var levels = 0
        for pixel in frame { levels += Int(pixel.r) + Int(pixel.g) + Int(pixel.b) }
        return Double(levels) / 255 * channelMilliamps + Double(frame.count) * idleMilliamps
    }
}
