import LEDHardware
import LEDRingControl

/// The supply switch on a GPIO line (`gpio.power`): on before the first lit frame, off after the
/// final blank frame.
final class GPIOSupplySwitch: PowerSwitch {
    private let line: GPIOPowerSwitch

    init(_ line: GPIOPowerSwitch) {
        self.line = line
    }

    func setPower(_ on: Bool) {
        do {
            try on ? line.on() : line.off()
        } catch {
            Log.info("power line \(line.line): \(error.description)")
        }
    }
}

extension Daemon {
    /// The chip labels GPIO lines are looked up on: the config's `gpio.chip`, else the board's.
    static func gpioChipLabels(_ gpio: GPIOConfig, board: Board?) -> [String] {
        gpio.chip.map { [$0] } ?? board?.gpioChipLabels ?? []
    }

    /// The power switch: a GPIO line when `gpio.power` is configured, else one that only records.
    static func makePower(_ gpio: GPIOConfig, board: Board?, lines: @autoclosure () -> any GPIOLines)
        throws(CommandError) -> any PowerSwitch {
        guard let power = gpio.power else { return LoggingPowerSwitch(line: nil) }
        do {
            let line = try GPIOPowerSwitch(lines: lines(), chipLabels: gpioChipLabels(gpio, board: board),
                                           line: .offset(UInt32(power.line)), activeLow: power.activeLow)
            Log.info("power switch on \(line.line)" + (power.activeLow ? " (active low)" : ""))
            return GPIOSupplySwitch(line)
        } catch {
            throw CommandError(error, context: "gpio.power")
        }
    }

    /// The button and knob, when configured: lines requested with edge events, read by the poll
    /// loop (no polling timer).
    static func makeInputs(_ gpio: GPIOConfig, board: Board?, lines: @autoclosure () -> any GPIOLines)
        throws(CommandError) -> GPIOInputs? {
        guard gpio.button != nil || gpio.encoder != nil else { return nil }
        let button = gpio.button.map { GPIOInputConfiguration.Button(line: .offset(UInt32($0.line)), activeLow: $0.activeLow) }
        let encoder = gpio.encoder.map {
            GPIOInputConfiguration.Encoder(a: .offset(UInt32($0.a)), b: .offset(UInt32($0.b)),
                                           push: $0.push.map { .offset(UInt32($0)) })
        }
        let configuration = GPIOInputConfiguration(chipLabels: gpioChipLabels(gpio, board: board), button: button,
                                                   encoder: encoder)
        do {
            let inputs = try GPIOInputs(lines: lines(), configuration: configuration)
            Log.info("GPIO inputs: " + inputs.lines.map { $0.description }.joined(separator: ", "))
            return inputs
        } catch {
            throw CommandError(error, context: "gpio inputs")
        }
    }

    /// Applies what the button and knob asked for, through the same controller as the socket.
    func handle(_ actions: [InputAction], at now: Double) {
        for action in actions {
            switch action {
            case .resetAll: perform(config.gpio.button?.action ?? .reset, at: now)
            case .longPress: perform(config.gpio.button?.longPress ?? .power, at: now)
            case .selectNext:
                let names = config.layout.rings.map { $0.name }
                let current = names.firstIndex(of: selectedRing) ?? -1
                selectedRing = names[(current + 1) % names.count]
                Log.info("knob: \(selectedRing) selected")
            case .step(let steps):
                guard let index = config.layout.index(of: selectedRing) else { continue }
                let step = config.gpio.encoder?.step ?? 0.05
                let value = min(max(controller.states[index].target + Double(steps) * step, 0), Request.maxValue)
                submit(.set(values: [.init(ring: selectedRing, value: value)], duration: 0.15, curve: .easeOut), from: .knob, at: now)
            }
        }
    }

    private func perform(_ action: GPIOConfig.ButtonAction, at now: Double) {
        switch action {
        case .reset: submit(.defaultReset, from: .button, at: now)
        case .power: submit(.power(!controller.power), from: .button, at: now)
        case .none: break
        }
    }
}
