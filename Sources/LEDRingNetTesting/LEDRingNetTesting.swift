/// The harness the network and end-to-end tests share: a loopback HTTP client, a Mosquitto broker
/// on a free loopback port, headless Chromium, a throwaway certificate authority. Not a product.
public enum LEDRingNetTesting {}
