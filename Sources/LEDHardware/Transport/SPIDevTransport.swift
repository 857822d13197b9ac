import Glibc

/// Sends frames through a Linux spidev node such as `/dev/spidev0.0`.
///
/// Mode 0, 8 bits per word. The clock the driver accepted is read back and exposed, because
/// the WS2812 encoder derives its symbol timing from it.
public final class SPIDevTransport: Transport {
    /// Where the kernel publishes spidev's per-transfer limit, relative to the root directory.
    public static let bufsizPath = "sys/module/spidev/parameters/bufsiz"
    /// The kernel's default limit, used when the module parameter cannot be read.
    public static let defaultBufferSize = 4096

    /// The device node, e.g. `/dev/spidev0.0`.
    public let device: String
    /// The clock that was asked for, in Hz.
    public let requestedSpeedHz: UInt32
    /// The clock the driver accepted (read back with `SPI_IOC_RD_MAX_SPEED_HZ`), in Hz.
    ///
    /// The controller may still divide this down further; `Board.actualSPIClockHz` knows how.
    public let acceptedSpeedHz: UInt32
    /// spidev's `bufsiz`: its bounce buffer, in bytes.
    public let bufferSize: Int
    /// What spidev rounds each transfer up to before comparing it with `bufsiz`.
    public let transferAlignment: Int
    /// The longest transfer spidev takes: `bufsiz` rounded down to `transferAlignment`, since a
    /// transfer counts as `ALIGN(len, …)` bytes (see `SPIDevAlignment`).
    public var largestTransfer: Int {
        SPIDevAlignment.largestTransfer(bufsiz: bufferSize, alignment: transferAlignment)
    }
    /// The SPI mode in use (always 0: data sampled on the rising edge, clock idles low).
    public let mode: UInt8 = 0
    /// Bits per word (always 8, so a frame is a plain byte string).
    public let bitsPerWord: UInt8 = 8

    private let system: RetryingSystemCalls
    private var fd: Int32?

    /// Opens and configures `device`, reading bufsiz under `root` (a fake root in tests);
    /// `transferAlignment` nil uses the running kernel's (`SPIDevAlignment.running`).
    public init(
        device: String, speedHz: UInt32, root: String = "/", system: any SystemCalls = LinuxSystemCalls(),
        transferAlignment: Int? = nil
    ) throws(HardwareError) {
        guard speedHz > 0 else {
            throw HardwareError(
                kind: .invalidConfiguration, message: "SPI clock of 0 Hz requested for \(device)",
                fix: "pass a clock such as 2400000 (WS2812) or 8000000 (APA102)")
        }
        let system = RetryingSystemCalls(system)
        self.system = system
        self.device = device
        self.requestedSpeedHz = speedHz
        self.bufferSize = Self.readBufferSize(root: root, system: system)
        self.transferAlignment = max(transferAlignment ?? SPIDevAlignment.running, 1)

        let descriptor: Int32
        do {
            descriptor = try system.open(device, flags: O_RDWR | O_CLOEXEC, mode: 0)
        } catch {
            throw HardwareError.spidev(error, device: device, operation: "opening")
        }
        do {
            acceptedSpeedHz = try Self.configure(descriptor, device: device, speedHz: speedHz, system: system)
        } catch {
            // The descriptor must not leak when configuration fails half way.
            try? system.close(descriptor)
            throw error
        }
        fd = descriptor
    }

    deinit {
        if let fd { try? system.close(fd) }
    }

    /// Sets mode 0, 8 bits and the clock, reading each back; returns the accepted clock.
    private static func configure(
        _ fd: Int32, device: String, speedHz: UInt32, system: RetryingSystemCalls
    ) throws(HardwareError) -> UInt32 {
        func call(_ request: SPIRequest, _ what: String) throws(HardwareError) -> UInt32 {
            do {
                return try system.spiIoctl(fd, request, tx: nil)
            } catch {
                throw HardwareError.spidev(error, device: device, operation: what)
            }
        }
        _ = try call(.writeMode(0), "setting SPI mode 0 on")
        let mode = try call(.readMode, "reading SPI mode of")
        guard mode & 0x03 == 0 else {
            throw HardwareError(
                kind: .invalidConfiguration, message: "\(device) kept SPI mode \(mode & 0x03) after mode 0 was set",
                fix: "check that no other program or overlay forces the mode of \(device)")
        }
        _ = try call(.writeBitsPerWord(8), "setting 8 bits per word on")
        let bits = try call(.readBitsPerWord, "reading bits per word of")
        // The driver reports 0 for its default, which is 8.
        guard bits == 8 || bits == 0 else {
            throw HardwareError(
                kind: .invalidConfiguration, message: "\(device) kept \(bits) bits per word after 8 was set",
                fix: "use a controller that supports 8-bit words")
        }
        _ = try call(.writeMaxSpeedHz(speedHz), "setting the clock to \(speedHz) Hz on")
        let accepted = try call(.readMaxSpeedHz, "reading the clock of")
        guard accepted > 0 else {
            throw HardwareError(
                kind: .invalidConfiguration, message: "\(device) reports a clock of 0 Hz after \(speedHz) Hz was set",
                fix: "check the controller's driver in `dmesg`")
        }
        return accepted
    }

    /// Reads bufsiz; falls back to the kernel default when the file is missing (spidev built
    /// without the parameter exposed), since refusing to run would be worse than the default.
    private static func readBufferSize(root: String, system: RetryingSystemCalls) -> Int {
        let path = RootPath.join(root, bufsizPath)
        guard let bytes = try? system.readFile(path),
            let value = Int(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }),
            value > 0
        else { return defaultBufferSize }
        return value
    }

    /// Throws unless a frame of `byteCount` bytes can go out as `framing` asks; call it before
    /// the first frame to refuse a too-long chain at start-up rather than mid-animation; `board`
    /// makes the fix name the board's own boot configuration.
    public func checkFits(byteCount: Int, framing: Framing, board: Board? = nil) throws(HardwareError) {
        if framing == .whole && byteCount > largestTransfer {
            let aligned = largestTransfer == bufferSize
                ? "" : " (spidev counts transfers in \(transferAlignment)-byte steps, so at most \(largestTransfer) go through)"
            throw HardwareError(
                kind: .frameTooLarge,
                message: "spidev buffer is \(bufferSize) bytes but this frame needs \(byteCount)\(aligned) (\(device))",
                fix: HardwareError.bufsizFix(frameBytes: byteCount, board: board))
        }
    }

    /// Sends one frame: one `SPI_IOC_MESSAGE(1)` when whole, chunks of at most `largestTransfer`
    /// bytes when splittable.
    public func send(_ bytes: UnsafeRawBufferPointer, framing: Framing) throws(HardwareError) {
        guard let fd else { throw closedTransportError("SPI transport for \(device)") }
        guard bytes.count > 0 else { return }
        try checkFits(byteCount: bytes.count, framing: framing)
        // Chunks of `largestTransfer`: whole steps of the alignment spidev counts in, so each fits.
        var offset = 0
        while offset < bytes.count {
            let length = min(largestTransfer, bytes.count - offset)
            let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
            let sent: UInt32
            do {
                sent = try system.spiIoctl(
                    fd, .message(length: length, speedHz: acceptedSpeedHz, bitsPerWord: bitsPerWord), tx: chunk)
            } catch {
                throw HardwareError.spidev(error, device: device, operation: "sending \(length) bytes to")
            }
            guard sent == UInt32(length) else {
                throw HardwareError(
                    kind: .shortWrite,
                    message: "\(device) took \(sent) of \(length) bytes of a frame",
                    fix: "check `dmesg | tail` for SPI controller errors")
            }
            offset += length
        }
    }

    /// Closes the device; later sends throw `.closed`.
    public func close() throws(HardwareError) {
        try closeOnce(&fd, system: system) { .spidev($0, device: device, operation: "closing") }
    }
}
