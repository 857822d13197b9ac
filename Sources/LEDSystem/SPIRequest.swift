/// One spidev ioctl, as a value, so the fake seam can record and script the exact sequence.
public enum SPIRequest: Hashable, Sendable {
    /// `SPI_IOC_WR_MODE`.
    case writeMode(UInt8)
    /// `SPI_IOC_RD_MODE`.
    case readMode
    /// `SPI_IOC_WR_BITS_PER_WORD`.
    case writeBitsPerWord(UInt8)
    /// `SPI_IOC_RD_BITS_PER_WORD`.
    case readBitsPerWord
    /// `SPI_IOC_WR_MAX_SPEED_HZ`.
    case writeMaxSpeedHz(UInt32)
    /// `SPI_IOC_RD_MAX_SPEED_HZ`.
    case readMaxSpeedHz
    /// `SPI_IOC_MESSAGE(1)`: one transmit-only transfer of `length` bytes.
    case message(length: Int, speedHz: UInt32, bitsPerWord: UInt8)
}
