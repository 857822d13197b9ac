// libmicrohttpd's C API for Swift, loaded at run time. Package.swift adds this target only when it
// found microhttpd.h (and then defines LEDRING_HTTP for LEDRingNet); only LEDRingNet/HTTP imports it.
//
// ledring does not link libmicrohttpd (linking it and the TLS libraries it pulls in costs every
// `ledring run` memory whether or not HTTP is configured): loader.c defines the functions ledring
// calls under their own names and forwards them once `ledring_mhd_load` has opened the library.
// MHD_start_daemon and MHD_get_daemon_info are C variadic functions, which Swift cannot call, so
// the helpers below fix the options ledring uses and call them from C.
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Opens libmicrohttpd (once; later calls return the first answer). Returns 0, or -1 with what
/// went wrong (dlerror's text, or the missing symbol) in `error`.
int ledring_mhd_load(char *error, size_t size);

/// Starts a daemon bound to `address` (a sockaddr_in or sockaddr_in6) with a thread per
/// connection: server-sent event streams then wait in their own thread without holding up others.
/// `timeout_seconds` closes a connection silent that long; strict mode refuses an HTTP/1.1
/// request without Host; `notify` sees every connection open and close. NULL if it cannot start
/// (or the library is not loaded).
struct MHD_Daemon *ledring_mhd_start(unsigned int flags, const struct sockaddr *address,
                                     MHD_AccessHandlerCallback handler, void *handler_context,
                                     MHD_RequestCompletedCallback completed, void *completed_context,
                                     MHD_NotifyConnectionCallback notify, void *notify_context,
                                     unsigned int connection_limit, unsigned int timeout_seconds,
                                     size_t memory_limit);

/// The socket of `connection`, or -1.
int ledring_mhd_connection_fd(struct MHD_Connection *connection);

/// Sets `connection`'s inactivity timeout (0: none), seconds.
void ledring_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds);

/// The port the daemon listens on (the one the kernel chose when asked for port 0), or 0.
uint16_t ledring_mhd_bound_port(struct MHD_Daemon *daemon);
