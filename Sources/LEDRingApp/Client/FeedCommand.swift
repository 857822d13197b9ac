import Glibc
import LEDSystem
import LEDJSON
import LEDRingControl
import RingModel

/// `ledring feed RING [--range MIN:MAX] [--duration S] [--socket PATH]`: one number per line on
/// standard input becomes the ring's value, so `pv -n`, a sensor script or any program that
/// prints numbers drives a ring without speaking the socket protocol. Lines that come faster
/// than the daemon takes them collapse into the latest; a line that is not a number is said (a
/// few a minute) and changes nothing; the end of input leaves the last value shown.
enum FeedCommand {
    struct Options: Equatable {
        var ring: String
        /// The input's own scale (`--range 0:1024`), mapped onto one lap; nil: the value is sent
        /// as `set` takes it (laps, a percentage, or the ring's own units when it has a range).
        var range: ValueRange?
        var duration = 0.25
        var socket: String?
    }

    static var usage: String { CommandLineTable.verb("feed")?.usageLine ?? "" }

    static func parse(_ arguments: [String]) throws(CommandError) -> Options {
        var reader = ArgumentReader(arguments, verb: "feed")
        var words: [String] = []
        var range: ValueRange?
        var duration: Double?
        var socket: String?
        while let (name, attached) = try reader.next() {
            func value() throws(CommandError) -> String { try reader.value(for: name, attached: attached) }
            switch name {
            case "--socket": socket = try value()
            case "--duration":
                let text = try value()
                do throws(RequestError) { duration = try Request.duration(text) } catch { throw .usage(error.message) }
            case "--range":
                let text = try value()
                let parts = text.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, let min = Double(String(parts[0])), let max = Double(String(parts[1])),
                      min.isFinite, max.isFinite, min < max else {
                    throw .usage("feed --range \"\(text)\": write MIN:MAX with MIN below MAX, e.g. --range 0:100")
                }
                range = ValueRange(min: min, max: max)
            case "--help": throw .usage(usage)
            default:
                if name.hasPrefix("--") { throw reader.unexpected(name) }
                words.append(name)
            }
        }
        guard words.count == 1 else { throw .usage("feed: name one ring, e.g. pv -n big.iso > /dev/null | ledring feed copy; \(usage)") }
        return Options(ring: words[0], range: range, duration: duration ?? 0.25, socket: socket)
    }

    /// The ring's new value from one line of input, or why the line is skipped (nil: a blank line).
    static func update(_ line: String, _ options: Options) throws(RequestError) -> Request.RingValueUpdate? {
        let text = line.trimmingWhitespace()
        guard !text.isEmpty else { return nil }
        return try InputScale.update(text, ring: options.ring, range: options.range)
    }

    /// What `set` says of a value without `%` that means many laps (`3` is 300 %), and the fix
    /// a stream of numbers more likely wants; nil when the input has its own `--range`.
    static func lapsNote(_ line: String, _ update: Request.RingValueUpdate, _ options: Options) -> String? {
        guard options.range == nil, !update.percent,
              let note = ValueParser.lapsNote(ring: options.ring, text: line.trimmingWhitespace(), value: update.value) else { return nil }
        return note + ", or give --range 0:100 if the numbers are percentages"
    }

    /// Fails at once, before any input, when no daemon listens (69) or it has no such ring (65).
    static func checkRing(_ ring: String, socket path: String, system: any SystemCalls) throws(CommandError) {
        let reply = try ClientCommand.exchange(Request.get.jsonLine, socket: path, system: system)
        guard case .object(let object)? = try? JSONValue.parse(reply), case .array(let rings)? = object["rings"] else {
            throw CommandError("the daemon on \(path) sent a reply that is not a ring list: \(reply.prefix(200))", code: .software)
        }
        var names: [String] = []
        for item in rings {
            if case .object(let entry) = item, case .string(let name)? = entry["name"] { names.append(name) }
        }
        guard names.contains(ring) else { throw CommandError(RequestError.unknownRing(ring, known: names).message, code: .dataError) }
    }

    /// Reads standard input to its end, sending each batch's latest value; exit 0 at the end.
    static func run(_ arguments: [String], system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())) throws(CommandError) -> ExitCode {
        let options = try parse(arguments)
        let path = DaemonPaths.clientSocket(option: options.socket, environment: ProcessEnvironment.current(),
                                            uid: getuid(), exists: { access($0, F_OK) == 0 })
        try checkRing(options.ring, socket: path, system: system)
        var lines = LineBuffer()
        var complaints = ComplaintLimiter(burst: 5, window: 60)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var delivered = false
        var ended = false
        // Said for the first such line only: a stream of them would say it on every line.
        var notedLaps = false
        while !ended {
            var entry = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
            do {
                _ = try system.poll(&entry, timeout: -1)
            } catch {
                throw CommandError("feed: waiting for standard input failed: \(error)", code: .ioError)
            }
            var events: [LineBuffer.Event] = []
            switch system.readAvailable(0, into: &buffer) {
            case .data(let n): events = lines.append(buffer[0..<n])
            case .wouldBlock: continue
            case .endOfFile:
                events = lines.finish()
                ended = true
            case .failed(let error):
                throw CommandError("feed: reading standard input failed: \(error)", code: .ioError)
            }
            // Everything read at once collapses into its last good value.
            var latest: Request.RingValueUpdate?
            for event in events {
                do throws(RequestError) {
                    switch event {
                    case .line(let text):
                        guard let update = try update(text, options) else { break }
                        latest = update
                        if !notedLaps, let note = lapsNote(text, update, options) {
                            Terminal.error("ledring feed: " + note)
                            notedLaps = true
                        }
                    case .tooLong: throw RequestError("a line longer than \(Request.maxLineBytes) bytes")
                    }
                } catch {
                    for line in complaints.admit("ledring feed: skipped: \(error.message)", at: MonotonicClock.seconds()) {
                        Terminal.error(line)
                    }
                }
            }
            guard let latest else { continue }
            let request = Request.set(values: [latest], duration: options.duration, curve: .easeInOut)
            do throws(CommandError) {
                let reply = try ClientCommand.exchange(request.jsonLine, socket: path, system: system)
                if !reply.hasPrefix("{\"ok\":true") {
                    for line in complaints.admit("ledring feed: the daemon refused it: \(reply.prefix(300))", at: MonotonicClock.seconds()) {
                        Terminal.error(line)
                    }
                }
                delivered = true
            } catch {
                // No daemon at all is a mistake to stop at; one that restarts mid-stream is not.
                guard delivered else { throw error }
                for line in complaints.admit("ledring feed: \(error.message); the next value tries again", at: MonotonicClock.seconds()) {
                    Terminal.error(line)
                }
            }
        }
        return .ok
    }
}
