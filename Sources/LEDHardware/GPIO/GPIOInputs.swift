/// The button and knob on GPIO lines: requests them with edge events, waits on the kernel's
/// event descriptors (`poll`, never a polling loop), and turns edges into `InputAction`s with
/// the debounce, press and quadrature state machines.
///
/// Time comes from the events' kernel timestamps; the clock (`now`) is read only to fire a
/// long press or confirm a debounced level when no further edge arrives, so waits end at those
/// deadlines and otherwise sleep until an edge.
public final class GPIOInputs {
    /// The requested lines, in the order: button, encoder A, encoder B, encoder push.
    public var lines: [GPIOResolvedLine] { request?.lines ?? [] }
    /// Edges the debouncers threw away, for the doctor and tests.
    public var ignoredBounces: Int {
        (buttonDebouncer?.ignoredBounces ?? 0) + (pushDebouncer?.ignoredBounces ?? 0)
    }
    /// Encoder edges that were lost (an edge to the level the contact already had) plus
    /// transitions where both contacts changed at once.
    public var skippedTransitions: Int { lostEncoderEdges + (decoder?.skippedTransitions ?? 0) }
    private var lostEncoderEdges = 0

    private enum Role { case button, encoderA, encoderB, push }

    private let configuration: GPIOInputConfiguration
    private let now: () -> UInt64
    private var request: (any GPIOInputLines)?
    private var roles: [Role] = []
    private var levels: [Bool] = []
    private var buttonDebouncer: Debouncer?
    private var gesture: ButtonGesture?
    private var pushDebouncer: Debouncer?
    private var decoder: QuadratureDecoder?

    /// Requests the configured lines and reads their levels to start the state machines from.
    ///
    /// - Parameter now: `CLOCK_MONOTONIC` in nanoseconds, the clock of the events' timestamps.
    public init(
        lines provider: any GPIOLines, configuration: GPIOInputConfiguration, consumer: String = "ledring-input",
        now: @escaping () -> UInt64 = MonotonicClock.nanoseconds
    ) throws(HardwareError) {
        self.configuration = configuration
        self.now = now
        var ids: [GPIOLineID] = []
        if let button = configuration.button {
            ids.append(button.line)
            roles.append(.button)
        }
        if let encoder = configuration.encoder {
            ids += [encoder.a, encoder.b]
            roles += [.encoderA, .encoderB]
            if let push = encoder.push {
                ids.append(push)
                roles.append(.push)
            }
        }
        guard !ids.isEmpty else {
            throw HardwareError(kind: .invalidConfiguration, message: "GPIO inputs were asked for with no button and no encoder",
                                fix: "configure a button line, encoder lines, or both")
        }
        let request = try provider.requestInputs(
            GPIOLineSelection(chipLabels: configuration.chipLabels, lines: ids), bias: configuration.bias, consumer: consumer)
        do {
            levels = GPIOValueMask.levels(try request.readValues(), count: ids.count)
            try start()
        } catch {
            request.release()
            throw error
        }
        self.request = request
    }

    deinit { request?.release() }

    private func start() throws(HardwareError) {
        for (index, role) in roles.enumerated() {
            switch role {
            case .button:
                if let button = configuration.button {
                    buttonDebouncer = Debouncer(initialLevel: levels[index], windowNanoseconds: button.debounceNanoseconds)
                    gesture = ButtonGesture(longPressNanoseconds: button.longPressNanoseconds)
                }
            case .push:
                if let encoder = configuration.encoder {
                    pushDebouncer = Debouncer(initialLevel: levels[index], windowNanoseconds: encoder.debounceNanoseconds)
                }
            case .encoderA, .encoderB:
                break
            }
        }
        if let encoder = configuration.encoder, let a = roles.firstIndex(of: .encoderA), let b = roles.firstIndex(of: .encoderB) {
            decoder = try QuadratureDecoder(
                a: levels[a], b: levels[b], transitionsPerStep: encoder.transitionsPerStep,
                detentState: encoder.detentState, reversed: encoder.reversed)
        }
    }

    /// The descriptors to add to a caller's own `poll` (the daemon's loop); see `handleReady`.
    public var pollDescriptors: [Int32] { request?.pollDescriptors ?? [] }

    /// How long a caller's `poll` may sleep before `tick` is due: −1 for "until an edge".
    public func timeoutNanoseconds(now: UInt64) -> Int64 {
        let deadlines = [buttonDebouncer?.deadlineNanoseconds, gesture?.deadlineNanoseconds, pushDebouncer?.deadlineNanoseconds]
            .compactMap { $0 }
        guard let next = deadlines.min() else { return -1 }
        return next > now ? Int64(clamping: next - now) : 0
    }

    /// Reads the events on a descriptor `poll` reported readable and returns the actions.
    public func handleReady(descriptor: Int32) throws(HardwareError) -> [InputAction] {
        guard let request else { throw closedInputs() }
        return handle(try request.readEvents(ready: descriptor)) + tick(now: now())
    }

    /// Waits for edges (or the next debounce/long-press deadline, or `maxWaitNanoseconds`;
    /// negative: no limit) and returns the actions they made, possibly none.
    public func waitForActions(maxWaitNanoseconds: Int64 = -1) throws(HardwareError) -> [InputAction] {
        guard let request else { throw closedInputs() }
        let due = timeoutNanoseconds(now: now())
        let timeout = due < 0 ? maxWaitNanoseconds : maxWaitNanoseconds < 0 ? due : min(due, maxWaitNanoseconds)
        let events = try request.waitForEvents(timeoutNanoseconds: timeout)
        return handle(events) + tick(now: now())
    }

    /// Feeds edges (in the order they happened) to the state machines.
    public func handle(_ events: [GPIOEdgeEvent]) -> [InputAction] {
        var actions: [InputAction] = []
        for event in events where event.index >= 0 && event.index < roles.count {
            let previous = levels[event.index]
            levels[event.index] = event.edge.level
            switch roles[event.index] {
            case .button:
                if let change = buttonDebouncer?.feed(level: event.edge.level, at: event.timestampNanoseconds) {
                    actions += buttonChanged(change, at: event.timestampNanoseconds)
                }
            case .push:
                if let change = pushDebouncer?.feed(level: event.edge.level, at: event.timestampNanoseconds) {
                    actions += pushChanged(change)
                }
            case .encoderA, .encoderB:
                guard let a = roles.firstIndex(of: .encoderA), let b = roles.firstIndex(of: .encoderB) else { continue }
                // A pending button level is confirmed in time order before the knob's step.
                actions += tick(now: event.timestampNanoseconds)
                if previous == event.edge.level {
                    // The opposite edge was lost (the kernel's queue overflowed, or the contact
                    // bounced faster than edges are reported): replay it, so the Gray-code table
                    // sees the contact leave and come back, which cancels rather than inventing a step.
                    lostEncoderEdges += 1
                    var opposite = levels
                    opposite[event.index] = !event.edge.level
                    if let step = decoder?.update(a: opposite[a], b: opposite[b]), step != 0 { actions.append(.step(step)) }
                }
                if let step = decoder?.update(a: levels[a], b: levels[b]), step != 0 { actions.append(.step(step)) }
            }
        }
        return actions
    }

    /// Confirms debounced levels and fires a long press whose time has come at `now`.
    public func tick(now: UInt64) -> [InputAction] {
        var actions: [InputAction] = []
        if let change = buttonDebouncer?.tick(now: now) { actions += buttonChanged(change, at: now) }
        if let change = pushDebouncer?.tick(now: now) { actions += pushChanged(change) }
        if gesture?.tick(now: now) == .longPress { actions.append(.longPress) }
        return actions
    }

    /// Gives the lines back; safe to call twice.
    public func release() {
        request?.release()
        request = nil
    }

    /// A confirmed button level at `time` (the event or tick that confirmed it, never the wall
    /// clock, so a backlog of events read late is still judged by when they happened).
    private func buttonChanged(_ change: Debouncer.Change, at time: UInt64) -> [InputAction] {
        let pressed = change.level != (configuration.button?.activeLow ?? true)
        if pressed {
            gesture?.press(at: change.timestampNanoseconds)
            // A long press already due when the press was confirmed fires now.
            return gesture?.tick(now: time) == .longPress ? [.longPress] : []
        }
        switch gesture?.release(at: change.timestampNanoseconds) {
        case .press: return [.resetAll]
        case .longPress: return [.longPress]
        case nil: return []
        }
    }

    private func pushChanged(_ change: Debouncer.Change) -> [InputAction] {
        // The push switch is wired like the button (to ground, pulled up): low is pressed.
        change.level ? [] : [.selectNext]
    }

    private func closedInputs() -> HardwareError {
        HardwareError(kind: .closed, message: "GPIO inputs were used after release()", fix: "request the inputs again")
    }
}
