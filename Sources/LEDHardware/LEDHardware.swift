import LEDWire

/// Transports and drivers: the only code that touches the kernel.
public enum LEDHardware {}
