/// The seam between ledring and the kernel: one thin method per syscall the transports use.
///
/// Each method makes exactly one attempt and reports failure as a typed `Errno`; retrying
/// `EINTR` is done once, in `RetryingSystemCalls`, so fakes can script an interrupted call.
public protocol SystemCalls: Sendable {
    /// `open(2)`; returns the file descriptor.
    func open(_ path: String, flags: Int32, mode: UInt32) throws(Errno) -> Int32
    /// `close(2)`.
    func close(_ fd: Int32) throws(Errno)
    /// `write(2)`; returns how many bytes the kernel took (may be fewer than asked).
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int
    /// `pwrite(2)`: writes at `offset` without using or moving the file position.
    func pwrite(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, offset: Int64) throws(Errno) -> Int
    /// `ioctl(fd, GPIO_GET_CHIPINFO_IOCTL)` on a GPIO character device: its name, label and
    /// line count (what libgpiod and `gpiodetect` read).
    func gpioChipInfo(_ fd: Int32) throws(Errno) -> GPIOChipIdentity
    /// `ioctl(2)` for one spidev request; `tx` is the buffer for `.message`.
    /// Returns the value read for `.read*` requests, the byte count for `.message`, else 0.
    func spiIoctl(_ fd: Int32, _ request: SPIRequest, tx: UnsafeRawBufferPointer?) throws(Errno) -> UInt32
    /// Reads a whole small file (sysfs, procfs, config.txt).
    func readFile(_ path: String) throws(Errno) -> [UInt8]
    /// `access(2)` with `R_OK`/`W_OK`/`F_OK` bits.
    func access(_ path: String, _ mode: Int32) throws(Errno)
    /// `stat(2)`, reduced to what the doctor needs.
    func stat(_ path: String) throws(Errno) -> FileStatus
    /// The entry names of a directory, without "." and "..", sorted.
    func listDirectory(_ path: String) throws(Errno) -> [String]
    /// `fsync(2)`: the file's data (or a directory's entries) on disk.
    func fsync(_ fd: Int32) throws(Errno)
    /// `rename(2)`: atomically replaces `to` with `from`.
    func rename(_ from: String, _ to: String) throws(Errno)
    /// `unlink(2)`: removes a name (a symbolic link itself, never its target).
    func unlink(_ path: String) throws(Errno)
}
