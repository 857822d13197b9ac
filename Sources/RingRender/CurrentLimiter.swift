import RingModel

/// Keeps every frame's estimated current within a budget, in total and for each output (a range
/// of the chain fed by its own supply or connector), with one uniform scale of the drive levels
/// so every colour keeps its hue.
///
/// The estimate is made on the frame as sent (8-bit levels after dithering), and a limited frame
/// is strictly within budget: the scale leaves room for rounding up by one step per lit channel,
/// which is the most the quantiser and the dither stage ever add. Idle current is not scalable;
/// if it alone exceeds a budget the frame goes dark (scale 0) and the report says it is over.
public struct CurrentLimiter: Hashable, Sendable {
    /// A part of the chain with its own budget.
    public struct Output: Hashable, Sendable {
        /// The LEDs (chain indices) the output feeds.
        public var leds: Range<Int>
        /// Its budget in mA.
        public var maxMilliamps: Double

        /// Makes an output budget.
        public init(leds: Range<Int>, maxMilliamps: Double) {
            self.leds = leds
            self.maxMilliamps = maxMilliamps
        }
    }

    /// The default budget when none is configured, in mA: what a Raspberry Pi's 5 V header pin
    /// can safely give LEDs. That pin is the Pi's USB-C/micro-USB input after its polyfuse
    /// (1.1 A on early models) and must also feed the Pi itself, which takes 0.6–1.2 A on a
    /// Pi 4 under load on a 3 A supply; a Pi 5 on a non-5 A supply caps USB at 600 mA. 500 mA
    /// (the USB 2 port budget, and the 400–500 mA Arduino projects use for their 5 V pin)
    /// stays clear of a brown-out on every model. With a separate 5 V supply, raise it with
    /// `--max-milliamps`.
    public static let piFivePinMilliamps: Double = 500

    /// How LEDs draw current.
    public var model: PowerModel
    /// The budget for the whole chain, in mA (infinity: no total limit).
    public var maxMilliamps: Double
    /// Budgets for parts of the chain, each kept as well as the total.
    public var outputs: [Output]

    /// A limiter for `model` with a total budget (default: the Pi 5 V pin figure) and optional
    /// per-output budgets. A budget that is NaN or negative counts as 0 (dark, the safe reading).
    public init(model: PowerModel = .ws2812b, maxMilliamps: Double = CurrentLimiter.piFivePinMilliamps,
                outputs: [Output] = []) {
        self.model = model
        self.maxMilliamps = maxMilliamps
        self.outputs = outputs
    }

    /// No limit: the estimate is still reported.
    public static func unlimited(model: PowerModel = .ws2812b) -> CurrentLimiter {
        CurrentLimiter(model: model, maxMilliamps: .infinity)
    }

    /// The estimated current of `frame` (LEDs within `leds`, the whole frame when nil), idle
    /// included, in mA.
    public func estimate(_ frame: UnsafeBufferPointer<RGB8>, leds: Range<Int>? = nil) -> Double {
        let range = CurrentLimiter.clip(leds ?? 0..<frame.count, to: frame.count)
        // Sum the levels as integers and weigh them once: the same estimate as summing
        // `channelMilliamps` per LED, without three floating-point products per LED.
        var red = 0, green = 0, blue = 0
        for i in range {
            let c = frame[i]
            red &+= Int(c.r)
            green &+= Int(c.g)
            blue &+= Int(c.b)
        }
        return model.idle * Double(range.count)
            + (Double(red) * model.red + Double(green) * model.green + Double(blue) * model.blue) / 255
    }

    /// The estimated current of `frame`, idle included, in mA.
    public func estimate(_ frame: [RGB8]) -> Double {
        frame.withUnsafeBufferPointer { estimate($0) }
    }

    /// Whether `frame` keeps every budget.
    public func fits(_ frame: UnsafeBufferPointer<RGB8>) -> Bool {
        guard estimate(frame) <= CurrentLimiter.usable(maxMilliamps) else { return false }
        for output in outputs where estimate(frame, leds: output.leds) > CurrentLimiter.usable(output.maxMilliamps) {
            return false
        }
        return true
    }

    /// The largest uniform scale of `drive` (levels 0…1) after which any quantisation that rounds
    /// up by at most one step per lit channel keeps every budget; 0 when idle current alone
    /// does not fit, 1 when nothing needs limiting.
    public func scale(for drive: UnsafeBufferPointer<LinearRGB>) -> Float {
        var scale = scale(for: drive, leds: 0..<drive.count, budget: maxMilliamps)
        for output in outputs {
            scale = Swift.min(scale, self.scale(for: drive, leds: output.leds, budget: output.maxMilliamps))
        }
        return scale
    }

    private func scale(for drive: UnsafeBufferPointer<LinearRGB>, leds: Range<Int>, budget: Double) -> Float {
        let range = CurrentLimiter.clip(leds, to: drive.count)
        var scalable = 0.0, allowance = 0.0
        for i in range {
            scalable += model.channelMilliamps(drive[i])
            allowance += model.roundingAllowance(drive[i])
        }
        let room = CurrentLimiter.usable(budget) - model.idle * Double(range.count) - allowance
        guard room > 0 else { return 0 }
        guard scalable > room else { return 1 }
        return Float(room / scalable)
    }

    /// Quantises `drive` (levels 0…1, scaled in place if the frame is over budget) into `frame`
    /// through `dither`, and reports the frame's current and the scale used.
    ///
    /// A frame that fits as it is goes out unchanged. Otherwise it is scaled by `scale(for:)`
    /// and quantised again; should float rounding still leave it over, the scale shrinks a
    /// little at a time, and as a last resort the frame goes dark, so the promise holds.
    public func apply(to drive: UnsafeMutableBufferPointer<LinearRGB>, dither: inout TemporalDither,
                      dithered: Bool, into frame: UnsafeMutableBufferPointer<RGB8>) -> PowerReport {
        let idle = model.idle * Double(Swift.min(drive.count, frame.count))
        dither.quantise(UnsafeBufferPointer(drive), into: frame, dithered: dithered)
        var applied: Float = 1
        if !fits(UnsafeBufferPointer(frame)) {
            var step = scale(for: UnsafeBufferPointer(drive))
            var attempt = 0
            while true {
                for i in drive.indices { drive[i] = drive[i].scaled(by: step) }
                applied *= step
                dither.quantise(UnsafeBufferPointer(drive), into: frame, dithered: dithered)
                if step == 0 || fits(UnsafeBufferPointer(frame)) { break }
                attempt += 1
                step = attempt < 8 ? 0.99 : 0
            }
        }
        dither.commit()
        let milliamps = estimate(UnsafeBufferPointer(frame))
        return PowerReport(milliamps: milliamps, scale: applied, idleMilliamps: idle,
                           withinBudget: fits(UnsafeBufferPointer(frame)))
    }

    /// When the idle current of `ledCount` LEDs alone takes a whole budget (the total's or an
    /// output's), so that every frame goes dark: that idle current and the budget. nil when a
    /// frame can light. Known before the first frame, so it can be said at start.
    public func idleOverBudget(ledCount: Int) -> (idle: Double, budget: Double)? {
        let total = model.idle * Double(Swift.max(0, ledCount))
        if total >= CurrentLimiter.usable(maxMilliamps) { return (total, CurrentLimiter.usable(maxMilliamps)) }
        for output in outputs {
            let idle = model.idle * Double(CurrentLimiter.clip(output.leds, to: ledCount).count)
            if idle >= CurrentLimiter.usable(output.maxMilliamps) { return (idle, CurrentLimiter.usable(output.maxMilliamps)) }
        }
        return nil
    }

    /// A budget as a usable number: NaN or negative is 0.
    static func usable(_ budget: Double) -> Double {
        budget >= 0 ? budget : 0
    }

    static func clip(_ range: Range<Int>, to count: Int) -> Range<Int> {
        let lower = Swift.min(Swift.max(range.lowerBound, 0), count)
        let upper = Swift.min(Swift.max(range.upperBound, lower), count)
        return lower..<upper
    }
}
