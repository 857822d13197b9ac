/// Why the loopback client failed.
struct LoopbackError: Error, CustomStringConvertible {
    var description: String
}
