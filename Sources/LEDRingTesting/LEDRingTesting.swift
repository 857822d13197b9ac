import LEDHardware

/// Mocks and golden-frame helpers shared by the tests and by users' own tests, and (in `Net/`) the
/// loopback HTTP client, Mosquitto broker and headless Chromium the network and end-to-end tests share.
public enum LEDRingTesting {}
