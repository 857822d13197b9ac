import LEDRingControl
import LEDJSON
/// GPIO inputs and the power switch (`gpio` in the config); the daemon drives them through
/// LEDHardware's libgpiod layer.
struct GPIOConfig: Sendable, Equatable {
    /// An output line that switches the LEDs' supply.
    struct Power: Sendable, Equatable {
        /// Line offset on the chip.
        var line: Int
        /// The supply is on when the line is low.
        var activeLow = false
    }

    /// What a button press does.
    enum ButtonAction: String, Sendable, CaseIterable {
        /// Animate every ring back to 0.
        case reset
        /// Switch the LEDs' supply (and the picture) off and on.
        case power
        /// Nothing.
        case none
    }

    /// A push button.
    struct Button: Sendable, Equatable {
        /// Line offset on the chip.
        var line: Int
        /// Pressed reads low (a button to ground with a pull-up).
        var activeLow = true
        /// What a press does.
        var action = ButtonAction.reset
        /// What a long press (held ≥ 1 s) does.
        var longPress = ButtonAction.power
    }

    /// A rotary encoder that turns one ring's value up and down.
    struct Encoder: Sendable, Equatable {
        /// Line offset of phase A.
        var a: Int
        /// Line offset of phase B.
        var b: Int
        /// The ring it changes.
        var ring: String
        /// Value change per detent (0.05 = 5 %).
        var step = 0.05
        /// Line offset of the knob's push switch (selects the next ring), if it has one.
        var push: Int?
    }

    /// The GPIO chip's label (`pinctrl-bcm2711`); nil uses the board's.
    var chip: String?
    /// The power switch line.
    var power: Power?
    /// The button.
    var button: Button?
    /// The rotary encoder.
    var encoder: Encoder?

    static let keys = ["chip", "power", "button", "encoder"]
    /// The keys of `power`, `button` and `encoder`.
    static let powerKeys = ["line", "activeLow"]
    static let buttonKeys = ["line", "activeLow", "action", "longPress"]
    static let encoderKeys = ["a", "b", "push", "ring", "step"]
    static let lines = 0...1023

    /// Reads the `gpio` section; `ringNames` are the configured rings, for the encoder's `ring`.
    static func read(_ value: JSONValue, at path: String, ringNames: [String],
                     into reader: inout ConfigReader) -> GPIOConfig {
        var out = GPIOConfig()
        guard let members = reader.object(value, at: path, known: keys) else { return out }
        func at(_ key: String, _ sub: String? = nil) -> String {
            let p = ConfigReader.join(path, key)
            return sub.map { ConfigReader.join(p, $0) } ?? p
        }
        out.chip = reader.string(members["chip"], at: at("chip"))
        if let value = members["power"],
           let power = reader.object(value, at: at("power"), known: powerKeys) {
            if power["line"] == nil { reader.report(at("power", "line"), "missing; give the line offset, e.g. 17") }
            if let line = reader.integer(power["line"], at: at("power", "line"), in: lines) {
                out.power = Power(line: line, activeLow: reader.bool(power["activeLow"], at: at("power", "activeLow")) ?? false)
            }
        }
        if let value = members["button"],
           let button = reader.object(value, at: at("button"), known: buttonKeys) {
            if button["line"] == nil { reader.report(at("button", "line"), "missing; give the line offset, e.g. 27") }
            let activeLow = reader.bool(button["activeLow"], at: at("button", "activeLow"))
            let action = reader.choice(button["action"], at: at("button", "action"), as: ButtonAction.self)
            let longPress = reader.choice(button["longPress"], at: at("button", "longPress"), as: ButtonAction.self)
            if let line = reader.integer(button["line"], at: at("button", "line"), in: lines) {
                out.button = Button(line: line, activeLow: activeLow ?? true, action: action ?? .reset,
                                    longPress: longPress ?? .power)
            }
        }
        if let value = members["encoder"],
           let encoder = reader.object(value, at: at("encoder"), known: encoderKeys) {
            for key in ["a", "b", "ring"] where encoder[key] == nil {
                reader.report(at("encoder", key), "missing")
            }
            let a = reader.integer(encoder["a"], at: at("encoder", "a"), in: lines)
            let b = reader.integer(encoder["b"], at: at("encoder", "b"), in: lines)
            let step = reader.number(encoder["step"], at: at("encoder", "step"), in: 0.001...1)
            let push = reader.integer(encoder["push"], at: at("encoder", "push"), in: lines)
            var ring = reader.string(encoder["ring"], at: at("encoder", "ring"))
            if let name = ring, !ringNames.contains(name) {
                reader.report(at("encoder", "ring"), "no ring called \"\(name)\"; the rings are \(ringNames.joined(separator: ", "))")
                ring = nil
            }
            if let a, let b, a == b { reader.report(at("encoder", "b"), "must differ from a, got \(b)") }
            if let a, let b, a != b, let ring {
                out.encoder = Encoder(a: a, b: b, ring: ring, step: step ?? 0.05, push: push)
            }
        }
        return out
    }
}
