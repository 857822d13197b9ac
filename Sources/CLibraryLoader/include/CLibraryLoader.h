// Opening an optional C library at run time (CMosquitto; a second library would share it): the first of
// its sonames that dlopen finds, its functions looked up once (thread-safe), and one error text
// naming what is missing. Each library's loader.c keeps its own forwarders, whose prototypes
// come from the library's own header.
#ifndef LEDRING_LIBRARY_LOADER_H
#define LEDRING_LIBRARY_LOADER_H
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

/// Looks up every function the forwarders need in `library` (a dlopen handle); NULL when all
/// were found, else the name of the first that is missing.
typedef const char *(*ledring_library_bind)(void *library);

/// One optional library: where to look, how to bind it, and (filled in by the first load) the
/// outcome every later load repeats.
struct ledring_library {
    const char *const *sonames;
    size_t soname_count;
    ledring_library_bind bind;
    pthread_mutex_t lock;
    int state;          // 0: not tried; 1: loaded; -1: failed, `error` says why
    char error[256];
};

/// A library with these sonames (tried in order) and binder, not yet loaded.
#define LEDRING_LIBRARY(names, binder) \
    { (names), sizeof(names) / sizeof(*(names)), (binder), PTHREAD_MUTEX_INITIALIZER, 0, { 0 } }

/// Opens `library` (once; later calls return the first answer). Returns 0, or -1 with what went
/// wrong (dlerror's text, or "<soname> has no <function> (too old?)") in `error`.
int ledring_library_load(struct ledring_library *library, char *error, size_t size);

/// In a binder: stores the address of `name` in `p_<name>`, or returns `name` as missing.
#define LEDRING_BIND(library, name) \
    if ((p_##name = (__typeof__(&name))dlsym((library), #name)) == NULL) return #name
#endif
