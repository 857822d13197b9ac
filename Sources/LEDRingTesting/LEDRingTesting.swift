import LEDHardware

/// Mocks and golden-frame helpers shared by the tests and by users' own tests.
public enum LEDRingTesting {}
