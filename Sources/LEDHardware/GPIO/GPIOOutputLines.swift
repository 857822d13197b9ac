/// Output lines requested together, whose values change together in one kernel call.
public protocol GPIOOutputLines: AnyObject {
    /// The requested lines, in request order.
    var lines: [GPIOResolvedLine] { get }
    /// Sets every line at once: bit i of `values` is line i's level (a bulk update, one ioctl).
    func setValues(_ values: UInt64) throws(HardwareError)
    /// Gives the lines back to the kernel; safe to call twice.
    func release()
}

extension GPIOOutputLines {
    /// Sets every line from a list of levels in request order.
    public func setValues(_ levels: [Bool]) throws(HardwareError) {
        try setValues(GPIOValueMask.make(levels))
    }
}
