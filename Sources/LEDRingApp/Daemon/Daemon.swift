import Glibc
import LEDHardware
import LEDRingNet
import LEDWire
import RingRender

/// `ledring run`: the service. One thread, one `poll(2)` loop over the signal pipe, the control
/// socket, its clients and (with `--stdin`) standard input. The poll timeout is the time to the
/// next due frame, state save or driver retry, and infinite when nothing is due, so an idle
/// daemon never wakes up.
final class Daemon {
    /// Clients served at once; more are told so and closed.
    static let maxClients = 32
    /// Seconds a control client may stay connected without sending a request.
    static let clientIdleTimeout = 30.0
    /// When all `maxClients` places are taken, a client silent this long (seconds) gives its place
    /// to a new one, so idle connections can never lock everyone out.
    static let evictIdleAfter = 1.0
    /// Shortest time between two state-file writes: at most four writes a second however fast
    /// values change, and nothing acknowledged longer ago than this is lost by a power cut.
    static let saveInterval = 0.25
    /// Wait after a failed state write before trying again.
    static let saveRetry = 5.0
    /// Frame rate while only dithering needs frames: enough for the eye to average two levels,
    /// far below an animation's.
    static let ditherFPS = 25.0

    let options: DaemonOptions
    var config: DaemonConfig
    /// The output settings in force: the config's, overridden by the command line.
    var outputSettings: OutputConfig
    var controller: Controller
    var renderer: Renderer
    var output: any FrameOutput
    let power: any PowerSwitch
    /// The button and knob, when `gpio` configures them.
    var inputs: GPIOInputs?
    /// The ring the knob turns.
    var selectedRing: String

    let socketPath: String
    let store: StateStore
    let signals: SignalPipe
    var listener: Int32 = -1
    var clients: [ClientConnection] = []
    /// Out of file descriptors: stop polling the listener (it would stay readable and spin the
    /// loop) until a client leaves.
    var acceptPaused = false
    /// Standard input's unfinished line, while `--stdin` input is open.
    var stdinLines: LineBuffer?
    var stdinLineNumber = 0
    /// Bad standard input lines logged per minute (5 MB of junk must not become 5 MB of log).
    var stdinComplaints = ComplaintLimiter()
    let started: Double
    var lastFrame = -Double.infinity
    var needsFrame = true
    var stateDirty = false
    var nextSave = -Double.infinity
    var saveFailing = false
    /// Whether the picture is being refreshed only because dithered LEDs sit between levels.
    var ditherRefreshing = false
    /// Said once: the idle current alone is over budget.
    var overBudgetLogged = false
    /// Frames and errors of outputs replaced by reloads, so `status` counts since start.
    var earlierFrames = 0
    var earlierErrors = 0
    /// The HTTP API and MQTT bridge, and the remote they drive the daemon through.
    let network: NetworkFrontEnds
    /// Whether the network asked for the LEDs on (off shows black and switches the supply off).
    var lightsOn = true

    /// Frames per second: the command line's, else the config's.
    var fps: Double { options.fps ?? config.fps }
    /// Whether frames go out with APA102 high dynamic range (`--hdr` on an APA102/SK9822 driver).
    var outputHDR: Bool { Daemon.usesHDR(options.color, outputSettings) }

    /// Whether `color` asks for HDR on an output that can do it.
    static func usesHDR(_ color: ColorOptions, _ output: OutputConfig) -> Bool {
        color.hdr == true && output.driver?.apa102Variant != nil
    }
    /// Time between frames while animating: never shorter than the wire and latch need.
    var frameInterval: Double { max(1 / fps, output.minimumFrameInterval) }

    /// Parses `run`'s arguments, starts the daemon and serves until SIGTERM or SIGINT.
    static func run(_ arguments: [String]) throws(CommandError) -> ExitCode {
        let options = try DaemonOptions(arguments)
        if options.help {
            Terminal.write(Usage.text)
            return .ok
        }
        return try Daemon(options: options).serve()
    }

    /// Loads the config and state, opens the output and the socket.
    init(options: DaemonOptions) throws(CommandError) {
        self.options = options
        do throws(ConfigError) {
            if let path = options.configPath {
                config = try DaemonConfig.load(path: path)
            } else {
                config = try DaemonConfig.defaults()
            }
        } catch {
            throw error.commandError
        }
        outputSettings = config.output.overridden(by: options.output)
        config = options.color.applied(to: config)
        let environment = ProcessEnvironment.current()
        socketPath = DaemonPaths.daemonSocket(option: options.socketPath, config: config.socket.path,
                                              environment: environment, uid: getuid())
        store = StateStore(path: DaemonPaths.state(option: options.statePath, config: config.statePath,
                                                   environment: environment, uid: getuid()))
        do {
            signals = try SignalPipe()
        } catch {
            throw error.commandError
        }
        let now = Posix.monotonicNow()
        started = now
        controller = Controller(names: config.layout.rings.map(\.name), brightness: config.brightness)
        switch store.load() {
        case .none: break
        case .state(let saved): controller.restore(saved, at: now)
        case .corrupt(let reason, let movedTo):
            Log.info("state file \(store.path): \(reason); "
                     + (movedTo.map { "moved it to \($0) and " } ?? "") + "starting from 0")
        }
        renderer = Daemon.makeRenderer(config: config, driver: outputSettings.driver, brightness: controller.brightness)
        renderer.wideFrame = Daemon.usesHDR(options.color, outputSettings)
        renderer.framesPerSecond = options.fps ?? config.fps
        output = try Daemon.makeOutput(layout: config.layout, settings: outputSettings, color: options.color, at: now)
        selectedRing = config.gpio.encoder?.ring ?? config.layout.rings.first?.name ?? ""
        let usesGPIO = config.gpio.power != nil || config.gpio.button != nil || config.gpio.encoder != nil
        let board = usesGPIO ? try LEDRingApp.resolveBoard(outputSettings.board) : nil
        do {
            power = try Daemon.makePower(config.gpio, board: board, lines: SystemGPIO.lines())
            inputs = try Daemon.makeInputs(config.gpio, board: board, lines: SystemGPIO.lines())
        } catch {
            output.close()
            throw error
        }
        do {
            network = NetworkFrontEnds(remote: try DaemonRemote(
                names: config.layout.rings.map(\.name), snapshot: RingSnapshot(rings: [], brightness: 1, power: true)))
            listener = try Daemon.listen(on: socketPath, mode: config.socket.mode)
        } catch {
            output.close()
            throw error.commandError
        }
        do {
            try network.start(http: config.http, mqtt: config.mqtt)
        } catch {
            close(listener)
            unlink(socketPath)
            output.close()
            throw error
        }
        power.setPower(true)
        let rings = config.layout.rings.map { "\($0.name) \($0.ledCount)" }.joined(separator: ", ")
        Log.info("started: rings \(rings) (\(config.layout.ledCount) LEDs), output \(output.name)"
                 + (output.device.map { " \($0)" } ?? "") + ", socket \(socketPath), state \(store.path)"
                 + (options.configPath.map { ", config \($0)" } ?? ""))
        if options.readStdin { stdinLines = LineBuffer() }
        publishSnapshot(at: now)
    }

    /// The output for `settings`: the simulated printer or a driver (opened now; a device that is
    /// not there yet is retried with back-off).
    static func makeOutput(layout: RingLayout, settings: OutputConfig, color: ColorOptions, at now: Double)
        throws(CommandError) -> any FrameOutput {
        guard let kind = settings.driver else {
            throw .usage("run: choose an output: --simulate, --driver ws2812-spi (or another, see --help), "
                         + "or output.driver in a --config file")
        }
        if kind == .simulate {
            return SimulatedOutput(layout: layout, format: settings.format ?? .json, start: now)
        }
        let board = try LEDRingApp.resolveBoard(settings.board)
        let driverSettings = color.applied(to: settings.driverSettings(kind: kind, ledCount: layout.ledCount, board: board))
        let output = DriverOutput(name: kind.rawValue, device: settings.dumpWire ?? driverSettings.resolvedDevice) {
            () throws(HardwareError) -> LEDDriver in try driverSettings.makeDriver()
        }
        do {
            try output.open(at: now)
        } catch {
            throw CommandError(error)
        }
        return output
    }

    /// The renderer for `config`: gamma and correction, the power limit for the chip the output
    /// drives, dithering.
    static func makeRenderer(config: DaemonConfig, driver: DriverKind?, brightness: Double) -> Renderer {
        var pipeline = ColorPipeline(brightness: Float(brightness), gamma: Float(config.gamma))
        pipeline.correction = config.correction.factors
        let limiter = CurrentLimiter(model: (driver ?? .simulate).powerModel,
                                     maxMilliamps: config.maxMilliamps.map(Double.init) ?? CurrentLimiter.piFivePinMilliamps)
        return Renderer(layout: config.layout, pipeline: pipeline, limiter: limiter, dithering: config.dither)
    }

    /// The status report at `now`.
    func status(at now: Double) -> StatusReport {
        StatusReport(driver: output.name, device: output.device, driverUp: output.isUp, leds: config.layout.ledCount,
                     fps: fps, frameInterval: frameInterval, framesSent: earlierFrames + output.framesSent,
                     errors: earlierErrors + output.errorCount,
                     lastError: output.lastError, estimatedMilliamps: renderer.milliamps,
                     maxMilliamps: Int(renderer.limiter.maxMilliamps), limitScale: Double(renderer.scale),
                     dithering: ditherRefreshing, animating: controller.isAnimating(at: now),
                     clients: clients.count, uptime: now - started, config: options.configPath,
                     http: network.httpAddress, mqttConnected: network.mqttConnected)
    }
}
