import LEDRingApp
import Glibc

#if hasFeature(Embedded)
// Embedded Swift has no `CommandLine`: the static Pi binaries' small C runtime
// (tools/embedded/runtime.c, linked by tools/embedded-build.sh) keeps the arguments for it.
import LEDRingEmbedded

let arguments = (1..<Int(ledring_argc())).compactMap { index in ledring_argv()?[index].map { String(cString: $0) } }
exit(LEDRingApp.main(arguments))
#else
exit(LEDRingApp.main(Array(CommandLine.arguments.dropFirst())))
#endif
