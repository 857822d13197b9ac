import Glibc
import LEDHardware
import LEDPresentation
import LEDRingControl
import LEDWire
import RingRender

/// `ledring run`: the service. One thread, one `poll(2)` loop over the signal pipe, the control
/// socket, its clients and (with `--stdin`) standard input. It composes parts each built alone in
/// a test: the pure `DaemonSchedule` (the poll timeout is the time to the next due frame, state
/// save or driver retry, and infinite when nothing is due, so an idle daemon never wakes up), the
/// `ClientServer` and `StatePersistence`, all on one syscall seam.
final class Daemon {
    /// The kernel, through the seam.
    let system: any SystemCalls
    let options: DaemonOptions
    var config: DaemonConfig
    /// The output settings in force: the config's, overridden by the command line.
    var outputSettings: OutputConfig
    var controller: Controller
    /// The renderer and everything the outputs need from it, built from the colour options.
    var session: FrameSession
    /// The session's renderer: its last frame's power report and dithering state.
    var renderer: Renderer { session.renderer }
    var output: any FrameOutput
    let power: any PowerSwitch
    /// The button and knob, when `gpio` configures them.
    var inputs: GPIOInputs?
    /// The ring the knob turns.
    var selectedRing: String

    let socketPath: String
    /// The state file and when to write it.
    var persistence: StatePersistence
    var store: StateStore { persistence.store }
    let signals: SignalPipe
    /// The control socket and its clients.
    let server: ClientServer
    /// Standard input's unfinished line, while `--stdin` input is open.
    var stdinLines: LineBuffer?
    var stdinLineNumber = 0
    /// Bad standard input lines logged per minute (5 MB of junk must not become 5 MB of log).
    var stdinComplaints = ComplaintLimiter()
    let started: Double
    /// When frames are due.
    var schedule: DaemonSchedule
    /// The config's sources and when each is due.
    var sources: SourcePoller
    /// The command sources' programs while they run.
    let commands: CommandRuns
    /// Whether another frame is wanted; setting it asks for one within a frame interval
    /// (`DaemonSchedule.wantFrame`).
    var needsFrame: Bool {
        get { schedule.needsFrame }
        set { if newValue { schedule.wantFrame() } else { schedule.needsFrame = false } }
    }
    /// Whether the values changed since the last save; setting it asks for a save.
    var stateDirty: Bool {
        get { persistence.dirty }
        set { if newValue { persistence.changed() } }
    }
    /// The controller's `droppedNotices` when last logged, and when that was.
    var droppedNoticesLogged = 0
    var droppedNoticesLoggedAt = -Double.infinity
    /// Frames and errors of outputs replaced by reloads, so `status` counts since start.
    var earlierFrames = 0
    var earlierErrors = 0
    /// The HTTP API and MQTT bridge, and the remote they drive the daemon through.
    let network: NetworkFrontEnds
    /// Whether the network asked for the LEDs on (off shows black and switches the supply off).
    /// Whether the LED supply (`gpio.power`) is switched on: it follows `controller.power`,
    /// which alone says whether the lights are on (`followPower`).
    var supplyOn = true

    /// Frames per second: the command line's, else the config's.
    var fps: Double { options.fps ?? config.fps }
    /// Time between frames while animating: never shorter than the wire and latch need.
    var frameInterval: Double { DaemonSchedule(fps: fps, wireInterval: output.minimumFrameInterval).frameInterval }

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
    init(options: DaemonOptions, system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())) throws(CommandError) {
        self.system = system
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
        let environment = ProcessEnvironment.current()
        socketPath = DaemonPaths.daemonSocket(option: options.socketPath, config: config.socket.path,
                                              environment: environment, uid: getuid())
        persistence = StatePersistence(store: StateStore(
            path: DaemonPaths.state(option: options.statePath, config: config.statePath, environment: environment, uid: getuid()),
            system: system))
        do {
            signals = try SignalPipe(system: system)
        } catch {
            throw error.commandError
        }
        let now = MonotonicClock.seconds()
        started = now
        schedule = DaemonSchedule(fps: options.fps ?? config.fps)
        sources = SourcePoller(sources: config.sources, now: now)
        commands = CommandRuns(system: system)
        // The command line's brightness over the file's, as the frames have it (FrameSettings).
        let brightness = FrameSettings(config: config, color: options.color, fps: options.fps ?? config.fps).brightness
        controller = Controller(layout: config.layout, brightness: brightness)
        switch persistence.store.load() {
        case .none: break
        case .state(let saved): controller.restore(saved, at: now, wallOffset: WallClock.seconds() - now)
        case .corrupt(let reason, let movedTo):
            Log.info("state file \(persistence.store.path): \(reason); "
                     + (movedTo.map { "moved it to \($0) and " } ?? "") + "starting from 0")
        }
        session = Daemon.makeSession(config: config, output: outputSettings, options: options)
        if let warning = session.darkBudgetWarning { Log.info(warning) }
        output = try Daemon.makeOutput(settings: outputSettings, session: session, at: now)
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
            network = try NetworkFrontEnds(names: config.layout.rings.map { $0.name }, system: system)
            network.updateRings(config.layout)
            server = try ClientServer(listeningOn: socketPath, mode: config.socket.mode, system: system)
        } catch {
            output.close()
            throw error.commandError
        }
        do {
            network.setSources(config.sources)
            publishSnapshot(at: now, always: true)
            try network.start(http: config.http, mqtt: config.mqtt)
        } catch {
            server.close(at: now)
            output.close()
            throw error
        }
        // All off before the restart: still off, supply included, until `power on`.
        supplyOn = controller.power
        power.setPower(supplyOn)
        if !supplyOn { Log.info("lights off, as they were before the restart (ledring power on lights them)") }
        let rings = config.layout.rings.map { "\($0.name) \($0.ledCount)" }.joined(separator: ", ")
        Log.info("started: rings \(rings) (\(config.layout.ledCount) LEDs), output \(output.name)"
                 + (output.device.map { " \($0)" } ?? "") + ", socket \(socketPath), state \(store.path)"
                 + (options.configPath.map { ", config \($0)" } ?? ""))
        if options.readStdin { stdinLines = LineBuffer() }
        publishSnapshot(at: now)
    }

    /// The output for `settings` and `session`'s frames: the simulated printer or a driver (opened
    /// now; a device that is not there yet is retried with back-off).
    static func makeOutput(settings: OutputConfig, session: FrameSession, at now: Double)
        throws(CommandError) -> any FrameOutput {
        let layout = session.layout
        guard let kind = settings.driver else {
            throw .usage("run: choose an output: --simulate, --driver ws2812-spi (or another, see --help), "
                         + "or output.driver in a --config file")
        }
        if kind == .simulate {
            return SimulatedOutput(format: settings.format ?? .json, start: now)
        }
        let board = try LEDRingApp.resolveBoard(settings.board)
        let driverSettings = session.driverSettings(settings.driverSettings(kind: kind, ledCount: layout.ledCount, board: board))
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

    /// The frame session for `config` on `output`: the command line's colour options over the
    /// file's, `--fps` over its fps.
    static func makeSession(config: DaemonConfig, output: OutputConfig, options: DaemonOptions) -> FrameSession {
        FrameSession(layout: config.layout, driver: output.chipDriver,
                     settings: FrameSettings(config: config, color: options.color, fps: options.fps ?? config.fps))
    }

    /// The status report at `now`.
    func status(at now: Double) -> StatusReport {
        StatusReport(driver: output.name, device: output.device, driverUp: output.isUp, leds: config.layout.ledCount,
                     fps: fps, frameInterval: frameInterval, framesSent: earlierFrames + output.framesSent,
                     errors: earlierErrors + output.errorCount,
                     lastError: output.lastError, estimatedMilliamps: renderer.milliamps,
                     maxMilliamps: Int(renderer.limiter.maxMilliamps), limitScale: Double(renderer.scale),
                     dithering: schedule.ditherRefreshing, animating: controller.isAnimating(at: now),
                     clients: server.clients.count, uptime: now - started, config: options.configPath,
                     http: network.httpAddress, mqttConnected: network.mqttConnected,
                     timersLeft: zip(controller.names, controller.timers).compactMap { name, timer in
                         timer.map { (name, $0.remaining(at: now)) }
                     })
    }
}
