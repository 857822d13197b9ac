// Forwarders for the libmicrohttpd functions ledring calls, filled by ledring_mhd_load. Each has
// the header's own prototype, so a signature that drifts from the installed microhttpd.h is a
// compile error. Before a successful load every call fails the way the library fails a bad
// argument (MHD_NO / NULL), never through a null pointer.
#include "CMicroHTTPD.h"
#include "CLibraryLoader.h"

#define SLOT(name) static __typeof__(&name) p_##name
SLOT(MHD_add_response_header); SLOT(MHD_create_response_from_buffer); SLOT(MHD_create_response_from_callback);
SLOT(MHD_destroy_response); SLOT(MHD_get_connection_info); SLOT(MHD_get_connection_values);
SLOT(MHD_get_daemon_info); SLOT(MHD_lookup_connection_value); SLOT(MHD_queue_response);
SLOT(MHD_set_connection_option); SLOT(MHD_start_daemon); SLOT(MHD_stop_daemon);

static const char *bind_all(void *library) {
    LEDRING_BIND(library, MHD_add_response_header); LEDRING_BIND(library, MHD_create_response_from_buffer);
    LEDRING_BIND(library, MHD_create_response_from_callback); LEDRING_BIND(library, MHD_destroy_response);
    LEDRING_BIND(library, MHD_get_connection_info); LEDRING_BIND(library, MHD_get_connection_values);
    LEDRING_BIND(library, MHD_get_daemon_info); LEDRING_BIND(library, MHD_lookup_connection_value);
    LEDRING_BIND(library, MHD_queue_response); LEDRING_BIND(library, MHD_set_connection_option);
    LEDRING_BIND(library, MHD_start_daemon); LEDRING_BIND(library, MHD_stop_daemon);
    return NULL;
}

// The soname Debian's libmicrohttpd12 ships (/usr/lib/<triplet>/libmicrohttpd.so.12); the
// unversioned name is the -dev package's symlink, for a library built from source.
static const char *const sonames[] = { "libmicrohttpd.so.12", "libmicrohttpd.so" };
static struct ledring_library library = LEDRING_LIBRARY(sonames, bind_all);

int ledring_mhd_load(char *error, size_t size) { return ledring_library_load(&library, error, size); }

// The forwarders. `fail` is what a call returns before the library is loaded.
#define FORWARD(type, name, params, args, fail) \
    type name params { return p_##name ? p_##name args : (fail); }

FORWARD(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *r, const char *header, const char *content),
        (r, header, content), MHD_NO)
FORWARD(struct MHD_Response *, MHD_create_response_from_buffer, (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode),
        (size, buffer, mode), NULL)
FORWARD(struct MHD_Response *, MHD_create_response_from_callback,
        (uint64_t size, size_t block_size, MHD_ContentReaderCallback crc, void *crc_cls, MHD_ContentReaderFreeCallback crfc),
        (size, block_size, crc, crc_cls, crfc), NULL)
FORWARD(int, MHD_get_connection_values,
        (struct MHD_Connection *c, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *iterator_cls),
        (c, kind, iterator, iterator_cls), -1)
FORWARD(const char *, MHD_lookup_connection_value, (struct MHD_Connection *c, enum MHD_ValueKind kind, const char *key),
        (c, kind, key), NULL)
FORWARD(enum MHD_Result, MHD_queue_response, (struct MHD_Connection *c, unsigned int status_code, struct MHD_Response *r),
        (c, status_code, r), MHD_NO)

void MHD_destroy_response(struct MHD_Response *r) { if (p_MHD_destroy_response) p_MHD_destroy_response(r); }
void MHD_stop_daemon(struct MHD_Daemon *d) { if (p_MHD_stop_daemon) p_MHD_stop_daemon(d); }

struct MHD_Daemon *ledring_mhd_start(unsigned int flags, const struct sockaddr *address,
                                     MHD_AccessHandlerCallback handler, void *handler_context,
                                     MHD_RequestCompletedCallback completed, void *completed_context,
                                     MHD_NotifyConnectionCallback notify, void *notify_context,
                                     unsigned int connection_limit, unsigned int timeout_seconds,
                                     size_t memory_limit) {
    if (p_MHD_start_daemon == NULL) return NULL;
    return p_MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                              MHD_OPTION_SOCK_ADDR, address,
                              MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                              MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                              MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                              MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                              MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                              MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
                              MHD_OPTION_END);
}

int ledring_mhd_connection_fd(struct MHD_Connection *connection) {
    if (p_MHD_get_connection_info == NULL) return -1;
    const union MHD_ConnectionInfo *info = p_MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

void ledring_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    if (p_MHD_set_connection_option != NULL) p_MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

uint16_t ledring_mhd_bound_port(struct MHD_Daemon *daemon) {
    if (p_MHD_get_daemon_info == NULL) return 0;
    const union MHD_DaemonInfo *info = p_MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
