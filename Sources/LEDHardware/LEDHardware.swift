import LEDWire

/// Transports, board files and the doctor: the only code that touches the kernel.
public enum LEDHardware {}
