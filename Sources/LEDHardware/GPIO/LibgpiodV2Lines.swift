#if GPIOD_V2
import CGPIOD
import Glibc

/// GPIO lines through libgpiod 2.x (Debian 13, newer Raspberry Pi OS): the only file that calls
/// the 2.x C API. Package.swift compiles it when the installed `gpiod.h` is 2.x.
///
/// Written against the 2.0 API (chip info, line settings/config, request config, edge event
/// buffers) and only calls what 2.0 already has, so it also builds with 2.1 and 2.2. Unlike
/// 1.x, a request lives on without its chip, and has one event descriptor for all its lines.
public final class LibgpiodV2Lines: GPIOLines {
    /// Where the `gpiochipN` nodes are.
    public let deviceDirectory: String
    private let system: any SystemCalls

    /// Uses the chips in `deviceDirectory`; `system` lists that directory.
    public init(deviceDirectory: String = "/dev", system: any SystemCalls = LinuxSystemCalls()) {
        self.deviceDirectory = deviceDirectory
        self.system = system
    }

    /// The library's version, e.g. "2.1.3".
    public static var libraryVersion: String { String(cString: gpiod_api_version()) }

    /// Opens every chip once to read its label and line count.
    public func chips() throws(HardwareError) -> [GPIOChipInfo] {
        try GPIOChipDevices.paths(in: deviceDirectory, system: system).map { path in
            guard let chip = gpiod_chip_open(path) else {
                return GPIOChipInfo(path: path, label: nil, lineCount: 0, openError: Errno.current)
            }
            defer { gpiod_chip_close(chip) }
            guard let info = gpiod_chip_get_info(chip) else {
                return GPIOChipInfo(path: path, label: nil, lineCount: 0, openError: Errno.current)
            }
            defer { gpiod_chip_info_free(info) }
            return GPIOChipInfo(
                path: path, label: String(cString: gpiod_chip_info_get_label(info)),
                lineCount: Int(gpiod_chip_info_get_num_lines(info)))
        }
    }

    /// Requests outputs, each with its first level in its line settings.
    public func requestOutputs(
        _ selection: GPIOLineSelection, initialValues: UInt64, consumer: String
    ) throws(HardwareError) -> any GPIOOutputLines {
        let request = try makeRequest(selection, consumer: consumer, operation: "requesting as output") { settings, index in
            _ = gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT)
            _ = gpiod_line_settings_set_output_value(
                settings, GPIOValueMask.level(initialValues, index) ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE)
        }
        return Outputs(request)
    }

    /// Requests inputs with both edges, `bias`, and monotonic event timestamps.
    public func requestInputs(
        _ selection: GPIOLineSelection, bias: GPIOBias, consumer: String
    ) throws(HardwareError) -> any GPIOInputLines {
        let cBias: gpiod_line_bias
        switch bias {
        case .asIs: cBias = GPIOD_LINE_BIAS_AS_IS
        case .disabled: cBias = GPIOD_LINE_BIAS_DISABLED
        case .pullUp: cBias = GPIOD_LINE_BIAS_PULL_UP
        case .pullDown: cBias = GPIOD_LINE_BIAS_PULL_DOWN
        }
        let request = try makeRequest(selection, consumer: consumer, operation: "requesting for edge events") { settings, _ in
            _ = gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT)
            _ = gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH)
            _ = gpiod_line_settings_set_bias(settings, cBias)
            _ = gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC)
        }
        return try Inputs(request)
    }

    /// Resolves the lines, builds one settings object per line, and requests them together.
    private func makeRequest(
        _ selection: GPIOLineSelection, consumer: String, operation: String,
        configure: (OpaquePointer, Int) -> Void
    ) throws(HardwareError) -> Request {
        let (info, offsets) = try GPIOChipResolver.resolve(selection, chips: try chips()) { info, name in
            guard let chip = gpiod_chip_open(info.path) else { return nil }
            defer { gpiod_chip_close(chip) }
            let offset = gpiod_chip_get_line_offset_from_name(chip, name)
            return offset < 0 ? nil : UInt32(offset)
        }
        let label = info.label ?? info.path
        guard let chip = gpiod_chip_open(info.path) else {
            throw HardwareError.gpio(Errno.current, chip: label, operation: "opening \(info.path) for")
        }
        // The request keeps its own descriptor, so the chip is closed whatever happens.
        defer { gpiod_chip_close(chip) }
        let lines = offsets.map { offset in
            let name: String
            if let lineInfo = gpiod_chip_get_line_info(chip, offset) {
                name = gpiod_line_info_get_name(lineInfo).map { String(cString: $0) } ?? ""
                gpiod_line_info_free(lineInfo)
            } else {
                name = ""
            }
            return GPIOResolvedLine(chipLabel: label, offset: offset, name: name)
        }
        guard let lineConfig = gpiod_line_config_new(), let requestConfig = gpiod_request_config_new() else {
            throw HardwareError.gpio(Errno.current, chip: label, operation: "allocating a line request for")
        }
        defer {
            gpiod_line_config_free(lineConfig)
            gpiod_request_config_free(requestConfig)
        }
        consumer.withCString { gpiod_request_config_set_consumer(requestConfig, $0) }
        for (index, offset) in offsets.enumerated() {
            guard let settings = gpiod_line_settings_new() else {
                throw HardwareError.gpio(Errno.current, chip: label, operation: "allocating line settings for")
            }
            defer { gpiod_line_settings_free(settings) }
            configure(settings, index)
            var lineOffset = offset
            if gpiod_line_config_add_line_settings(lineConfig, &lineOffset, 1, settings) < 0 {
                throw HardwareError.gpio(Errno.current, chip: label, line: lines[index].lineDescription, operation: operation)
            }
        }
        guard let request = gpiod_chip_request_lines(chip, requestConfig, lineConfig) else {
            let errno = Errno.current
            throw Self.failure(errno, chip: chip, label: label, lines: lines, operation: operation)
        }
        return Request(request: request, label: label, lines: lines)
    }

    /// The error for a failed request, naming the line that is busy and who holds it.
    private static func failure(
        _ errno: Errno, chip: OpaquePointer, label: String, lines: [GPIOResolvedLine], operation: String
    ) -> HardwareError {
        if errno == .busy {
            for line in lines {
                guard let info = gpiod_chip_get_line_info(chip, line.offset) else { continue }
                defer { gpiod_line_info_free(info) }
                if gpiod_line_info_is_used(info) {
                    let consumer = gpiod_line_info_get_consumer(info).map { String(cString: $0) } ?? ""
                    return HardwareError.gpio(
                        errno, chip: label, line: line.lineDescription, consumer: consumer, operation: operation)
                }
            }
        }
        return HardwareError.gpio(
            errno, chip: label, line: lines.map { $0.lineDescription }.joined(separator: ", "), operation: operation)
    }

    /// A granted request; releases it exactly once.
    private final class Request {
        let request: OpaquePointer
        let label: String
        let lines: [GPIOResolvedLine]
        private var released = false

        init(request: OpaquePointer, label: String, lines: [GPIOResolvedLine]) {
            self.request = request
            self.label = label
            self.lines = lines
        }

        deinit { release() }

        func error(_ errno: Errno, operation: String) -> HardwareError {
            HardwareError.gpio(
                errno, chip: label, line: lines.map { $0.lineDescription }.joined(separator: ", "), operation: operation)
        }

        func release() {
            guard !released else { return }
            released = true
            gpiod_line_request_release(request)
        }
    }

    /// Requested outputs: `setValues` is one `gpiod_line_request_set_values` from a reused buffer.
    private final class Outputs: GPIOOutputLines {
        let request: Request
        let values: UnsafeMutableBufferPointer<gpiod_line_value>
        var lines: [GPIOResolvedLine] { request.lines }

        init(_ request: Request) {
            self.request = request
            values = .allocate(capacity: request.lines.count)
            values.initialize(repeating: GPIOD_LINE_VALUE_INACTIVE)
        }

        deinit {
            request.release()
            values.deallocate()
        }

        func setValues(_ mask: UInt64) throws(HardwareError) {
            for index in values.indices {
                values[index] = GPIOValueMask.level(mask, index) ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE
            }
            if gpiod_line_request_set_values(request.request, values.baseAddress) < 0 {
                throw request.error(Errno.current, operation: "setting")
            }
        }

        func release() { request.release() }
    }

    /// Requested inputs: one descriptor and one reused event buffer for the whole request.
    private final class Inputs: GPIOInputLines {
        let request: Request
        let buffer: OpaquePointer
        let offsets: [UInt32]
        var lines: [GPIOResolvedLine] { request.lines }
        var pollDescriptors: [Int32] { [gpiod_line_request_get_fd(request.request)] }

        init(_ request: Request) throws(HardwareError) {
            guard let buffer = gpiod_edge_event_buffer_new(64) else {
                throw request.error(Errno.current, operation: "allocating an event buffer for")
            }
            self.request = request
            self.buffer = buffer
            offsets = request.lines.map { $0.offset }
        }

        deinit {
            request.release()
            gpiod_edge_event_buffer_free(buffer)
        }

        func readValues() throws(HardwareError) -> UInt64 {
            var values = [gpiod_line_value](repeating: GPIOD_LINE_VALUE_INACTIVE, count: offsets.count)
            if gpiod_line_request_get_values(request.request, &values) < 0 {
                throw request.error(Errno.current, operation: "reading")
            }
            return GPIOValueMask.make(values.map { $0 == GPIOD_LINE_VALUE_ACTIVE })
        }

        func readEvents(ready descriptor: Int32) throws(HardwareError) -> [GPIOEdgeEvent] {
            let count = gpiod_line_request_read_edge_events(request.request, buffer, 64)
            if count < 0 { throw request.error(Errno.current, operation: "reading edge events of") }
            var events: [GPIOEdgeEvent] = []
            for index in 0..<Int(count) {
                guard let event = gpiod_edge_event_buffer_get_event(buffer, UInt(index)),
                      let line = offsets.firstIndex(of: gpiod_edge_event_get_line_offset(event)) else { continue }
                events.append(GPIOEdgeEvent(
                    index: line,
                    edge: gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE ? .rising : .falling,
                    timestampNanoseconds: gpiod_edge_event_get_timestamp_ns(event)))
            }
            return events
        }

        func waitForEvents(timeoutNanoseconds: Int64) throws(HardwareError) -> [GPIOEdgeEvent] {
            var events: [GPIOEdgeEvent] = []
            for descriptor in try GPIOPoll.wait(pollDescriptors, timeoutNanoseconds: timeoutNanoseconds) {
                events += try readEvents(ready: descriptor)
            }
            return events
        }

        func release() { request.release() }
    }
}
#endif
