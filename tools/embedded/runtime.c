// The small C runtime the Embedded Swift build of ledring links in (tools/embedded-build.sh).
#include <stdlib.h>
#include "modules/LEDRingEmbedded.h"

// Embedded Swift has no CommandLine. glibc calls .init_array functions with (argc, argv, envp),
// in static executables too (csu/libc-start.c, call_init), so the arguments are captured here
// before Swift's top-level code runs.
static int saved_argc;
static char **saved_argv;

static void capture_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
}
__attribute__((section(".init_array"), used)) static void (*capture_arguments_entry)(int, char **, char **) = capture_arguments;

int ledring_argc(void) { return saved_argc; }
char **ledring_argv(void) { return saved_argv; }

// Embedded Swift's Double(String) / Float(String) call this; the full runtime implements it over
// strtod in the C locale. ledring never changes the locale, so the C library's strtod is that.
// Returns the end of what was parsed (the caller checks that the whole text was a number).
const char *_swift_stdlib_strtod_clocale(const char *nptr, double *outResult) {
    char *end = NULL;
    *outResult = strtod(nptr, &end);
    return end;
}

const char *_swift_stdlib_strtof_clocale(const char *nptr, float *outResult) {
    char *end = NULL;
    *outResult = strtof(nptr, &end);
    return end;
}
