import Glibc

/// Writes frames to the Raspberry Pi 5 PIO driver's `/dev/ledsN` (`dtoverlay=ws2812-pio`).
///
/// raspberrypi/linux `drivers/misc/ws2812-pio-rp1.c` `ws2812_pio_rp1_write` copies a write to
/// `pixbuf + *ppos` and moves the position (the driver has no `llseek`), so a second `write()`
/// of a whole frame on the same descriptor gets `ENOSPC` and the strip keeps the first frame.
/// Every frame therefore goes out with `pwrite(fd, frame, n, 0)`. A frame shorter than the
/// overlay's `num_leds` is padded with dark LEDs: the driver shows a short write only 50 ms later
/// (`delay = write_end == pixbuf_size ? 0 : HZ / 20`), a whole one at once.
public final class LedsPIOTransport: Transport {
    /// The device node, e.g. `/dev/leds0`.
    public let device: String
    /// Bytes per LED the driver expects (`PIXEL_BYTES 4`).
    public static let bytesPerLED = 4
    /// The overlay's settings for this device, when the device tree has them.
    public let overlay: LedsPIOOverlay?

    private let system: RetryingSystemCalls
    private var fd: Int32?
    private var padded: [UInt8] = []

    /// Opens `device` for writing; `overlay` (from `LedsPIOOverlay.find`) gives the frame length.
    ///
    /// `O_TRUNC` empties a plain file given as `--device`, so it ends up holding the last frame
    /// as the kernel's buffer does; Linux ignores it on a character device (fs/namei.c `may_open`).
    public init(device: String = "/dev/leds0", overlay: LedsPIOOverlay? = nil,
                system: any SystemCalls = LinuxSystemCalls()) throws(HardwareError) {
        let system = RetryingSystemCalls(system)
        self.system = system
        self.device = device
        self.overlay = overlay
        do {
            fd = try system.open(device, flags: O_WRONLY | O_CLOEXEC | O_TRUNC, mode: 0)
        } catch {
            throw HardwareError.ledsPIO(error, device: device, operation: "opening")
        }
    }

    deinit {
        if let fd { try? system.close(fd) }
    }

    /// Refuses a chain longer than the overlay's `num_leds` before the first frame: the driver
    /// would show only its first `num_leds` LEDs and fail every write with `EFBIG`.
    public func checkFits(ledCount: Int) throws(HardwareError) {
        guard let overlay, ledCount > overlay.numLEDs else { return }
        throw HardwareError(
            kind: .frameTooLarge,
            message: "the rings have \(ledCount) LEDs but the ws2812-pio overlay behind \(device) "
                + "(\(overlay.node)) has num_leds=\(overlay.numLEDs)",
            fix: HardwareError.numLEDsFix(ledCount))
    }

    /// Writes the whole frame at offset 0 in one `pwrite()`; `framing` is irrelevant because the
    /// driver never splits what it is given.
    public func send(_ bytes: UnsafeRawBufferPointer, framing: Framing) throws(HardwareError) {
        guard let fd else { throw closedTransportError("PIO transport for \(device)") }
        guard bytes.count > 0 else { return }
        guard bytes.count % Self.bytesPerLED == 0 else {
            throw HardwareError(
                kind: .invalidConfiguration,
                message: "a \(device) frame must be 4 bytes per LED but this one is \(bytes.count) bytes",
                fix: "use the Pi 5 PIO encoder (4 bytes per LED) for \(device)")
        }
        // A single byte at offset 0 would set the brightness instead (`if (!pos && count == 1)`);
        // frames are multiples of 4 bytes, so that cannot happen here.
        let written: Int
        let total: Int
        do throws(Errno) {
            if let overlay, bytes.count < overlay.frameBytes {
                if padded.count != overlay.frameBytes { padded = [UInt8](repeating: 0, count: overlay.frameBytes) }
                for index in padded.indices { padded[index] = index < bytes.count ? bytes[index] : 0 }
                total = padded.count
                var result: Result<Int, Errno> = .success(0)
                padded.withUnsafeBytes { raw in
                    do throws(Errno) { result = .success(try system.pwrite(fd, raw, offset: 0)) } catch { result = .failure(error) }
                }
                written = try result.get()
            } else {
                total = bytes.count
                written = try system.pwrite(fd, bytes, offset: 0)
            }
        } catch {
            throw HardwareError.ledsPIO(error, device: device, operation: "writing \(bytes.count) bytes to",
                                        frameLEDs: bytes.count / Self.bytesPerLED)
        }
        guard written == total else {
            throw HardwareError(
                kind: .shortWrite,
                message: "\(device) took \(written) of \(total) bytes of a frame",
                fix: HardwareError.numLEDsFix(total / Self.bytesPerLED))
        }
    }

    /// Closes the device; later sends throw `.closed`.
    public func close() throws(HardwareError) {
        try closeOnce(&fd, system: system) { .ledsPIO($0, device: device, operation: "closing") }
    }
}
