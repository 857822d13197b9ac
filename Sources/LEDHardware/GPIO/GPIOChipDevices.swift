/// The GPIO character devices in `/dev`, in kernel order; shared by both libgpiod versions.
enum GPIOChipDevices {
    /// Paths of `gpiochipN` nodes under `directory`, sorted by N (so `gpiochip10` follows `gpiochip9`).
    static func paths(in directory: String, system: any SystemCalls) throws(HardwareError) -> [String] {
        let names: [String]
        do {
            names = try RetryingSystemCalls(system).listDirectory(directory)
        } catch {
            throw HardwareError.io(error, path: directory, operation: "listing GPIO chips in")
        }
        let chips = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("gpiochip"), let number = Int(name.dropFirst("gpiochip".count)) else { return nil }
            return (number, name)
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return chips.sorted { $0.0 < $1.0 }.map { prefix + $0.1 }
    }
}
