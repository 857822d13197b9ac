import LEDHardware

/// Kernel fakes for tests, also usable in yours: `FakeSystemCalls` (every call recorded, any call
/// failed with any errno), a fake GPIO chip, a fake Pi 5 `/dev/ledsN`, a recording transport.
public enum LEDRingTesting {}
