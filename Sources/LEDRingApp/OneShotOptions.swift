import LEDHardware
import LEDRingControl
import LEDPresentation
import LEDWire
import RingModel

/// The one-shot command's options: `ledring --simulate [--set ring=value …] [--frames N] …`.
struct OneShotOptions {
    /// Where frames go: `--simulate`, or `--driver` with its device, clock, board and lines.
    var output = OutputConfig()
    /// Output goes to the simulated driver.
    var simulate: Bool { output.driver == .simulate }
    /// The hardware driver, when one was chosen.
    var driver: DriverKind? { output.driver == .simulate ? nil : output.driver }
    /// The driver whose chip the frames are for (the one `--simulate` stands in for).
    var chipDriver: DriverKind? { output.chipDriver }
    /// `--rings move:24,exercise:16`: names and LED counts on one chain.
    var rings: [(name: String, leds: Int)]?
    /// How simulated frames are printed; nil picks ansi on a terminal and text otherwise.
    var format: SimulatedFormat?
    /// `--svg-dir DIR`: one SVG picture per frame into DIR instead of frames on stdout.
    var svgDirectory: String?
    /// Frames to show; nil runs until every transition settles (or until Ctrl-C on a terminal).
    var frames: Int?
    /// Frames per second: frame k shows t = k / fps.
    var fps = 30.0
    /// Values to show, in the order given.
    var sets: [(ring: String, value: Double)] = []
    /// Rings that show the indeterminate spinner.
    var spins: [String] = []
    /// Transition length for `--set` values, seconds; nil jumps (the demo animates).
    var duration: Double?
    /// Transition curve.
    var curve = Curve.easeInOut
    /// Pace frames in real time even when not on a terminal.
    var realtime = false
    /// Brightness, gamma, dithering, correction, supply budget, RGBW white and HDR: the options
    /// `ledring run` takes too, parsed by the same code and applied by `FrameSettings`.
    var color = ColorOptions()
    /// Soft or hard heads.
    var cap = CapStyle.round
    /// Gradient span.
    var span = GradientSpan.ring
    /// What the rings look like: the default activity rings, one ring, a pie or a bar.
    var shape: RingShape?
    /// LED count for `--shape ring|bar`.
    var leds: Int?
    /// The spinner runs back and forth.
    var reverses = false
    /// How much the head's shadow dims the LED ahead of it past 100 %; nil keeps the default.
    var shadow: Float?
    /// How the gradient is drawn past 100 %.
    var laps = LapStyle.turn
    /// How far the head is lifted towards white; nil keeps the default.
    var highlight: Float?
    /// Print help.
    var help = false
    /// Print the version.
    var version = false

    /// Parses the one-shot command line.
    init(_ arguments: [String]) throws(CommandError) {
        var reader = ArgumentReader(arguments, verb: nil)
        while let (name, attached) = try reader.next() {
            func value() throws(CommandError) -> String { try reader.value(for: name, attached: attached) }
            switch name {
            case "--rings": rings = try OneShotOptions.parseRings(try value())
            case "--format": format = try ValueParser.choice(try value(), option: name, as: SimulatedFormat.self)
            case "--svg-dir": svgDirectory = try value()
            case "--frames": frames = try ValueParser.integer(try value(), option: name, in: 1...10_000_000)
            case "--fps":
                fps = try ValueParser.number(try value(), option: name, in: 0.001...1000,
                                             hint: "give frames per second, e.g. --fps 30")
                guard fps > 0 else { throw .usage("--fps \(fps): must be more than 0") }
            case "--set":
                let text = try value()
                guard let (ring, written) = Request.ringValue(text) else {
                    throw .usage("--set \"\(text)\": expected RING=VALUE, e.g. --set move=0.8")
                }
                // The domain's one check of a ring's value; the one-shot's rings have no range,
                // so a bare number is laps and must be in 0…100.
                let number: Double
                do throws(RequestError) { number = try Request.value(written, for: ring) } catch { throw .usage("--set " + error.message) }
                if let note = ValueParser.lapsNote(ring: ring, text: written, value: number) { Terminal.error("ledring: " + note) }
                sets.append((ring, number))
            case "--spin": spins.append(try value())
            case "--duration":
                let text = try value()
                do throws(RequestError) { duration = try Request.duration(text) } catch { throw .usage("--duration: " + error.message) }
            case "--curve": curve = try ValueParser.choice(try value(), option: name, as: Curve.self)
            case "--realtime": realtime = true
            case "--cap": cap = try ValueParser.choice(try value(), option: name, as: CapStyle.self)
            case "--span": span = try ValueParser.choice(try value(), option: name, as: GradientSpan.self)
            case "--shape": shape = try ValueParser.choice(try value(), option: name, as: RingShape.self)
            case "--leds": leds = try ValueParser.integer(try value(), option: name, in: 1...Segment.maxLEDs)
            case "--reverse-spin": reverses = true
            case "--shadow":
                shadow = Float(try ValueParser.fraction(try value(), option: name))
            case "--highlight":
                highlight = Float(try ValueParser.fraction(try value(), option: name))
            case "--laps": laps = try ValueParser.choice(try value(), option: name, as: LapStyle.self)
            case "--help": help = true
            case "--version": version = true
            default:
                if try color.parseOption(name, value: value) { continue }
                guard try output.parseOption(name, value: value) else { throw reader.unexpected(name) }
            }
        }
    }

    /// Checks the options that only make sense together.
    func validate() throws(CommandError) {
        if format == .svg && svgDirectory == nil && frames != 1 {
            throw .usage("--format svg prints one picture: add --frames 1 (and --set values), or use --svg-dir DIR for one file per frame")
        }
        if svgDirectory != nil, let format, format != .svg {
            throw .usage("--svg-dir writes SVG pictures; drop --format \(format.rawValue) or --svg-dir")
        }
    }

    /// Parses `move:24,exercise:16,stand:12`.
    static func parseRings(_ text: String) throws(CommandError) -> [(name: String, leds: Int)] {
        var rings: [(name: String, leds: Int)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw .usage("--rings \"\(text)\": expected NAME:LEDS[,NAME:LEDS…], e.g. move:24,exercise:16,stand:12")
            }
            let leds = try ValueParser.integer(String(parts[1]), option: "--rings \(parts[0]):", in: 1...Segment.maxLEDs)
            rings.append((String(parts[0]), leds))
        }
        return rings
    }

    /// The rings these options describe.
    func layout() throws(CommandError) -> RingLayout {
        var rings: [RingSpec]
        switch shape {
        case nil where self.rings != nil:
            let palette = [Palette.move, Palette.exercise, Palette.stand]
            rings = (self.rings ?? []).enumerated().map { i, ring in
                RingSpec(name: ring.name, segments: [Segment(ledCount: ring.leds)],
                         appearance: RingAppearance(gradient: palette[i % palette.count], cap: cap))
            }
        case nil where leds == nil:
            rings = Palette.activityRings(cap: cap)
        case nil, .ring?, .bar?:
            let count = leds ?? 24
            rings = [RingSpec(name: "progress", shape: shape ?? .ring, segments: [Segment(ledCount: count)],
                              appearance: RingAppearance(gradient: Palette.move, cap: cap))]
        case .pie?:
            guard leds == nil else { throw .usage("--leds does not apply to --shape pie (it uses rings of 24, 16, 12 and 1)") }
            rings = [RingSpec(name: "progress", shape: .pie,
                              segments: [24, 16, 12, 1].map { Segment(ledCount: $0) },
                              appearance: RingAppearance(gradient: Palette.move, cap: cap))]
        }
        for i in rings.indices {
            rings[i].appearance.gradient = rings[i].appearance.gradient.with(span: span)
            rings[i].appearance.spinner.reverses = reverses
            rings[i].appearance.laps = laps
            if let shadow { rings[i].appearance.shadow = shadow }
            if let highlight { rings[i].appearance.highlight = highlight }
        }
        do {
            return try RingLayout(rings: rings)
        } catch {
            throw .usage(OneShotOptions.explain(error))
        }
    }

    /// One line for a layout problem, naming the ring and the fix.
    static func explain(_ problem: RingLayout.Problem) -> String {
        switch problem {
        case .empty: return "no rings: give at least one, e.g. --rings move:24"
        case .badName(_, let name):
            return "ring name \"\(name)\": use letters, digits, - and _, starting with a letter (at most 32)"
        case .duplicateName(let name): return "two rings are called \"\(name)\": give each ring its own name"
        case .ledCountOutOfRange(let ring, _, let count): return "ring \(ring): \(count) LEDs; a ring has 1…1024"
        case .segmentCount(let ring, let shape, let count): return "ring \(ring): a \(shape.rawValue) cannot have \(count) segments"
        case .chainTooLong(let count): return "the chain has \(count) LEDs; ledring drives at most \(RingLayout.maxChainLEDs)"
        }
    }
}
