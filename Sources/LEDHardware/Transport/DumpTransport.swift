import Glibc

/// Appends each frame's exact transfer bytes to a file (`--dump-wire FILE`), one frame after
/// another, so a frame can be inspected or replayed without hardware.
public final class DumpTransport: Transport {
    /// The file frames are appended to.
    public let path: String

    private let system: RetryingSystemCalls
    private var fd: Int32?

    /// Opens (creating if needed) `path` for appending.
    public init(path: String, system: any SystemCalls = LinuxSystemCalls()) throws(HardwareError) {
        let system = RetryingSystemCalls(system)
        self.system = system
        self.path = path
        do {
            fd = try system.open(path, flags: O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode: 0o644)
        } catch {
            throw HardwareError.dumpFile(error, path: path, operation: "opening")
        }
    }

    deinit {
        if let fd { try? system.close(fd) }
    }

    /// Appends the frame; a regular file may take it in pieces, so the rest is written until
    /// done (unlike a device, where a short write is an error).
    public func send(_ bytes: UnsafeRawBufferPointer, framing: Framing) throws(HardwareError) {
        guard let fd else { throw closedTransportError("dump file \(path)") }
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            let written: Int
            do {
                written = try system.write(fd, rest)
            } catch {
                throw HardwareError.dumpFile(error, path: path, operation: "appending \(rest.count) bytes to")
            }
            guard written > 0 else {
                throw HardwareError(
                    kind: .shortWrite, message: "dump file \(path) took 0 of \(rest.count) bytes",
                    fix: "check free space on the file system holding \(path)")
            }
            offset += written
        }
    }

    /// Closes the file; later sends throw `.closed`.
    public func close() throws(HardwareError) {
        try closeOnce(&fd, system: system) { .dumpFile($0, path: path, operation: "closing") }
    }
}
