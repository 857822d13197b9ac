import Glibc

/// Writes frames to the Raspberry Pi 5 PIO driver's `/dev/ledsN` (`dtoverlay=ws2812-pio`).
///
/// The driver takes one whole frame per `write()` (4 bytes per LED) and times the bits in the
/// PIO block, so there is no SPI clock or bufsiz to worry about; a short write is an error
/// because the rest of the frame would arrive as the start of the next one.
public final class LedsPIOTransport: Transport {
    /// The device node, e.g. `/dev/leds0`.
    public let device: String
    /// Bytes per LED the driver expects.
    public static let bytesPerLED = 4

    private let system: RetryingSystemCalls
    private var fd: Int32?

    /// Opens `device` for writing.
    public init(device: String = "/dev/leds0", system: any SystemCalls = LinuxSystemCalls()) throws(HardwareError) {
        let system = RetryingSystemCalls(system)
        self.system = system
        self.device = device
        do {
            fd = try system.open(device, flags: O_WRONLY | O_CLOEXEC, mode: 0)
        } catch {
            throw HardwareError.ledsPIO(error, device: device, operation: "opening")
        }
    }

    deinit {
        if let fd { try? system.close(fd) }
    }

    /// Writes the whole frame in one `write()`; `framing` is irrelevant because the driver
    /// never splits what it is given.
    public func send(_ bytes: UnsafeRawBufferPointer, framing: Framing) throws(HardwareError) {
        guard let fd else { throw closedTransportError("PIO transport for \(device)") }
        guard bytes.count > 0 else { return }
        guard bytes.count % Self.bytesPerLED == 0 else {
            throw HardwareError(
                kind: .invalidConfiguration,
                message: "a \(device) frame must be 4 bytes per LED but this one is \(bytes.count) bytes",
                fix: "use the Pi 5 PIO encoder (4 bytes per LED) for \(device)")
        }
        let written: Int
        do {
            written = try system.write(fd, bytes)
        } catch {
            throw HardwareError.ledsPIO(error, device: device, operation: "writing \(bytes.count) bytes to")
        }
        guard written == bytes.count else {
            throw HardwareError(
                kind: .shortWrite,
                message: "\(device) took \(written) of \(bytes.count) bytes of a frame",
                fix: "check that num_leds in the ws2812-pio overlay covers the whole chain (\(bytes.count / Self.bytesPerLED) LEDs)")
        }
    }

    /// Closes the device; later sends throw `.closed`.
    public func close() throws(HardwareError) {
        try closeOnce(&fd, system: system) { .ledsPIO($0, device: device, operation: "closing") }
    }
}
