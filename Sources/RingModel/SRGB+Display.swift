extension SRGB {
    /// The screen colour of an LED driven at `drive`: drive levels are linear in the light the LED
    /// emits, so the light is drive/255 and the screen shows it sRGB-encoded. Every picture of a
    /// frame (terminal, SVG, the live page) goes through this one conversion, never the raw levels,
    /// which would look darker and shifted in hue (a dim red track would look black, pink crimson).
    @inlinable
    public static func display(_ drive: RGB8) -> RGB8 {
        encoded(LinearRGB(r: Float(drive.r) / 255, g: Float(drive.g) / 255, b: Float(drive.b) / 255))
    }
}
