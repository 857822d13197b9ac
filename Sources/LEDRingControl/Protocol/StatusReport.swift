import LEDJSON

/// What `status` reports: the output, its health and the picture's cost.
public struct StatusReport: Equatable, Sendable {
    /// The driver's name (`ws2812-spi`, `simulate`).
    public var driver: String
    /// The device or dump file, when there is one.
    public var device: String?
    /// Whether the driver is open and taking frames.
    public var driverUp: Bool
    /// LEDs on the chain.
    public var leds: Int
    /// Configured frames per second.
    public var fps: Double
    /// Seconds between frames while animating: 1/fps, or longer when the wire needs it.
    public var frameInterval: Double
    /// Frames sent since start.
    public var framesSent: Int
    /// Driver errors since start.
    public var errors: Int
    /// The last driver error, if any.
    public var lastError: String?
    /// Estimated LED current of the last frame, mA.
    public var estimatedMilliamps: Double
    /// The power budget in force, mA.
    public var maxMilliamps: Int?
    /// The limiter's uniform scale on the last frame (1: not limited).
    public var limitScale: Double = 1
    /// Whether frames are refreshed only because dithering needs them.
    public var dithering = false
    /// Whether something is moving.
    public var animating: Bool
    /// Connected clients.
    public var clients: Int
    /// Seconds since the daemon started.
    public var uptime: Double
    /// The config file, when there is one.
    public var config: String?
    /// Where the HTTP API listens (`127.0.0.1:8080`), when it runs.
    public var http: String? = nil
    /// Whether the MQTT bridge is connected to its broker, when it runs.
    public var mqttConnected: Bool? = nil
    /// Seconds each ring's timer has left, by ring name (rings without one are not listed).
    public var timersLeft: [(String, Double)] = []

    public static func == (a: StatusReport, b: StatusReport) -> Bool { a.jsonLine == b.jsonLine }

    /// The report of rings with no output behind them (the one-shot command, the benchmark, the
    /// test double), named `driver`: nothing sent, nothing failed.
    public static func withoutOutput(_ driver: String) -> StatusReport {
        StatusReport(driver: driver, device: nil, driverUp: true, leds: 0, fps: 30, frameInterval: 1.0 / 30, framesSent: 0,
                     errors: 0, lastError: nil, estimatedMilliamps: 0, maxMilliamps: nil, animating: false, clients: 0,
                     uptime: 0, config: nil)
    }

    /// A status report.
    public init(driver: String, device: String?, driverUp: Bool, leds: Int, fps: Double, frameInterval: Double,
                framesSent: Int, errors: Int, lastError: String?, estimatedMilliamps: Double, maxMilliamps: Int?,
                limitScale: Double = 1, dithering: Bool = false, animating: Bool, clients: Int, uptime: Double,
                config: String?, http: String? = nil, mqttConnected: Bool? = nil, timersLeft: [(String, Double)] = []) {
        self.driver = driver
        self.device = device
        self.driverUp = driverUp
        self.leds = leds
        self.fps = fps
        self.frameInterval = frameInterval
        self.framesSent = framesSent
        self.errors = errors
        self.lastError = lastError
        self.estimatedMilliamps = estimatedMilliamps
        self.maxMilliamps = maxMilliamps
        self.limitScale = limitScale
        self.dithering = dithering
        self.animating = animating
        self.clients = clients
        self.uptime = uptime
        self.config = config
        self.http = http
        self.mqttConnected = mqttConnected
        self.timersLeft = timersLeft
    }

    /// The status as one JSON line.
    public var jsonLine: String {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        var members: [(String, JSONValue)] = [
            ("ok", .bool(true)), ("driver", .string(driver)), ("device", optional(device)),
            ("driverUp", .bool(driverUp)), ("leds", .integer(leds)), ("fps", .number(fps)),
            ("frameInterval", .number((frameInterval * 1e5).rounded() / 1e5)), ("framesSent", .integer(framesSent)),
            ("errors", .integer(errors)), ("lastError", optional(lastError)),
            ("estimatedMilliamps", .number((estimatedMilliamps * 10).rounded() / 10)),
            ("maxMilliamps", maxMilliamps.map(JSONValue.integer) ?? .null),
            ("limitScale", .number((limitScale * 1000).rounded() / 1000)),
            ("ditherRefresh", .bool(dithering)),
            ("animating", .bool(animating)), ("clients", .integer(clients)),
            ("uptime", .number((uptime * 10).rounded() / 10)), ("config", optional(config)),
        ]
        // Only when configured, so a daemon without them reports exactly what it did before.
        if let http { members.append(("http", .string(http))) }
        if let mqttConnected { members.append(("mqtt", .bool(mqttConnected))) }
        if !timersLeft.isEmpty {
            members.append(("timers", .object(timersLeft.map { ($0.0, JSONValue.number(($0.1 * 10).rounded() / 10)) })))
        }
        return JSONValue.object(members).jsonText
    }
}
