/// Pure test helpers (golden files, a seeded random generator) for tests that link nothing else,
/// such as the maths of RingRender and LEDWire.
public enum LEDRingTestSupport {}
