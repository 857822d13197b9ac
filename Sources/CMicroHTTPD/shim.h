// libmicrohttpd's C API for Swift. Package.swift adds this module only when it found microhttpd.h
// (and then defines LEDRING_HTTP for LEDRingNet); only LEDRingNet/HTTP/*.swift imports it.
//
// MHD_start_daemon and MHD_get_daemon_info are C variadic functions, which Swift cannot call, so
// these two helpers fix the options ledring uses and call them from C.
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Starts a daemon bound to `address` (a sockaddr_in or sockaddr_in6) with a thread per
/// connection: server-sent event streams then wait in their own thread without holding up others.
/// `timeout_seconds` closes a connection silent that long; strict mode refuses an HTTP/1.1
/// request without Host; `notify` sees every connection open and close.
static inline struct MHD_Daemon *ledring_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                   MHD_AccessHandlerCallback handler, void *handler_context,
                                                   MHD_RequestCompletedCallback completed, void *completed_context,
                                                   MHD_NotifyConnectionCallback notify, void *notify_context,
                                                   unsigned int connection_limit, unsigned int timeout_seconds,
                                                   size_t memory_limit) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
                            MHD_OPTION_END);
}

/// The socket of `connection`, or -1.
static inline int ledring_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Sets `connection`'s inactivity timeout (0: none), seconds.
static inline void ledring_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/// The port the daemon listens on (the one the kernel chose when asked for port 0), or 0.
static inline uint16_t ledring_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
