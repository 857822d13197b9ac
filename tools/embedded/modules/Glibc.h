// The C library headers the shared sources use, for the Embedded build's stand-in Glibc module.
#ifndef LEDRING_EMBEDDED_GLIBC_H
#define LEDRING_EMBEDDED_GLIBC_H
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sys/wait.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/utsname.h>

/// unistd.h declares environ only under _GNU_SOURCE (as the Glibc overlay is built).
extern char **environ;

/// errno is a macro over a thread-local location, which Swift cannot import; the overlay's
/// `errno` variable is rebuilt over these two in LEDSystem.
static inline int ledring_errno_get(void) { return errno; }
static inline void ledring_errno_set(int value) { errno = value; }
/// SIG_IGN is a cast of 1 to a function pointer, which Swift cannot import either.
static inline __sighandler_t ledring_sig_ign(void) { return SIG_IGN; }
#endif
