import RingRender

/// The command-line program: parses arguments and runs the chosen command.
public enum LEDRingApp {
    /// Runs ledring with `arguments` (without the program name) and returns its exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        0
    }
}
