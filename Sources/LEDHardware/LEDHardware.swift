// The syscall seam is its own target (LEDSystem) so the daemon and the network front ends use it
// too; code that imports LEDHardware sees it as before.
@_exported import LEDSystem
import LEDWire

/// Transports, board files and the doctor: the hardware, reached only through the syscall seam.
public enum LEDHardware {}
