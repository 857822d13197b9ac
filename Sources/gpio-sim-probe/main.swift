// gpio-sim-probe: exercises ledring's GPIO code on a real kernel GPIO chip (gpio-sim under QEMU,
// driven by tools/gpio-sim-test.sh) until the command line has GPIO options of its own.
// Prints one line per result; exits 0 on success, the error's sysexits code on a HardwareError,
// 1 when a read-back check fails.
import Glibc
import LEDHardware
import LEDWire
import RingModel

/// `--name value` pairs after the subcommand.
struct Options {
    var values: [String: String] = [:]

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let key = iterator.next() {
            if key.hasPrefix("--") { values[String(key.dropFirst(2))] = iterator.next() ?? "" }
        }
    }

    func string(_ key: String, _ fallback: String) -> String { values[key] ?? fallback }
    func int(_ key: String, _ fallback: Int) -> Int { values[key].flatMap(Int.init) ?? fallback }
    func line(_ key: String) -> GPIOLineID? { values[key].map(GPIOLineID.init(parsing:)) }
    var chips: [String] { values["chip"].map { [$0] } ?? [] }
}

func say(_ text: String) {
    print(text)
    fflush(nil)  // every stream: the script reads lines as they come
}

/// Blocks until the driving script writes a line to stdin (a phase handshake).
func waitForScript() { _ = readLine() }

func required(_ options: Options, _ key: String) throws(HardwareError) -> GPIOLineID {
    guard let line = options.line(key) else {
        throw HardwareError(kind: .invalidConfiguration, message: "missing --\(key)", fix: "pass --\(key) OFFSET|NAME")
    }
    return line
}

/// A frame whose colours differ in every channel, so a swapped or shifted bit shows.
func testPixels(_ count: Int) -> [RGB8] {
    (0..<count).map { index in RGB8(r: UInt8(truncatingIfNeeded: 0x11 * (index + 1)), g: UInt8(truncatingIfNeeded: 0xA5 &+ UInt8(index)), b: UInt8(truncatingIfNeeded: 0x80 >> (index % 8))) }
}

func hex(_ colour: RGB8) -> String {
    func two(_ value: UInt8) -> String { (value < 16 ? "0" : "") + String(value, radix: 16) }
    return "#" + two(colour.r) + two(colour.g) + two(colour.b)
}

func run(_ command: String, _ options: Options) throws(HardwareError) -> Int32 {
    let system = SystemGPIO.lines()
    switch command {
    case "chips":
        say("api \(SystemGPIO.compiledAPI ?? "none")")
        for chip in try system.chips() { say("chip \(chip)") }
        return 0

    case "clock":
        // Clocks one frame and reads every update back from the simulated chip.
        let readback = SysfsReadbackLines(system, simDirectory: options.string("sim", ""))
        let variant: APA102Variant = options.string("variant", "apa102") == "sk9822" ? .sk9822 : .apa102
        let encoder: APA102Encoder
        do { encoder = try APA102Encoder(variant: variant, globalBrightness: 21) } catch {
            throw HardwareError(kind: .invalidConfiguration, message: "\(error)")
        }
        let pixels = testPixels(options.int("leds", 3))
        let frame: [UInt8]
        do { frame = try encoder.encode(pixels) } catch { throw HardwareError(kind: .invalidConfiguration, message: "\(error)") }
        let transport = try GPIOClockedTransport(
            lines: readback, chipLabels: options.chips, data: try required(options, "data"), clock: try required(options, "clock"))
        say("lines data=\(transport.dataLine) clock=\(transport.clockLine)")
        try transport.send(frame, framing: .splittable)
        let bytes = readback.clockedBytes(data: transport.dataLine.offset, clock: transport.clockLine.offset)
        try transport.close()
        for failure in readback.failures.prefix(5) { say("mismatch \(failure)") }
        say("updates \(readback.readback.count) bytes \(bytes.count) of \(frame.count)")
        guard bytes == frame, readback.failures.isEmpty else {
            say("readback FAILED")
            return 1
        }
        do {
            for (index, pixel) in try encoder.decode(bytes, ledCount: pixels.count).enumerated() {
                say("led \(index) \(hex(pixel.colour)) brightness \(pixel.brightness)")
            }
        } catch {
            say("decode FAILED: \(error)")
            return 1
        }
        say("readback OK")
        return 0

    case "power":
        // Phases with handshakes so the script reads sim_gpioN/value while the line is held.
        let activeLow = options.string("active", "high") == "low"
        let chips = options.chips
        let power = try GPIOPowerSwitch(lines: system, chipLabels: chips, line: try required(options, "power"), activeLow: activeLow)
        let clocked = try GPIOClockedTransport(
            lines: system, chipLabels: chips, data: try required(options, "data"), clock: try required(options, "clock"))
        let transport = PowerSwitchedTransport(clocked, power: power)
        let encoder: APA102Encoder
        do { encoder = try APA102Encoder() } catch { throw HardwareError(kind: .invalidConfiguration, message: "\(error)") }
        let count = options.int("leds", 4)
        func frame(_ colour: RGB8) throws(HardwareError) -> [UInt8] {
            do { return try encoder.encode(Array(repeating: colour, count: count)) } catch {
                throw HardwareError(kind: .invalidConfiguration, message: "\(error)")
            }
        }
        say("phase requested")
        waitForScript()
        try transport.send(try frame(RGB8(r: 255, g: 40, b: 0)), framing: .splittable)
        say("phase lit")
        waitForScript()
        try transport.finish(blankFrame: try frame(RGB8(r: 0, g: 0, b: 0)), framing: .splittable)
        say("phase blank")
        waitForScript()
        try transport.close()
        say("phase released")
        return 0

    case "inputs":
        // Reports actions until --actions of them arrived, applying them to three rings.
        // --debounce-ms for the switches: the guest's emulated bounce is three writes from a
        // shell, which under TCG can land more than the 10 ms default apart and then are two
        // real presses (seen once in CI); a real contact bounces for microseconds.
        let debounce = UInt64(options.int("debounce-ms", 10)) * 1_000_000
        let configuration = GPIOInputConfiguration(
            chipLabels: options.chips,
            button: options.line("button").map { .init(line: $0, debounceNanoseconds: debounce, longPressNanoseconds: 800_000_000) },
            encoder: options.line("a").flatMap { a in options.line("b").map { b in
                .init(a: a, b: b, push: options.line("push"), debounceNanoseconds: debounce) } })
        let inputs = try GPIOInputs(lines: system, configuration: configuration)
        var rings = ProbeRings()
        let wanted = options.int("actions", 1)
        let deadline = MonotonicClock.nanoseconds() + UInt64(options.int("timeout", 60)) * 1_000_000_000
        var seen = 0
        say("ready \(inputs.lines.map(\.description).joined(separator: ", "))")
        while seen < wanted {
            let now = MonotonicClock.nanoseconds()
            guard now < deadline else {
                say("timeout after \(seen) of \(wanted) actions")
                return 1
            }
            for action in try inputs.waitForActions(maxWaitNanoseconds: Int64(deadline - now)) {
                let name: String
                switch action {
                case .resetAll: name = "resetAll"
                case .longPress: name = "longPress"
                case .selectNext: name = "selectNext"
                case .step(let steps): name = "step(\(steps))"
                }
                rings.apply(name)
                seen += 1
                say("action \(name) -> \(rings.description)")
            }
        }
        say("bounces \(inputs.ignoredBounces) skipped \(inputs.skippedTransitions)")
        inputs.release()
        return 0

    case "busy":
        // Requests a line twice: the second request must fail naming the holder.
        let line = try required(options, "line")
        let first = try system.requestOutputs(GPIOLineSelection(chipLabels: options.chips, lines: [line]), initialValues: 0, consumer: "ledring-first")
        defer { first.release() }
        _ = try system.requestOutputs(GPIOLineSelection(chipLabels: options.chips, lines: [line]), initialValues: 0, consumer: "ledring")
        say("second request of a held line succeeded")
        return 1

    case "bench":
        // Bit rate of the clocked transport: a benchmark, not a test (no pass/fail threshold).
        let transport = try GPIOClockedTransport(
            lines: system, chipLabels: options.chips, data: try required(options, "data"), clock: try required(options, "clock"))
        let encoder: APA102Encoder
        do { encoder = try APA102Encoder() } catch { throw HardwareError(kind: .invalidConfiguration, message: "\(error)") }
        let leds = options.int("leds", 60)
        let frames = options.int("frames", 10)
        let frame: [UInt8]
        do { frame = try encoder.encode(testPixels(leds)) } catch { throw HardwareError(kind: .invalidConfiguration, message: "\(error)") }
        let start = MonotonicClock.nanoseconds()
        for _ in 0..<frames { try transport.send(frame, framing: .splittable) }
        let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
        let rate = Double(transport.bitsSent) / seconds
        say("bench \(transport.bitsSent) bits in \((seconds * 1000).rounded() / 1000) s = \(Int(rate / 1000)) kbit/s "
            + "(\(Int(Double(frames) / seconds)) frames/s of \(leds) LEDs)")
        try transport.close()
        return 0

    case "refuse":
        _ = try GPIODriver(name: options.string("driver", "ws2812-gpio"))
        return 0

    case "spi-check":
        // Judges captures of the ledring_spi_capture module (tools/spi-capture-test.sh): one
        // case from the options, or every line of --plan FILE ("key=value …", label last), in
        // one process because every start of a Swift program is slow under QEMU's emulation.
        guard let plan = options.values["plan"] else { return checkCapture(options, label: "capture") ? 0 : 1 }
        let text: String
        do { text = String(decoding: try LinuxSystemCalls().readFile(plan), as: UTF8.self) } catch {
            throw HardwareError(kind: .notFound, message: "cannot read --plan \(plan): \(error)")
        }
        var failed = 0
        var cases = 0
        for line in text.split(separator: "\n") where !line.isEmpty {
            let (arguments, label) = planArguments(String(line))
            cases += 1
            if !checkCapture(Options(arguments[...]), label: label) { failed += 1 }
        }
        say("checked \(cases) captures, \(failed) failed")
        return failed == 0 && cases > 0 ? 0 : 1

    case "spi-limit":
        // Asks ledring (SPIDevTransport.checkFits) and the kernel (a raw SPI_IOC_MESSAGE) about
        // every length in --from...--to; they must agree on each. Then sends a splittable frame
        // of a few buffers' worth, which must go through in chunks the kernel takes.
        let device = options.string("device", "/dev/spidev0.0")
        let system = LinuxSystemCalls()
        let transport = try SPIDevTransport(device: device, speedHz: 4_000_000)
        say("bufsiz \(transport.bufferSize) alignment \(transport.transferAlignment) largest \(transport.largestTransfer) "
            + "(kernel \(SPIDevAlignment.runningMachine()))")
        let fd: Int32
        do { fd = try system.open(device, flags: O_RDWR | O_CLOEXEC, mode: 0) } catch {
            throw HardwareError.spidev(error, device: device, operation: "opening")
        }
        defer { try? system.close(fd) }
        var disagreements = 0
        var verdicts: Set<Bool> = []
        for length in options.int("from", 1)...options.int("to", 1) {
            let zeros = [UInt8](repeating: 0, count: length)
            let ledring = (try? transport.checkFits(byteCount: length, framing: .whole)) != nil
            let kernel: String
            let result: Result<UInt32, Errno> = zeros.withUnsafeBytes { raw in
                Result { () throws(Errno) -> UInt32 in
                    try system.spiIoctl(fd, .message(length: length, speedHz: 4_000_000, bitsPerWord: 8), tx: raw)
                }
            }
            switch result {
            case .success(let sent): kernel = sent == UInt32(length) ? "sent" : "short \(sent)"
            case .failure(let error): kernel = error == .messageTooLong ? "EMSGSIZE" : "\(error)"
            }
            let agree = ledring == (kernel == "sent") && (kernel == "sent" || kernel == "EMSGSIZE")
            if !agree { disagreements += 1 }
            verdicts.insert(ledring)
            say("len \(length): ledring \(ledring ? "fits" : "refuses"), kernel \(kernel)\(agree ? "" : "  <- DISAGREE")")
        }
        guard verdicts.count == 2 else {
            say("FAILED: the range holds only \(verdicts.first == true ? "fitting" : "refused") lengths; it must straddle the limit")
            return 1
        }
        let frame = (0..<(2 * transport.bufferSize + 17)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        do {
            try transport.send(frame, framing: .splittable)
            say("splittable \(frame.count)-byte frame sent in chunks of at most \(transport.largestTransfer)")
        } catch {
            say("FAILED: a splittable \(frame.count)-byte frame: \(error)")
            return 1
        }
        try transport.close()
        return disagreements == 0 ? 0 : 1

    default:
        say("usage: gpio-sim-probe chips|clock|power|inputs|busy|bench|refuse|spi-check|spi-limit [--chip LABEL] [--data L --clock L] "
            + "[--power L --active high|low] [--button L --a L --b L --push L --actions N] [--sim DIR]")
        return 64
    }
}

/// `key=value` words as `--key value` options; `label=` takes the rest of the line.
func planArguments(_ line: String) -> ([String], String) {
    var arguments: [String] = []
    var label = line
    var rest = Substring(line)
    while let word = rest.split(separator: " ", maxSplits: 1).first {
        if word.hasPrefix("label=") {
            label = String(rest.dropFirst("label=".count))
            break
        }
        if let equals = word.firstIndex(of: "=") {
            arguments += ["--" + word[..<equals], String(word[word.index(after: equals)...])]
        }
        rest = rest.dropFirst(word.count).drop { $0 == " " }
    }
    return (arguments, label)
}

/// Checks one capture against its simulated frame; prints "ok LABEL" and what was checked, or
/// "FAIL LABEL: why".
func checkCapture(_ options: Options, label: String) -> Bool {
    do {
        let kind = try DriverKind(named: options.string("driver", "ws2812-spi"))
        guard let board = try BoardCatalog.builtIn().board(id: options.string("board", "rpi4b")) else {
            throw CaptureError("unknown board \(options.string("board", ""))")
        }
        guard let run = SPICaptureCheck.Run(rawValue: options.string("run", "oneshot")) else {
            throw CaptureError("run is oneshot or daemon")
        }
        let system = LinuxSystemCalls()
        func text(_ key: String) throws -> String {
            let path = options.string(key, "")
            do { return String(decoding: try system.readFile(path), as: UTF8.self) } catch {
                throw CaptureError("cannot read \(key) \(path): \(error)")
            }
        }
        let check = SPICaptureCheck(
            kind: kind, board: board,
            requestedHz: options.values["spi-hz"].flatMap { UInt32($0) } ?? kind.defaultSPIHz, ledCount: options.int("leds", 52),
            expected: SPICaptureCheck.simulatedPixels(json: try text("simulated")), run: run,
            splitLimit: options.values["split-limit"].flatMap { Int($0) })
        let lines = try check.check(try SPICapture(text: try text("capture")))
        say("ok   \(label)")
        for line in lines { say("    \(line)") }
        return true
    } catch {
        say("FAIL \(label): \(error)")
        return false
    }
}

let arguments = CommandLine.arguments
let command = arguments.count > 1 ? arguments[1] : "help"
do {
    exit(try run(command, Options(arguments.dropFirst(2))))
} catch {
    print("error: \(error)")
    fflush(nil)  // every stream: the script reads lines as they come
    exit(error.exitCode)
}
