import LEDJSON

/// What `status` reports: the output, its health and the picture's cost.
struct StatusReport: Equatable, Sendable {
    /// The driver's name (`ws2812-spi`, `simulate`).
    var driver: String
    /// The device or dump file, when there is one.
    var device: String?
    /// Whether the driver is open and taking frames.
    var driverUp: Bool
    /// LEDs on the chain.
    var leds: Int
    /// Configured frames per second.
    var fps: Double
    /// Seconds between frames while animating: 1/fps, or longer when the wire needs it.
    var frameInterval: Double
    /// Frames sent since start.
    var framesSent: Int
    /// Driver errors since start.
    var errors: Int
    /// The last driver error, if any.
    var lastError: String?
    /// Estimated LED current of the last frame, mA.
    var estimatedMilliamps: Double
    /// The power budget in force, mA.
    var maxMilliamps: Int?
    /// The limiter's uniform scale on the last frame (1: not limited).
    var limitScale: Double = 1
    /// Whether frames are refreshed only because dithering needs them.
    var dithering = false
    /// Whether something is moving.
    var animating: Bool
    /// Connected clients.
    var clients: Int
    /// Seconds since the daemon started.
    var uptime: Double
    /// The config file, when there is one.
    var config: String?
    /// Where the HTTP API listens (`127.0.0.1:8080`), when it runs.
    var http: String? = nil
    /// Whether the MQTT bridge is connected to its broker, when it runs.
    var mqttConnected: Bool? = nil

    /// The status as one JSON line.
    var jsonLine: String {
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
        return JSONValue.object(members).jsonText
    }
}
