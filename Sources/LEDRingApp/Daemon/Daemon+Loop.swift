import Glibc
import LEDHardware
import LEDRingControl
import RingModel

extension Daemon {
    /// Says how many notifications the caps dropped since it last said: at once, then at most
    /// every 10 s while a flood goes on (the count is carried into the next line).
    func logDroppedNotices(at now: Double) {
        let dropped = controller.droppedNotices
        guard dropped > droppedNoticesLogged, now - droppedNoticesLoggedAt >= 10 else { return }
        droppedNoticesLoggedAt = now
        Log.info("notifications: dropped \(dropped - droppedNoticesLogged) past the caps (at most \(Controller.maxNotices) at once, "
                 + "\(Controller.maxNoticesPerRing) over one ring; the lowest priority goes first, then the oldest)")
        droppedNoticesLogged = dropped
    }

    /// Runs the poll loop until SIGTERM or SIGINT; returns the exit status. Thin on purpose: the
    /// deadlines are `schedule`'s, the sockets `server`'s, the state file `persistence`'s.
    func serve() -> ExitCode {
        while true {
            let now = MonotonicClock.seconds()
            if output.retryIfDue(at: now) { needsFrame = true }
            schedule.fps = fps
            schedule.wireInterval = output.minimumFrameInterval
            // A notification that ended gives the rings back: a frame, and a save without it.
            if controller.expire(at: now) {
                needsFrame = true
                stateDirty = true
            }
            for request in sources.due(at: now, read: { path throws(BoundedFile.Problem) in
                try BoundedFile.read(path, limit: SourcePoller.maxBytes, system: system)
            }, start: { commands.start($0, at: now) }, log: { Log.info($0) }) {
                submit(request, from: .source, at: now)
            }
            commandsEnded(commands.due(at: now), at: now)
            // The loop's own network front ends (the static build's MQTT): keep-alive, reconnect.
            network.tick(now: now)
            applyRemoteCommands(at: now)
            if schedule.frameDue(at: now) { renderFrame(at: now) }
            logDroppedNotices(at: now)
            if let line = persistence.saveIfDue(at: now, { controller.saved(wallOffset: WallClock.seconds() - now) }) { Log.info(line) }
            server.closeIdleClients(at: now)

            var fds = [pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)]
            let serverEntries = fds.count..<(fds.count + 1 + server.clients.count)
            fds += server.pollEntries()
            if let wake = network.wakeDescriptor { fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
            let networkFds = network.pollEntries
            let networkEntries = fds.count..<(fds.count + networkFds.count)
            fds += networkFds
            if stdinLines != nil { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
            let inputStart = fds.count
            for fd in inputs?.pollDescriptors ?? [] { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let commandStart = fds.count
            fds += commands.pollEntries

            let ready: Int
            do {
                ready = try system.poll(&fds, timeout: pollTimeout(now: MonotonicClock.seconds()))
            } catch {
                Log.info("poll failed: \(error); stopping")
                return shutdown(reason: "an internal error")
            }
            guard ready > 0 else { continue }
            let woke = MonotonicClock.seconds()

            if fds[0].revents != 0 {
                for signo in signals.drain() {
                    switch signo {
                    case SIGHUP: reload(at: woke)
                    case SIGINT: return shutdown(reason: "SIGINT")
                    default: return shutdown(reason: "SIGTERM")
                    }
                }
            }
            if let wake = network.wakeDescriptor, fds.contains(where: { $0.fd == wake && $0.revents != 0 }) {
                applyRemoteCommands(at: woke)
            }
            if fds[networkEntries].contains(where: { $0.revents != 0 }) {
                network.handle(fds[networkEntries], now: woke)
                applyRemoteCommands(at: woke)
            }
            server.handle(fds[serverEntries], at: woke) { line, at in handle(.line(line), at: at) }
            if stdinLines != nil, fds[inputStart - 1].fd == STDIN_FILENO, fds[inputStart - 1].revents != 0 {
                readStandardInput(at: woke)
            }
            // What they printed; the runs this ends are reaped at the top of the loop, next.
            commands.read(Array(fds[commandStart...]))
            if let inputs {
                var actions: [InputAction] = []
                for pfd in fds[inputStart..<commandStart] where pfd.revents != 0 {
                    do {
                        actions += try inputs.handleReady(descriptor: pfd.fd)
                    } catch {
                        Log.info("GPIO inputs: \(error.description)")
                    }
                }
                actions += inputs.tick(now: MonotonicClock.nanoseconds())
                handle(actions, at: woke)
            }
        }
    }

    /// Milliseconds until the next frame, save, driver retry, idle client or button/knob
    /// deadline; -1 (sleep until input) when nothing is due.
    func pollTimeout(now: Double) -> Int32 {
        var inputsAt: Double?
        if let inputs {
            let wait = inputs.timeoutNanoseconds(now: MonotonicClock.nanoseconds())
            if wait >= 0 { inputsAt = now + Double(wait) / 1e9 }
        }
        return schedule.pollTimeout(now: now, save: persistence.deadline, retry: output.retryAt,
                                    idleClient: server.nextIdleDeadline, inputs: inputsAt, notice: controller.nextNoticeEnd,
                                    source: [sources.nextDeadline, commands.nextDeadline, network.nextDeadline].compactMap { $0 }.min())
    }

    /// What the command sources that ended printed, as their rings' requests.
    func commandsEnded(_ ended: [CommandRuns.Ended], at now: Double) {
        for run in ended {
            for request in sources.finished(run.source, run.outcome, at: now, log: { Log.info($0) }) {
                submit(request, from: .source, at: now)
            }
        }
    }

    /// Renders and sends the frame for `now`; keeps going only while something moves.
    func renderFrame(at now: Double) {
        let spacing = controller.frameSpacing(at: now)
        let animating = spacing != nil
        let frame = session.render(controller, at: now)
        output.show(controller.power ? frame : session.dark(frame), at: now)
        publishSnapshot(at: now)
        // Dithered LEDs between two levels need more frames to show their average: keep
        // refreshing, at a low rate, only while that holds (dither "on"; "auto" stops when still).
        let refresh = !animating && renderer.needsRefresh
        if refresh != schedule.ditherRefreshing {
            Log.info(refresh ? "dithering: refreshing at \(Int(DaemonSchedule.ditherFPS)) fps while LEDs sit between levels"
                             : "dithering settled: no more refreshes")
        }
        // A failed driver does not keep the loop awake: its recovery asks for a frame. Slow
        // timers space frames out, but never below the rate dithered LEDs need to look steady.
        let pace = renderer.needsRefresh ? min(spacing ?? 0, 1 / DaemonSchedule.ditherFPS) : spacing ?? 0
        schedule.frameSent(at: now, animating: animating, dithering: refresh, spacing: pace)
    }

    /// Writes the targets now; a failure is logged once and retried later, never fatal.
    func saveState(at now: Double) {
        if let line = persistence.save(controller.saved(wallOffset: WallClock.seconds() - now), at: now) { Log.info(line) }
    }

    /// One blank frame, power off, socket removed, state saved; exit 0.
    func shutdown(reason: String) -> ExitCode {
        Log.info("stopping on \(reason)")
        network.closeRemote()
        network.stop()
        let now = MonotonicClock.seconds()
        output.show(session.blank(), at: now)
        power.setPower(false)
        inputs?.release()
        commands.stopAll()
        server.close(at: now)
        if stateDirty { saveState(at: now) }
        output.close()
        Log.info("stopped")
        return .ok
    }

    /// Re-reads the config file (SIGHUP). A bad file is rejected with its problems and the running
    /// config stays; a good one replaces the rings and output, keeping values by ring name.
    func reload(at now: Double) {
        guard let path = options.configPath else {
            Log.info("SIGHUP: started without --config, so there is nothing to reload")
            return
        }
        let next: DaemonConfig
        do {
            next = try DaemonConfig.load(path: path)
        } catch {
            Log.info("reload rejected, the running config stays in force:")
            for line in error.description.split(separator: "\n") { Log.info("  \(line)") }
            return
        }
        let nextOutput = next.output.overridden(by: options.output)
        guard nextOutput.driver != nil else {
            Log.info("reload rejected, the running config stays in force: \(path) names no output.driver")
            return
        }
        if next.socket != config.socket && options.socketPath == nil {
            Log.info("socket settings changed in \(path); restart ledring to apply them")
        }
        let nextSession = Daemon.makeSession(config: next, output: nextOutput, options: options)
        if nextOutput != outputSettings || next.layout.ledCount != config.layout.ledCount {
            earlierFrames += output.framesSent
            earlierErrors += output.errorCount
            output.close()
            do {
                output = try Daemon.makeOutput(settings: nextOutput, session: nextSession, at: now)
            } catch {
                Log.info("reload rejected, the running config stays in force: \(error.message)")
                if let old = try? Daemon.makeOutput(settings: outputSettings, session: session, at: now) {
                    output = old
                } else {
                    Log.info("the previous output could not be re-opened either; fix the config and send SIGHUP")
                }
                needsFrame = true
                return
            }
            outputSettings = nextOutput
        }
        // The command line's colour options stay over the file's, as at start (both sessions'
        // settings have them), so only a brightness edited in the file replaces the running one.
        let brightness = nextSession.settings.brightness != session.settings.brightness ? nextSession.settings.brightness : nil
        controller = controller.carried(to: next.layout, brightness: brightness)
        session = nextSession
        if let warning = session.darkBudgetWarning { Log.info(warning) }
        config = next
        sources = sources.carried(to: next.sources, now: now)
        needsFrame = true
        stateDirty = true
        network.updateRings(next.layout)
        network.setSources(next.sources)
        // Before the front ends reload: the bridge follows the snapshot, so the new rings and
        // looks get their Home Assistant entities and the ones gone are cleared from the broker.
        publishSnapshot(at: now, always: true)
        network.reload(http: next.http, mqtt: next.mqtt)
        Log.info("reloaded \(path): rings \(next.layout.rings.map { $0.name }.joined(separator: ", ")) (\(next.layout.ledCount) LEDs)")
    }
}
