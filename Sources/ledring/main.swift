import LEDRingApp
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(LEDRingApp.main(Array(CommandLine.arguments.dropFirst())))
