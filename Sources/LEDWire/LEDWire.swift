/// Pure wire encoders: colours in, the exact bytes a chip expects out. No I/O lives here.
public enum LEDWire {}
