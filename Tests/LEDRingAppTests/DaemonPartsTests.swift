import Foundation
import LEDHardware
import LEDRingControl
import LEDJSON
import LEDRingTesting
import LEDWire
import RingModel
import Testing
@testable import LEDRingApp

@Suite struct LineBufferTests {
    @Test func splitsLinesAcrossChunksAndDropsCarriageReturns() {
        var buffer = LineBuffer(limit: 100)
        #expect(buffer.append(Array("get\r\nset mo".utf8)[...]) == [.line("get")])
        #expect(buffer.append(Array("ve 0.5\n\n".utf8)[...]) == [.line("set move 0.5"), .line("")])
        #expect(buffer.append(Array("status".utf8)[...]) == [])
        #expect(buffer.finish() == [.line("status")])
    }

    @Test func aLineOverTheLimitIsReportedOnceAndDroppedToItsNewline() {
        var buffer = LineBuffer(limit: 10)
        #expect(buffer.append(Array("0123456789ab".utf8)[...]) == [.tooLong])
        #expect(buffer.append(Array("cdef".utf8)[...]) == [])
        #expect(buffer.pendingCount == 0)
        #expect(buffer.append(Array("gh\nget\n".utf8)[...]) == [.line("get")])
    }
}

@Suite struct BackoffTests {
    @Test func doublesUpToTheMaximumAndResets() {
        var backoff = Backoff(initial: 0.5, maximum: 30)
        let delays = (0..<9).map { _ in backoff.delay() }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        backoff.reset()
        #expect(backoff.delay() == 0.5)
    }
}

@Suite struct DriverOutputTests {
    /// A driver on a recording transport whose failures the test scripts.
    final class FakeDevice {
        var opens = 0
        var failOpens = 0
        var transports: [RecordingTransport] = []

        func make() throws(HardwareError) -> LEDDriver {
            opens += 1
            if failOpens > 0 {
                failOpens -= 1
                throw HardwareError(kind: .notFound, message: "/dev/spidev0.0 is gone")
            }
            let transport = RecordingTransport()
            transports.append(transport)
            do {
                return LEDDriver(encoder: .apa102(try APA102Encoder()), transport: transport, ledCount: 4)
            } catch {
                throw HardwareError(kind: .invalidConfiguration, message: error.message)
            }
        }
    }

    /// Four LEDs' frame, as a frame session hands it to an output.
    let frame: RenderedFrame

    init() throws {
        let layout = try RingLayout(rings: [RingSpec(name: "a", segments: [Segment(ledCount: 4)],
                                                     appearance: RingAppearance(gradient: Palette.move))])
        frame = RenderedFrame(layout: layout, values: [.progress(0.5)], states: [RingState()],
                              pixels: [RGB8](repeating: RGB8(r: 10, g: 20, b: 30), count: 4), frame16: nil, power: .empty)
    }

    @Test func anIOErrorIsCountedAndRetriedWithBackoffUntilTheDeviceReturns() throws {
        let device = FakeDevice()
        let output = DriverOutput(name: "apa102-spi", device: "/dev/spidev0.0", factory: device.make)
        try output.open(at: 0)
        output.show(frame, at: 1)
        #expect(output.framesSent == 1 && output.isUp)

        device.transports[0].failure = HardwareError(kind: .io, message: "EIO")
        device.failOpens = 2
        output.show(frame, at: 2)
        #expect(!output.isUp && output.errorCount == 1 && output.retryAt == 2.5)
        #expect(output.lastError == "EIO")
        #expect(!output.retryIfDue(at: 2.4))  // not due yet: no attempt
        #expect(device.opens == 1)
        #expect(!output.retryIfDue(at: 2.5))  // the device is still gone
        #expect(output.retryAt == 3.5 && output.errorCount == 2)
        #expect(!output.retryIfDue(at: 3.5))
        #expect(output.retryAt == 5.5)
        #expect(output.retryIfDue(at: 5.5))  // back
        #expect(output.isUp && output.retryAt == nil)
        output.show(frame, at: 6)
        #expect(output.framesSent == 2 && device.transports.last?.transfers.count == 1)
    }

    @Test func framesAreNeverCloserThanTheWireTimePlusLatch() throws {
        // 1024 WS2812 LEDs take about 31 ms on the wire: more than a 60 fps frame.
        let encoder = try SPISymbolEncoder(chip: .ws2812b, clockHz: 3_571_428)
        let output = DriverOutput(name: "ws2812-spi", device: nil) { () throws(HardwareError) -> LEDDriver in
            LEDDriver(encoder: .symbols(encoder), transport: RecordingTransport(), ledCount: 1024)
        }
        try output.open(at: 0)
        #expect(output.minimumFrameInterval == encoder.wireTimeMicroseconds(ledCount: 1024) / 1e6)
        #expect(output.minimumFrameInterval > 1.0 / 60)
    }

    @Test func aMissingDeviceAtStartIsRetriedButAPermissionErrorIsFatal() throws {
        let device = FakeDevice()
        device.failOpens = 1
        let output = DriverOutput(name: "ws2812-spi", device: nil, factory: device.make)
        try output.open(at: 0)
        #expect(!output.isUp && output.retryAt == 0.5)

        let denied = DriverOutput(name: "ws2812-spi", device: nil) { () throws(HardwareError) -> LEDDriver in
            throw HardwareError(kind: .permissionDenied, message: "no access", fix: "join the spi group")
        }
        #expect(throws: HardwareError.self) { try denied.open(at: 0) }
    }
}

@Suite struct StateStoreTests {
    func temporaryPath() -> String {
        "/tmp/lr-unit-\(UUID().uuidString.prefix(8))/nested/state.json"
    }

    @Test func savesAtomicallyAndLoadsBack() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: DaemonPaths.directory(of: DaemonPaths.directory(of: path))) }
        let store = StateStore(path: path)
        #expect(store.load() == .none)
        let state = SavedState(rings: ["move": 0.8, "stand": 1.3], spinning: ["stand"], brightness: 0.5)
        try store.save(state)
        #expect(store.load() == .state(state))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: DaemonPaths.directory(of: path))
        #expect(leftovers == ["state.json"])
    }

    @Test(arguments: ["{broken", #"{"rings":{"move":500},"spinning":[]}"#, #"{"spinning":[]}"#])
    func aCorruptFileIsSetAside(content: String) throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: DaemonPaths.directory(of: DaemonPaths.directory(of: path))) }
        LinuxSystemCalls().makeDirectories(DaemonPaths.directory(of: path), mode: 0o755)
        try content.write(toFile: path, atomically: false, encoding: .utf8)
        guard case .corrupt(_, let movedTo?) = StateStore(path: path).load() else {
            Issue.record("not reported as corrupt")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(FileManager.default.fileExists(atPath: movedTo))
    }

    /// Issue 14: a link planted where the temp file goes must not make the daemon write through it.
    @Test func aPlantedTempLinkIsNotFollowed() throws {
        let path = temporaryPath()
        let root = DaemonPaths.directory(of: DaemonPaths.directory(of: path))
        defer { try? FileManager.default.removeItem(atPath: root) }
        LinuxSystemCalls().makeDirectories(DaemonPaths.directory(of: path), mode: 0o755)
        let victim = root + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(path).tmp-\(getpid())", withDestinationPath: victim)
        let state = SavedState(rings: ["move": 0.5], spinning: [], brightness: 1)
        try StateStore(path: path).save(state)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(StateStore(path: path).load() == .state(state))
    }

    /// Issue 14: a state file that cannot be read is set aside like a corrupt one, so the first
    /// save does not destroy it.
    @Test func anUnreadableFileIsSetAsideNotOverwritten() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: DaemonPaths.directory(of: DaemonPaths.directory(of: path))) }
        LinuxSystemCalls().makeDirectories(DaemonPaths.directory(of: path), mode: 0o755)
        try "precious".write(toFile: path, atomically: false, encoding: .utf8)
        // Unreadable to the daemon (EACCES); tests run as root, so the seam says so.
        let system = FakeSystemCalls()
        system.addFile(path, "precious")
        system.deny(path)
        guard case .corrupt(let reason, let movedTo?) = StateStore(path: path, system: system).load() else {
            Issue.record("not set aside")
            return
        }
        #expect(reason.contains("cannot read"))
        try StateStore(path: path, system: system).save(SavedState(rings: [:], spinning: [], brightness: 1))
        #expect(try system.readFile(movedTo) == Array("precious".utf8))
    }

    /// A directory or a device at the state path is neither renamed nor replaced.
    @Test(arguments: ["directory", "/dev/null"])
    func aDirectoryOrDeviceIsLeftAlone(kind: String) throws {
        let root = "/tmp/lr-unit-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = kind == "directory" ? root + "/state.json" : kind
        if kind == "directory" { LinuxSystemCalls().makeDirectories(path, mode: 0o755) }
        guard case .corrupt(let reason, nil) = StateStore(path: path).load() else {
            Issue.record("\(path) was not reported, or was moved")
            return
        }
        #expect(reason.contains("left alone"))
        #expect(throws: SystemError.self) { try StateStore(path: path).save(SavedState(rings: [:], spinning: [], brightness: 1)) }
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == (kind == "directory" ? S_IFDIR : S_IFCHR))
    }

    @Test func hugeNumbersInTheStateFileAreNamed() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: DaemonPaths.directory(of: DaemonPaths.directory(of: path))) }
        LinuxSystemCalls().makeDirectories(DaemonPaths.directory(of: path), mode: 0o755)
        try #"{"rings":{"move":1e309},"spinning":[],"brightness":1}"#.write(toFile: path, atomically: false, encoding: .utf8)
        guard case .corrupt(let reason, _?) = StateStore(path: path).load() else {
            Issue.record("not set aside")
            return
        }
        #expect(reason.contains("1e309") && !reason.contains("DecodingError"))
    }
}

@Suite struct DaemonPathsTests {
    @Test func socketDefaults() {
        #expect(DaemonPaths.daemonSocket(option: "/x.sock", config: "/y.sock", environment: [:], uid: 1000) == "/x.sock")
        #expect(DaemonPaths.daemonSocket(option: nil, config: "/y.sock", environment: [:], uid: 1000) == "/y.sock")
        #expect(DaemonPaths.daemonSocket(option: nil, config: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)
                == "/run/user/1000/ledring.sock")
        #expect(DaemonPaths.daemonSocket(option: nil, config: nil, environment: [:], uid: 0) == "/run/ledring/ledring.sock")
        #expect(DaemonPaths.daemonSocket(option: nil, config: nil, environment: [:], uid: 1000) == "/tmp/ledring-1000.sock")
    }

    @Test func theClientFindsTheServiceSocketWhenTheUserHasNone() {
        let env = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(DaemonPaths.clientSocket(option: nil, environment: env, uid: 1000, exists: { $0 == DaemonPaths.serviceSocket })
                == DaemonPaths.serviceSocket)
        #expect(DaemonPaths.clientSocket(option: nil, environment: env, uid: 1000, exists: { _ in true })
                == "/run/user/1000/ledring.sock")
    }

    @Test func stateDefaults() {
        #expect(DaemonPaths.state(option: nil, config: nil, environment: ["XDG_STATE_HOME": "/s"], uid: 1000) == "/s/ledring/state.json")
        #expect(DaemonPaths.state(option: nil, config: nil, environment: ["HOME": "/home/pi"], uid: 1000)
                == "/home/pi/.local/state/ledring/state.json")
        #expect(DaemonPaths.state(option: nil, config: nil, environment: ["HOME": "/root"], uid: 0) == "/var/lib/ledring/state.json")
    }
}

@Suite struct ClientCommandTests {
    @Test func argumentsBecomeRequests() throws {
        let (set, socket, json) = try ClientCommand.parse(["set", "move=0.8", "exercise=40%", "--duration", "1.5",
                                                          "--curve", "spring", "--socket", "/s.sock", "--json"])
        #expect(set == .set(values: [.init(ring: "move", value: 0.8), .init(ring: "exercise", value: 0.4, percent: true)],
                            duration: 1.5, curve: .spring))
        #expect(try ClientCommand.parse(["look", "build", "failed"]).0 == .look(rings: ["build"], name: "failed"))
        #expect(try ClientCommand.parse(["set", "co2=812", "--duration", "1m"]).0
                == .set(values: [.init(ring: "co2", value: 812)], duration: 60, curve: .easeInOut))
        #expect(socket == "/s.sock" && json)
        #expect(try ClientCommand.parse(["spin", "stand"]).0 == .spin(rings: ["stand"]))
        #expect(try ClientCommand.parse(["power", "off"]).0 == .power(false))
        // A keyed notification: renewed by the same key, ended alone.
        guard case .notify(let keyed) = try ClientCommand.parse(["notify", "--look", "failed", "--for", "1h", "--key", "backup"]).0 else {
            Issue.record("not a notification")
            return
        }
        #expect(keyed.key == "backup" && keyed.look == "failed" && keyed.duration == 3600)
        #expect(try ClientCommand.parse(["notify", "--clear", "--key", "backup"]).0 == .endNotice(key: "backup"))
        #expect(try ClientCommand.parse(["notify", "--key", "backup", "--clear"]).0 == .endNotice(key: "backup"))
        #expect(try ClientCommand.parse(["notify", "--clear"]).0 == .clearNotices)
        #expect(try ClientCommand.parse(["power", "off", "build", "focus", "--duration", "2"]).0
                == .light(rings: ["build", "focus"], on: false, duration: 2))
        #expect(try ClientCommand.parse(["power", "on", "build"]).0 == .light(rings: ["build"], on: true, duration: 0))
        #expect(try ClientCommand.parse(["reset"]).0 == .reset(duration: 1, curve: .linear))
        #expect(try ClientCommand.parse(["brightness", "50%"]).0 == .brightness(0.5))
    }

    /// `--notify` turns the notify options that follow into the timer's end notification;
    /// `--until HH:MM` becomes the seconds to that time of day (at most a day).
    @Test func timerOptions() throws {
        let (request, _, _) = try ClientCommand.parse(["timer", "focus", "25m", "--then", "done", "--notify", "--color", "#ff0000",
                                                       "--effect", "flash", "--for", "30s", "--up"])
        guard case .timer("focus", .start(1500, true, "done", let notice?)) = request else {
            Issue.record("\(request)")
            return
        }
        #expect(notice.rings == ["focus"] && notice.color == RGB8(r: 255, g: 0, b: 0) && notice.duration == 30)
        guard case .timer("focus", .start(let seconds, false, nil, nil)) = try ClientCommand.parse(["timer", "focus", "--until", "7:05"]).0 else {
            Issue.record("--until gave no start")
            return
        }
        #expect(seconds > 0 && seconds <= 86_400)
        for bad in [["timer", "focus", "5m", "--until", "17:30"], ["timer", "focus", "--until", "17h"], ["timer", "focus", "--until", "7:5"],
                    ["timer", "focus", "5m", "--look", "done"], ["timer", "focus", "5m", "--notify"]] {
            #expect(throws: CommandError.self, "\(bad)") { try ClientCommand.parse(bad) }
        }
        #expect(DurationText.clockTime("23:59:59")! == (23, 59, 59) && DurationText.clockTime("0:00")! == (0, 0, 0))
        #expect(DurationText.clockTime("24:00") == nil && DurationText.clockTime("12:60") == nil && DurationText.clockTime("12") == nil)
    }

    @Test(arguments: [["set"], ["set", "move"], ["set", "move=abc"], ["get", "extra"], ["spin"], ["brightness", "2"],
                      ["status", "--duration", "1"], ["get", "--bogus"], ["power"], ["power", "dim"], ["power", "off", "--duration", "2"],
                      ["power", "off", "move", "--curve", "spring"], ["look", "build"], ["set", "move=1", "--duration", "-1m"],
                      // notify's and timer's options belong to them alone: elsewhere they would be dropped unsaid.
                      ["set", "move=1", "--look", "failed"], ["spin", "move", "--for", "10s"], ["get", "--clear"],
                      ["set", "move=1", "--up"]])
    func badArgumentsAreUsageErrors(arguments: [String]) {
        #expect(throws: CommandError.self) { try ClientCommand.parse(arguments) }
    }

    @Test func getIsPrintedAsPercentages() throws {
        let reply = Reply.rings([.init(name: "move", value: 0.8, target: 0.8, spinning: false, leds: []),
                                 .init(name: "stand", value: 0.1, target: 0.45, spinning: true, leds: [])], brightness: 1)
        guard case .object(let object) = try JSONValue.parse(reply.jsonLine) else {
            Issue.record("not an object")
            return
        }
        #expect(ReplyFormatter.text(object) == "move  80.0 % (target 80.0 %)\nstand spinning (target 45.0 %)\nbrightness 100.0 %\n")
        var off = RingSnapshot.Ring(name: "move", value: 0.8, target: 0.8, spinning: false, leds: [])
        off.on = false
        guard case .object(let dark) = try JSONValue.parse(Reply.rings([off], brightness: 1).jsonLine) else { return }
        #expect(ReplyFormatter.text(dark) == "move 80.0 % (target 80.0 %) off\nbrightness 100.0 %\n")
    }
}

/// `ledring feed`'s options and how a line becomes a value (the loop is tested end to end).
@Suite struct FeedCommandTests {
    @Test func optionsAndLines() throws {
        let plain = try FeedCommand.parse(["copy"])
        #expect(plain == FeedCommand.Options(ring: "copy", range: nil, duration: 0.25, socket: nil))
        #expect(try FeedCommand.update(" 0.5 ", plain) == .init(ring: "copy", value: 0.5))
        #expect(try FeedCommand.update("80%", plain) == .init(ring: "copy", value: 0.8, percent: true))
        #expect(try FeedCommand.update("", plain) == nil)
        let ranged = try FeedCommand.parse(["copy", "--range", "0:1024", "--duration", "1s", "--socket", "/s"])
        #expect(ranged.range == ValueRange(min: 0, max: 1024) && ranged.duration == 1 && ranged.socket == "/s")
        #expect(try FeedCommand.update("512", ranged) == .init(ring: "copy", value: 0.5))
        #expect(try FeedCommand.update("50%", ranged) == .init(ring: "copy", value: 0.5, percent: true), "a percentage is of a lap")
        #expect(try FeedCommand.update("2048", ranged)?.value == 2, "past the range it laps")
        for junk in ["abc", "1e999", "nan", "12 ppm"] {
            #expect(throws: RequestError.self, "\(junk)") { try FeedCommand.update(junk, ranged) }
        }
        for bad in [[], ["a", "b"], ["a", "--range", "5:5"], ["a", "--range", "x:1"], ["a", "--range", "1"], ["a", "--bogus"],
                    ["a", "--duration", "-1"]] {
            #expect(throws: CommandError.self, "\(bad)") { try FeedCommand.parse(bad) }
        }
    }
}

