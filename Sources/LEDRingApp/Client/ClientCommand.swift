import Glibc
import LEDSystem
import LEDRingControl
import LEDJSON
import RingModel

/// The client commands: `ledring set move=0.8 …`, `get`, `reset`, `spin`, `stop`, `brightness`,
/// `status`. Each sends one request to the running daemon and prints the reply readably.
enum ClientCommand {
    /// How long to wait for a reply before giving up: generous, since a busy Pi may be slow, but
    /// a hung daemon must not hang a cron job for ever.
    static let replyTimeoutMilliseconds: Int32 = 10_000

    /// The verbs this sends to the service.
    static let verbs = ["set", "get", "reset", "spin", "stop", "brightness", "power", "status", "look", "notify", "timer"]

    /// Runs `arguments` (starting with the verb); exit 0 on an ok reply, 65 on an error reply,
    /// 69 when no daemon is running.
    static func run(_ arguments: [String]) throws(CommandError) -> ExitCode {
        let (request, socketOption, json) = try parse(arguments)
        let path = DaemonPaths.clientSocket(option: socketOption, environment: ProcessEnvironment.current(),
                                            uid: getuid(), exists: { access($0, F_OK) == 0 })
        let line = try exchange(request.jsonLine, socket: path)
        guard case .object(let reply)? = try? JSONValue.parse(line) else {
            throw CommandError("the daemon on \(path) sent a reply that is not JSON: \(line.prefix(200))", code: .software)
        }
        if json {
            Terminal.write(line + "\n")
        }
        guard reply["ok"] == .bool(true) else {
            var message = "the daemon refused the request"
            if case .string(let text)? = reply["error"] { message = text }
            throw CommandError(message, code: reply["busy"] == .bool(true) ? .unavailable : .dataError)
        }
        if !json { Terminal.write(ReplyFormatter.text(reply)) }
        return .ok
    }

    /// The request, `--socket` and `--json` from the command line.
    static func parse(_ arguments: [String]) throws(CommandError) -> (Request, String?, Bool) {
        guard let verb = arguments.first else { throw .usage("give a verb: set, get, reset, spin, stop, brightness, power, status") }
        var reader = ArgumentReader(Array(arguments.dropFirst()), verb: verb)
        var socket: String?
        var json = false
        var duration: Double?
        var curve: Curve?
        var words: [String] = []
        var noticeWords: [String] = []
        // A timer's own words (`up`, `then LOOK`), its end's notification (after `--notify`),
        // and the time of day it runs to.
        var timerWords: [String] = []
        var timerNotifies = false
        var until: String?
        func isNotice(_ name: String) -> Bool { CommandLineTable.find(name, in: CommandLineTable.notice) != nil }
        while let (name, attached) = try reader.next() {
            func value() throws(CommandError) -> String { try reader.value(for: name, attached: attached) }
            switch name {
            case "--socket": socket = try value()
            case "--json": json = true
            case "--duration":
                let text = try value()
                duration = try checked { () throws(RequestError) in try Request.duration(text) }
            case "--curve": curve = try ValueParser.choice(try value(), option: name, as: Curve.self)
            case "--help": throw .usage(usage(verb))
            case let option where (verb == "notify" || timerNotifies) && isNotice(option):
                // Handed to the one notify parser as its text words (`--for 30s` → `for 30s`).
                noticeWords += [String(name.dropFirst(2)), try value()]
            case let option where verb == "timer" && isNotice(option):
                throw .usage("timer: \(option) describes the notification at the timer's end: put --notify before it, "
                             + "e.g. ledring timer focus 25m --notify --look done --for 1m")
            case "--clear" where verb == "notify": noticeWords.append("clear")
            case "--up" where verb == "timer": timerWords.append("up")
            case "--then" where verb == "timer": timerWords += ["then", try value()]
            case "--notify" where verb == "timer": timerNotifies = true
            case "--until" where verb == "timer": until = try value()
            default:
                if name.hasPrefix("--") { throw reader.unexpected(name) }
                words.append(name)
            }
        }
        let request: Request
        switch verb {
        case "set":
            guard !words.isEmpty else { throw .usage("set: give RING=VALUE, e.g. ledring set move=0.8") }
            let set = try checked { () throws(RequestError) in try Request.setWords(words) }
            for (value, text) in zip(set.values, set.written) {
                if let note = ValueParser.lapsNote(ring: value.ring, text: text, value: value.value) { Terminal.error("ledring: " + note) }
            }
            request = .set(values: set.values, duration: duration ?? set.duration ?? 0, curve: curve ?? set.curve ?? .easeInOut)
        case "reset":
            try noWords(words, verb)
            request = .reset(duration: duration ?? Request.defaultResetDuration, curve: curve ?? Request.defaultResetCurve)
        case "spin":
            guard !words.isEmpty else { throw .usage("spin: name the ring(s), e.g. ledring spin stand") }
            request = .spin(rings: words)
        case "stop": request = .stop(rings: words)
        case "brightness":
            guard words.count == 1 else { throw .usage("brightness: give one value, e.g. ledring brightness 0.5 (or 50%)") }
            let text = words[0]
            request = .brightness(try checked { () throws(RequestError) in try Request.brightnessValue(text) })
        case "notify":
            if noticeWords == ["clear"] && words.isEmpty {
                request = .clearNotices
            } else if noticeWords.count == 3, noticeWords[0] == "clear", noticeWords[1] == "key", words.isEmpty {
                // `--clear --key K`: ends the notification with that key only.
                request = .endNotice(key: noticeWords[2])
            } else if noticeWords.count == 3, noticeWords[2] == "clear", noticeWords[0] == "key", words.isEmpty {
                request = .endNotice(key: noticeWords[1])
            } else {
                let all = words + noticeWords
                request = try checked { () throws(RequestError) in try Request.parseNotify(all, json: false) }
            }
        case "timer":
            if let until {
                guard words.count == 1 else { throw .usage("timer: give the ring and either a duration or --until HH:MM, e.g. ledring timer focus --until 17:30") }
                guard let clock = DurationText.clockTime(until) else {
                    throw .usage("timer --until \"\(until)\": not a time of day; write HH:MM (24-hour), e.g. --until 17:30")
                }
                guard let seconds = WallClock.secondsUntil(hour: clock.hour, minute: clock.minute, second: clock.second) else {
                    throw CommandError("timer --until \(until): the C library could not work out that local time; give a duration instead", code: .software)
                }
                words.append(DurationText.format(seconds.rounded()))
            }
            let all = words + timerWords + (timerNotifies ? ["notify"] + noticeWords : [])
            request = try checked { () throws(RequestError) in try Request.parseTimer(all) }
        case "look":
            guard words.count >= 2 else { throw .usage("look: give the ring(s) and a look, e.g. ledring look build failed; \(usage(verb))") }
            request = Request.look(words: words)
        case "power":
            // `power on|off` is the whole device; `power off RING… [--duration S]` those rings.
            guard let state = words.first, words.count > 1 || duration == nil else {
                throw .usage("power: give on or off, and rings to switch only those; \(usage(verb))")
            }
            let line = (["power", state] + words.dropFirst() + (duration.map { ["duration", JSONValue.format($0)] } ?? [])).joined(separator: " ")
            request = try checked { () throws(RequestError) in try Request.parse(line) }
        case "get":
            try noWords(words, verb)
            request = .get
        default:
            try noWords(words, verb)
            request = .status
        }
        return (request, socket, json)
    }

    /// Words read by the ring-control domain's one parser and check, so `ledring set move=abc` is
    /// refused with the words the socket, HTTP and MQTT use; a refusal here is a usage error
    /// (exit 64). What needs the daemon's config is checked there: `set move=101` is 101 laps, or
    /// 101 in the ring's own units when it has a `range`, so only the daemon can refuse it (exit 65).
    private static func checked<T>(_ read: () throws(RequestError) -> T) throws(CommandError) -> T {
        do throws(RequestError) { return try read() } catch { throw .usage(error.message) }
    }

    private static func noWords(_ words: [String], _ verb: String) throws(CommandError) {
        if let word = words.first { throw .usage("\(verb): unexpected \"\(word)\"; \(usage(verb))") }
    }

    /// The verb's usage line, from the table.
    static func usage(_ verb: String) -> String {
        CommandLineTable.verb(verb)?.usageLine ?? "usage: ledring \(verb) [--socket PATH] [--json]"
    }

    /// Sends one line and reads one reply line.
    static func exchange(_ line: String, socket path: String,
                         system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())) throws(CommandError) -> String {
        if let owner = DaemonPaths.squatter(of: path, uid: getuid(), system: system) {
            throw CommandError("\(path) belongs to user \(owner), not to you: \(DaemonPaths.squatterFix(uid: owner))",
                               code: .noPermission)
        }
        let fd: Int32
        do {
            fd = try system.connectUnix(path)
        } catch {
            if error == .noSuchFileOrDirectory || error.rawValue == ECONNREFUSED {
                throw CommandError("no ledring daemon is listening on \(path); start one with `ledring run` "
                                   + "(or `systemctl start ledring`), or pass --socket PATH", code: .unavailable)
            }
            if error == .permissionDenied {
                throw CommandError("no permission to use \(path); join the group that owns it "
                                   + "(for the service: sudo usermod -aG ledring $USER, then log in again)",
                                   code: .noPermission)
            }
            throw SystemError(operation: "connecting to", path: path, code: error.rawValue).commandError
        }
        defer { try? system.close(fd) }
        // A daemon that is full answers "busy" and closes before reading: its reply is still
        // there to read after the write fails, and says more than "Broken pipe".
        do throws(Errno) {
            try system.sendAll(fd, Array((line + "\n").utf8), timeout: 1000)
        } catch {
            if let reply = try? readReply(fd, path: path, timeout: 1000, system: system) { return reply }
            throw CommandError("sending the request to \(path) failed: \(error)", code: .ioError)
        }
        return try readReply(fd, path: path, timeout: replyTimeoutMilliseconds, system: system)
    }

    /// Reads one reply line within `timeout` milliseconds.
    private static func readReply(_ fd: Int32, path: String, timeout: Int32, system: any SystemCalls) throws(CommandError) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        reading: while !received.contains(UInt8(ascii: "\n")) {
            var entry = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            let ready: Int
            do {
                ready = try system.poll(&entry, timeout: timeout)
            } catch {
                throw CommandError("waiting for the daemon on \(path) failed: \(error)", code: .ioError)
            }
            guard ready > 0 else {
                throw CommandError("the daemon on \(path) did not answer within \(replyTimeoutMilliseconds / 1000) s", code: .unavailable)
            }
            switch system.readAvailable(fd, into: &buffer) {
            case .data(let n): received += buffer[0..<n]
            case .wouldBlock: continue
            case .endOfFile: break reading
            case .failed(let error):
                throw CommandError("reading the reply from \(path) failed: \(error)", code: .ioError)
            }
        }
        guard let end = received.firstIndex(of: UInt8(ascii: "\n")) else {
            throw CommandError("the daemon on \(path) closed the connection without a reply", code: .ioError)
        }
        return String(decoding: received[..<end], as: UTF8.self)
    }
}
