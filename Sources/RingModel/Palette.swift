/// The seeds' Move, Exercise and Stand rings: the default layout when nothing else is configured.
public enum Palette {
    /// Move: the activity-ring seed's darkRed → lightRed.
    public static let move = Gradient(from: RGB8(r: 221, g: 31, b: 59), to: RGB8(r: 239, g: 54, b: 128))
    /// Exercise: a deeper green into the circular-progress seed's (166, 255, 0).
    public static let exercise = Gradient(from: RGB8(r: 90, g: 200, b: 0), to: RGB8(r: 166, g: 255, b: 0))
    /// Stand: a deeper cyan into the circular-progress seed's (0, 255, 246).
    public static let stand = Gradient(from: RGB8(r: 0, g: 170, b: 220), to: RGB8(r: 0, g: 255, b: 246))

    /// Three concentric rings of 24, 16 and 12 LEDs (outer to inner) on one chain, the size of
    /// the common NeoPixel rings.
    public static func activityRings(cap: CapStyle = .round) -> [RingSpec] {
        [("move", 24, move), ("exercise", 16, exercise), ("stand", 12, stand)].map { name, count, gradient in
            RingSpec(name: name, segments: [Segment(ledCount: count)],
                     appearance: RingAppearance(gradient: gradient, cap: cap))
        }
    }
}
