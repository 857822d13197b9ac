// ledring-bench: what a frame costs against the wire it goes out on.
//
// `swift run -c release ledring-bench [--json] [--quick]`
import Glibc
import LEDHardware
import LEDWire

/// One line to standard error (the C `stderr` global is not concurrency-safe in Swift 6).
func complain(_ line: String) {
    let text = "ledring-bench: " + line + "\n"
    _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let json = arguments.contains("--json")
let quick = arguments.contains("--quick")
// --profile: a fixed amount of whole-path work at 112 LEDs and no timing, for
// `valgrind --tool=callgrind`, which counts instructions repeatably on a noisy machine.
let profile = arguments.contains("--profile")
// --ledring PATH: the binary whose daemon is measured (default: the ledring built next to this
// benchmark), e.g. a `--static-swift-stdlib` build as deployed on a Pi.
var ledringPath: String?
var rest = arguments[...]
while let argument = rest.popFirst() {
    switch argument {
    case "--json", "--quick", "--profile": continue
    case "--ledring":
        guard let path = rest.popFirst() else {
            complain("--ledring needs the path of a ledring binary")
            exit(64)
        }
        ledringPath = path
    default:
        complain("unknown option \"\(argument)\"; usage: ledring-bench [--json] [--quick] [--profile] [--ledring PATH]")
        exit(64)
    }
}
if profile {
    do {
        try Benchmark.profileWholePath(leds: 112, frames: 2000)
    } catch {
        complain("\(error)")
        exit(70)
    }
    exit(0)
}

let benchmark = Benchmark(repetitions: quick ? 2 : 5, secondsPerRepetition: quick ? 0.02 : 0.1)
var results: [Measurement] = []
do {
    for leds in [12, 24, 60, 112, 300, 1000] {
        results += try benchmark.frameCosts(leds: leds)
    }
} catch {
    complain("\(error)")
    exit(70)
}
if json {
    for result in results { print(result.json) }
} else {
    print(Measurement.tableHeader)
    for result in results { print(result.tableRow) }
}
// The daemon's own cost: idle and animating, from the process's accounting.
do {
    let lines = try DaemonCost(seconds: quick ? 1 : 10, binary: ledringPath).measure()
    if json {
        for line in lines { print(line) }
    } else {
        print("")
        for line in lines { print(line) }
    }
} catch {
    complain("daemon: \(error)")
    exit(69)
}
