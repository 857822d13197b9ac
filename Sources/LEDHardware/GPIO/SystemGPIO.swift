/// The GPIO provider this build has: libgpiod 1.x or 2.x, whichever header Package.swift found,
/// or one that explains how to get libgpiod.
public enum SystemGPIO {
    /// Which libgpiod C API this ledring was compiled against: "1.x", "2.x", or nil without libgpiod.
    public static var compiledAPI: String? {
        #if GPIOD_V1
        return "1.x"
        #elseif GPIOD_V2
        return "2.x"
        #else
        return nil
        #endif
    }

    /// The real line provider for the chips in `deviceDirectory`.
    public static func lines(deviceDirectory: String = "/dev") -> any GPIOLines {
        #if GPIOD_V1
        return LibgpiodV1Lines(deviceDirectory: deviceDirectory)
        #elseif GPIOD_V2
        return LibgpiodV2Lines(deviceDirectory: deviceDirectory)
        #else
        return MissingLibgpiodLines(deviceDirectory: deviceDirectory)
        #endif
    }
}
