import LEDRingControl
import LEDJSON
import RingModel

/// Each ring as a Home Assistant MQTT JSON-schema light (`<base>/<ring>/light`), in the words
/// of the controller:
///
/// - `state` ON/OFF switches the ring on or off (`Request.light`): off is a dark ring, its value
///   and look kept, so ON brings back exactly what it showed. `transition` is the fade's length.
/// - `color` {r,g,b} gives the ring a solid colour look (`#rrggbb`), keeping the effect of the
///   colour it had. Home Assistant scales the colour by the brightness slider itself (the light
///   declares no `brightness`; per-ring dimming is a darker colour, the device light dims all).
/// - `effect` is one of `effectList`: `default` (the ring's own look), a config look, or
///   `none`/`pulse`/`blink` on the ring's colour (white when it has none).
/// - `flash` (seconds, as Home Assistant sends `flash_time_short`/`flash_time_long`; `short` and
///   `long` also work) shows a flashing notification over the whole ring for that long, in the
///   command's colour, the ring's, or white.
///
/// The state is published on the ring's state topic next to its value: `state`, `effect`, and
/// with a colour look `color_mode` `rgb` and `color`.
public enum MQTTRingLight {
    /// Home Assistant's defaults for `flash_time_short` and `flash_time_long`, seconds
    /// (homeassistant/components/mqtt/light/schema_json.py); discovery announces the same.
    public static let flashShort = 2
    /// See `flashShort`.
    public static let flashLong = 10
    /// The period of a flash's blinks, seconds: a 2 s flash blinks four times.
    public static let flashPeriod = 0.5
    /// The longest flash, seconds (as many blinks as an effect may have).
    public static let maxFlash = Double(Request.maxFlashes) * flashPeriod
    /// The keys a command may have.
    public static let commandKeys = ["state", "color", "effect", "flash", "transition"]

    /// The effects Home Assistant offers: `default`, the config's looks, then the colour effects
    /// a look of the same name does not hide.
    public static func effectList(looks: [String]) -> [String] {
        ["default"] + looks + Request.colorLookEffects.filter { !looks.contains($0) && $0 != "default" }
    }

    /// The requests a command payload on ring `ring`'s light topic asks for, in the order they
    /// are applied (the look first, so switching on shows the new colour; the flash last).
    /// `current` is the ring as it is (its colour look, if any); `looks` the config's looks.
    /// Throws, changing nothing, for anything Home Assistant's JSON schema would not send.
    public static func requests(ring: String, text: String, current: RingSnapshot.Ring?,
                                looks: [String]) throws(RequestError) -> [Request] {
        switch text.uppercased() {
        case "ON": return [.light(rings: [ring], on: true, duration: 0)]
        case "OFF": return [.light(rings: [ring], on: false, duration: 0)]
        default: break
        }
        let object = try JSONObject.parse(Array(text.utf8))
        do throws(RequestError) { try object.onlyKeys(commandKeys) } catch {
            throw RequestError("\(error.message) (a ring's light has no brightness: Home Assistant dims its colour)")
        }
        let currentLook = current?.look.flatMap { Request.colorLook($0) }
        let currentColor = currentLook?.color

        var color: RGB8?
        if let value = object["color"] { color = try rgb(value) }
        var requests: [Request] = []
        var effectName: String?
        if let value = object["effect"] {
            guard let name = value.string, effectList(looks: looks).contains(name) else {
                throw RequestError("\"effect\": \(JSONObject.show(value)) must be one of \(effectList(looks: looks).joined(separator: ", "))")
            }
            effectName = name
        }
        if let name = effectName, name == "default" || looks.contains(name) {
            guard color == nil else {
                throw RequestError("\"effect\": \"\(LogText.escaped(name, limit: 40))\" is a look with its own colours; send it without \"color\"")
            }
            requests.append(.look(rings: [ring], name: name))
        } else if color != nil || effectName != nil {
            let effect: Effect
            switch effectName {
            case "pulse"?: effect = .pulse(period: Effect.defaultPulsePeriod)
            case "blink"?: effect = .blink(period: Effect.defaultBlinkPeriod)
            case "none"?: effect = .none
            default: effect = currentLook?.effect ?? .none
            }
            let solid = color ?? currentColor ?? RGB8(r: 255, g: 255, b: 255)
            requests.append(.look(rings: [ring], name: Request.colorLookName(solid, effect: effect)))
        }

        var fade = 0.0
        if let value = object["transition"] {
            guard let seconds = value.number else { throw RequestError("\"transition\": \(JSONObject.show(value)) must be seconds, e.g. 2") }
            fade = try Request.checkedDuration(seconds, name: "transition")
        }
        if let value = object["state"] {
            guard let word = value.string?.uppercased(), word == "ON" || word == "OFF" else {
                throw RequestError("\"state\": \(JSONObject.show(value)) must be \"ON\" or \"OFF\"")
            }
            requests.append(.light(rings: [ring], on: word == "ON", duration: fade))
        }
        if let value = object["flash"] {
            let seconds: Double
            switch value {
            case .string("short"): seconds = Double(flashShort)
            case .string("long"): seconds = Double(flashLong)
            case .number(let n) where n.isFinite && n > 0 && n <= maxFlash: seconds = n
            default:
                throw RequestError("\"flash\": \(JSONObject.show(value)) must be seconds (0…\(Request.shown(maxFlash))), \"short\" or \"long\"")
            }
            let count = Swift.max(1, Int((seconds / flashPeriod).rounded()))
            let notice = Notice(rings: [ring], color: color ?? currentColor ?? RGB8(r: 255, g: 255, b: 255),
                                effect: .flash(count: count, period: flashPeriod), value: 1, duration: seconds)
            requests.append(.notify(notice))
        }
        guard !requests.isEmpty else {
            throw RequestError("send ON, OFF or {\"state\":\"ON\",\"color\":{\"r\":255,\"g\":0,\"b\":0}}")
        }
        return requests
    }

    /// `{"r":255,"g":32,"b":32}`, each a whole number 0…255.
    static func rgb(_ value: JSONValue) throws(RequestError) -> RGB8 {
        guard let members = value.members else {
            throw RequestError("\"color\": \(JSONObject.show(value)) must be {\"r\":255,\"g\":0,\"b\":0}")
        }
        var channels: [UInt8] = []
        for key in ["r", "g", "b"] {
            guard let n = members[key]?.number, n.isFinite, n == n.rounded(), n >= 0, n <= 255 else {
                throw RequestError("\"color\": \"\(key)\" must be a whole number 0…255, e.g. {\"r\":255,\"g\":0,\"b\":0}")
            }
            channels.append(UInt8(n))
        }
        for key in members.keys where !["r", "g", "b"].contains(key) {
            throw RequestError("\"color\": unknown key \"\(LogText.escaped(key, limit: 40))\"; the light takes r, g and b")
        }
        return RGB8(r: channels[0], g: channels[1], b: channels[2])
    }

    /// The light's members of ring `ring`'s state: `state`, `effect`, and for a colour look
    /// `color_mode` and `color` (Home Assistant reads them from the ring's state topic).
    static func stateMembers(_ ring: RingSnapshot.Ring) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("state", .string(ring.on ? "ON" : "OFF"))]
        if let name = ring.look, let look = Request.colorLook(name) {
            let color = look.color
            members.append(("color_mode", .string("rgb")))
            members.append(("color", .object([("r", .integer(Int(color.r))), ("g", .integer(Int(color.g))), ("b", .integer(Int(color.b)))])))
            members.append(("effect", .string(look.effect.name)))
        } else {
            members.append(("effect", .string(ring.look ?? "default")))
        }
        return members
    }
}
