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

#if defined(__LP64__)
#include <stdint.h>
// Swift 6.3.1's Embedded runtime returns the wrong value from swift_bridgeObjectRetain(_n): its
// EmbeddedRuntime.swift does `return swift_retain_n(object: untaggedObject, n: n)`, the object
// with the bridge object's tag bits masked off (`& 0x8ffffffffffffff8`, in the disassembly of
// both the x86-64 and the aarch64 binary), while IRGen emits the call as
// `swift_bridgeObjectRetain(ptr returned %b)` and may use the result in place of the argument.
// A small String's discriminator then loses bits 61-62 (isSmall, isASCII) and reading it
// crashes: on aarch64 `ledring look move passed` killed the daemon in Controller.look(of:)
// (tools/embedded-qemu-check.sh caught it). Later Swift retains the untagged object and returns
// the argument (`_ = swift_retain_n(...); return object`). The runtime's versions are weak
// symbols; these strong ones do the same retain and return the argument unchanged.
#define LEDRING_BRIDGE_OBJECT_PLAIN_MASK 0x8ffffffffffffff8ull  // HeapObject.bridgeObjectToPlainObjectMask
#define LEDRING_REFCOUNT_MASK 0x7fffffffffffffffull             // HeapObject.refcountMask; all set: immortal

void *swift_bridgeObjectRetain_n(void *object, uint32_t n) {
    uintptr_t plain = (uintptr_t)object & LEDRING_BRIDGE_OBJECT_PLAIN_MASK;
    // Nil, or a tagged value that is not a heap object (a small string): nothing to count.
    if (plain == 0 || (intptr_t)plain < 0) return object;
    uint64_t *refcount = (uint64_t *)(plain + sizeof(void *));  // after the metadata pointer
    if ((__atomic_load_n(refcount, __ATOMIC_RELAXED) & LEDRING_REFCOUNT_MASK) == LEDRING_REFCOUNT_MASK) return object;
    __atomic_fetch_add(refcount, (uint64_t)n, __ATOMIC_RELAXED);
    return object;
}

void *swift_bridgeObjectRetain(void *object) { return swift_bridgeObjectRetain_n(object, 1); }
#endif
