import Glibc
import LEDHardware
import RingRender

extension Daemon {
    /// Runs the poll loop until SIGTERM or SIGINT; returns the exit status.
    func serve() -> ExitCode {
        while true {
            let now = Posix.monotonicNow()
            if output.retryIfDue(at: now) { needsFrame = true }
            let interval = ditherRefreshing ? max(frameInterval, 1 / Daemon.ditherFPS) : frameInterval
            if needsFrame && now >= lastFrame + interval { renderFrame(at: now) }
            if stateDirty && now >= nextSave { saveState(at: now) }
            closeIdleClients(at: now)

            var fds = [pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: listener, events: acceptPaused ? 0 : Int16(POLLIN), revents: 0)]
            for client in clients {
                var events: Int16 = 0
                if client.wantsInput { events |= Int16(POLLIN) }
                if !client.outgoing.isEmpty { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: client.fd, events: events, revents: 0))
            }
            fds.append(pollfd(fd: network.remote.readEnd, events: Int16(POLLIN), revents: 0))
            if stdinLines != nil { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
            let inputStart = fds.count
            for fd in inputs?.pollDescriptors ?? [] { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }

            let ready = poll(&fds, nfds_t(fds.count), pollTimeout(now: Posix.monotonicNow()))
            if ready < 0 {
                if errno == EINTR { continue }
                Log.info("poll failed: \(String(cString: strerror(errno))); stopping")
                return shutdown(reason: "an internal error")
            }
            guard ready > 0 else { continue }
            let woke = Posix.monotonicNow()

            if fds[0].revents != 0 {
                for signo in signals.drain() {
                    switch signo {
                    case SIGHUP: reload(at: woke)
                    case SIGINT: return shutdown(reason: "SIGINT")
                    default: return shutdown(reason: "SIGTERM")
                    }
                }
            }
            if fds.contains(where: { $0.fd == network.remote.readEnd && $0.revents != 0 }) {
                applyRemoteCommands(at: woke)
            }
            let served = clients
            var keep: [ClientConnection] = []
            for (i, client) in served.enumerated() {
                let events = fds[2 + i].revents
                if events == 0 || serve(client, events: events, at: woke) {
                    keep.append(client)
                } else {
                    close(client.fd)
                    acceptPaused = false
                }
            }
            clients = keep
            if fds[1].revents != 0 { acceptClients() }
            if stdinLines != nil, inputStart > 0, fds[inputStart - 1].fd == STDIN_FILENO, fds[inputStart - 1].revents != 0 {
                readStandardInput(at: woke)
            }
            if let inputs {
                var actions: [InputAction] = []
                for pfd in fds[inputStart...] where pfd.revents != 0 {
                    do {
                        actions += try inputs.handleReady(descriptor: pfd.fd)
                    } catch {
                        Log.info("GPIO inputs: \(error.description)")
                    }
                }
                actions += inputs.tick(now: GPIOPoll.monotonicNanoseconds())
                handle(actions, at: woke)
            }
        }
    }

    /// Milliseconds until the next frame, save or driver retry is due; -1 (sleep until input)
    /// when nothing is.
    func pollTimeout(now: Double) -> Int32 {
        var deadline = Double.infinity
        if needsFrame {
            let interval = ditherRefreshing ? max(frameInterval, 1 / Daemon.ditherFPS) : frameInterval
            deadline = min(deadline, lastFrame + interval)
        }
        if stateDirty { deadline = min(deadline, nextSave) }
        if let retry = output.retryAt { deadline = min(deadline, retry) }
        // The next idle client to close.
        if let oldest = clients.map(\.lastActive).min() {
            deadline = min(deadline, oldest + Daemon.clientIdleTimeout)
        }
        // Debounce and long-press deadlines of the button and knob.
        if let inputs {
            let wait = inputs.timeoutNanoseconds(now: GPIOPoll.monotonicNanoseconds())
            if wait >= 0 { deadline = min(deadline, now + Double(wait) / 1e9) }
        }
        guard deadline.isFinite else { return -1 }
        let milliseconds = (deadline - now) * 1000
        return milliseconds <= 0 ? 0 : Int32(min(milliseconds.rounded(.up), 3_600_000))
    }

    /// Renders and sends the frame for `now`; keeps going only while something moves.
    func renderFrame(at now: Double) {
        session.brightness = controller.brightness
        let animating = controller.isAnimating(at: now)
        let frame = session.render(controller.states, at: now, animating: animating)
        output.show(lightsOn ? frame : session.dark(frame), at: now)
        publishSnapshot(at: now)
        if !renderer.power.withinBudget && !overBudgetLogged {
            Log.info("idle current alone (\(Int(renderer.power.idleMilliamps)) mA) exceeds maxMilliamps "
                     + "\(Int(renderer.limiter.maxMilliamps)): the LEDs stay dark; raise maxMilliamps")
            overBudgetLogged = true
        }
        lastFrame = now
        // Dithered LEDs between two levels need more frames to show their average: keep
        // refreshing, at a low rate, only while that holds (dither "on"; "auto" stops when still).
        let refresh = !animating && renderer.needsRefresh
        if refresh != ditherRefreshing {
            Log.info(refresh ? "dithering: refreshing at \(Int(Daemon.ditherFPS)) fps while LEDs sit between levels"
                             : "dithering settled: no more refreshes")
            ditherRefreshing = refresh
        }
        // A failed driver does not keep the loop awake: its recovery asks for a frame.
        needsFrame = animating || refresh
    }

    /// Writes the targets; a failure is logged once and retried later, never fatal.
    func saveState(at now: Double) {
        do {
            try store.save(controller.saved)
            stateDirty = false
            nextSave = now + Daemon.saveInterval
            if saveFailing { Log.info("state file \(store.path) written again") }
            saveFailing = false
        } catch {
            if !saveFailing { Log.info("cannot save the state: \(error.description); retrying every \(Int(Daemon.saveRetry)) s") }
            saveFailing = true
            nextSave = now + Daemon.saveRetry
        }
    }

    /// One blank frame, power off, socket removed, state saved; exit 0.
    func shutdown(reason: String) -> ExitCode {
        Log.info("stopping on \(reason)")
        network.remote.close()
        network.stop()
        let now = Posix.monotonicNow()
        output.show(session.blank(), at: now)
        power.setPower(false)
        inputs?.release()
        for client in clients {
            _ = client.flush()
            close(client.fd)
        }
        clients = []
        close(listener)
        unlink(socketPath)
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
            // The command line's colour options stay over the file's, as at start.
            next = options.color.applied(to: try DaemonConfig.load(path: path))
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
        let brightness = next.brightness != config.brightness ? next.brightness : nil
        controller = controller.carried(to: next.layout.rings.map(\.name), brightness: brightness)
        session = nextSession
        session.brightness = controller.brightness
        let ringsChanged = next.layout.rings.map(\.name) != config.layout.rings.map(\.name)
        config = next
        needsFrame = true
        stateDirty = true
        network.remote.updateNames(next.layout.rings.map(\.name))
        network.reload(http: next.http, mqtt: next.mqtt, ringsChanged: ringsChanged)
        publishSnapshot(at: now)
        Log.info("reloaded \(path): rings \(next.layout.rings.map(\.name).joined(separator: ", ")) (\(next.layout.ledCount) LEDs)")
    }
}
